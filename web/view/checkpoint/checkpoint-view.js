// The checkpoint view: a Hugging Face checkpoint the reader opens from its
// files (GPT-2, Llama, Qwen2), shared by the page and <attention-lab
// model="checkpoint">, loaded with import() only in that mode. It reads as
// the pipeline:
//   open-field.js   "Open a model": the files (picked or dropped), the bytes
//                   read while opening, the model's summary;
//   open-model.js   the model and its tokenizer from the files;
//   token-field.js  the text (tokenized live) or the ids the model reads;
//   sections.js     every head's scores (the tiny model's heads grid), the
//                   picked head step by step (pickers.js, head-steps.js),
//                   the next token (next-tokens.js).
// Errors are shown inline at the control they are about (the files, the
// text or ids), in the reader's language; the text stays as typed. Opening
// another model closes the one before (model.close()) once the new one is
// open, so its memory is given back and a failed open leaves it shown.
import checkpointStrings from '../../i18n/checkpoint.js';
import { addStrings, errorText } from '../../i18n/index.js';
import { VIEW_TENSORS, checkpointSummary, parseIds } from '../../model/checkpoint-heads.js';
import { tokenChips } from '../../model/bpe-tokens.js';
import { adoptStyleSheets, heatmapStyleSheet } from '../common/colors.js';
import { element } from '../common/dom.js';
import { trainedStyleSheet } from '../trained/trained-sheet.js';
import checkpointCss from './checkpoint.css?inline';
import { renderOpenField } from './open-field.js';
import { openModel } from './open-model.js';
import { renderSections } from './sections.js';
import { renderTokenField, showTokenChips } from './token-field.js';

addStrings(checkpointStrings);

let sheet = null;
const checkpointStyleSheet = () => {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(checkpointCss);
  }
  return sheet;
};

let views = 0; // ids unique on the page, for several elements

/** The text a tokenizer reads at first, in the reader's language: a sentence typed twice shows induction heads. */
const DEFAULT_TEXT = { en: 'The cat sat on the mat. The cat sat on the mat.', zh: '今天天气很好。今天天气很好。' };

/** The ids read at first without a tokenizer: 1 … 6 twice (fewer when the model's vocab or context is smaller). */
function defaultIds(sizes) {
  const n = Math.max(1, Math.min(6, sizes.vocab - 1, Math.floor(sizes.maxTokens / 2)));
  const once = Array.from({ length: n }, (_, k) => k + 1);
  return [...once, ...once].join(' ');
}

/** `message` with the name of its control in front, unless it opens with it. */
function named(label, message, t) {
  if (message.toLowerCase().startsWith(label.toLowerCase())) return message[0].toUpperCase() + message.slice(1);
  return t('checkpoint.error.at', { label, message });
}

class CheckpointView {
  constructor(container, host) {
    this.id = `checkpoint-${++views}`;
    this.host = host;
    adoptStyleSheets(container.getRootNode(), [trainedStyleSheet(), checkpointStyleSheet(), heatmapStyleSheet()]);
    this.state = {
      options: { t: null, theme: 'light', decimals: 4 },
      model: null,
      fileNames: null, // of the files last chosen or dropped, shown beside the button
      tokenizer: null,
      tokenizerError: null,
      typed: { text: null, ids: null }, // what the reader typed in each box (kept across models and languages); null: the default
      result: null,
      tokens: [], // [{id, label}] of the ids read
      pick: { layer: 0, head: 0, query: 0, followsLast: true }, // the followed token stays the last one until picked
      openError: null,
      inputError: null,
    };
    this.opens = 0;
    this.pending = 0;
    this.box = element('div', 'trained checkpoint');
    this.box.dataset.checkpointView = '';
    this.controls = element('div', 'trained-controls');
    this.sections = element('div', 'trained-sections');
    this.box.append(this.controls, this.sections);
    container.replaceChildren(this.box);
  }

  get t() {
    return this.state.options.t;
  }

