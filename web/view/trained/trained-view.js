// The "Trained model" view: the tiny 2-layer byte transformer on a text the
// reader types, shared by the page and <attention-lab model="tiny">, loaded
// with import() only in that mode. The host gives the engine (run, load a
// checkpoint's weights) and hears of the reader's changes; the view runs
// {model: 'tiny', text, checkpoint}, newest change winning, and shows:
//   the controls (controls.js): the text box and "type it twice"
//   (text-field.js), the checkpoint slider with the training curve
//   (checkpoints.js), the weights download and "Copy as PyTorch"
//   (pytorch-copy.js);
//   the sections (sections.js): the heads grid named by the measured scores
//   (head-roles.js); the second copy byte by byte with its accuracy
//   (twice.js); how layer 1's previous-token head feeds layer 2's induction
//   head, and the top-5 next bytes at the picked byte (composition.js); every
//   tensor with its shape (tensors.js).
// Errors are shown inline at the control they are about, in the reader's
// language (field-errors.js), and the text stays as typed.
import trainedStrings from '../../i18n/trained.js';
import { addStrings } from '../../i18n/index.js';
import { TWICE_SENTENCES, compositionHeads, defaultQuery, headName, typedTwice } from '../../model/tiny.js';
import { tinyPytorchScript } from '../../model/tiny-pytorch.js';
import { adoptStyleSheets, heatmapStyleSheet } from '../common/colors.js';
import { element } from '../common/dom.js';
import { renderControls, syncControls } from './controls.js';
import { showFieldErrors } from './field-errors.js';
import { renderSections } from './sections.js';
import { trainedStyleSheet } from './trained-sheet.js';

addStrings(trainedStrings);

let views = 0; // ids unique on the page, for several elements

/** A checkpoint setting as the engine takes it: a number from number text, the last step when not set. */
function stepOf(value, checkpoints) {
  if (value === undefined || value === null || String(value).trim() === '') return checkpoints.at(-1);
  const n = Number(String(value).trim());
  return Number.isFinite(n) ? n : value;
}

/** One view: its state, its controls and sections in `box`, and its runs (the newest winning). */
class TrainedView {
  constructor(container, host) {
    this.id = `trained-${++views}`;
    this.host = host;
    adoptStyleSheets(container.getRootNode(), [trainedStyleSheet(), heatmapStyleSheet()]);
    this.state = {
      text: '',
      checkpoint: host.checkpoints.at(-1),
      options: { t: null, theme: 'light', decimals: 4 },
      result: null,
      error: null, // {field, code, params, message} of the last run, or a TwiceError
      query: null,
      selected: null, // the head picked in the grid; at first layer 2's best induction head
      tensor: null, // {key, head} of the tensor shown; at first the selected head's weights
      script: null, // the PyTorch program, once asked for
    };
    this.runs = 0;
    this.pending = 0; // runs not finished yet (superseded ones too)
    this.controls = null; // built per language; the sections are rebuilt per result
    this.box = element('div', 'trained');
    this.box.dataset.trainedView = '';
    this.sections = element('div', 'trained-sections');
    container.replaceChildren(this.box);
  }

  /** The PyTorch program of the text and step shown, printing the next bytes at the picked byte. */
  program() {
    const { state, host } = this;
    return tinyPytorchScript({
      text: state.result?.text ?? state.text,
      checkpoint: state.checkpoint,
      url: host.weightsUrl(state.checkpoint),
      query: state.query,
    });
  }

  /** Builds the controls in the language of the options, and puts them and the sections in the box. */
  buildControls() {
    this.controls = renderControls({
      id: this.id,
      t: this.state.options.t,
      text: this.state.text,
      step: this.state.checkpoint,
      checkpoints: this.host.checkpoints,
      program: () => this.program(),
      onText: (text) => this.change({ text }),
      onStep: (step) => this.change({ checkpoint: step }),
      onError: (problem) => this.showError(problem),
    });
    this.box.replaceChildren(this.controls.box, this.sections);
  }

  /** The controls follow the text and the step shown. */
  syncControls() {
    const { state, host } = this;
    syncControls(this.controls, {
      text: state.text,
      step: state.checkpoint,
      checkpoints: host.checkpoints,
      weightsUrl: (step) => host.weightsUrl(step),
      t: state.options.t,
    });
  }

  /** The reader changed the text or the step: tell the host, and run. */
  change(changes) {
    const state = this.state;
    Object.assign(state, changes);
    if ('text' in changes) state.query = null; // new bytes: the default query again
    this.host.onChange?.({ text: state.text, checkpoint: state.checkpoint });
    this.syncControls();
    return this.run();
  }

  /** Shows `problem` at the control of its field (the text, else the checkpoint); null clears both. */
  showError(problem) {
    this.state.error = problem;
    showFieldErrors(this.controls, problem, this.state.options.t);
  }

