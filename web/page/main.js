// Attention Lab page: the input, the settings, and the pipeline view, all
// recomputed live through the engine worker on every change.
import './styles.css';
import { buildControls, controlForField, DEFAULT_FORM, formToConfig, presetForm } from './controls.js';
import { headColor } from './colors.js';
import { createEngineClient } from './engine-client.js';
import { cellOfEvent, explainCell } from './explain.js';
import { LANGUAGES, language, setLanguage, t } from './i18n.js';
import { applyEdits, countEdits, emptyEdits } from './edits.js';
import { PRESETS } from './presets.js';
import { openShareDialog, restoreFromLocation, wireShareDialog } from './share-ui.js';
import { resultToJson, resultToNpyZip, toCsv, toJson, toLatex, toNumpy } from './export.js';
import { pytorchScript } from './pytorch-script.js';
import { renderPipeline, renderTabs } from './sections.js';

const $ = (id) => document.getElementById(id);
const stored = (key, fallback) => {
  try {
    return localStorage.getItem(`attention-lab.${key}`) ?? fallback;
  } catch {
    return fallback;
  }
};
const store = (key, value) => {
  try {
    localStorage.setItem(`attention-lab.${key}`, value);
  } catch {}
};

const state = {
  form: { ...DEFAULT_FORM },
  // Edited numbers: weights by flat index, embeddings by token and feature.
  edits: emptyEdits(),
  view: { b: 0, h: 0, decimals: Number(stored('decimals', 4)), theme: stored('theme', 'light'), focus: null, maskFill: -Infinity, exportable: true },
  result: null, // the last valid result: stays on screen while the input is invalid
  layout: null,
};

const engine = createEngineClient();
let controls;

const configWithEdits = () => applyEdits(formToConfig(state.form), state.edits, state.result?.vocab);

// ---- run and render ---------------------------------------------------------
let runsInFlight = 0;

async function recompute() {
  const config = configWithEdits();
  runsInFlight++;
  $('status').textContent = t('status.computing');
  let result;
  const started = performance.now();
  try {
    result = await engine.run(config);
  } catch (error) {
    showError(error);
    return;
  } finally {
    runsInFlight--;
  }
  if (result === null) return; // superseded by a newer edit
  state.result = result;
  state.view.maskFill = config.maskFill === '-inf' ? -Infinity : Number(config.maskFill);
  showError(null);
  const computed = performance.now();
  render();
  const detail = { config, computeMs: computed - started, renderMs: performance.now() - computed };
  document.dispatchEvent(new CustomEvent('attention-rendered', { detail }));
}

function showError(error) {
  const control = error ? controlForField(error.field) : null;
  controls.showError(control, error ? error.message : '');
  for (const id of ['text', 'contextText']) {
    const on = error && control === id;
    $(`error-${id}`).hidden = !on;
    $(`error-${id}`).textContent = on ? error.message : '';
    $(`input-${id}`).toggleAttribute('aria-invalid', Boolean(on));
  }
  const banner = $('error-banner');
  banner.hidden = !error || (control !== null && control !== undefined);
  banner.textContent = error ? t('status.error', { message: `${error.field}: ${error.message}` }) : '';
  if (error) $('status').textContent = t('status.error', { message: error.message });
}

function renderChips(containerId, lines) {
  const container = $(containerId);
  container.replaceChildren();
  lines.forEach((line, b) => {
    const rowEl = document.createElement('div');
    rowEl.className = 'chip-row';
    for (const token of line) {
      const chip = document.createElement('span');
      chip.className = token === '<pad>' ? 'chip pad' : 'chip';
      chip.textContent = token; // text, never markup
      rowEl.append(chip);
    }
    rowEl.dataset.batch = b;
    container.append(rowEl);
  });
}

