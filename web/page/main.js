// Attention Lab page: the sentence boxes, the settings form (built from the
// engine's schema) and the pipeline view, recomputed live on every change.
import './styles.css';
import { LANGUAGES, errorText, resolveLanguage, translator } from '../i18n/index.js';
import { countEdits, withEdits } from '../model/edits.js';
import { resultToJson, resultToNpyZip, toCsv, toJson, toLatex, toNumpy } from '../model/export.js';
import { DEFAULT_PRESET, PRESETS, presetSettings, relocalize } from '../model/presets.js';
import { pytorchScript } from '../model/pytorch-script.js';
import { readFragment } from '../model/share.js';
import { configFromSettings, settingOfError, withSetting } from '../model/settings.js';
import { PipelineController } from '../view/controller.js';
import { buildSettingsForm } from '../view/form.js';
import { readViewOption, viewOptionByName } from '../view/view-options.js';
import { createEngineClient } from './engine-client.js';
import { openShareDialog, wireShareDialog } from './share-ui.js';

const $ = (id) => document.getElementById(id);

// Preferences persist in localStorage; a stored value is read through its view option, so a bad one gives the default.
const storedText = (name) => {
  try {
    return localStorage.getItem(`attention-lab.${name}`);
  } catch {
    return null;
  }
};
const stored = (name) => readViewOption(viewOptionByName.get(name), storedText(name));
const store = (name, value) => {
  try {
    localStorage.setItem(`attention-lab.${name}`, String(value));
  } catch {}
};

const SENTENCE_BOXES = ['text', 'contextText'];

const state = {
  settings: presetSettings(DEFAULT_PRESET), // what the user set, by config path
  preset: DEFAULT_PRESET, // the preset shown, until a setting changes
  t: translator('en'),
  error: null, // the engine error shown ({field, code, params, message}), said again when the language changes
};

const engine = createEngineClient();
const controller = new PipelineController(
  {
    root: document,
    pipeline: $('pipeline'),
    explain: $('explain-body'),
    batchTabs: $('batch-tabs'),
    headTabs: $('head-tabs'),
  },
  { onEditsChange: () => recompute() },
);
let form;

const currentConfig = () => withEdits(configFromSettings(state.settings), controller.edits);

// ---- run and render ---------------------------------------------------------
let runsInFlight = 0;

async function recompute() {
  const config = currentConfig();
  runsInFlight++;
  $('status').textContent = state.t('status.computing');
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
  showError(null);
  const computed = performance.now();
  renderChips('chips-text', result.tokens);
  renderChips('chips-context', result.contextTokens ?? []);
  form.sync(state.settings, result.settings);
  controller.setResult(result);
  renderStatus();
  const detail = { config, computeMs: computed - started, renderMs: performance.now() - computed };
  document.dispatchEvent(new CustomEvent('attention-rendered', { detail }));
}

function showError(error) {
  state.error = error;
  const path = error ? settingOfError(error.field) : undefined;
  const message = error ? errorText(error, state.t) : '';
  form.showError(form.has(path) ? path : null, message);
  for (const id of SENTENCE_BOXES) {
    const on = Boolean(error) && path === id;
    $(`error-${id}`).hidden = !on;
    $(`error-${id}`).textContent = on ? message : '';
    $(`input-${id}`).toggleAttribute('aria-invalid', on);
  }
  const banner = $('error-banner');
  banner.hidden = !error || form.has(path) || SENTENCE_BOXES.includes(path);
  banner.textContent = error ? state.t('status.error', { message: `${error.field}: ${message}` }) : '';
  if (error) $('status').textContent = state.t('status.error', { message });
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

function renderStatus() {
  const result = controller.result;
  if (!result) return;
  const edited = countEdits(controller.edits);
  $('reset-edits').hidden = edited === 0;
  const notes = [];
  if (edited) notes.push(state.t('status.edited', { count: edited }));
  if (result.unknownTokens.length) notes.push(state.t('status.unknown', { tokens: result.unknownTokens.join(' ') }));
  notes.push(...result.warnings.map((warning) => errorText(warning, state.t)));
  $('status').textContent = notes.join(' · ');
}

// ---- language and static page text --------------------------------------------
function applyLanguage(lang) {
  const t = translator(lang);
  const from = state.t.lang;
  state.t = t;
  if (state.preset) relocalizePreset(from, t.lang);
  document.documentElement.lang = t.lang === 'zh' ? 'zh-CN' : 'en';
  document.title = t('app.title');
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  form = buildSettingsForm($('controls'), { t, onChange: onSettingChange });
  form.sync(state.settings, controller.result?.settings);
  buildPresets();
  controller.setOptions({ t });
  renderStatus();
  if (state.error) showError(state.error);
}

function buildPresets() {
  const box = $('presets');
  box.replaceChildren();
  for (const preset of PRESETS) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.preset = preset.key;
    button.textContent = state.t(`preset.${preset.key}`);
    button.addEventListener('click', () => applyState({ settings: presetSettings(preset, state.t.lang) }, preset));
    box.append(button);
  }
  showPreset();
}