  /** The controls in the language of the options: the open field, and the text or ids box once a model is open. */
  buildControls() {
    const { t, state } = this;
    const names = state.fileNames;
    this.open = renderOpenField({ id: this.id, t, names, onFiles: (files) => this.openFiles(files) });
    const intro = element('p', 'trained-intro', t('checkpoint.intro'));
    this.controls.replaceChildren(element('h2', 'trained-title', t('checkpoint.title')), intro, this.open.box);
    this.field = null;
    if (state.model) {
      this.field = renderTokenField({
        id: this.id,
        t,
        tokenized: Boolean(state.tokenizer),
        value: this.inputText(),
        onInput: (text) => {
          state.typed[this.kind] = text;
          this.run();
        },
      });
      this.controls.append(this.field.box);
    }
    this.showSummary();
    this.showErrors();
    this.showTokens();
  }

  /** Which box the model reads from: 'text' (it has a tokenizer) or 'ids'. */
  get kind() {
    return this.state.tokenizer ? 'text' : 'ids';
  }

  /** The text or ids in the box: as typed, else the default for the model. */
  inputText() {
    const { state } = this;
    if (state.typed[this.kind] !== null) return state.typed[this.kind];
    return state.tokenizer ? (DEFAULT_TEXT[this.t.lang] ?? DEFAULT_TEXT.en) : defaultIds(state.model.sizes);
  }

  showSummary() {
    const { state, t } = this;
    this.open.summary.textContent = state.model ? checkpointSummary(state.model, t) : t('checkpoint.open.none');
  }

  /** The errors at their controls: the open's (and a tokenizer's) at the files, the run's at the text or ids. */
  showErrors() {
    const { state, t } = this;
    const openProblem = state.openError ?? state.tokenizerError;
    const openText = state.openError
      ? named(t('checkpoint.open.name'), errorText(state.openError, t), t)
      : state.tokenizerError
        ? t('checkpoint.tokenizer.failed', { message: errorText(state.tokenizerError, t) })
        : '';
    this.open.error.hidden = !openProblem;
    this.open.error.textContent = openText;
    for (const control of [this.open.input, this.open.choose])
      control.toggleAttribute('aria-invalid', Boolean(state.openError));
    if (!this.field) return;
    const problem = state.inputError;
    const label = t(state.tokenizer ? 'checkpoint.text.name' : 'checkpoint.ids.name');
    let text = '';
    if (problem?.code === 'ids-syntax') text = t('checkpoint.error.idsSyntax');
    else if (problem?.code === 'input-empty') text = t('checkpoint.error.empty', { label });
    else if (problem) text = named(label, errorText(problem, t), t);
    this.field.error.hidden = !problem;
    this.field.error.textContent = text;
    this.field.input.toggleAttribute('aria-invalid', Boolean(problem));
  }

  /** The chips and the count of the tokens read. */
  showTokens() {
    if (!this.field) return;
    const { state, t } = this;
    showTokenChips(this.field.chips, state.tokens);
    this.field.count.textContent = t(state.tokens.length === 1 ? 'checkpoint.tokens.one' : 'checkpoint.tokens.count', {
      count: state.tokens.length,
      max: state.model.sizes.maxTokens,
    });
  }

  /** Opens `files` as a model; the one before is closed once it is open. A newer open supersedes it. */
  async openFiles(files) {
    const mine = ++this.opens;
    const { state } = this;
    state.fileNames = files.map((file) => file.name);
    this.pending++;
    this.box.setAttribute('aria-busy', 'true');
    this.open.setProgress({ read: 0, total: 1 });
    try {
      const opened = await openModel(files, {
        onProgress: (bytes) => mine === this.opens && this.open.setProgress(bytes),
      });
      if (mine !== this.opens) {
        opened.model.close();
        return;
      }
      state.model?.close();
      Object.assign(state, opened, { openError: null, result: null, tokens: [], inputError: null });
      state.pick = { layer: 0, head: 0, query: 0, followsLast: true };
      this.buildControls();
      this.run();
    } catch (problem) {
      if (mine !== this.opens) return;
      state.openError = problem;
      this.showErrors();
      this.host.onError?.(problem);
    } finally {
      this.pending--;
      if (mine === this.opens) {
        this.open.setProgress(null);
        this.box.removeAttribute('aria-busy');
      }
    }
  }