function render() {
  const result = state.result;
  if (!result) return;
  document.documentElement.dataset.theme = state.view.theme;
  renderChips('chips-text', result.tokens);
  renderChips('chips-context', result.contextTokens ?? []);
  const [B, H] = result.tensors.scores.shape;
  state.view.b = Math.min(state.view.b, B - 1);
  state.view.h = Math.min(state.view.h, H - 1);
  renderSelectors(B, H);
  state.layout = renderPipeline($('pipeline'), result, state.view, {
    isEdited: (name, index) => state.edits.weights[name]?.[index] !== undefined,
    isEmbeddingEdited: (token, d) => state.edits.embedding[token]?.[d] !== undefined,
  }, {
    editWeight(name, index, value) {
      (state.edits.weights[name] ??= {})[index] = value;
      recompute();
    },
    editEmbedding(token, d, value) {
      (state.edits.embedding[token] ??= {})[d] = value;
      recompute();
    },
    focus(i) {
      state.view.focus = i;
      render();
    },
  });
  const edited = countEdits(state.edits);
  $('reset-edits').hidden = edited === 0;
  const notes = [];
  if (edited) notes.push(t('status.edited', { count: edited }));
  if (result.unknownTokens.length) notes.push(t('status.unknown', { tokens: result.unknownTokens.join(' ') }));
  notes.push(...result.warnings);
  $('status').textContent = notes.join(' · ');
}

function renderSelectors(B, H) {
  renderTabs($('batch-tabs'), { count: B, current: state.view.b, label: t('controls.batch'), onPick: (k) => { state.view.b = k; render(); } });
  renderTabs($('head-tabs'), { count: H, current: state.view.h, label: t('controls.head'), colorOf: headColor, onPick: (k) => { state.view.h = k; render(); } });
}

// ---- explanations on hover and focus -----------------------------------------
function explain(event) {
  const cell = cellOfEvent(event);
  if (!cell || !state.result || !state.layout) return;
  const { td } = cell;
  const info = explainCell(cell.step, cell.i, cell.j, {
    ...state.layout, result: state.result, decimals: state.view.decimals,
  });
  document.querySelectorAll('.hl').forEach((el) => el.classList.remove('hl'));
  if (!info) return;
  const panel = $('explain-body');
  panel.replaceChildren(...info.nodes);
  td.classList.add('hl');
  for (const { matrix, row } of info.highlight) {
    const selector = row === null ? `table[data-matrix="${matrix}"] tbody tr` : `table[data-matrix="${matrix}"] tr[data-row="${row}"]`;
    document.querySelectorAll(selector).forEach((el) => el.classList.add('hl'));
  }
}

// ---- static page text --------------------------------------------------------
function applyLanguage() {
  document.documentElement.lang = language() === 'zh' ? 'zh-CN' : 'en';
  document.title = t('app.title');
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  controls = buildControls($('controls'), onFormChange);
  controls.sync(state.form);
  buildPresets();
  render();
}

function buildPresets() {
  const box = $('presets');
  box.replaceChildren();
  for (const preset of PRESETS) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.preset = preset.key;
    button.textContent = t(`preset.${preset.key}`);
    button.addEventListener('click', () => {
      state.form = presetForm(preset);
      state.edits = emptyEdits();
      state.view.b = 0;
      state.view.h = 0;
      state.view.focus = null;
      $('input-text').value = state.form.text;
      $('input-contextText').value = state.form.contextText;
      controls.sync(state.form);
      recompute();
    });
    box.append(button);
  }
}

function onFormChange(name, value) {
  const previousD = state.form.dModel;
  state.form[name] = value;
  if (name === 'init' && value === 'torch-mha') state.form.qkvBias = true;
  if (name === 'dModel' && String(value) !== String(previousD)) state.edits = emptyEdits();
  // Embedding edits are keyed to the vocab order, which the sentences decide.
  if (name === 'text' || name === 'contextText' || name === 'maxLen') state.edits.embedding = {};
  controls.sync(state.form);
  state.view.focus = null;
  recompute();
}

