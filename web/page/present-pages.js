// Presentation mode's slides: a step on one screen, never scrolled. The step's
// figures (its children but the header: matrix groups, the heads' thumbnails,
// the links diagram, a stepper's parts) are shown a page at a time when they
// do not fit under each other on the screen; → (Space, PageDown, Next) goes to
// the next page before the next step, ← back, and a step entered backwards
// opens on its last page. The text column (styles.css, --present-text) takes
// the width the page's figures leave, so no panel stays blank.

import { isPressable, isTypingTarget } from '../view/teach/step-by-step.js';

// The text column's width, as a share of the window's: at least (the figures get the most room), at most.
const TEXT_MIN = 0.28;
const TEXT_MAX = 0.5;
// What is never taken apart over two pages: a figure with its title, a row of controls, a paragraph.
const ATOMIC =
  'table, svg, canvas, figure, p, h3, label, input, details, .matrix-group, .head-multiples, .legend, .toggle, .flash-tiles, .stepper-control, .links-scroller';
// The text column's type shrinks (--present-fit) down to this factor when the step's text is longer than the screen.
const FIT_MIN = 0.7;

const NEXT_KEYS = new Set(['ArrowRight', 'PageDown', ' ']);
const PREVIOUS_KEYS = new Set(['ArrowLeft', 'PageUp']);

const shown = (el) => el.getClientRects().length > 0;
const bottomOf = (el) => el.getBoundingClientRect().bottom;

/**
 * The step's figures (its children but the header) cut into pages that end
 * above `limit`: each figure added in order; one that would end below it is
 * taken apart into its parts (a container's shown children) when it can be,
 * else it starts a new page. Leaves every unit hidden (.off-page); returns
 * the pages, each a list of units.
 */
function cutPages(section, limit) {
  const pages = [];
  let onPage = [];
  const place = (el) => {
    el.classList.remove('off-page');
    if (bottomOf(el) <= limit) return onPage.push(el);
    const parts = el.matches(ATOMIC) ? [] : [...el.children].filter(shown);
    if (parts.length > 1) {
      // The container stays shown, as the frame of its parts, which go on in order.
      parts.forEach((part) => part.classList.add('off-page'));
      return parts.forEach(place);
    }
    if (onPage.length) {
      onPage.forEach((done) => done.classList.add('off-page'));
      pages.push(onPage);
      onPage = [];
    }
    onPage.push(el); // alone on its page: as much of it as fits
  };
  const figures = [...section.children].filter((el) => el.tagName !== 'HEADER' && shown(el));
  figures.forEach((el) => el.classList.add('off-page'));
  figures.forEach(place);
  if (onPage.length) pages.push(onPage);
  pages.flat().forEach((el) => el.classList.add('off-page'));
  return pages;
}

/**
 * parts: {root (<html>), pipeline, stepper (the step-by-step box), label (the
 * page counter, a <p>)}; t: the page's strings, a function (key, params).
 * Returns {update()}: lays the current step out again (after a render, a resize).
 */
