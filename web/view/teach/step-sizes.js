// Off-screen steps skip style and layout (content-visibility: auto in
// pipeline.css), which keeps a re-render fast, and stand in at a placeholder
// height until they come near the viewport. A placeholder that is not the
// step's real height moves everything below it once the step is laid out: the
// page jumps under the reader (after a jump to a late step, or when a
// re-render replaces the steps above the one being read), and the scroll spy
// marks the wrong step. So each step's placeholder is its own real height.
// The browser remembers the height of a step it has shown (content-visibility:
// auto implies contain-intrinsic-size: auto); the others get theirs here:
// - a new section (every render makes new ones) starts at its step's height
//   in the last render, so an edit or a head tab moves nothing;
// - every section is measured: one at a time in idle time once the renders
//   pause (not between the keystrokes of a long input; at once after the
//   first render, which has no heights to stand in at), and all at once
//   before a jump, so no step above the one jumped to is a guess.
// - a step kept with the same elements (only its numbers and its heatmaps'
//   heights changed: a keystroke at 512 tokens) is not laid out again: its
//   height follows from its last one and its heatmaps'.

import { whenIdle } from '../common/slices.js';

/** How long the renders pause before the unmeasured steps are laid out. */
const QUIET_MS = 500;

/** Padding and border above and below the content (contain-intrinsic-size is the content box's). */
function verticalExtras(section) {
  const style = getComputedStyle(section);
  return ['paddingTop', 'paddingBottom', 'borderTopWidth', 'borderBottomWidth'].reduce(
    (sum, side) => sum + parseFloat(style[side]),
    0,
  );
}

/** Whether a step's content is still being built in slices (slices.js). */
const isBuilding = (section) => 'building' in section.dataset;

// Laying out a step of more elements than this (512 rows of statistics, 12 heads of small multiples)
// takes longer than a slice should: such a step is measured before a jump only, not in idle time
// (it stands in at its height when last measured; one never measured is measured in idle time too).
const LARGE_STEP = 2500;
const isLarge = (section) => section.getElementsByTagName('*').length > LARGE_STEP;

/**
 * What a step's height follows without laying it out: its number of elements
 * (but for those inside the links view's SVG, which is as high as it says),
 * and the heights its heatmap canvases are shown at (set by matrix.js, each
 * up to `cap`, its scroller's max-height) and its links view has. A
 * keystroke at 512 tokens keeps every heatmap's elements, adds a pixel row
 * to a dozen of them and a token to the links view.
 */
function outline(section, cap) {
  let drawings = 0;
  let drawn = 0;
  for (const canvas of section.querySelectorAll('.canvas-scroller > canvas')) {
    const shown = parseFloat(canvas.style.height);
    drawings += shown > cap ? cap : shown;
  }
  for (const svg of section.querySelectorAll('svg.links')) {
    drawings += parseFloat(svg.getAttribute('height'));
    drawn += svg.getElementsByTagName('*').length;
  }
  return { elements: section.getElementsByTagName('*').length - drawn, drawings };
}

export class StepSizes {
  /** Each step's content height in px, by section id, as last measured. */
  #heights = new Map();
  /** Each step's outline() when last measured, by section id. */
  #outlines = new Map();
  /** A heatmap scroller's max-height (pipeline.css), read once one is laid out. */
  #cap = undefined;
  /** The shown sections, in order. */
  #sections = [];
  /** Those not measured yet. */
  #pending = new Set();
  /** The pending measurements' turn: a later render or resize starts a new one. */
  #turn = 0;

  /** After a render: `sections` (new) take their steps' last heights and are measured once the page is idle. */
  update(sections) {
    for (const section of sections) {
      const height = this.#heights.get(section.id);
      // auto: the height it is shown at (also while #measure shows it) replaces this one.
      if (height !== undefined) section.style.containIntrinsicHeight = `auto ${height}px`;
    }
    this.#sections = sections;
    this.remeasure();
  }

  /** Measures every section again, once the page is idle (the width changed: text wraps anew). */
  remeasure() {
    this.#pending = new Set(this.#sections);
    const turn = ++this.#turn;
    const measureSome = (deadline) => {
      if (turn !== this.#turn) return;
      let waiting = false;
      for (const section of this.#pending) {
        if (isBuilding(section))
          waiting = true; // measured once built
        else if (this.#follow(section))
          continue; // its height follows from its last one
        else if (isLarge(section) && this.#heights.has(section.id))
          continue; // it has a height to stand in at
        else this.#measure(section);
        if (deadline.timeRemaining() <= 0) {
          waiting = true;
          break;
        }
      }
      if (waiting) whenIdle(measureSome);
    };
    setTimeout(() => whenIdle(measureSome), this.#heights.size ? QUIET_MS : 0);
  }

  /**
   * Measures the sections not measured yet, now (before a jump). One still
   * being built (slices.js) keeps its last height, which the browser shows
   * while it is off screen.
   */
  measureAll() {
    for (const section of this.#pending) if (!isBuilding(section)) this.#measure(section);
  }

  /**
   * A step with the elements it had when last measured (kept on the page and
   * updated in place) changed height only as its heatmaps did: it stands in
   * at its last height plus theirs, without being laid out. Returns whether so.
   */
  #follow(section) {
    const last = this.#outlines.get(section.id);
    if (!last || !section.isConnected || section.style.contentVisibility) return false;
    const now = outline(section, this.#cap);
    if (now.elements !== last.elements) return false;
    this.#pending.delete(section);
    if (now.drawings === last.drawings) return true;
    const height = this.#heights.get(section.id) + now.drawings - last.drawings;
    this.#heights.set(section.id, height);
    this.#outlines.set(section.id, now);
    // Without auto: the height the browser remembers from the step's last showing is the old one.
    section.style.containIntrinsicHeight = `${height}px`;
    return true;
  }

  // Keeps the section's height for the step's next section. Skipped content
  // has no size, so the section is shown, until a frame has passed (the
  // browser then remembers its height too; whether it is skipped cannot be
  // told right after a render). When its height changes above the viewport,
  // the step at the top of the viewport is held in place: Chromium's scroll
  // anchoring misses the first change after a quiet while.
  #measure(section) {
    this.#pending.delete(section);
    if (!section.isConnected) return;
    const held = this.#sections.find((s) => s.getBoundingClientRect().bottom > 0);
    const heldTop = held?.getBoundingClientRect().top;
    section.style.contentVisibility = 'visible';
    const height = section.getBoundingClientRect().height;
    if (height > 0) {
      // 0: not displayed (step by step)
      this.#heights.set(section.id, height - verticalExtras(section));
      const scroller = section.querySelector('.canvas-scroller');
      if (scroller) this.#cap ??= parseFloat(getComputedStyle(scroller).maxHeight) || Infinity;
      this.#outlines.set(section.id, outline(section, this.#cap ?? Infinity));
      // auto again: the browser remembers the height it shows the step at from now on.
      section.style.containIntrinsicHeight = `auto ${height - verticalExtras(section)}px`;
    }
    const moved = held ? held.getBoundingClientRect().top - heldTop : 0;
    if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        section.style.contentVisibility = '';
      }),
    );
  }
}