  /** The ids the box holds: the tokenizer's reading of the text, or the ids typed; throws {code} for none or bad ones. */
  readIds() {
    const { state } = this;
    const text = this.inputText();
    if (state.tokenizer) {
      const { pieces } = state.tokenizer.encode(text);
      return tokenChips(pieces);
    }
    return parseIds(text).map((id) => ({ id, label: String(id) }));
  }

  /** Runs the model on the box's tokens (at once: the forward is synchronous) and redraws the sections. */
  run() {
    const { state } = this;
    if (!state.model) return;
    try {
      const tokens = this.readIds();
      state.tokens = tokens;
      if (tokens.length === 0) throw Object.assign(new Error('input-empty'), { code: 'input-empty' });
      state.result = state.model.run(
        tokens.map((token) => token.id),
        { tensors: VIEW_TENSORS },
      );
      state.inputError = null;
      const T = state.result.ids.length;
      const { layers, heads } = state.model.sizes;
      const { layer, head, query, followsLast } = state.pick;
      state.pick = {
        layer: Math.min(layer, layers - 1),
        head: Math.min(head, heads - 1),
        query: followsLast ? T - 1 : Math.min(query, T - 1),
        followsLast,
      };
      this.host.onResult?.(state.result);
    } catch (problem) {
      state.inputError = problem;
      if (problem.code !== 'ids-syntax' && problem.code !== 'input-empty') this.host.onError?.(problem);
    }
    this.showTokens();
    this.showErrors();
    this.renderSections();
  }

  /** The sections of the last good result; the focus to `focus` (a selector) after. */
  renderSections({ focus = null } = {}) {
    const { state } = this;
    if (!state.result || !state.model) {
      this.sections.replaceChildren();
      return;
    }
    const labels = state.result.ids.map((id, i) => state.tokens[i]?.label ?? String(id));
    const labelOf = (id) => (state.tokenizer ? tokenChips(state.tokenizer.pieces([id]))[0].label : String(id));
    this.sections.replaceChildren(
      ...renderSections({
        result: state.result,
        sizes: state.model.sizes,
        labels,
        labelOf,
        pick: state.pick,
        options: state.options,
        id: this.id,
        onPick: (changes, { focus: toHead = false } = {}) => this.pick(changes, toHead),
      }),
    );
    if (focus) this.sections.querySelector(focus)?.focus();
  }

  /** The reader picked a layer, a head (in a menu or the grid) or the token to follow. */
  pick(changes, toHead) {
    const { state } = this;
    const T = state.result.ids.length;
    Object.assign(state.pick, changes);
    if ('query' in changes) state.pick.followsLast = changes.query === T - 1;
    const which = Object.keys(changes).find((key) => key !== 'followsLast');
    const focus = toHead
      ? `[data-head="L${state.pick.layer + 1}H${state.pick.head + 1}"]`
      : `#${this.id}-${which === 'query' ? 'query' : which}`;
    this.renderSections({ focus });
  }

  /** The language, palette and decimals: the controls are rebuilt in the new language, the sections redrawn. */
  setOptions(options) {
    const { state } = this;
    const languageChanged = options.t && options.t !== state.options.t;
    Object.assign(state.options, options);
    if (languageChanged || !this.open) this.buildControls();
    this.renderSections();
  }
}

/**
 * Builds the view into `container`. host: {onResult?(result), onError?(problem)}.
 * Returns {setOptions({t, theme, decimals}), openFiles(files), result, model, error, busy}.
 */
export function createCheckpointView(container, host) {
  const view = new CheckpointView(container, host);
  return {
    setOptions: (options) => view.setOptions(options),
    /** Opens the files of a checkpoint's folder (File[]), as the file picker does. */
    openFiles: (files) => view.openFiles(files),
    /** The last run's result (open.js run), or null. */
    get result() {
      return view.state.result;
    },
    /** The model open (its sizes, bytesRead, fileBytes), or null. */
    get model() {
      return view.state.model;
    },
    /** The error shown (the open's, else the text's or ids'), or null. */
    get error() {
      return view.state.openError ?? view.state.inputError;
    },
    get busy() {
      return view.pending > 0;
    },
  };
}
