// Attention Lab page: the sentence boxes, the settings form (built from the
// engine's schema) and the pipeline view, recomputed live on every change.
// What the first result needs is imported here; the exports (JSON, .npz,
// a matrix as text, the PyTorch script) and the strings of languages other
// than English are loaded when first used.
import './start-engine.js'; // first: the engine downloads and compiles while the rest loads
import './styles.css';
import { LANGUAGES, errorText, fieldErrorText, resolveLanguage } from '../i18n/index.js';
import { countEdits, withEdits } from '../model/edits.js';
import { DEFAULT_PRESET, PRESETS, presetSettings, relocalize } from '../model/presets.js';
import { readFragment, shareErrorText } from '../model/share.js';
import { modelOf } from '../model/schema.js';
import { configFromSettings, settingOfError, withSetting } from '../model/settings.js';
import { resolveTheme } from '../view/common/color-scheme.js';
import { AttentionHost } from '../view/host/host.js';
import { buildSettingsForm } from '../view/host/settings-form.js';
import { withCode } from '../view/common/matrix.js';
import {
  CHAPTER_NAMES,
  PLAIN_PATH,
  chaptersAskedBy,
  chaptersText,
  chaptersUsedBy,
  readChapters,
} from '../view/steps/chapters.js';
import { runContext } from '../view/steps/run-context.js';
import { readViewOption, viewOptionByName } from '../model/view-options.js';
import { followDModel, wireInputPanel } from './input-panel.js';
import { openShareDialog, wireShareDialog } from './share-ui.js';
import { wireExports } from './exports-ui.js';
import { fitForPrint } from './print.js';
import { renderPrintHeader } from './print-header.js';
import { wireNarrowScreen } from './small-screen.js';
import { wantsPresentation, wireTeacherTools } from './teacher.js';
import { loadPresetNotes } from '../view/common/preset-note.js';

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

/** ?chapters= as the open chapters: known names only; none (or no parameter) is the plain path. */
function chaptersOfQuery(text) {
  const names = readViewOption(viewOptionByName.get('chapters'), text);
  return readChapters(names ? [...names].filter((name) => CHAPTER_NAMES.includes(name)) : PLAIN_PATH);
}

/** The open chapters into ?chapters= (left out for the plain path), so a reload or a copied address keeps them. */
function rememberChapters(open) {
  state.chapters = open;
  const query = new URLSearchParams(location.search);
  const text = chaptersText(open);
  if (text) query.set('chapters', text);
  else query.delete('chapters');
  const search = query.toString();
  history.replaceState(history.state, '', `${search ? `?${search}` : location.pathname}${location.hash}`);
}

/**
 * The chapters a new result opens: a preset's, those its run uses; a setting change's, those whose steps it
 * turned on (a learner who turns RoPE on sees it). Returns the view options ({chapters} when they changed).
 */
function openChaptersFor(result, before) {
  const why = state.opening;
  state.opening = null;
  const run = runContext(result);
  const opened =
    why === 'preset'
      ? chaptersUsedBy(run)
      : why === 'setting' && before
        ? chaptersAskedBy(runContext(before), run)
        : [];
  const fresh = opened.filter((key) => CHAPTER_NAMES.includes(key) && !state.chapters.has(key));
  if (fresh.length === 0) return {};
  rememberChapters(new Set([...state.chapters, ...fresh]));
  return { chapters: state.chapters };
}

const state = {
  settings: presetSettings(DEFAULT_PRESET), // what the user set, by config path
  preset: DEFAULT_PRESET, // the preset shown, until a setting changes
  /** The UI language's translator (the host's). */
  get t() {
    return host.t;
  },
  /** The open chapters (view/steps/chapters.js): ?chapters=heads,variants; without it the plain path. */
  chapters: chaptersOfQuery(new URLSearchParams(location.search).get('chapters')),
  /** Why the next run may open chapters: 'preset' (those its run uses), 'setting' (those it asked for), null. */
  opening: null,
  linkError: null, // why the link in the URL could not be read (a ShareLinkError), shown in the UI language
  error: null, // the engine error shown ({field, code, params, message}), said again when the language changes
};

