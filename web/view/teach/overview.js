// The overview at the top of the pipeline: every shown step as a numbered box
// with its tensor's shape, in order, each a link to its step; the step being
// read is marked (aria-current="step"). The boxes are derived from the
// rendered sections and their shapes from the step registry.
import { stepByKey } from '../steps/registry.js';
import { stepShapesOf } from '../steps/shapes.js';

/**
 * The shapes of step `key` with real sizes: [{letters: ['B','S','D'], sizes: [1, 8, 8]}],
 * one per distinct shape (Q and K/V differ only in cross-attention); [] for a step without one.
 * dims: {B, H, Hkv?, S, Skv, D, dk}.
 */
export function stepShapes(key, dims) {
  const step = stepByKey(key);
  const shapes = step?.shapes ? stepShapesOf(step, dims) : [];
  return shapes.filter((shape, k) => k === 0 || shapes[0].sizes.join() !== shape.sizes.join());
}

/** "[1, 2, 8, 8]", "[B, H, S, S_kv]" or "[B=1, H=2, S=8, S_kv=8]". */
export const shapeText = (shape, how = 'sizes') =>
  `[${shape.letters.map((l, k) => (how === 'letters' ? l : how === 'both' ? `${l}=${shape.sizes[k]}` : shape.sizes[k])).join(', ')}]`;

/** The i18n key of a section (its id without "step-"): "attnweights" for #step-attnweights. */
export const stepKey = (section) => section.id.replace(/^step-/, '');

/** The step's short name for a box: its own label if it has one, else its public name. */
export const shortName = (t, section) =>
  t.has(`step.${stepKey(section)}.short`) ? t(`step.${stepKey(section)}.short`) : section.dataset.step;

/** Sets an element's text only if it changed. */
const setText = (el, text) => {
  if (el.textContent !== text) el.textContent = text;
};

const span = (className, text) => {
  const el = document.createElement('span');
  el.className = className;
  el.textContent = text;
  return el;
};

/**
 * Fills `nav` with one box per section: number, short name, shape. Rebuilt
 * only when the steps change, so a focused box keeps its focus across runs.
 * ctx: {t, dims, headColor}. Clicking a box calls onPick(index).
 */
export function renderOverview(nav, sections, { t, dims, headColor }, onPick) {
  nav.setAttribute('aria-label', t('overview.label'));
  let list = nav.querySelector('ol');
  const ids = sections.map((s) => s.id).join(' ');
  if (!list || list.dataset.ids !== ids) {
    list = document.createElement('ol');
    list.dataset.ids = ids;
    sections.forEach((section, index) => {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = `#${section.id}`;
      link.dataset.target = section.id;
      // Spaces between the parts (a grid ignores them): its text reads "5 scores [1, 2, 8, 8]", not "5scores[…]".
      link.append(span('ov-number', String(index + 1)), ' ', span('ov-name', ''), ' ', span('ov-shape', ''));
      link.addEventListener('click', (event) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return; // a new tab or window
        event.preventDefault();
        onPick(index);
      });
      item.append(link);
      list.append(item);
    });
    nav.replaceChildren(list);
  }
  sections.forEach((section, index) => {
    const link = list.children[index].firstChild;
    const key = stepKey(section);
    const title = section.querySelector('h2')?.textContent ?? section.dataset.step;
    const shapes = stepShapes(key, dims);
    // Only what changed is written: a re-render that keeps the steps leaves the toolbar's layout alone.
    const short = shortName(t, section);
    setText(link.querySelector('.ov-name'), short);
    const shape = link.querySelector('.ov-shape');
    const sizes = shapes.map((s) => shapeText(s)).join(' ');
    setText(shape, sizes);
    if (shape.hidden !== (shapes.length === 0)) shape.hidden = shapes.length === 0;
    const lettered = shapes.map((s) => shapeText(s, 'both')).join(', ');
    // The name starts with what the box shows (number, short name, sizes), so a voice command saying it works.
    const label = lettered
      ? t('overview.box', { n: index + 1, short, sizes, title, shape: lettered })
      : t('overview.boxNoShape', { n: index + 1, short, title });
    if (link.getAttribute('aria-label') !== label) link.setAttribute('aria-label', label);
    const tip = shapes.length ? `${title}: ${shapes.map((s) => shapeText(s, 'letters')).join(', ')}` : title;
    if (link.title !== tip) link.title = tip;
    // Steps that run once per head carry the shown head's colour.
    const perHead = shapes.some((s) => s.letters.includes('H'));
    link.classList.toggle('per-head', perHead);
    if (perHead && link.style.getPropertyValue('--head-color') !== headColor)
      link.style.setProperty('--head-color', headColor);
  });
}

/** Marks box `index` as the current step (aria-current="step"); -1 marks none. */
export function markCurrent(nav, index) {
  const links = nav.querySelectorAll('a[data-target]');
  links.forEach((link, k) => {
    if (k === index) link.setAttribute('aria-current', 'step');
    else link.removeAttribute('aria-current');
  });
}

/**
 * The step being read: the last section whose top is at or above `line`
 * (px from the viewport's top); at the end of the page, where the last short
 * steps can never reach the line, the last one whose top is in the upper
 * half of what is left below it. tops: each section's top, in order.
 */
export function currentIndex(tops, line, { atEnd = false, viewportHeight = Infinity } = {}) {
  const reach = atEnd ? line + (viewportHeight - line) / 2 : line;
  let current = 0;
  tops.forEach((top, k) => {
    if (top <= reach) current = k;
  });
  return current;
}

/**
 * Follows which section is being read while the page scrolls: an
 * IntersectionObserver on a one-pixel line just under the sticky header (a
 * section crossing it is the one being read) and one on the end of the
 * pipeline. onChange(index) when it changes.
 */
export class ScrollSpy {
  #sections = [];
  #line = 0;
  #atEnd = false;
  #observers = [];
  #onChange;
  #end;
  current = 0;

  constructor(end, onChange) {
    this.#end = end;
    this.#onChange = onChange;
  }

  /** Watches `sections`, the line being `offset` px below the viewport's top. */
  watch(sections, offset) {
    this.stop();
    this.#sections = sections;
    if (typeof IntersectionObserver === 'undefined' || !sections.length) return;
    // A step is being read once its top passes a line a little below the sticky header.
    this.#line = offset + Math.min(120, (window.innerHeight - offset) / 4);
    const below = Math.max(0, window.innerHeight - this.#line - 1);
    const line = new IntersectionObserver(() => this.update(), { rootMargin: `-${this.#line}px 0px -${below}px 0px` });
    sections.forEach((section) => line.observe(section));
    const end = new IntersectionObserver((entries) => {
      this.#atEnd = entries.at(-1).isIntersecting;
      this.update();
    });
    end.observe(this.#end);
    this.#observers = [line, end];
  }

  stop() {
    this.#observers.forEach((observer) => observer.disconnect());
    this.#observers = [];
  }

  /** Works the current section out again (after a scroll, a resize or a render). */
  update() {
    const tops = this.#sections.map((section) => section.getBoundingClientRect().top);
    const index = currentIndex(tops, this.#line, { atEnd: this.#atEnd, viewportHeight: window.innerHeight });
    if (index === this.current) return;
    this.current = index;
    this.#onChange(index);
  }
}
