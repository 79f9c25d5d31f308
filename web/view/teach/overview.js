// The overview at the top of the pipeline: the chapters, each open one's shown
// steps as numbered boxes with their tensors' shapes under its name, each
// closed one as one box, each a link to its step or chapter bar; the step
// being read and its chapter are marked (aria-current="step"). The boxes are
// derived from the rendered sections, their shapes from the step registry.
import { chapterName } from '../steps/chapter-bar.js';
import { CHAPTERS, chapterNumber } from '../steps/chapters.js';
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

/** A chapter's label in the overview: its number and name (open chapters besides the basics: a close button). */
function chapterLabel(t, key, onToggle, closable) {
  const label = span('ov-chapter-name', '');
  label.append(span('ov-chapter-number', String(chapterNumber(key))), ' ', chapterName(t, key));
  if (!closable) return [label];
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'ov-close';
  close.textContent = '×';
  close.setAttribute('aria-label', t('chapter.close', { n: chapterNumber(key) }));
  close.addEventListener('click', () => onToggle(key, false));
  return [label, close];
}

const isBar = (section) => section.classList.contains('chapter-bar');

/**
 * The overview's groups from the shown sections: each open chapter's items (its steps, or the bar of an
 * open chapter none of whose steps applies) under its name, in the chapters' order, then the closed
 * chapters, one box each (its first bar): [{key, open, items: [{section, index}]}].
 */
function groupsOf(sections) {
  const groups = new Map(CHAPTERS.map((chapter) => [chapter.key, { key: chapter.key, open: true, items: [] }]));
  const closed = { key: null, open: false, items: [] };
  sections.forEach((section, index) => {
    const key = section.dataset.chapter;
    if (isBar(section) && !section.classList.contains('is-open')) {
      if (!closed.items.some((item) => item.section.dataset.chapter === key)) closed.items.push({ section, index });
    } else groups.get(key)?.items.push({ section, index });
  });
  closed.items.sort((a, b) => chapterNumber(a.section.dataset.chapter) - chapterNumber(b.section.dataset.chapter));
  return [...[...groups.values()].filter((group) => group.items.length), ...(closed.items.length ? [closed] : [])];
}

/**
 * Fills `nav` with the chapters: each open one's shown steps as numbered boxes (number, short name, shape)
 * under its name, each closed one as one box. Rebuilt only when the sections change, so a focused box keeps
 * its focus across runs. ctx: {t, dims, headColor}. Clicking a box calls onPick(index of its section);
 * a chapter's close button onToggle(key, false).
 */