// Paper is light: while printing, the heatmaps take the light palette (the page's CSS does the rest).
let paper = false;
const host = new AttentionHost(
  {
    root: document,
    pipeline: $('pipeline'),
    explain: $('explain-body'),
    batchTabs: $('batch-tabs'),
    headTabs: $('head-tabs'),
    overview: $('overview'),
    follow: $('follow'),
    stepper: $('stepper'),
    stepsToggle: $('steps-toggle'),
    sticky: document.querySelector('.toolbar'),
    trained: $('trained'),
    checkpoint: $('checkpoint'),
  },
  // The page asks the engine for the shown sentence and head only, and again when another is picked.
  {
    theme: () => (paper ? 'light' : resolveTheme($('theme').value)),
    isTrained: () => isTiny(),
    isCheckpoint: () => mode() === 'checkpoint',
    onEditsChange: () => recompute(),
    onSelectionChange: () => recompute(),
    onChaptersChange: (open) => rememberChapters(open),
    // The trained model's chapter is the Model setting's value.
    onSettingChapter: ({ setting }) => {
      onSettingChange(setting.path, setting.value);
      form.sync(state.settings);
    },
    trained: {
      // The reader typed or moved the slider: the settings (and so the share link) follow.
      onChange: ({ text, checkpoint }) => {
        state.settings = withSetting(withSetting(state.settings, 'text', text), 'checkpoint', checkpoint);
        form.sync(state.settings);
      },
      onResult: () => {
        showError(null);
        $('status').textContent = '';
      },
      // The view shows the error at its text box or slider; the form's checkpoint box says it too.
      onError: (error) => {
        if (error.field === 'checkpoint') form.showError('checkpoint', errorText(error, state.t));
      },
    },
    // The checkpoint view shows its errors at its own controls (the files, the text or ids).
    checkpoint: {
      onResult: () => ($('status').textContent = ''),
    },
  },
);
const { controller } = host;
let form;
const inputPanel = wireInputPanel({
  settings: () => state.settings,
  set: (changes) => {
    for (const [path, value] of Object.entries(changes)) {
      state.settings = withSetting(state.settings, path, value);
      if (value === undefined) delete state.settings[path];
    }
    for (const id of SENTENCE_BOXES) $(`input-${id}`).value = state.settings[id] ?? '';
    if (state.preset) {
      state.preset = null; // it no longer shows the preset's program
      showPreset();
    }
    controller.edits.embedding.clear(); // embedding edits belong to the tokens of these inputs
    recompute();
  },
  dModel: () => Number(controller.result?.settings.dModel ?? state.settings.dModel ?? 8),
});

const currentConfig = () => withEdits(configFromSettings(state.settings), controller.edits);

// ---- run and render ---------------------------------------------------------
async function recompute() {
  showMode();
  if (isTiny()) return showTrained();
  if (mode() === 'checkpoint') return showCheckpoint();
  const config = currentConfig();
  const before = controller.result;
  $('status').textContent = state.t('status.computing');
  let result;
  const started = performance.now();
  let computed; // when the engine answered, before the result is shown
  try {
    result = await host.show(config, {
      selection: true,
      viewOptions: (shown) => ((computed = performance.now()), openChaptersFor(shown, before)),
    });
  } catch (error) {
    showError(error);
    return;
  }
  if (result === null) return; // superseded by a newer edit
  showError(null);
  inputPanel.renderChips(result, state.t);
  form.sync(state.settings, result.settings);
  renderStatus();
  await controller.whenShown(); // a large result: the steps in view built (the rest follow in slices)
  const detail = { config, computeMs: computed - started, renderMs: performance.now() - computed };
  document.dispatchEvent(new CustomEvent('attention-rendered', { detail }));
}

// ---- the trained model (model = tiny) and a checkpoint (model = checkpoint) ------
/** The model setting's choice: 'attention', 'tiny' or 'checkpoint'. */
const mode = () => modelOf((path) => state.settings[path]);
const isTiny = () => mode() === 'tiny';

/** The attention layer's view, the trained model's or the checkpoint's, as the model setting says. */
function showMode() {
  const shown = mode();
  document.documentElement.dataset.model = shown;
  $('trained').hidden = shown !== 'tiny';
  $('checkpoint').hidden = shown !== 'checkpoint';
}

