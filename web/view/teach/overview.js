// The overview at the top of the pipeline: a row of the chapters (each once:
// the open ones marked, the closed ones buttons that open them, the one being
// read marked), then every shown section as a box in the pipeline's order:
// each step numbered with its tensors' shapes, each closed chapter's bar at
// its place, the next chapters as one box at the end; each box a link to its
// section, carrying its chapter (data-chapter, a thin top border in the
// chapter's colour, set by teach.css from data-chapter-number: no inline style). The box being read is marked (aria-current="step"). The
// boxes are derived from the rendered sections, their shapes from the step registry.
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

const isBar = (section) => section.classList.contains('chapter-bar');

/**
 * The chapters the sections show, in the chapters' order: [{key, open, steps}] (steps: how many of its
 * steps stand closed in its bars). A chapter with no section (the trained model in an element) is left out.
 */
export function chaptersOf(sections) {
  const seen = new Map();
  const see = (el, open) => {
    const key = el.dataset.chapter;
    const chapter = seen.get(key) ?? { key, open: true, steps: 0 };
    chapter.open &&= open;
    chapter.steps += open ? 0 : Number(el.dataset.steps ?? 0);
    seen.set(key, chapter);
  };
  for (const section of sections) {
    if (!isBar(section)) see(section, true);
    else if (section.dataset.chapter) see(section, section.classList.contains('is-open'));
    // The next chapters' section: one block per chapter (not its button, which names the chapter too).
    else
      for (const item of section.querySelectorAll('[data-chapter]:not(.chapter-toggle)'))
        see(item, item.classList.contains('is-open'));
  }
  return CHAPTERS.filter((chapter) => seen.has(chapter.key)).map((chapter) => seen.get(chapter.key));
}

/** A chapter's number badge, in its colour. */
function chapterBadge(key) {
  const badge = span('ov-chapter-number', String(chapterNumber(key)));
  badge.dataset.chapterNumber = String(chapterNumber(key)); // its colour (teach.css)
  return badge;
}

/**
 * The chapter row: each chapter once, its number and name; an open one (besides the basics) with a close
 * button (onToggle(key, false)), a closed one a button that opens it (onToggle(key, true)), saying how
 * many of its steps this run has. markCurrent marks the one being read.
 */
function chapterRow(t, chapters, onToggle) {
  const row = document.createElement('ul');
  row.className = 'ov-chapter-row';
  row.setAttribute('aria-label', t('overview.chapters'));
  for (const { key, open, steps } of chapters) {
    const n = chapterNumber(key);
    const name = chapterName(t, key);
    const item = document.createElement('li');
    item.className = 'ov-chapter';
    item.dataset.chapter = key;
    item.dataset.open = String(open);
    const count = steps ? t(steps === 1 ? 'overview.chapterStep' : 'overview.chapterSteps', { count: steps }) : '';
    const label = span(open ? 'ov-chapter-name' : 'ov-chapter-name ov-open', '');
    label.append(chapterBadge(key), ' ', span('ov-chapter-title', name));
    if (count) label.append(' ', span('ov-count', count));
    label.append(span('sr-only ov-state', ''));
    if (open) {
      item.append(label);
      if (key !== 'basics') {
        const close = document.createElement('button');
        close.type = 'button';
        close.className = 'ov-close';
        close.textContent = '×';
        close.setAttribute('aria-label', t('chapter.close', { n }));
        close.title = t('chapter.close', { n });
        close.addEventListener('click', () => onToggle(key, false));
        item.append(close);
      }
    } else {
      // The button's name starts with what it shows (number, name, count), then says what it does.
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'ov-open';
      button.append(...label.childNodes);
      button.title = t('chapter.open', { n });
      const action = t('chapter.open', { n });
      button.setAttribute(
        'aria-label',
        count
          ? t('overview.openChapter', { n, name, count, action })
          : t('overview.openChapterNone', { n, name, action }),
      );
      button.addEventListener('click', () => onToggle(key, true));
      item.append(button);
    }
    row.append(item);
  }
  return row;
}

/** The box of a bar: the closed chapter's number and the steps it stands for; the next chapters: their heading. */
function fillBar(t, link, section) {
  const key = section.dataset.chapter;
  const number = link.querySelector('.ov-number');
  const name = link.querySelector('.ov-name');
  const shape = link.querySelector('.ov-shape');
  if (!key) {
    setText(number, '+');
    setText(name, t('chapter.next'));
    shape.hidden = true;
    const label = t('overview.nextBox');
    if (link.getAttribute('aria-label') !== label) link.setAttribute('aria-label', label);
    return;
  }
  const n = chapterNumber(key);
  const names = (section.dataset.stepKeys ?? '')
    .split(' ')
    .filter(Boolean)
    .map((step) => t(`step.${step}.short`))
    .join(t('chapter.list'));
  setText(number, String(n));
  setText(name, names || chapterName(t, key));
  shape.hidden = true;
  const label = t('overview.chapterBox', { n, name: chapterName(t, key), names });
  if (link.getAttribute('aria-label') !== label) link.setAttribute('aria-label', label);
  if (link.title !== label) link.title = label;
}