  /** Runs the text at the step (aria-busy meanwhile); a newer run supersedes it. */
  async run() {
    const { state, host, box } = this;
    const mine = ++this.runs;
    const config = { model: 'tiny', text: state.text, checkpoint: state.checkpoint };
    box.setAttribute('aria-busy', 'true');
    this.pending++;
    try {
      await host.load(state.checkpoint);
      if (mine !== this.runs) return;
      const result = await host.run(config);
      if (result === null || mine !== this.runs) return;
      state.result = result;
      this.showError(null);
      this.renderSections();
      host.onResult?.(result);
    } catch (problem) {
      if (mine !== this.runs) return;
      this.showError(problem);
      host.onError?.(problem);
    } finally {
      this.pending--;
      if (mine === this.runs) box.removeAttribute('aria-busy');
    }
  }

  /** Redraws the sections of the result (picking the defaults first), then focuses `focus`. */
  renderSections({ focus = null } = {}) {
    const { state } = this;
    const result = state.result;
    if (!result) return;
    const ids = result.ids;
    if (state.query === null || state.query >= ids.length)
      state.query = defaultQuery(ids, result.headScores.repeatTargets) ?? ids.length - 1;
    state.selected ??= { layer: 1, head: compositionHeads(result.headScores).induction ?? 0 };
    state.tensor ??= { key: `layers.${state.selected.layer}.weights`, head: state.selected.head };
    this.sections.replaceChildren(
      ...renderSections({
        result,
        query: state.query,
        selected: state.selected,
        tensor: state.tensor,
        options: state.options,
        id: this.id,
        suffix: views,
        onQuery: (i, options) => this.pickQuery(i, options),
        onHead: (layer, head) => this.pickHead(layer, head),
        onTensor: (pick, options) => this.pickTensor(pick, options),
      }),
    );
    if (focus) this.sections.querySelector(focus)?.focus();
  }

  /** The reader picked the byte at `i` in the second copy. */
  pickQuery(i, { focus: refocus = false } = {}) {
    this.state.query = i;
    this.renderSections({ focus: refocus ? `[data-trained="twice"] [data-i="${i}"]` : null });
  }

  /** The reader picked a head in the grid: its weights are the tensor shown. */
  pickHead(layer, head) {
    this.state.selected = { layer, head };
    this.state.tensor = { key: `layers.${layer}.weights`, head };
    this.renderSections({ focus: `[data-head="${headName(layer, head)}"]` });
  }

  /** The reader picked a tensor or a head of it. */
  pickTensor(pick, { focus: refocus = null } = {}) {
    this.state.tensor = pick;
    this.renderSections({ focus: refocus ? `#${refocus}` : `[data-trained="tensors"] [aria-pressed="true"]` });
  }

  /** Shows `text` at `checkpoint`; runs when either changed (see createTrainedView). */
  show({ text, checkpoint, lang = 'en' }) {
    const state = this.state;
    text ??= typedTwice(TWICE_SENTENCES[lang] ?? TWICE_SENTENCES.en).text;
    checkpoint = stepOf(checkpoint, this.host.checkpoints);
    const changed = text !== state.text || checkpoint !== state.checkpoint || !state.result;
    state.text = text;
    state.checkpoint = checkpoint;
    if (changed) state.query = null;
    if (this.controls) this.syncControls();
    return changed ? this.run() : Promise.resolve();
  }

  /** The language, palette and decimals: the controls are rebuilt (in the new language) and the sections redrawn. */
  setOptions(options) {
    const state = this.state;
    const languageChanged = options.t && options.t !== state.options.t;
    Object.assign(state.options, options);
    if (languageChanged || !this.controls) {
      this.buildControls();
      this.syncControls();
      if (state.error) this.showError(state.error);
    }
    this.renderSections();
  }
}

/**
 * Builds the view into `container`. host: {run(config) -> Promise<result |
 * null (superseded)>, load(step) -> Promise, checkpoints: number[],
 * weightsUrl(step) -> string, onChange?({text, checkpoint}) (the reader
 * changed them), onResult?(result), onError?(error)}. Returns {show({text,
 * checkpoint}), setOptions({t, theme, decimals}), result, error}.
 */
export function createTrainedView(container, host) {
  const view = new TrainedView(container, host);
  return {
    /**
     * Shows `text` at `checkpoint` (the host's settings: an attribute, a
     * link; undefined: the default sentence of `lang` typed twice, the last
     * checkpoint); runs when either changed.
     */
    show: (settings) => view.show(settings),
    /** The language, palette and decimals: the controls are rebuilt (in the new language) and the sections redrawn. */
    setOptions: (options) => view.setOptions(options),
    get result() {
      return view.state.result;
    },
    /** Whether a run is under way. */
    get busy() {
      return view.pending > 0;
    },
    /** The PyTorch program of what is shown (Copy as PyTorch). */
    pytorchScript: () => view.program(),
    get error() {
      return view.state.error;
    },
    /** The text shown (the text box's, as typed). */
    get text() {
      return view.state.text;
    },
    get checkpoint() {
      return view.state.checkpoint;
    },
  };
}