/** The checkpoint view: the reader opens a model's files there (nothing runs until then). */
async function showCheckpoint() {
  form.sync(state.settings);
  showError(null);
  $('status').textContent = '';
  try {
    await host.showCheckpoint();
  } catch (error) {
    showError({ field: 'engine', message: error.message });
  }
  document.dispatchEvent(new CustomEvent('attention-rendered', { detail: { config: { model: 'checkpoint' } } }));
}

async function showTrained() {
  form.sync(state.settings);
  showError(null);
  try {
    const { text, checkpoint } = state.settings;
    await host.showTrained({ text, checkpoint, lang: state.t.lang });
  } catch (error) {
    showError({ field: 'engine', message: error.message });
  }
  document.dispatchEvent(new CustomEvent('attention-rendered', { detail: { config: { model: 'tiny' } } }));
}

function showError(error) {
  state.error = error;
  const path = error ? settingOfError(error.field) : undefined;
  const message = error ? errorText(error, state.t) : '';
  form.showError(form.has(path) ? path : null, message);
  if (error && form.has(path)) $('settings-panel').open = true; // folded away on a small screen
  for (const id of SENTENCE_BOXES) {
    const on = Boolean(error) && path === id;
    $(`error-${id}`).hidden = !on;
    $(`error-${id}`).textContent = on ? message : '';
    $(`input-${id}`).toggleAttribute('aria-invalid', on);
  }
  const banner = $('error-banner');
  banner.hidden = !error || form.has(path) || SENTENCE_BOXES.includes(path);
  banner.textContent = error ? state.t('status.error', { message: fieldErrorText(error, state.t) }) : '';
  if (error) $('status').textContent = state.t('status.error', { message });
}

function renderStatus() {
  const result = controller.result;
  if (!result) return;
  renderPrintHeader($('print-header'), {
    t: state.t,
    settings: state.settings,
    effective: result.settings,
    preset: state.preset,
  });
  const edited = countEdits(controller.edits);
  $('reset-edits').hidden = edited === 0;
  const notes = [];
  if (edited) notes.push(state.t('status.edited', { count: edited }));
  if (result.unknownTokens.length) notes.push(state.t('status.unknown', { tokens: result.unknownTokens.join(' ') }));
  notes.push(...result.warnings.map((warning) => errorText(warning, state.t)));
  $('status').textContent = notes.join(' · ');
}

// ---- language and static page text --------------------------------------------
async function applyLanguage(lang) {
  // Strings that cannot be loaded (offline) leave the page in the language it has.
  const from = state.t.lang;
  const t = await host.useLanguage(lang);
  if (!t) return; // another language was chosen meanwhile
  $('language').value = t.lang;
  if (state.preset) relocalizePreset(from, t.lang);
  document.documentElement.lang = t.lang === 'zh' ? 'zh-CN' : 'en';
  document.title = t('app.title');
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  form = buildSettingsForm($('controls'), {
    t,
    onChange: onSettingChange,
    places: { tokenizer: $('tokenizer-place') },
  });
  form.sync(state.settings, controller.result?.settings);
  buildPresets();
  inputPanel.applyLanguage(t);
  inputPanel.sync();
  host.setOptions({ t });
  if (host.trained && isTiny())
    host.trained.show({ text: state.settings.text, checkpoint: state.settings.checkpoint, lang: t.lang });
  renderStatus();
  renderLinkNotice();
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
    button.addEventListener('click', () => {
      // A preset opens the chapters its run uses (the default example is the plain path: it opens none).
      state.opening = preset === DEFAULT_PRESET ? null : 'preset';
      applyState({ settings: presetSettings(preset, state.t.lang) }, preset);
    });
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
  const shown = Boolean(key) && key !== DEFAULT_PRESET.key;
  note.hidden = true;
  if (!shown) return note.replaceChildren();
  // The notes' words are loaded the first time one is shown; by then another preset may be chosen.
  loadPresetNotes().then(() => {
    if (state.preset?.key !== key) return;
    note.hidden = false;
    note.replaceChildren(...withCode(state.t(`preset.${key}.note`)));
  });
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
  inputPanel.sync();
  return recompute();
}