function init() {
  setLanguage(stored('lang', navigator.language?.startsWith('zh') ? 'zh' : 'en'));
  const langSelect = $('language');
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement('option');
    option.value = code;
    option.textContent = name;
    langSelect.append(option);
  }
  langSelect.value = language();
  langSelect.addEventListener('change', () => {
    store('lang', setLanguage(langSelect.value));
    applyLanguage();
  });
  const theme = $('theme');
  theme.value = state.view.theme;
  theme.addEventListener('change', () => {
    state.view.theme = theme.value;
    store('theme', theme.value);
    render();
  });
  const decimals = $('decimals');
  decimals.value = String(state.view.decimals);
  decimals.addEventListener('change', () => {
    state.view.decimals = Number(decimals.value);
    store('decimals', decimals.value);
    render();
  });
  for (const id of ['text', 'contextText']) {
    const box = $(`input-${id}`);
    box.value = state.form[id];
    box.addEventListener('input', () => onFormChange(id, box.value));
  }
  $('reset-edits').addEventListener('click', () => {
    state.edits = emptyEdits();
    recompute();
  });
  const pipeline = $('pipeline');
  pipeline.addEventListener('mouseover', explain);
  pipeline.addEventListener('focusin', explain);
  $('share').addEventListener('click', () => openShareDialog(state));
  wireShareDialog($('share-dialog'));
  wireShareDialog($('pytorch-dialog'));
  $('copy-pytorch').addEventListener('click', () => {
    if (!state.result) return;
    $('pytorch-script').value = pytorchScript(configWithEdits(), state.result);
    $('pytorch-dialog').querySelector('.share-status').textContent = '';
    $('pytorch-dialog').showModal();
  });
  $('download-json').addEventListener('click', () => {
    if (state.result) download(new Blob([resultToJson(state.result)], { type: 'application/json' }), 'attention-lab.json');
  });
  $('download-npy').addEventListener('click', () => {
    if (state.result) download(resultToNpyZip(state.result), 'attention-lab-npy.zip');
  });
  pipeline.addEventListener('click', copyMatrix);
  window.addEventListener('hashchange', () => restore());
  document.documentElement.dataset.theme = state.view.theme;
  applyLanguage();
  $('status').textContent = t('status.loading');
  restore();
}

function download(blob, filename) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

const MATRIX_FORMATS = { csv: toCsv, json: toJson, latex: (m) => toLatex(m, state.view.decimals), numpy: toNumpy };

/** A copy button under a matrix: that matrix (as shown: this sentence, this head) to the clipboard. */
async function copyMatrix(event) {
  const button = event.target.closest('button[data-export]');
  const matrix = button?.closest('figure')?.matrixView;
  if (!matrix) return;
  const text = MATRIX_FORMATS[button.dataset.export](matrix);
  try {
    await navigator.clipboard.writeText(text);
    $('status').textContent = t('export.copied', { name: matrix.caption ?? matrix.name, format: button.textContent });
  } catch {
    $('status').textContent = text.slice(0, 200);
  }
}

/** Applies the state in the URL fragment, if any; a bad one is reported and the default shown. */
async function restore() {
  const restored = await restoreFromLocation();
  if (restored === null) return recompute();
  const notice = $('link-notice');
  notice.hidden = !restored.error;
  notice.textContent = restored.error ? t('share.bad', { reason: restored.error }) : '';
  state.form = restored.form;
  state.edits = restored.edits;
  state.result = null; // its vocab belongs to the old sentences
  $('input-text').value = state.form.text;
  $('input-contextText').value = state.form.contextText;
  controls.sync(state.form);
  await recompute();
  // Embedding edits need the vocab of a first result; apply them on a second pass.
  if (Object.keys(restored.edits.embedding).length) await recompute();
}

// Exposed for the browser tests and the benchmark: the current form, and
// whether the page is busy.
window.attentionLab = { state, isIdle: () => runsInFlight === 0 };

init();
