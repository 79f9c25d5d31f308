// The KV-cache and online-softmax steppers of a controller. Their bodies live here from the start, so the
// pipeline holds them across renders; their panels (stepper-panels.js: the step controls, the figures, the
// words) are loaded the first time a stepper's body is on the page, as their figures are extra engine calls
// anyway (a part of its own in the standalone scripts).
import { element } from '../common/dom.js';

const stepperBody = (kind) => {
  const body = element('div', 'stepper-body');
  body.dataset.stepper = kind;
  return body;
};

export class Steppers {
  #fetch;
  #bodies = { kvcache: stepperBody('decode'), flash: stepperBody('flash') };
  #panels = null;
  #loading = null;
  #ctx = null;

  /** fetch(method, options) runs lab.decode / lab.flash for the current result's config. */
  constructor(fetch) {
    this.#fetch = fetch;
  }

  /** The body of step `step` ('kvcache' or 'flash') for the pipeline. */
  body(step) {
    return this.#bodies[step];
  }

  /** After every render: ctx {t, result, b, h, decimals, theme, exportable, queryLabels, keyLabels}. */
  update(ctx) {
    if (this.#panels) {
      this.#panels.update(ctx);
      return;
    }
    this.#ctx = ctx;
    if (!Object.values(this.#bodies).some((body) => body.isConnected)) return;
    this.#loading ??= import('./stepper-panels.js').then(
      ({ StepperPanels }) => {
        this.#panels = new StepperPanels(this.#fetch, this.#bodies);
        this.#panels.update(this.#ctx);
      },
      () => {
        // No address to load the panels from (a standalone script inlined in a notebook): the steppers say so.
        for (const body of Object.values(this.#bodies))
          body.replaceChildren(element('p', 'stepper-note', this.#ctx.t('stepper.unavailable')));
        this.#loading = false;
      },
    );
  }

  /** Whether a stepper waits for its code or its figures. */
  get busy() {
    return this.#panels ? this.#panels.busy : Boolean(this.#loading);
  }

  /** What the explanations read: each stepper's figures and step (none before the panels are loaded). */
  get state() {
    return this.#panels?.state ?? { decode: null, flash: null };
  }
}