export function renderOverview(nav, sections, { t, dims, headColor }, onPick, onToggle) {
  nav.setAttribute('aria-label', t('overview.label'));
  let list = nav.querySelector('ol.ov-chapters');
  const ids = sections.map((s) => `${s.id}${s.classList.contains('is-open') ? '+' : ''}`).join(' ') + ` ${t.lang}`;
  const stepNumber = new Map(sections.filter((section) => !isBar(section)).map((section, k) => [section, k + 1]));
  if (!list || list.dataset.ids !== ids) {
    list = document.createElement('ol');
    list.className = 'ov-chapters';
    list.dataset.ids = ids;
    for (const group of groupsOf(sections)) {
      const item = document.createElement('li');
      item.className = 'ov-chapter';
      if (group.key) item.dataset.chapter = group.key;
      const label = group.key
        ? chapterLabel(t, group.key, onToggle, group.key !== 'basics' && !isBar(group.items[0].section))
        : [span('ov-chapter-name', t('chapter.closed'))];
      const boxes = document.createElement('ol');
      boxes.className = 'ov-steps';
      for (const { section, index } of group.items) {
        const box = document.createElement('li');
        const link = document.createElement('a');
        link.href = `#${section.id}`;
        if (isBar(section)) {
          link.dataset.bar = section.id;
          link.dataset.chapter = section.dataset.chapter;
          link.className = 'ov-bar';
        } else link.dataset.target = section.id;
        // Spaces between the parts (a grid ignores them): its text reads "5 scores [1, 2, 8, 8]", not "5scores[…]".
        link.append(span('ov-number', ''), ' ', span('ov-name', ''), ' ', span('ov-shape', ''));
        link.addEventListener('click', (event) => {
          if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return; // a new tab or window
          event.preventDefault();
          onPick(index);
        });
        box.append(link);
        boxes.append(box);
      }
      item.append(...label, boxes);
      list.append(item);
    }
    nav.replaceChildren(list);
  }
  for (const link of list.querySelectorAll('a[data-bar]')) {
    const key = link.dataset.chapter;
    const bars = sections.filter((section) => isBar(section) && section.dataset.chapter === key);
    const count = bars.reduce((sum, bar) => sum + Number(bar.dataset.steps ?? 0), 0);
    const n = chapterNumber(key);
    const name = chapterName(t, key);
    setText(link.querySelector('.ov-number'), String(n));
    setText(link.querySelector('.ov-name'), name);
    const shape = link.querySelector('.ov-shape');
    setText(shape, count ? t(count === 1 ? 'overview.chapterStep' : 'overview.chapterSteps', { count }) : '');
    shape.hidden = count === 0;
    const label = t('overview.chapterBox', { n, name });
    if (link.getAttribute('aria-label') !== label) link.setAttribute('aria-label', label);
  }
  for (const link of list.querySelectorAll('a[data-target]')) {
    const section = sections.find((s) => s.id === link.dataset.target);
    const number = stepNumber.get(section);
    const key = stepKey(section);
    const title = section.querySelector('h2')?.textContent ?? section.dataset.step;
    const shapes = stepShapes(key, dims);
    // Only what changed is written: a re-render that keeps the steps leaves the toolbar's layout alone.
    const short = shortName(t, section);
    setText(link.querySelector('.ov-number'), String(number));
    setText(link.querySelector('.ov-name'), short);
    const shape = link.querySelector('.ov-shape');
    const sizes = shapes.map((s) => shapeText(s)).join(' ');
    setText(shape, sizes);
    if (shape.hidden !== (shapes.length === 0)) shape.hidden = shapes.length === 0;
    const lettered = shapes.map((s) => shapeText(s, 'both')).join(', ');
    // The name starts with what the box shows (number, short name, sizes), so a voice command saying it works.
    const label = lettered
      ? t('overview.box', { n: number, short, sizes, title, shape: lettered })
      : t('overview.boxNoShape', { n: number, short, title });
    if (link.getAttribute('aria-label') !== label) link.setAttribute('aria-label', label);
    const tip = shapes.length ? `${title}: ${shapes.map((s) => shapeText(s, 'letters')).join(', ')}` : title;
    if (link.title !== tip) link.title = tip;
    // Steps that run once per head carry the shown head's colour.
    const perHead = shapes.some((s) => s.letters.includes('H'));
    link.classList.toggle('per-head', perHead);
    if (perHead && link.style.getPropertyValue('--head-color') !== headColor)
      link.style.setProperty('--head-color', headColor);
  }
}

/**
 * Marks where the reader is: the box of `section` (a step, or a bar: its chapter's box) as the current
 * step (aria-current="step") and its chapter's group; null marks none.
 */
export function markCurrent(nav, section) {
  const id = section?.id;
  const key = section?.dataset.chapter;
  const bar = section ? isBar(section) : false;
  for (const link of nav.querySelectorAll('a[data-target], a[data-bar]')) {
    const current = bar ? link.dataset.bar !== undefined && link.dataset.chapter === key : link.dataset.target === id;
    if (current) link.setAttribute('aria-current', 'step');
    else link.removeAttribute('aria-current');
  }
  for (const group of nav.querySelectorAll('.ov-chapter'))
    group.classList.toggle('is-current', Boolean(group.querySelector('[aria-current="step"]')));
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
