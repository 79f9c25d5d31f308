// The teaching frame around the pipeline, for the page and the element
// alike: the overview of the steps (numbered, with shapes, the current one
// marked while scrolling), the followed token, and step-by-step mode. The
// controller calls update() after every render; everything here is derived
// from the rendered sections, so it holds for any set of steps.
import { headColor } from '../common/colors.js';
import { applyFollow, labelIndexOfEvent, renderFollowControl } from './follow.js';
import { ScrollSpy, markCurrent, renderOverview, showCurrentBox } from './overview.js';
import { StepSizes } from './step-sizes.js';
import { isPressable, isTypingTarget, narration, renderStepper, stepMove, stopCounter } from './step-by-step.js';

// A stop as the counter reads it (stopCounter): a step (chapter null), a closed chapter's bar (its number) or
// the next chapters' section (0).
const stopOf = (section) => {
  if (!section.classList.contains('chapter-bar')) return { chapter: null };
  if (section.classList.contains('chapters-next')) return { chapter: 0 };
  return { chapter: Number(section.querySelector('.chapter-name').dataset.chapterNumber) };
};

export class TeachingFrame {
  #parts;
  #on;
  #view = null;
  #sections = [];
  #mode = 'scroll';
  /** The id of the step being read (scrolling) or shown (step by step). */
  #currentId = null;
  /** The step a jump went to, kept until the reader scrolls: a stepper below it that grows may give it the room. */
  #jumpedTo = null;
  #spy;
  /** The off-screen steps' placeholder heights. */
  #sizes = new StepSizes();
  #sentinel = null;
  #expandedHeight = 0;
  /** Whether the page has scrolled under the sticky toolbar. */
  #stuck = false;
  /** The sticky toolbar's height as its ResizeObserver last saw it (null: not yet). */
  #stickyPx = null;
  /** What the scroll spy watches: {sections, offset, viewport}; a render that keeps them restarts nothing. */
  #watched = null;
  /** The reading place kept by the last render, valid while the page stays at `scrollY`: {scrollY, place}. */
  #keptPlace = null;