/** The chosen preset's button pressed and its note shown (what it mirrors, its quirks). */
function showPreset() {
  const key = state.preset?.key;
  for (const button of $('presets').children)
    button.setAttribute('aria-pressed', String(button.dataset.preset === key));
  const note = $('preset-note');
  note.hidden = !key || key === DEFAULT_PRESET.key;
  note.textContent = note.hidden ? '' : state.t(`preset.${key}.note`);
}

/** The language changed: a preset's sentences that the user left as they were follow it. */
function relocalizePreset(from, to) {
  const { settings, changed } = relocalize(state.settings, state.preset, from, to);
  if (changed.length === 0) return;
  state.settings = settings;
  for (const id of SENTENCE_BOXES) $(`input-${id}`).value = state.settings[id] ?? '';
  controller.edits.embedding.clear(); // they name the old tokens
  if (controller.result) recompute();
}

/** New settings (a preset or a link): the boxes and the form follow, edits are replaced. */
function applyState({ settings, edits }, preset = null) {
  state.settings = settings;
  state.preset = preset;
  showPreset();
  controller.resetEdits();
  if (edits) controller.edits = edits;
  controller.resetSelection();
  for (const id of SENTENCE_BOXES) $(`input-${id}`).value = state.settings[id] ?? '';
  form.sync(state.settings);
  return recompute();
}

function onSettingChange(path, value) {
  const previous = state.settings[path];
  state.settings = withSetting(state.settings, path, value);
  if (state.preset) {
    state.preset = null; // it no longer shows the preset's program
    showPreset();
  }
  // Edited numbers belong to one width; embedding edits to the tokens of these sentences.
  if (path === 'dModel' && String(value) !== String(previous)) controller.resetEdits();
  if (SENTENCE_BOXES.includes(path) || path === 'maxLen') controller.edits.embedding.clear();
  recompute();
}

function init() {
  const langSelect = $('language');
  for (const [code, name] of Object.entries(LANGUAGES)) langSelect.append(new Option(name, code));
  langSelect.value = resolveLanguage(storedText('lang') ?? navigator.language);
  langSelect.addEventListener('change', () => {
    store('lang', langSelect.value);
    applyLanguage(langSelect.value);
  });
  for (const name of ['theme', 'decimals']) {
    const select = $(name);
    select.value = String(stored(name));
    select.addEventListener('change', () => {
      const value = readViewOption(viewOptionByName.get(name), select.value);
      store(name, value);
      if (name === 'theme') document.documentElement.dataset.theme = value;
      controller.setOptions({ [name]: value });
    });
  }
  document.documentElement.dataset.theme = stored('theme');
  controller.setOptions({ theme: stored('theme'), decimals: stored('decimals'), exportable: true, editable: true });
  for (const id of SENTENCE_BOXES) {
    const box = $(`input-${id}`);
    box.value = state.settings[id] ?? '';
    box.addEventListener('input', () => onSettingChange(id, box.value));
  }
  $('reset-edits').addEventListener('click', () => {
    controller.resetEdits();
    recompute();
  });
  $('share').addEventListener('click', () => openShareDialog({ settings: state.settings, edits: controller.edits }));
  const getT = () => state.t;
  wireShareDialog($('share-dialog'), getT);
  wireShareDialog($('pytorch-dialog'), getT);
  $('copy-pytorch').addEventListener('click', () => {
    if (!controller.result) return;
    $('pytorch-script').value = pytorchScript(currentConfig(), controller.result);
    $('pytorch-dialog').querySelector('.share-status').textContent = '';
    $('pytorch-dialog').showModal();
  });
  $('download-json').addEventListener('click', () => {
    if (controller.result)
      download(new Blob([resultToJson(controller.result)], { type: 'application/json' }), 'attention-lab.json');
  });
  $('download-npy').addEventListener('click', () => {
    if (controller.result) download(resultToNpyZip(controller.result), 'attention-lab-npy.zip');
  });
  $('pipeline').addEventListener('click', copyMatrix);
  window.addEventListener('hashchange', () => restore());
  applyLanguage(langSelect.value);
  $('status').textContent = state.t('status.loading');
  restore();
}

function download(blob, filename) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

const MATRIX_FORMATS = {
  csv: toCsv,
  json: toJson,
  latex: (m) => toLatex(m, controller.options.decimals),
  numpy: toNumpy,
};

/** A copy button under a matrix: that matrix (as shown: this sentence, this head) to the clipboard. */
async function copyMatrix(event) {
  const button = event.target.closest('button[data-export]');
  const matrix = button?.closest('figure')?.matrixView;
  if (!matrix) return;
  const text = MATRIX_FORMATS[button.dataset.export](matrix);
  try {
    await navigator.clipboard.writeText(text);
    $('status').textContent = state.t('export.copied', {
      name: matrix.caption ?? matrix.name,
      format: button.textContent,
    });
  } catch {
    $('status').textContent = text.slice(0, 200);
  }
}

/** Applies the state in the URL fragment, if any; a bad one is reported and the default shown. */
async function restore() {
  const restored = await readFragment(location.hash);
  if (restored === null) return recompute();
  const notice = $('link-notice');
  notice.hidden = !restored.error;
  notice.textContent = restored.error ? state.t('share.bad', { reason: restored.error }) : '';
  await applyState(restored);
}

// Exposed for the browser tests and the benchmark: the state, the view, and whether the page is busy.
window.attentionLab = { state, controller, isIdle: () => runsInFlight === 0, currentConfig };

init();
