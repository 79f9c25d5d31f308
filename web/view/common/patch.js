// A re-render that only changes numbers (an edit, a keystroke that keeps the
// shapes, a head tab) keeps what it can on the page: renderMatrix (and the
// heads' small heatmaps, the links view) update such a part in place, and the
// new tree holds a stand-in where it goes. patchChildren then turns the old
// tree into the new one, keeping the steps and the elements on the way to each
// kept part, and, in them, every old node that is equal to its new one (a
// step's header, its formula, a chart whose numbers did not change); the rest
// is replaced with its new node, as a full render would. So a focused cell
// keeps its focus, an edit in progress its input, the page its scroll position,
// and the browser restyles and lays out only what changed.

const KEPT = Symbol('kept');
const PATCHABLE = Symbol('patchable');
const LATER = Symbol('content later');

/**
 * Marks a container without listeners of its own (a box of charts) as one a
 * re-render patches like a step: its equal children are kept, the others replaced.
 */
export function patchable(element) {
  element[PATCHABLE] = true;
  return element;
}

/** A placeholder for `figure` (already on the page, updated in place) in a newly built tree. */
export function standIn(figure) {
  const placeholder = document.createComment('');
  placeholder[KEPT] = figure;
  return placeholder;
}

/**
 * Marks a new step (just its header) whose content a later slice builds
 * (slices.js): patched into its old step, it keeps the old content, which
 * patchContent brings up to date then.
 */
export function contentLater(step) {
  step[LATER] = true;
  return step;
}

/**
 * Makes the content of `step` (a step on the page: its header, then its content) `content`,
 * keeping the parts behind `standIns` in place, as patchChildren does.
 */
export function patchContent(step, content, standIns) {
  // The new elements that hold a stand-in: their old counterparts are kept and patched.
  const holders = new Set();
  for (const placeholder of standIns)
    for (let node = placeholder.parentNode; node; node = node.parentNode) holders.add(node);
  patch(step, [step.firstElementChild, ...content], holders);
}

/**
 * Makes `parent`'s children `next`, keeping the parts behind `standIns` (and
 * their containers) in place. With `reuse`, each of `next` (a step) is patched
 * into its old element of the same id, which keeps its equal nodes.
 */
export function patchChildren(parent, next, standIns, { reuse = standIns.length > 0 } = {}) {
  if (!reuse) {
    parent.replaceChildren(...next);
    return;
  }
  // The new elements that hold a stand-in (and the steps): their old counterparts are kept and patched.
  const holders = new Set(next);
  for (const placeholder of standIns)
    for (let node = placeholder.parentNode; node && !holders.has(node); node = node.parentNode) holders.add(node);
  patch(parent, next, holders);
}

function patch(parent, next, holders) {
  let at = parent.firstChild;
  for (const wanted of next) {
    const kept = wanted[KEPT];
    // Its old node further on in `parent`: a kept figure, the old element of a holder, or an equal node.
    let match = null;
    let equal = false;
    if (kept) match = kept.parentNode === parent ? kept : null;
    else if (holders.has(wanted) || wanted[PATCHABLE]) {
      for (let node = at; node && !match; node = node.nextSibling)
        if (sameElement(node, wanted) && (holders.has(wanted) || node[PATCHABLE])) match = node;
    } else if (at?.isEqualNode(wanted) && !holdsCanvas(wanted)) {
      match = at; // nothing changed here: the old node stays
      equal = true;
    }
    if (!match) {
      // A new element that holds stand-ins (a step the last render did not have, showing a figure another
      // step showed): its placeholders become the kept figures before it goes in.
      if (!kept && holders.has(wanted)) resolveStandIns(wanted);
      parent.insertBefore(kept ?? wanted, at);
      continue;
    }
    removeUntil(at, match); // the old nodes before it are gone in the new tree
    if (!kept && !equal) {
      copyAttributes(match, wanted);
      if (wanted[LATER]) replaceHeader(match, wanted);
      else patch(match, Array.from(wanted.childNodes), holders);
    }
    at = match.nextSibling;
  }
  removeUntil(at, null);
}

/** Puts the kept figure of every stand-in under `node` where its placeholder is. */
function resolveStandIns(node) {
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_COMMENT);
  const placeholders = [];
  while (walker.nextNode()) if (walker.currentNode[KEPT]) placeholders.push(walker.currentNode);
  for (const placeholder of placeholders) placeholder.replaceWith(placeholder[KEPT]);
}

/** A step whose content comes later (contentLater): its header only is brought up to date, the rest stays. */
function replaceHeader(step, wanted) {
  const header = wanted.firstElementChild;
  const old = step.firstElementChild;
  if (old?.tagName !== 'HEADER') step.prepend(header);
  else if (!old.isEqualNode(header)) old.replaceWith(header);
}

/**
 * Whether `node` is or holds a canvas: its pixels are not in the DOM, so an
 * equal node (isEqualNode compares attributes and children only) may show
 * other colours (another theme's): the new one, drawn, replaces it.
 */
const holdsCanvas = (node) =>
  node.nodeName === 'CANVAS' || (node.nodeType === Node.ELEMENT_NODE && node.querySelector('canvas') !== null);

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
