// The view's one DOM helper: every view file builds its nodes with it.

/** A new `tag` element with a class (when given) and text (always text, never markup). */
export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
