// A large result (512 tokens × dModel 768 has a dozen heatmaps of a quarter
// of a million numbers, 12 heads of small multiples, 512 rows of statistics)
// is built in slices, not in one task that freezes the page: each step's
// content is a job, and a job may add more (one head, one heatmap). The
// steps near the viewport are built first, in short slices one after another;
// the others in idle time, so find in page and the step jumps reach
// everything a moment later. A step is marked data-building until its last
// job has run (step-sizes.js measures only built steps).

/** How long a slice runs before it hands the thread back (input, paint). */
const SLICE_MS = 12;

const now = () => performance.now();

/** A new task soon (before idle time): scheduler.postTask where it exists, else a message. */
function soon(work) {
  if (typeof scheduler !== 'undefined' && scheduler.postTask) {
    scheduler.postTask(work, { priority: 'user-visible' });
    return;
  }
  const channel = new MessageChannel();
  channel.port1.onmessage = () => work();
  channel.port2.postMessage(null);
}

/** The page's idle time (within `timeout` ms, if given), or a timer where requestIdleCallback is missing (Safari). */
export const whenIdle = (work, timeout = undefined) =>
  typeof requestIdleCallback === 'function'
    ? requestIdleCallback(work, timeout ? { timeout } : undefined)
    : setTimeout(() => work({ timeRemaining: () => 8 }), 16);

export class SliceQueue {
  /** Pending jobs in page order: {run, section}. */
  #jobs = [];
  /** Jobs left per step section. */
  #left = new Map();
  /** The steps within a screen of the viewport. */
  #near = new Set();
  #observer = null;
  #running = null;
  #scheduled = false;
  #onBuilt;
  #shown = [];

  /** onBuilt(section): a step's last job has run (its content is complete). */
  constructor({ onBuilt }) {
    this.#onBuilt = onBuilt;
  }

  /** Whether jobs are pending. */
  get busy() {
    return this.#jobs.length > 0;
  }

  /**
   * Adds a job for the step holding `element` (or, when it is not in a step
   * yet, the step of the job now running).
   */
  add(run, element) {
    const section = element?.closest?.('section.step') ?? this.#running?.section ?? null;
    this.#jobs.push({ run, section });
    if (!section) return;
    this.#left.set(section, (this.#left.get(section) ?? 0) + 1);
    section.dataset.building = '';
    // Until its slices ran, a kept step shows the last result's content: said busy, and dimmed (pipeline.css).
    section.setAttribute('aria-busy', 'true');
  }

  /** Forgets the pending jobs (their steps were replaced by a new render). */
  clear() {
    this.#shown.splice(0).forEach((resolve) => resolve());
    this.#jobs = [];
    // A kept step is marked again by the next render's jobs, if it has any.
    for (const section of this.#left.keys()) {
      delete section.dataset.building;
      section.removeAttribute('aria-busy');
    }
    this.#left.clear();
    this.#observer?.disconnect();
    this.#near.clear();
  }

  /**
   * Starts on the jobs of `sections` (just rendered, in the page): notes
   * which are near the viewport, builds them first, and runs a first slice
   * now. Resolves the promises of whenShown() once those near it are built.
   */
  start(sections) {
    this.#observer?.disconnect();
    this.#near.clear();
    const height = window.innerHeight;
    for (const section of sections) {
      const rect = section.getBoundingClientRect();
      if (rect.height > 0 && rect.bottom > -height && rect.top < 2 * height) this.#near.add(section);
    }
    if (typeof IntersectionObserver !== 'undefined' && this.#jobs.length) {
      this.#observer = new IntersectionObserver(
        (entries) => {
          for (const entry of entries)
            if (entry.isIntersecting) this.#near.add(entry.target);
            else this.#near.delete(entry.target);
          this.#schedule();
        },
        { rootMargin: '100% 0px' },
      );
      sections.forEach((section) => this.#observer.observe(section));
    }
    this.#slice(now() + SLICE_MS);
  }

  /** Resolves once the steps near the viewport are built (at once when nothing is pending there). */
  whenShown() {
    if (this.#nextNear() < 0) return Promise.resolve();
    return new Promise((resolve) => this.#shown.push(resolve));
  }

  /** The index of the first job of a step near the viewport, or −1. */
  #nextNear() {
    return this.#jobs.findIndex((job) => job.section && this.#near.has(job.section));
  }

  #schedule() {
    if (this.#scheduled || !this.#jobs.length) return;
    this.#scheduled = true;
    if (this.#nextNear() >= 0)
      soon(() => {
        this.#scheduled = false;
        this.#slice(now() + SLICE_MS);
      });
    else
      whenIdle((deadline) => {
        this.#scheduled = false;
        this.#slice(now() + Math.min(SLICE_MS, deadline.timeRemaining()));
      }, 1000);
  }

  // Runs jobs until `end` (at least one), those near the viewport first.
  #slice(end) {
    do {
      const near = this.#nextNear();
      if (near < 0 && this.#shown.length) this.#shown.splice(0).forEach((resolve) => resolve());
      if (!this.#jobs.length) break;
      const [job] = this.#jobs.splice(Math.max(0, near), 1);
      this.#running = job;
      try {
        job.run();
      } catch (error) {
        // A job that throws is reported (the console, window.onerror) and the others still run:
        // rethrown here, it would leave the queue unscheduled and the page's build stalled for good.
        (globalThis.reportError ?? console.error)(error);
      } finally {
        this.#running = null;
        this.#done(job.section);
      }
    } while (now() < end);
    if (this.#nextNear() < 0) this.#shown.splice(0).forEach((resolve) => resolve());
    if (this.#jobs.length) this.#schedule();
    else this.#observer?.disconnect();
  }

  #done(section) {
    if (!section) return;
    const left = this.#left.get(section) - 1;
    if (left > 0) return this.#left.set(section, left);
    this.#left.delete(section);
    delete section.dataset.building;
    section.removeAttribute('aria-busy');
    if (section.isConnected) this.#onBuilt(section);
  }
}