  /**
   * parts: {root, pipeline, overview?, follow?, stepper?, stepsToggle?, sticky?}
   * (sticky: the page's sticky toolbar holding the overview, which it condenses
   * once the page scrolls under it); on: {follow(index or null), setMode(mode)}.
   */
  constructor(parts, on) {
    this.#parts = parts;
    this.#on = on;
    const end = document.createElement('div');
    end.className = 'pipeline-end';
    parts.pipeline.after(end);
    this.#spy = new ScrollSpy(end, (index) => this.#read(index));
    parts.pipeline.addEventListener('click', (event) => {
      const index = labelIndexOfEvent(event);
      if (index !== undefined) on.follow(index === this.#view?.focus ? null : index);
    });
    parts.root.addEventListener('keydown', (event) => this.#key(event));
    // A jump near the end of the page may stop short (too little page below the step); when a stepper's
    // figures arrive and make the page longer, the step is put at the top after all, unless the reader moved.
    parts.pipeline.addEventListener('stepper-ready', () => {
      const section = this.#jumpedTo;
      if (
        section?.isConnected &&
        this.#mode === 'scroll' &&
        section.getBoundingClientRect().top > this.#stickyHeight() + 16
      )
        this.#scrollTo(section);
    });
    for (const type of ['wheel', 'touchmove', 'keydown', 'pointerdown'])
      window.addEventListener(type, () => (this.#jumpedTo = null), { passive: true, capture: true });
    parts.stepsToggle?.addEventListener('click', () => on.setMode(this.#mode === 'steps' ? 'scroll' : 'steps'));
    if (parts.sticky && typeof ResizeObserver !== 'undefined') {
      this.#sentinel = document.createElement('div');
      this.#sentinel.className = 'sticky-sentinel';
      parts.sticky.after(this.#sentinel);
      new ResizeObserver((entries) => this.#stickyResized(entries.at(-1))).observe(parts.sticky);
      // Checked on every scroll (once a frame), not by an IntersectionObserver: a jump (a step link, End,
      // a fling) can take the sentinel from below the viewport to above it without ever crossing it.
      let queued = false;
      const check = () => {
        queued = false;
        if (parts.pipeline.isConnected) this.#checkStuck();
      };
      window.addEventListener(
        'scroll',
        () => {
          if (!queued) requestAnimationFrame(check);
          queued = true;
        },
        { passive: true },
      );
    }
    window.addEventListener('resize', () => {
      this.#keptPlace = null;
      if (!parts.pipeline.isConnected) return; // an element taken off the page
      this.#sizes.remeasure();
      this.#measureExpanded();
      this.#condense();
      this.#watch();
    });
  }

  /** After a render. view: {t, result, layout, focus, mode, decimals, later? (runs work in a later slice)}. */
  update(view) {
    const entering = view.mode === 'steps' && this.#mode !== 'steps';
    const leaving = view.mode !== 'steps' && this.#mode === 'steps';
    this.#view = view;
    this.#mode = view.mode === 'steps' ? 'steps' : 'scroll';
    const parts = this.#parts;
    // The steps and the chapter bars, in order: step by step goes through both; only the steps are numbered.
    const sections = Array.from(parts.pipeline.querySelectorAll(':scope > section.step, :scope > section.chapter-bar'));
    this.#sections = sections;
    this.#sizes.update(sections); // before anything lays the page out
    sections
      .filter((section) => section.classList.contains('step'))
      .forEach((section, k) => {
        const title = section.querySelector('h2');
        if (title && title.dataset.number !== String(k + 1)) title.dataset.number = String(k + 1);
      });
    const { t, layout } = view;
    if (parts.overview) {
      parts.overview.hidden = sections.length < 2;
      const rebuilt = renderOverview(
        parts.overview,
        sections,
        { t, dims: layout, headColor: headColor(layout.h) },
        (index) => this.show(sections[index].id),
        this.#on.toggleChapter,
      );
      // Other boxes (a chapter opened or closed while condensed): the expanded height, the threshold, may differ.
      if (rebuilt) this.#measureExpanded();
    }
    applyFollow(parts.pipeline, view.focus, this.#followContext(), t('follow.rowHint'));
    if (parts.follow)
      renderFollowControl(
        parts.follow,
        { t, labels: layout.queryLabels, focus: view.focus, later: view.later },
        this.#on.follow,
      );
    if (parts.stepsToggle) parts.stepsToggle.setAttribute('aria-pressed', String(this.#mode === 'steps'));
    parts.pipeline.classList.toggle('stepping', this.#mode === 'steps');
    this.#condense();
    if (this.#mode === 'steps') {
      this.#spy.stop();
      this.#watched = null;
      parts.pipeline.tabIndex = -1; // a click anywhere in it keeps the keys working in an element
      this.#go(this.#index(), { scroll: entering });
    } else {
      parts.pipeline.removeAttribute('tabindex');
      sections.forEach((section) => section.classList.remove('is-current'));
      if (parts.stepper) parts.stepper.hidden = true;
      this.#mark(this.#index());
      this.#watch();
      if (leaving && this.#currentId) this.show(this.#currentId);
    }
  }

  /**
   * Where the step being read is (scrolling): {id, top}, or null. A render
   * keeps it there (keepPlace): the browser's scroll anchoring can pick a
   * number kept in place by the render and move the page with it.
   */
  readingPlace() {
    // At the top of the page the browser anchors nothing: no layout is forced for it here.
    if (this.#mode !== 'scroll' || window.scrollY === 0) return null;
    // Where the last render left it, if the page has not moved since: no layout forced (the
    // render's own changes, already made to the page, would be laid out for nothing).
    if (this.#keptPlace?.scrollY === window.scrollY && this.#sections.some((s) => s.id === this.#keptPlace.place.id))
      return this.#keptPlace.place;
    const section = this.#sections.find((s) => s.isConnected && s.getBoundingClientRect().bottom > 0);
    return section ? { id: section.id, top: section.getBoundingClientRect().top } : null;
  }

  /** Puts the step of `place` (readingPlace) back where it was. */
  keepPlace(place) {
    const section = place && this.#mode === 'scroll' && this.#sections.find((s) => s.id === place.id);
    this.#keptPlace = null;
    if (!section) return;
    const moved = section.getBoundingClientRect().top - place.top;
    if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
    this.#keptPlace = { scrollY: window.scrollY, place };
  }

  /** The shown steps, in order. */
  get sections() {
    return this.#sections;
  }

  /** A step built after the render (in slices): the followed token marked in it. */
  built(section) {
    const view = this.#view;
    if (view) applyFollow(section, view.focus, this.#followContext(), view.t('follow.rowHint'));
  }

  #followContext() {
    const { layout, result } = this.#view;
    return {
      queryLabels: layout.queryLabels,
      keyLabels: layout.keyLabels,
      cross: Boolean(result.tensors.X_context),
    };
  }

  /** Goes to the step with this id: scrolls to it, or shows it alone step by step. */
  show(id) {
    const index = this.#sections.findIndex((section) => section.id === id);
    if (index < 0) return;
    if (this.#mode === 'steps') return this.#go(index, { scroll: true });
    this.#currentId = id;
    this.#mark(index);
    const section = this.#sections[index];
    this.#scrollTo(section);
    this.#jumpedTo = section;
    // Keyboard users continue from the step they went to.
    const title = section.querySelector('h2');
    if (title) {
      title.tabIndex = -1;
      title.focus({ preventScroll: true });
    }
  }

  #index() {
    const index = this.#sections.findIndex((section) => section.id === this.#currentId);
    return index < 0 ? 0 : index;
  }

  #mark(index) {
    this.#currentId = this.#sections[index]?.id ?? null;
    if (this.#parts.overview) markCurrent(this.#parts.overview, this.#sections[index] ?? null, this.#view?.t);
  }

  // The scroll spy saw a new step being read.
  #read(index) {
    if (this.#mode === 'scroll') this.#mark(index);
  }

  #go(index, { scroll = false } = {}) {
    const sections = this.#sections;
    if (!sections.length) return;
    index = Math.max(0, Math.min(sections.length - 1, index));
    const root = this.#parts.root;
    const hadFocus = sections.some((section) => section.contains(root.activeElement));
    sections.forEach((section, k) => section.classList.toggle('is-current', k === index));
    this.#mark(index);
    const section = sections[index];
    const stepper = this.#parts.stepper;
    if (stepper) {
      stepper.hidden = false;
      const { t, layout, focus } = this.#view;
      renderStepper(
        stepper,
        {
          t,
          index,
          count: sections.length,
          counter: stopCounter(t, sections.map(stopOf), index),
          title: section.querySelector('h2')?.textContent ?? '',
          text: narration(t, section, layout, focus),
          exitable: Boolean(this.#parts.stepsToggle),
        },
        { go: (to) => this.#go(to), exit: () => this.#on.setMode('scroll') },
      );
      // A button that just became disabled drops the focus: hand it to the other one.
      if (root.activeElement?.disabled) stepper.querySelector(index === 0 ? '.step-next' : '.step-prev').focus();
    }
    if (hadFocus) {
      const title = section.querySelector('h2');
      title.tabIndex = -1;
      title.focus({ preventScroll: true });
    }
    // The bar and the step's start in view: scrolled to when above the viewport (or below it, when asked).
    const top = (stepper ?? section).getBoundingClientRect().top;
    if (top < this.#stickyHeight() || (scroll && top > window.innerHeight * 0.6)) this.#scrollTo(stepper ?? section);
  }

  #key(event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = event.composedPath()[0];
    if (isTypingTarget(target) || target?.closest?.('dialog')) return;
    if (event.key === 'Escape') {
      if (this.#view && this.#view.focus !== null) {
        event.preventDefault();
        this.#on.follow(null);
      } else if (this.#mode === 'steps' && this.#parts.stepsToggle) {
        event.preventDefault();
        this.#on.setMode('scroll');
      }
      return;
    }
    if (this.#mode !== 'steps' || (event.key === ' ' && isPressable(target))) return;
    const to = stepMove(event.key, this.#index(), this.#sections.length);
    if (to === null) return;
    event.preventDefault();
    this.#go(to);
  }

  #stickyHeight() {
    return this.#parts.sticky ? this.#parts.sticky.getBoundingClientRect().height : 0;
  }

  // The toolbar's height without a layout forced: as its ResizeObserver last saw it (measured once before that).
  #stickyOffset() {
    if (!this.#parts.sticky) return 0;
    return (this.#stickyPx ??= this.#stickyHeight());
  }

  // Puts `el` at the top of the viewport, under the sticky toolbar (condensed
  // first when that is how it will be once there).
  #scrollTo(el) {
    // The steps passed on the way keep their place: none stands in at a guessed height.
    this.#sizes.measureAll();
    if (!this.#sentinel) {
      el.scrollIntoView({ block: 'start' });
      return;
    }
    const distance = el.getBoundingClientRect().top - this.#stickyHeight();
    this.#condense(this.#sentinel.getBoundingClientRect().top - distance < this.#expandedHeight);
    window.scrollBy(0, el.getBoundingClientRect().top - this.#stickyHeight() - 8);
  }

  // The overview as a strip of numbers (the current step named): under the
  // sticky toolbar once the page scrolls (`stuck`), and step by step, where
  // the room goes to the step (each step shows its own shape).
  #condense(stuck = this.#stuck) {
    this.#stuck = stuck;
    const overview = this.#parts.overview;
    if (!overview) return;
    const condensed = stuck || this.#mode === 'steps';
    if (overview.classList.contains('condensed') === condensed) return;
    overview.classList.toggle('condensed', condensed);
    showCurrentBox(overview);
  }

  // The overview is condensed to a strip of numbers once the page scrolls
  // under the sticky toolbar: the sentinel, just below the toolbar's place in
  // the flow, is then above the toolbar's expanded height. The same threshold
  // both ways, so condensing (which shortens the toolbar) cannot flip it back.
  #stickyResized(entry) {
    const sticky = this.#parts.sticky;
    this.#stickyPx = entry?.borderBoxSize?.[0]?.blockSize ?? sticky.getBoundingClientRect().height;
    if (!this.#parts.overview?.classList.contains('condensed')) this.#expandedHeight = sticky.offsetHeight;
    // What the browser scrolls into view by itself (a focused number, find in page) stops below the toolbar.
    this.#parts.pipeline.style.setProperty('--sticky-height', `${sticky.offsetHeight}px`);
    this.#checkStuck();
    this.#watch();
  }

  // The toolbar's expanded height, measured now even while condensed (the class off for one synchronous
  // layout, never painted): a condensed overview whose boxes changed would keep a stale threshold, and at
  // the top of the page stay condensed.
  #measureExpanded() {
    const { sticky, overview } = this.#parts;
    if (!sticky || !this.#sentinel || !overview) return;
    const condensed = overview.classList.contains('condensed');
    if (condensed) overview.classList.remove('condensed');
    this.#expandedHeight = sticky.offsetHeight;
    if (condensed) overview.classList.add('condensed');
  }

  // At the very top of the page nothing has scrolled under the toolbar: expanded, even when the band the
  // threshold leaves (expanded minus condensed height) is taller than what stands above the toolbar (the
  // page's header), where the rule alone would keep it condensed for good.
  #checkStuck() {
    this.#condense(window.scrollY > 0 && this.#sentinel.getBoundingClientRect().top < this.#expandedHeight);
  }

  // (Re)starts the scroll spy, its line just under the sticky toolbar.
  #watch() {
    if (this.#mode !== 'scroll' || !this.#sections.length) return;
    const watched = { sections: this.#sections, offset: this.#stickyOffset(), viewport: window.innerHeight };
    const last = this.#watched;
    // Kept steps (an edit re-renders in place): the spy's observers still watch them.
    if (
      last?.offset === watched.offset &&
      last.viewport === watched.viewport &&
      last.sections.length === watched.sections.length &&
      last.sections.every((section, k) => section === watched.sections[k])
    )
      return;
    this.#watched = watched;
    this.#spy.watch(this.#sections, watched.offset);
  }
}
