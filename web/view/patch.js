// A re-render that only changes numbers (an edit, a keystroke that keeps the
// shapes, a head tab) keeps the matrices on the page: renderMatrix updates
// such a figure in place, and the new tree holds a stand-in where it goes.
// patchChildren then turns the old tree into the new one, keeping the
// elements on the way to each kept figure (the steps, their rows and groups)
// and replacing everything else with its new node, as a full render would.
// So a focused cell keeps its focus, an edit in progress its input, and the
// page its scroll position.

const KEPT = Symbol('kept');

/** A placeholder for `figure` (already on the page, updated in place) in a newly built tree. */
export function standIn(figure) {
  const placeholder = document.createComment('');
  placeholder[KEPT] = figure;
  return placeholder;
}

/** Makes `parent`'s children `next`, keeping the figures behind `standIns` (and their containers) in place. */
export function patchChildren(parent, next, standIns) {
  if (!standIns.length) {
    parent.replaceChildren(...next);
    return;
  }
  // The new elements that hold a stand-in: their old counterparts are kept and patched.
  const holders = new Set();
  for (const placeholder of standIns)
    for (let node = placeholder.parentNode; node && !holders.has(node); node = node.parentNode) holders.add(node);
  patch(parent, next, holders);
}

function patch(parent, next, holders) {
  let at = parent.firstChild;
  for (const wanted of next) {
    const kept = wanted[KEPT];
    // Its old node further on in `parent`: a kept figure, or the old element of a holder.
    let match = null;
    if (kept) match = kept.parentNode === parent ? kept : null;
    else if (holders.has(wanted))
      for (let node = at; node && !match; node = node.nextSibling) if (sameElement(node, wanted)) match = node;
    if (!match) {
      parent.insertBefore(kept ?? wanted, at);
      continue;
    }
    removeUntil(at, match); // the old nodes before it are gone in the new tree
    if (!kept) {
      copyAttributes(match, wanted);
      patch(match, Array.from(wanted.childNodes), holders);
    }
    at = match.nextSibling;
  }
  removeUntil(at, null);
}

/** Removes `node` and its next siblings up to `end` (excluded). */
function removeUntil(node, end) {
  while (node && node !== end) {
    const after = node.nextSibling;
    node.remove();
    node = after;
  }
}

/** Whether `old` can stand for `wanted`: an element of the same tag and id. */
const sameElement = (old, wanted) =>
  old?.nodeType === Node.ELEMENT_NODE && old.tagName === wanted.tagName && old.id === wanted.id;

/**
 * Gives `el` the attributes of `wanted` (and only those), but for its style:
 * a step's placeholder height (step-sizes.js) is the page's, not the render's.
 */
function copyAttributes(el, wanted) {
  for (const name of el.getAttributeNames())
    if (name !== 'style' && !wanted.hasAttribute(name)) el.removeAttribute(name);
  for (const name of wanted.getAttributeNames()) {
    const value = wanted.getAttribute(name);
    if (el.getAttribute(name) !== value) el.setAttribute(name, value);
  }
}
