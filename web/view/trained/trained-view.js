// The "Trained model" view: the tiny 2-layer byte transformer on a text the
// reader types, shared by the page and <attention-lab model="tiny">, loaded
// with import() only in that mode. The host gives the engine (run, load a
// checkpoint's weights) and hears of the reader's changes; the view runs
// {model: 'tiny', text, checkpoint}, newest change winning, and shows:
//   the text box, "type it twice", the checkpoint slider with the training
//   curve, the weights download and "Copy as PyTorch";
//   the heads grid named by the measured scores (trained-heads.js);
//   the second copy byte by byte with its accuracy (trained-twice.js);
//   how layer 1's previous-token head feeds layer 2's induction head, and the
//   top-5 next bytes at the picked byte (trained-composition.js);
//   every tensor with its shape (trained-tensors.js).
// Errors are shown inline at the control they are about, in the reader's
// language, and the text stays as typed.
import trainedStrings from '../../i18n/en-trained.js';
import { addEnglish, errorText } from '../../i18n/index.js';
import {
  TINY_CONTEXT,
  TWICE_SENTENCES,
  byteLabels,
  compositionHeads,
  compositionPick,
  defaultQuery,
  headLabels,
  headName,
  nextByteLabel,
  repeatLengthOf,
  secondCopyMarks,
  topNextBytes,
  typedTwice,
  utf8Bytes,
  weightsFileName,
} from '../../model/tiny.js';
import { tinyPytorchScript } from '../../model/tiny-pytorch.js';
import { adoptStyleSheets, heatmapStyleSheet } from '../common/colors.js';
import { element } from '../common/dom.js';
import { withCode } from '../common/matrix.js';
import { WEIGHTS_BYTES, renderCheckpointSlider, renderCurve } from './checkpoints.js';
import { renderComposition, renderNextBytes } from './composition.js';
import { renderHeadsGrid, scoreText } from './head-roles.js';
import { renderTensors } from './tensors.js';
import { renderTypedTwice } from './twice.js';
import trainedCss from './trained.css?inline';

addEnglish(trainedStrings);

/** `message` with the name of its control in front, unless it opens with it ("text is 87 bytes" at "Text"). */
function named(label, message, tr) {
  if (!message.toLowerCase().startsWith(label.toLowerCase())) return tr('trained.error.at', { label, message });
  return message[0].toUpperCase() + message.slice(1);
}

let sheet = null;
const trainedStyleSheet = () => {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(trainedCss);
  }
  return sheet;
};

let views = 0; // ids unique on the page, for several elements

/**
 * A section: a heading and its content. `key` names it (data-trained) for
 * the tests and the host's links.
 */
function section(key, title, ...content) {
  const box = element('section', 'trained-section');
  box.dataset.trained = key;
  const heading = element('h2', 'trained-heading', title);
  heading.id = `${key}-${views}`;
  box.setAttribute('aria-labelledby', heading.id);
  box.append(heading, ...content);
  return box;
}

/**
 * Builds the view into `container`. host: {run(config) -> Promise<result |
 * null (superseded)>, load(step) -> Promise, checkpoints: number[],
 * weightsUrl(step) -> string, onChange?({text, checkpoint}) (the reader
 * changed them), onResult?(result), onError?(error)}. Returns {show({text,
 * checkpoint}), setOptions({t, theme, decimals}), result, error}.
 */