export function wirePresentPages({ root, pipeline, stepper, label }, t) {
  let pages = []; // the current step's figure units, per page
  let page = 0;
  let stepId = null;
  let enterAtEnd = false; // ← on a step's first page: the step before opens on its last page
  let queued = false;

  const presenting = () => root.classList.contains('presenting');
  const current = () => pipeline.querySelector(':scope > section.step.is-current');

  function clear() {
    for (const el of pipeline.querySelectorAll('.off-page')) el.classList.remove('off-page');
    root.style.removeProperty('--present-text');
    root.style.removeProperty('--present-fit');
    label.hidden = true;
    pages = [];
  }

  // The figures of `page` shown, the others hidden; the text column as wide as they leave room for.
  function showPage() {
    pages.forEach((units, k) => units.forEach((el) => el.classList.toggle('off-page', k !== page)));
    label.hidden = pages.length < 2;
    label.textContent = pages.length < 2 ? '' : t('present.page', { n: page + 1, count: pages.length });
    const width = innerWidth;
    const pad = parseFloat(getComputedStyle(pipeline.parentElement).paddingRight) || 0;
    let right = 0;
    for (const unit of pages[page] ?? [])
      for (const el of [unit, ...unit.querySelectorAll('table, svg, canvas, .chart-figure')])
        if (el.matches('table, svg, canvas, .chart-figure') && shown(el))
          right = Math.max(right, el.getBoundingClientRect().right);
    if (right) {
      // The figures keep their left edge at (column + pad); the column widens by what is left on their right.
      const column = parseFloat(getComputedStyle(root).getPropertyValue('--present-text')) || TEXT_MIN * width;
      const slack = width - pad - right;
      const text = Math.min(TEXT_MAX * width, Math.max(TEXT_MIN * width, column + slack));
      root.style.setProperty('--present-text', `${Math.floor(text)}px`);
      // A row of figures that wraps in the narrower room (taller, below the screen): the column as it was.
      if (Math.max(...pages[page].map(bottomOf)) > innerHeight - 8)
        root.style.setProperty('--present-text', `${Math.floor(column)}px`);
    }
    fitText();
  }

  // The text column (the stepper, the page counter, the step's header) above the screen's foot: its type
  // smaller, in steps of 5 %, down to FIT_MIN.
  function fitText() {
    const column = [stepper, label, current()?.querySelector(':scope > header')].filter((el) => el && shown(el));
    let fit = 1;
    root.style.setProperty('--present-fit', '1');
    while (fit > FIT_MIN && Math.max(...column.map(bottomOf)) > innerHeight - 4) {
      fit = Math.round(100 * fit - 5) / 100;
      root.style.setProperty('--present-fit', String(fit));
    }
  }

  function layout() {
    queued = false;
    if (!presenting()) return clear();
    const section = current();
    if (!section) return clear();
    const entering = section.id !== stepId;
    stepId = section.id;
    // Measured with the narrowest text column: the most room for the figures.
    root.style.setProperty('--present-text', `${Math.floor(TEXT_MIN * innerWidth)}px`);
    for (const el of section.querySelectorAll('.off-page')) el.classList.remove('off-page');
    pages = cutPages(section, innerHeight - 8);
    if (entering) page = enterAtEnd ? pages.length - 1 : 0;
    enterAtEnd = false;
    page = Math.max(0, Math.min(page, pages.length - 1));
    showPage();
  }

  const update = () => {
    if (!queued) requestAnimationFrame(layout);
    queued = true;
  };

  /** Moves a page within the step (true), or leaves the move to the step's own keys (false). */
  function turn(forward) {
    if (!presenting() || !pages.length) return false;
    if (forward ? page < pages.length - 1 : page > 0) {
      page += forward ? 1 : -1;
      showPage();
      return true;
    }
    if (!forward) enterAtEnd = true;
    return false;
  }

  // Before the step-by-step keys (the window's capture phase): a page first, then the step.
  window.addEventListener(
    'keydown',
    (event) => {
      if (!presenting() || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.composedPath()[0];
      if (isTypingTarget(target) || target?.closest?.('dialog') || (event.key === ' ' && isPressable(target))) return;
      const forward = NEXT_KEYS.has(event.key);
      if (!forward && !PREVIOUS_KEYS.has(event.key)) return;
      if (turn(forward)) event.preventDefault();
    },
    true,
  );
  // The stepper's Previous and Next buttons page too.
  stepper.addEventListener(
    'click',
    (event) => {
      const button = event.target.closest?.('.step-next, .step-prev');
      if (button && turn(button.classList.contains('step-next'))) event.stopPropagation();
    },
    true,
  );
  // A new step shown (the stepper's index), a render (the pipeline's nodes), a resize: laid out again.
  new MutationObserver(update).observe(stepper, { attributes: true, attributeFilter: ['data-index'] });
  new MutationObserver(() => presenting() && update()).observe(pipeline, { childList: true, subtree: true });
  new MutationObserver(update).observe(root, { attributes: true, attributeFilter: ['class'] });
  window.addEventListener('resize', update);
  return { update };
}