// The attention layer's sentence while the trained model shows its own text (restored when switching back).
let attentionText;

function onSettingChange(path, value) {
  const previous = state.settings[path];
  const wasTiny = isTiny();
  state.settings = withSetting(state.settings, path, value);
  if (path === 'model' && wasTiny !== isTiny()) {
    const text = state.settings.text;
    state.settings = withSetting(state.settings, 'text', wasTiny ? attentionText : undefined);
    if (state.settings.text === undefined) delete state.settings.text;
    attentionText = text;
    for (const id of SENTENCE_BOXES) $(`input-${id}`).value = state.settings[id] ?? '';
  }
  if (state.preset) {
    state.preset = null; // it no longer shows the preset's program
    showPreset();
  }
  // Edited numbers belong to one width; embedding edits to the tokens of these sentences.
  if (path === 'dModel' && String(value) !== String(previous)) {
    controller.resetEdits();
    if (Number.isInteger(Number(value)) && Number(value) > 0) followDModel(state.settings, Number(value));
    inputPanel.sync();
  }
  if (SENTENCE_BOXES.includes(path) || path === 'maxLen') controller.edits.embedding.clear();
  state.opening = 'setting';
  recompute();
}

async function init() {
  const langSelect = $('language');
  for (const [code, name] of Object.entries(LANGUAGES)) langSelect.append(new Option(name, code));
  // ?lang= (a shared link, a tutorial's link) first, then the reader's last choice, then the browser's.
  const query = new URLSearchParams(location.search);
  langSelect.value = resolveLanguage(query.get('lang') ?? storedText('lang') ?? navigator.language);
  langSelect.addEventListener('change', () => {
    store('lang', langSelect.value);
    // A ?lang= in the address follows the menu, so that a reload or a copied address keeps the choice.
    if (query.has('lang')) {
      query.set('lang', langSelect.value);
      history.replaceState(history.state, '', `?${query}${location.hash}`);
    }
    applyLanguage(langSelect.value);
  });
  // The form, the presets and the page's text, in its language (Chinese is loaded first; English is here).
  await applyLanguage(langSelect.value);
  wireViewOptions();
  for (const id of SENTENCE_BOXES) {
    const box = $(`input-${id}`);
    box.value = state.settings[id] ?? '';
    box.addEventListener('input', () => onSettingChange(id, box.value));
  }
  wireFocus();
  $('reset-edits').addEventListener('click', () => {
    controller.resetEdits();
    recompute();
  });
  $('share').addEventListener('click', () =>
    openShareDialog({
      settings: state.settings,
      edits: controller.edits,
      lang: state.t.lang,
      chapters: state.chapters,
    }),
  );
  const getT = () => state.t;
  wireShareDialog($('share-dialog'), getT);
  wireShareDialog($('pytorch-dialog'), getT);
  wireShareDialog($('torch-print-dialog'), getT);
  wireExports({ controller, currentConfig, fullResult, t: getT });
  window.addEventListener('hashchange', () =>
    isStepLink(location.hash) ? controller.showStep(location.hash.slice(1)) : restore(),
  );
  $('status').textContent = state.t('status.loading');
  restore();
}

/** The theme and decimals menus (stored), the teachers' tools, small screens and print. */
function wireViewOptions() {
  for (const name of ['theme', 'decimals']) {
    const select = $(name);
    select.value = String(stored(name));
    select.addEventListener('change', () => {
      const value = readViewOption(viewOptionByName.get(name), select.value);
      store(name, value);
      if (name === 'theme') showTheme();
      else host.setOptions({ [name]: value });
    });
  }
  // The chosen theme, or with "auto" (the default) the reader's colour scheme, followed when it changes.
  // The heatmaps' palette is the host's theme(): light on paper.
  /** Shows the theme; a promise of the re-rendered steps when the heatmaps' palette changed, else null. */
  const showTheme = () => {
    document.documentElement.dataset.theme = resolveTheme($('theme').value);
    return host.refreshTheme();
  };
  host.connect(showTheme);
  showTheme();
  controller.setOptions({ decimals: stored('decimals'), exportable: true, editable: true, chapters: state.chapters });
  // Teachers (text size, presentation), small screens (settings folded away), print (wide matrices fit).
  const teacher = wireTeacherTools(
    {
      select: $('text-size'),
      toggle: $('present-toggle'),
      stepsToggle: $('steps-toggle'),
      pipeline: $('pipeline'),
      stepper: $('stepper'),
      pageLabel: $('present-page'),
    },
    controller,
    { load: storedText, save: store },
    (key, params) => state.t(key, params),
  );
  if (wantsPresentation(location.search)) teacher.present(true);
  wireNarrowScreen($('settings-panel'));
  fitForPrint($('pipeline'), (printing) => {
    if (printing === paper) return null;
    paper = printing;
    return showTheme();
  });
}