/**
 * Fills `nav` with the chapter row and one box per section, in the pipeline's order: a step's number, short
 * name and shape; a closed chapter's bar (dashed: its number and the steps it stands for); the next chapters.
 * Rebuilt only when the sections change, so a focused box keeps its focus across runs. ctx: {t, dims,
 * headColor}. Clicking a box calls onPick(index of its section); the row's buttons onToggle(key, open).
 * Returns whether it was rebuilt (its height may have changed).
 */
export function renderOverview(nav, sections, { t, dims, headColor }, onPick, onToggle) {
  nav.setAttribute('aria-label', t('overview.label'));
  let list = nav.querySelector('ol.ov-steps');
  const chapters = chaptersOf(sections);
  const ids = [
    ...sections.map((s) => s.id),
    ...chapters.map((c) => `${c.key}${c.open ? '+' : '-'}${c.steps}`),
    t.lang,
  ].join(' ');
  const stepNumber = new Map(sections.filter((section) => !isBar(section)).map((section, k) => [section, k + 1]));
  const rebuilt = !list || list.dataset.ids !== ids;
  if (rebuilt) {
    list = document.createElement('ol');
    list.className = 'ov-steps';
    list.dataset.ids = ids;
    sections.forEach((section, index) => {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = `#${section.id}`;
      const key = section.dataset.chapter;
      if (isBar(section)) {
        link.dataset.bar = section.id;
        link.className = key ? 'ov-bar' : 'ov-bar ov-next';
      } else link.dataset.target = section.id;
      if (key) {
        link.dataset.chapter = key;
        link.dataset.chapterNumber = String(chapterNumber(key)); // its colour (teach.css)
      }
      // Spaces between the parts (a grid ignores them): its text reads "5 scores [1, 2, 8, 8]", not "5scores[…]".
      link.append(span('ov-number', ''), ' ', span('ov-name', ''), ' ', span('ov-shape', ''));
      link.addEventListener('click', (event) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return; // a new tab or window
        event.preventDefault();
        onPick(index);
      });
      item.append(link);
      list.append(item);
    });
    // No chapter bar (an element showing every chapter, as before chapters): no chapter row either.
    nav.replaceChildren(...(sections.some(isBar) ? [chapterRow(t, chapters, onToggle)] : []), list);
  }
  for (const link of list.querySelectorAll('a[data-bar]'))
    fillBar(
      t,
      link,
      sections.find((s) => s.id === link.dataset.bar),
    );
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
  return rebuilt;
}

// What a screen reader hears after a chapter's name in the row: [not being read, being read].
const CHAPTER_STATE = {
  open: ['overview.chapterOpen', 'overview.chapterOpenCurrent'],
  closed: ['overview.chapterClosed', 'overview.chapterClosedCurrent'],
};

/**
 * Marks where the reader is: the box of `section` (a step or a bar) as the current step
 * (aria-current="step") and, in the chapter row, its chapter (aria-current="true", class is-current and
 * words for a screen reader); null marks none.
 */
export function markCurrent(nav, section, t) {
  const id = section?.id;
  for (const link of nav.querySelectorAll('a[data-target], a[data-bar]')) {
    if ((link.dataset.target ?? link.dataset.bar) === id) link.setAttribute('aria-current', 'step');
    else link.removeAttribute('aria-current');
  }
  const key = section?.dataset.chapter;
  for (const chapter of nav.querySelectorAll('.ov-chapter')) {
    const current = chapter.dataset.chapter === key;
    chapter.classList.toggle('is-current', current);
    if (current) chapter.setAttribute('aria-current', 'true');
    else chapter.removeAttribute('aria-current');
    const open = chapter.dataset.open === 'true';
    const state = t ? t(CHAPTER_STATE[open ? 'open' : 'closed'][current ? 1 : 0]) : '';
    setText(chapter.querySelector('.ov-state'), state);
  }
  showCurrentBox(nav);
}

const centring = new WeakMap(); // nav -> the frame its current box is centred in

/**
 * Condensed, the boxes are one line that scrolls sideways (its height the same whichever box is current and
 * named, so nothing below it moves): the current box is scrolled into the middle of it, in the next frame,
 * when the browser lays the page out anyway (measured during a render, the strip's widths would lay the
 * whole page out once more: about 3 ms of a weight edit).
 */
export function showCurrentBox(nav) {
  if (centring.has(nav)) return;
  centring.set(
    nav,
    requestAnimationFrame(() => {
      centring.delete(nav);
      const list = nav.querySelector('ol.ov-steps');
      const link = list?.querySelector('[aria-current="step"]');
      if (!link || !nav.classList.contains('condensed') || list.scrollWidth <= list.clientWidth) return;
      const box = link.parentElement;
      list.scrollLeft = box.offsetLeft - (list.clientWidth - box.offsetWidth) / 2;
    }),
  );
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