export function createTrainedView(container, host) {
  const id = `trained-${++views}`;
  const root = container.getRootNode();
  adoptStyleSheets(root, [trainedStyleSheet(), heatmapStyleSheet()]);
  const state = {
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
  let runs = 0;
  let pending = 0; // runs not finished yet (superseded ones too)
  const box = element('div', 'trained');
  box.dataset.trainedView = '';
  container.replaceChildren(box);

  /** The PyTorch program of the text and step shown, printing the next bytes at the picked byte. */
  const program = () =>
    tinyPytorchScript({
      text: state.result?.text ?? state.text,
      checkpoint: state.checkpoint,
      url: host.weightsUrl(state.checkpoint),
      query: state.query,
    });

  // ---- controls: built per language; the sections below are rebuilt per result ----
  let controls = null;
  const sections = element('div', 'trained-sections');
  const t = () => state.options.t;

  function buildControls() {
    const tr = t();
    const textId = `${id}-text`;
    const errorId = `${id}-text-error`;
    const label = element('label', 'trained-label', tr('trained.text.label', { max: TINY_CONTEXT }));
    label.htmlFor = textId;
    const input = element('textarea');
    input.id = textId;
    input.rows = 2;
    input.spellcheck = false;
    input.setAttribute('aria-describedby', `${errorId} ${id}-count`);
    input.value = state.text;
    const count = element('p', 'trained-count');
    count.id = `${id}-count`;
    const error = element('p', 'field-error trained-error');
    error.id = errorId;
    error.setAttribute('role', 'alert');
    error.hidden = true;
    const twice = element('button', 'trained-twice-button', tr('trained.twice.button'));
    twice.type = 'button';
    twice.addEventListener('click', () => {
      try {
        const { text } = typedTwice(input.value);
        input.value = text;
        change({ text });
      } catch (problem) {
        showError(problem);
      }
    });
    input.addEventListener('input', () => change({ text: input.value }));
    const slider = renderCheckpointSlider({
      checkpoints: host.checkpoints,
      step: state.checkpoint,
      t: tr,
      id: `${id}-checkpoint`,
      onStep: (step) => change({ checkpoint: step }),
    });
    const checkpointError = element('p', 'field-error trained-error');
    checkpointError.setAttribute('role', 'alert');
    checkpointError.hidden = true;
    checkpointError.id = `${id}-checkpoint-error`;
    slider.input.setAttribute('aria-describedby', checkpointError.id);
    const download = element('a', 'trained-download');
    const copy = element('button', 'trained-copy', tr('export.pytorch'));
    copy.type = 'button';
    const copyStatus = element('span', 'trained-copy-status');
    copyStatus.setAttribute('role', 'status');
    const programBox = element('details', 'trained-program');
    programBox.hidden = true;
    const programSummary = element('summary', '', tr('export.pytorchTitle'));
    const programText = element('textarea');
    programText.readOnly = true;
    programText.rows = 16;
    programText.spellcheck = false;
    programText.setAttribute('aria-label', tr('export.pytorchTitle'));
    programBox.append(programSummary, programText);
    copy.addEventListener('click', async () => {
      const script = program();
      programText.value = script;
      programBox.hidden = false;
      programBox.open = true;
      try {
        await navigator.clipboard.writeText(script);
        copyStatus.textContent = tr('trained.copied');
      } catch {
        copyStatus.textContent = tr('trained.copyShown');
      }
    });
    const intro = element('p', 'trained-intro');
    intro.append(...withCode(tr('trained.intro')));
    const bytesNote = element('p', 'note', tr('trained.bytesNote'));
    const textRow = element('div', 'trained-text-row');
    textRow.append(input, twice);
    const actions = element('div', 'trained-actions');
    actions.append(download, copy, copyStatus);
    const curve = element('div', 'trained-curve-box');
    const box = element('div', 'trained-controls');
    box.append(
      element('h2', 'trained-title', tr('trained.title')),
      intro,
      bytesNote,
      label,
      textRow,
      count,
      error,
      slider.element,
      checkpointError,
      curve,
      actions,
      programBox,
    );
    return { box, input, count, error, slider, checkpointError, download, curve };
  }

  /** The byte count, the download link and the curve's mark: what follows the text and the step at once. */
  function syncControls() {
    const tr = t();
    const bytes = utf8Bytes(state.text).length;
    controls.count.textContent = tr('trained.text.count', { bytes, max: TINY_CONTEXT });
    controls.count.classList.toggle('over', bytes > TINY_CONTEXT);
    if (document.activeElement !== controls.input && controls.input.value !== state.text)
      controls.input.value = state.text;
    controls.slider.set(state.checkpoint);
    const file = weightsFileName(state.checkpoint);
    controls.download.href = host.weightsUrl(state.checkpoint);
    controls.download.download = file;
    controls.download.textContent = tr('trained.download', {
      file,
      size: Math.round((WEIGHTS_BYTES.get(state.checkpoint) ?? 0) / 1024),
    });
    controls.curve.replaceChildren(renderCurve({ step: state.checkpoint, checkpoints: host.checkpoints, t: tr }));
  }

  /** The reader changed the text or the step: tell the host, and run. */
  function change(changes) {
    Object.assign(state, changes);
    if ('text' in changes) state.query = null; // new bytes: the default query again
    host.onChange?.({ text: state.text, checkpoint: state.checkpoint });
    syncControls();
    return run();
  }

  /** Shows `problem` at the control of its field (the text, else the checkpoint); null clears both. */
  function showError(problem) {
    state.error = problem;
    const tr = t();
    // The checkpoint's files (its weights, the model's wasm) are said at the slider too.
    const onCheckpoint = problem?.field === 'checkpoint' || problem?.field === 'weights file';
    const message = problem
      ? problem.code === 'twice-empty'
        ? tr('trained.error.twiceEmpty')
        : named(onCheckpoint ? tr('trained.checkpoint.label') : tr('trained.text.name'), errorText(problem, tr), tr)
      : '';
    for (const [target, input, on] of [
      [controls.error, controls.input, Boolean(problem) && !onCheckpoint],
      [controls.checkpointError, controls.slider.input, onCheckpoint],
    ]) {
      target.hidden = !on;
      target.textContent = on ? message : '';
      input.toggleAttribute('aria-invalid', on);
    }
  }

  async function run() {
    const mine = ++runs;
    const config = { model: 'tiny', text: state.text, checkpoint: state.checkpoint };
    box.setAttribute('aria-busy', 'true');
    pending++;
    try {
      await host.load(state.checkpoint);
      if (mine !== runs) return;
      const result = await host.run(config);
      if (result === null || mine !== runs) return;
      state.result = result;
      showError(null);
      renderSections();
      host.onResult?.(result);
    } catch (problem) {
      if (mine !== runs) return;
      showError(problem);
      host.onError?.(problem);
    } finally {
      pending--;
      if (mine === runs) box.removeAttribute('aria-busy');
    }
  }

  // ---- the sections ----
  function renderSections({ focus = null } = {}) {
    const result = state.result;
    if (!result) return;
    const tr = t();
    const { theme, decimals } = state.options;
    const ids = result.ids;
    const labels = byteLabels(ids);
    const n = result.headScores?.repeatLength ?? repeatLengthOf(ids);
    if (state.query === null || state.query >= ids.length) state.query = defaultQuery(ids, n) ?? ids.length - 1;
    const query = state.query;
    const heads = headLabels(result.headScores, result.sizes.layers, result.sizes.heads);
    state.selected ??= { layer: 1, head: compositionHeads(result.headScores).induction ?? 0 };
    state.tensor ??= { key: `layers.${state.selected.layer}.weights`, head: state.selected.head };
    const pickQuery = (i, { focus: refocus = false } = {}) => {
      state.query = i;
      renderSections({ focus: refocus ? `[data-trained="twice"] [data-i="${i}"]` : null });
    };
    const pickHead = (layer, head) => {
      state.selected = { layer, head };
      state.tensor = { key: `layers.${layer}.weights`, head };
      renderSections({ focus: `[data-head="${headName(layer, head)}"]` });
    };
    const headsNote = element('p', 'note');
    headsNote.append(...withCode(tr('trained.heads.how')));
    const measured = element('p', 'trained-measured', measuredText(result, heads, tr));
    const byteLabel = (i) => (b) => nextByteLabel(ids, i, b);
    const nextBox = renderNextBytes({
      top: topNextBytes(result.tensors.probs, query, 5),
      i: query,
      label: labels[query],
      byteLabel: byteLabel(query),
      decimals,
      t: tr,
    });
    sections.replaceChildren(
      section(
        'heads',
        tr('trained.heads.title'),
        measured,
        renderHeadsGrid({
          result,
          labels: heads,
          n,
          stripe: compositionHeads(result.headScores).induction,
          selected: state.selected,
          theme,
          t: tr,
          onPick: pickHead,
        }),
        headsNote,
      ),
      section(
        'twice',
        tr('trained.twice.title'),
        renderTypedTwice({
          ids,
          labels,
          n,
          marks: secondCopyMarks(ids, result.tensors.probs, n),
          secondCopy: result.secondCopy,
          query,
          t: tr,
          predictedLabel: (i, b) => nextByteLabel(ids, i, b),
          onPick: pickQuery,
        }),
      ),
      section(
        'composition',
        tr('trained.composition.title'),
        renderComposition({
          result,
          labels,
          pick: n && query >= n ? compositionPick(ids, query, n) : null,
          heads: compositionHeads(result.headScores),
          theme,
          t: tr,
        }),
        nextBox,
      ),
      section(
        'tensors',
        tr('trained.tensors.title'),
        renderTensors({
          result,
          labels,
          pick: state.tensor,
          theme,
          decimals,
          t: tr,
          id: `${id}-tensor`,
          onPick: (pick, { focus: refocus = null } = {}) => {
            state.tensor = pick;
            renderSections({ focus: refocus ? `#${refocus}` : `[data-trained="tensors"] [aria-pressed="true"]` });
          },
        }),
      ),
    );
    if (focus) sections.querySelector(focus)?.focus();
  }

  return {
    /**
     * Shows `text` at `checkpoint` (the host's settings: an attribute, a
     * link; undefined: the default sentence of `lang` typed twice, the last
     * checkpoint); runs when either changed.
     */
    show({ text, checkpoint, lang = 'en' }) {
      text ??= typedTwice(TWICE_SENTENCES[lang] ?? TWICE_SENTENCES.en).text;
      checkpoint = stepOf(checkpoint, host.checkpoints);
      const changed = text !== state.text || checkpoint !== state.checkpoint || !state.result;
      state.text = text;
      state.checkpoint = checkpoint;
      if (changed) state.query = null;
      if (controls) syncControls();
      return changed ? run() : Promise.resolve();
    },
    /** The language, palette and decimals: the controls are rebuilt (in the new language) and the sections redrawn. */
    setOptions(options) {
      const languageChanged = options.t && options.t !== state.options.t;
      Object.assign(state.options, options);
      if (languageChanged || !controls) {
        controls = buildControls();
        box.replaceChildren(controls.box, sections);
        syncControls();
        if (state.error) showError(state.error);
      }
      renderSections();
    },
    get result() {
      return state.result;
    },
    /** Whether a run is under way. */
    get busy() {
      return pending > 0;
    },
    /** The PyTorch program of what is shown (Copy as PyTorch). */
    pytorchScript: () => program(),
    get error() {
      return state.error;
    },
    /** The text shown (the text box's, as typed). */
    get text() {
      return state.text;
    },
    get checkpoint() {
      return state.checkpoint;
    },
  };
}

/** A checkpoint setting as the engine takes it: a number from number text, the last step when not set. */
function stepOf(value, checkpoints) {
  if (value === undefined || value === null || String(value).trim() === '') return checkpoints.at(-1);
  const n = Number(String(value).trim());
  return Number.isFinite(n) ? n : value;
}

/** "Measured now on this text at step 3000: …" — which heads the scores name, with their numbers. */
function measuredText(result, heads, t) {
  const named = heads.filter((h) => h.kind);
  const list = named.map((h) =>
    t(h.kind === 'induction' ? 'trained.measured.induction' : 'trained.measured.previousToken', {
      head: headName(h.layer, h.head),
      value: scoreText(h.kind === 'induction' ? h.induction : h.previousToken),
    }),
  );
  const start = t('trained.measured.start', { step: result.checkpoint });
  if (list.length === 0) return `${start} ${t('trained.measured.none')}`;
  return `${start} ${list.join(t('trained.measured.and'))}`;
}