/** Where the focus goes: from the explanation's close button, and from the skip links. */
function wireFocus() {
  // On narrow screens the explanation floats over the page: closing it hands the focus to the number's
  // step title (focus on the number itself would explain it again).
  $('explain-close').addEventListener('click', () => {
    holdHoverUntilMoved(); // the card gone, the pointer rests on a number: not a new hover
    const title = controller.clearExplanation()?.closest('section')?.querySelector('h2');
    if (title) {
      title.tabIndex = -1;
      title.focus({ preventScroll: true });
    }
  });
  // Skip links move the focus, not only the view: to the pipeline, or to the overview's current box.
  for (const link of document.querySelectorAll('.skip-link'))
    link.addEventListener('click', (event) => {
      const target = $(link.hash.slice(1));
      const into = target?.querySelector('a[aria-current="step"]') ?? target;
      if (!into || target.hidden) return;
      event.preventDefault();
      if (into === target) into.tabIndex = -1;
      into.focus();
    });
}

/** Mouseovers without a move of the pointer (the page changed under it) are ignored until it moves. */
function holdHoverUntilMoved() {
  const hold = (event) => event.stopPropagation();
  const moved = (event) => {
    if (!event.movementX && !event.movementY) return;
    document.removeEventListener('mouseover', hold, true);
    document.removeEventListener('mousemove', moved, true);
  };
  document.addEventListener('mouseover', hold, true);
  document.addEventListener('mousemove', moved, true);
}

/**
 * The shown setup with every sentence and head (the view's result holds the
 * shown ones only): for the downloads. null, with the error shown, if it fails.
 */
async function fullResult() {
  if (!controller.result) return null;
  try {
    return await host.engine.run(currentConfig(), {}, { superseding: false });
  } catch (error) {
    showError(error);
    return null;
  }
}

// "#step-scores" (an overview box opened in a new tab) names a step, not a state.
const isStepLink = (hash) => /^#step-[\w-]+$/.test(hash);

/** Applies the state in the URL fragment, if any; a bad one is reported and the default shown. */
async function restore() {
  if (isStepLink(location.hash)) {
    await recompute();
    controller.showStep(location.hash.slice(1));
    return;
  }
  const restored = await readFragment(location.hash);
  if (restored === null) return recompute();
  state.linkError = restored.error;
  renderLinkNotice();
  // A link that cannot be read shows the default example, in the page's language.
  if (restored.error) await applyState({ settings: presetSettings(DEFAULT_PRESET, state.t.lang) }, DEFAULT_PRESET);
  else await applyState(restored);
}

function renderLinkNotice() {
  const notice = $('link-notice');
  notice.hidden = !state.linkError;
  notice.textContent = state.linkError ? shareErrorText(state.linkError, state.t) : '';
}

// Exposed for the browser tests and the benchmark: the state, the view, and whether the page is busy.
window.attentionLab = {
  state,
  controller,
  isIdle: () => !host.busy,
  /** The trained model's view, once shown (null before). */
  get trained() {
    return host.trained;
  },
  /** The checkpoint view, once shown (null before). */
  get checkpoint() {
    return host.checkpoint;
  },
  currentConfig,
  /** The bytes of this page's engine instance (its wasm memory only grows: a soak reads it for leaks). */
  engineMemoryBytes: () => host.engine.memoryBytes(),
};

init();
