// <attention-lab>: the calculator as a custom element for tutorial pages.
//
//   <script type="module" src="attention-lab-element.js"></script>
//   <attention-lab text="The cat sat" heads="2" steps="scores weights output"></attention-lab>
//   <attention-lab preset="tutorial"></attention-lab>   (a preset's settings under the attributes, and its note)
//
// Its attributes are derived from the engine's schema (one per config field,
// named as the CLI's flags) and from the view options; each is also a typed
// property (el.dModel = 16, el.qkvBias = false, el.config = {...}). It
// renders in Shadow DOM with the same view controller as the page, loads the
// engine when it nears the viewport (one shared instance per page), emits
// `attention-change` with the result as detail, and shows a bad attribute as
// an inline error naming it instead of a blank box. It speaks the language of
// its lang attribute or of the nearest one around it, follows the site's
// colour scheme (its dark-mode switch, else the reader's: color-scheme.js)
// unless theme says light or dark, and takes its heatmap and
// head colours from --attention-lab-* custom properties (element-interface.js).
//
// Importing it is safe where there is no DOM (server-side rendering in Node):
// the class is made over a stand-in base and only a browser defines the tag.
import { AttentionConfigError } from '../api/index.js';
import { errorText, resolveLanguage } from '../i18n/index.js';
import { withEdits } from '../model/edits.js';
import { presetByKey } from '../model/presets.js';
import { FIELDS, camelCase, fieldByPath, modelOf } from '../model/schema.js';
import { attributeValue, coerce, settingOfError } from '../model/settings.js';
import { documentSignals, resolveTheme, watchSiteSignals } from '../view/common/color-scheme.js';
import { adoptStyleSheets, cssColorRgb, customPalette, paletteColors } from '../view/common/colors.js';
import { copiedMatrix, downloadedFigure } from '../view/common/export-actions.js';
import { AttentionHost } from '../view/host/host.js';
import { withCode } from '../view/common/matrix.js';
import pipelineCss from '../view/common/pipeline.css?inline';
import teachCss from '../view/teach/teach.css?inline';
import { STEP_NAMES } from '../view/steps/registry.js';
import { CHAPTER_NAMES, readChapters } from '../view/steps/chapters.js';
import {
  CONFIG_ATTRIBUTE,
  PRESET_ATTRIBUTE,
  configAttributeOrNone,
  configFromAttributes,
  givenEditsOf,
  parseConfigAttribute,
} from '../model/element-config.js';
import { VIEW_OPTIONS, readViewOption, viewOptionByName } from '../model/view-options.js';
import elementCss from './element.css?inline';
import { COLOR_PROPERTIES, ELEMENT_ATTRIBUTES } from './element-interface.js';
import { loadPresetNotes } from '../view/common/preset-note.js';

const HEAD_ATTRIBUTE = 'head';
const STEP_NAME_LIST = Object.values(STEP_NAMES);

// In a browser the element is an HTMLElement; in Node (server-side rendering)
// there is none, so the class is made over a stand-in and never defined.
const ElementBase = typeof HTMLElement === 'undefined' ? class {} : HTMLElement;

let sheet = null;
const elementStyleSheet = () => {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(`${pipelineCss}\n${teachCss}\n${elementCss}`);
  }
  return sheet;
};
const fieldByAttribute = new Map(FIELDS.map((field) => [field.name, field]));

/** The steps attribute's names as a Set (null: all); an unknown name is an error listing the valid ones. */
function stepsOf(text) {
  const steps = readViewOption(viewOptionByName.get('steps'), text);
  const unknown = steps ? [...steps].filter((name) => !STEP_NAME_LIST.includes(name)) : [];
  if (unknown.length === 0) return steps;
  const got = unknown.map((name) => JSON.stringify(name)).join(', ');
  throw AttentionConfigError.of('steps', 'unknown-steps', { got, known: STEP_NAME_LIST.join(', ') });
}

/** The chapters attribute's open chapters as a Set (null: all open); an unknown name is an error listing them. */
function chaptersOf(text) {
  const names = readViewOption(viewOptionByName.get('chapters'), text);
  const unknown = names ? [...names].filter((name) => !CHAPTER_NAMES.includes(name)) : [];
  if (unknown.length === 0) return readChapters(names);
  const got = unknown.map((name) => JSON.stringify(name)).join(', ');
  throw AttentionConfigError.of('chapters', 'unknown-chapters', { got, known: CHAPTER_NAMES.join(', ') });
}

/** The head attribute as an index from 0 (null when absent); one the result does not have is an error. */
function headIndexOf(text, heads) {
  if (text === null) return null;
  const n = text.trim() === '' ? NaN : Number(text);
  if (Number.isInteger(n) && n >= 1 && n <= heads) return n - 1;
  throw AttentionConfigError.of(HEAD_ATTRIBUTE, 'head-out-of-range', { heads: String(heads), got: text.trim() });
}

/**
 * The nearest element around `element` with a lang attribute, out through
 * shadow roots (an element inside another component still takes the page's
 * language); null if none has one.
 */
function nearestLangHolder(element) {
  for (let node = element.parentElement ?? element.getRootNode().host; node;) {
    if (node.hasAttribute('lang')) return node;
    node = node.parentElement ?? node.getRootNode().host;
  }
  return null;
}

export class AttentionLabElement extends ElementBase {
  static observedAttributes = [
    ...fieldByAttribute.keys(),
    ...viewOptionByName.keys(),
    ...ELEMENT_ATTRIBUTES.map((attribute) => attribute.name),
  ];

  #root;
  /** Its custom states: :state(light) or :state(dark), the theme resolved (element.css picks its colours by it). */
  #internals;
  /** The engine, the language, the palette and both views (view/host/host.js). */
  #host;
  #scheduled = false;
  #visible = false;
  #observer = null;
  /** Watches the lang of the nearest element that has one. */
  #pageObserver = null;
  /** Stops watching <html> and <body> (lang, the site's colour scheme: color-scheme.js SITE_SIGNALS). */
  #stopSiteWatch = null;
  /** The colour scheme the element's CSS shows (theme="auto" resolved), null before the first. */
  #scheme = null;
  /** The language of the last render, to redo it only when it changes. */
  #shownLang = null;
  /** Whether the last run failed (an error is shown over the last good result). */
  #failed = false;
  /** Whether the head attribute was applied since it last changed (later, a reader's pick of a tab stays). */
  #headApplied = false;
  /** The chapters the reader opened or closed, with the chapters attribute they were changed from. */
  #openChapters = null;

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    this.#internals = this.attachInternals();
    // A constructed stylesheet, not a <style> element: a strict Content-Security-Policy allows it.
    adoptStyleSheets(this.#root, [elementStyleSheet()]);
    // The overview is a group, not a <nav>: a page with several elements would repeat one landmark.
    // The attention layer's parts in one box, hidden as one in the trained model's and the checkpoint's
    // modes: a run that was under way when model="tiny" arrived may still render into it, unseen.
    this.#root.innerHTML = `<div class="attention-box"><div class="bar" part="heads"><div class="tabs batch" role="tablist"></div><div class="tabs heads" role="tablist"></div><div class="follow-token" part="follow"></div></div>
      <div class="overview" part="overview" role="group"></div><div class="stepper" part="stepper" hidden></div>
      <p class="preset-note" part="note" hidden></p></div><p class="error" part="error" role="alert" hidden></p><p class="loading">…</p>
      <div class="attention-box"><div class="pipeline"></div><div class="explain-body" part="explain" aria-live="polite"></div></div><div class="trained-box" part="trained" hidden></div><div class="checkpoint-box" part="checkpoint" hidden></div>`;
    const $ = (selector) => this.#root.querySelector(selector);
    const parts = {
      root: this.#root,
      pipeline: $('.pipeline'),
      explain: $('.explain-body'),
      batchTabs: $('.batch'),
      headTabs: $('.heads'),
      overview: $('.overview'),
      follow: $('.follow-token'),
      stepper: $('.stepper'),
      trained: $('.trained-box'),
      checkpoint: $('.checkpoint-box'),
    };
    // With exportable: a matrix's copy buttons and a figure's downloads do what they do on the page.
    parts.pipeline.addEventListener('click', (event) => this.#exportClicked(event));
    // Its runs hold every sentence and head (el.result is all of them); large ones run in the page's worker.
    this.#host = new AttentionHost(parts, {
      theme: () => this.#theme(),
      isTrained: () => this.#isTiny(),
      isCheckpoint: () => this.#mode() === 'checkpoint',
      onEditsChange: () => this.#schedule(),
      // A chapter the reader opens stays open until the chapters attribute changes.
      onChaptersChange: (open) => (this.#openChapters = { attribute: this.getAttribute('chapters'), open }),
      // The trained model's chapter is the model attribute's value: opening it sets that.
      onSettingChapter: ({ setting }) => this.setAttribute(setting.path, setting.value),
      trained: {
        onResult: (result) => {
          this.#failed = false;
          this.#root.querySelector('.loading').hidden = true;
          this.#root.querySelector('.error').hidden = true;
          this.#emit('attention-change', result);
        },
        // The view says it at its text box or slider; the page hears of it as of any other error.
        onError: (problem) => {
          this.#failed = true;
          this.#root.querySelector('.loading').hidden = true;
          this.#emitError(problem);
        },
      },
      // The checkpoint view says its errors at its controls (the files, the text or ids); the page hears them.
      checkpoint: {
        onResult: (result) => this.#emit('attention-change', result),
        onError: (problem) => this.#emitError(problem),
      },
    });
  }

  /** The pipeline view's controller (the host's). */
  get #controller() {
    return this.#host.controller;
  }

  #emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  /** attention-error with the problem's {field, code, params, message}. */
  /** A click in the pipeline: a matrix copied to the clipboard, or a figure downloaded; a failure is an attention-error. */
  async #exportClicked(event) {
    try {
      const copied = await copiedMatrix(event, this.#controller.options.decimals);
      if (copied) await navigator.clipboard.writeText(copied.text);
      else await downloadedFigure(event, this.#controller);
    } catch (error) {
      this.#emitError({ code: 'export-failed', message: error.message });
    }
  }

  #emitError({ field, code, params, message }) {
    this.#emit('attention-error', { field, code, params: params ?? {}, message });
  }

  connectedCallback() {
    this.#watchPage();
    this.#showScheme();
    // Load the engine only when the element is about to be seen.
    if (typeof IntersectionObserver === 'undefined') {
      this.#visible = true;
      this.#schedule();
      return;
    }
    this.#observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          this.#visible = true;
          this.#observer.disconnect();
          this.#schedule();
        }
      },
      { rootMargin: '300px' },
    );
    this.#observer.observe(this);
  }

  disconnectedCallback() {
    this.#observer?.disconnect();
    this.#pageObserver?.disconnect();
    this.#stopSiteWatch?.();
    this.#stopSiteWatch = null;
    this.#host.disconnect();
    this.#host.releaseEngine();
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue) return;
    if (fieldByAttribute.has(name) || name === CONFIG_ATTRIBUTE || name === PRESET_ATTRIBUTE)
      this.#controller.resetEdits();
    if (name === HEAD_ATTRIBUTE) this.#headApplied = false;
    if (name === 'theme') this.#showScheme(); // its colours at once, before a result (or over an error)
    // The language also picks the sentences of a preset or of the default example: run again.
    if (viewOptionByName.has(name) && name !== 'lang') this.#showView();
    else this.#schedule();
  }

  /** The head shown, counted from 1: the head attribute's, or the tab a reader picked since. */
  get head() {
    return this.#controller.result && !this.#failed
      ? this.#controller.head + 1
      : readViewOption(viewOptionByName.get(HEAD_ATTRIBUTE), this.getAttribute(HEAD_ATTRIBUTE));
  }

  set head(value) {
    if (value === null || value === undefined) {
      this.removeAttribute(HEAD_ATTRIBUTE);
    } else if (this.getAttribute(HEAD_ATTRIBUTE) !== String(value)) {
      this.setAttribute(HEAD_ATTRIBUTE, String(value));
    } else {
      // The attribute already says it, but a reader picked another tab since: back to it.
      this.#headApplied = false;
      this.#showView();
    }
  }

  // The nearest lang attribute around the element and <html> may change after it is connected (a site's
  // language switch), and so may the site's colour scheme (its dark-mode switch on <html> or <body>) and
  // the reader's: follow them.
  #watchPage() {
    const html = this.ownerDocument.documentElement;
    this.#stopSiteWatch?.();
    this.#stopSiteWatch = watchSiteSignals(this.ownerDocument, () => this.#pageChanged(), ['lang']);
    const nearest = nearestLangHolder(this);
    if (typeof MutationObserver !== 'undefined' && nearest && nearest !== html) {
      this.#pageObserver = new MutationObserver(() => this.#pageChanged());
      this.#pageObserver.observe(nearest, { attributes: true, attributeFilter: ['lang'] });
    }
    this.#host.connect(() => this.#pageChanged());
  }

  #pageChanged() {
    this.#showScheme();
    if (this.#shownLang !== null && this.#lang() !== this.#shownLang) this.#schedule();
    else if (this.#host.themeChanged()) this.#showView();
  }

  /** The theme attribute resolved ("auto": the site's scheme, color-scheme.js siteScheme): light or dark. */
  #resolvedTheme() {
    const theme = readViewOption(viewOptionByName.get('theme'), this.getAttribute('theme'));
    return resolveTheme(theme, documentSignals(this.ownerDocument));
  }

  /** The element's CSS colours (light-dark()) in the resolved scheme: a dark site's element is dark. */
  #showScheme(scheme = this.#resolvedTheme()) {
    if (scheme === this.#scheme) return;
    if (this.#scheme) this.#internals.states.delete(this.#scheme);
    this.#internals.states.add(scheme);
    this.#scheme = scheme;
  }

  /**
   * The last result (null before the first run or while the attributes are invalid); with model="tiny" the
   * trained model's, with model="checkpoint" the opened checkpoint's.
   */
  get result() {
    const mode = this.#mode();
    if (mode === 'tiny') return this.#host.trained?.result ?? null;
    if (mode === 'checkpoint') return this.#host.checkpoint?.result ?? null;
    return this.#controller.result;
  }

  /**
   * The names of the figures it shows, which exportFigure takes: each matrix's (its steps' tensor names, a
   * stepper's frames), "links", and "heads:" and a tensor's for a head grid. None in the trained model's
   * or the checkpoint's view.
   */
  get figureNames() {
    return this.#mode() === 'attention' ? this.#controller.figureNames : [];
  }

  /**
   * Figure `name` as it is shown (its numbers, labels, colours, caption in the element's language): a
   * Promise of a Blob, {format: 'svg' | 'png', scale: 1 | 2 | 4 (the PNG's pixels per SVG pixel)}.
   */
  exportFigure(name, options = {}) {
    if (this.#mode() !== 'attention') return Promise.reject(new RangeError('figures are of the attention view'));
    return this.#controller.exportFigure(name, options);
  }

  /** The model the attributes (model, or model in the config attribute) choose: 'attention', 'tiny' or 'checkpoint'. */
  #mode() {
    const extra = configAttributeOrNone(this.getAttribute(CONFIG_ATTRIBUTE));
    return modelOf(() => this.getAttribute('model') ?? extra.model);
  }

  #isTiny() {
    return this.#mode() === 'tiny';
  }

  /** The attention layer's parts, the trained model's view or the checkpoint's: one of them is shown. */
  #showMode(mode) {
    for (const box of this.#root.querySelectorAll('.attention-box')) box.hidden = mode !== 'attention';
    this.#root.querySelector('.trained-box').hidden = mode !== 'tiny';
    this.#root.querySelector('.checkpoint-box').hidden = mode !== 'checkpoint';
  }

  /** The checkpoint view: the reader opens a model's files in it. */
  async #showCheckpoint() {
    this.#showMode('checkpoint');
    this.#root.querySelector('.loading').hidden = true;
    this.#root.querySelector('.error').hidden = true;
    await this.#host.showCheckpoint({
      decimals: readViewOption(viewOptionByName.get('decimals'), this.getAttribute('decimals')),
    });
  }

  /** The trained model's view on the text and checkpoint attributes (their defaults when absent). */
  async #runTrained(lang) {
    this.#showMode('tiny');
    const extra = configAttributeOrNone(this.getAttribute(CONFIG_ATTRIBUTE));
    await this.#host.showTrained({
      text: this.getAttribute('text') ?? extra.text,
      checkpoint: this.getAttribute('checkpoint') ?? extra.checkpoint,
      lang,
      decimals: readViewOption(viewOptionByName.get('decimals'), this.getAttribute('decimals')),
    });
  }

  /**
   * The config the attributes describe: the preset's settings (or the default
   * example's) in the element's language, the attributes over them, the
   * config attribute merged over all.
   */
  get configObject() {
    const config = configFromAttributes((name) => this.getAttribute(name), this.#lang());
    this.#controller.givenEdits = givenEditsOf(config);
    return withEdits(config, this.#controller.edits);
  }

  /** The UI language: the lang attribute, or the nearest one around the element (a BCP 47 tag: zh-CN is zh). */
  #lang() {
    const tag = this.getAttribute('lang') ?? nearestLangHolder(this)?.getAttribute('lang') ?? 'en';
    return resolveLanguage(tag);
  }

  /**
   * The palette's theme key: the theme attribute's ("auto": the site's
   * colour scheme now) with the colours of the --attention-lab-* custom
   * properties set on the element. Zero is the background's colour unless
   * --attention-lab-zero says otherwise.
   */
  #theme() {
    const theme = this.#resolvedTheme();
    this.#showScheme(theme);
    const style = getComputedStyle(this);
    const colorOf = (name) => cssColorRgb(style.getPropertyValue(name).trim());
    const base = paletteColors(theme);
    const colors = {};
    const background = colorOf('--attention-lab-background');
    if (background) colors.zero = background;
    for (const { name, slot, index } of COLOR_PROPERTIES) {
      const rgb = colorOf(name);
      if (!rgb) continue;
      if (index === undefined) {
        colors[slot] = rgb;
        continue;
      }
      // One end of the probability scale given: a two-colour scale to the theme's other end.
      colors[slot] ??= slot === 'probability' ? [base.probability[0], base.probability.at(-1)] : [...base.heads];
      colors[slot][index] = rgb;
    }
    return customPalette(theme, colors);
  }

  /**
   * The view options of the attributes for `result` (the host adds the
   * language and the palette); the steps and head attributes are checked (an
   * AttentionConfigError naming the attribute), and a changed head attribute
   * picks the head shown.
   */
  #viewOptions(result) {
    const option = (name) => readViewOption(viewOptionByName.get(name), this.getAttribute(name));
    const steps = stepsOf(this.getAttribute('steps'));
    const given = this.getAttribute('chapters');
    const chapters = this.#openChapters?.attribute === given ? this.#openChapters.open : chaptersOf(given);
    const head = headIndexOf(this.getAttribute(HEAD_ATTRIBUTE), result.sizes.H);
    if (head !== null && !this.#headApplied) this.#controller.head = head;
    this.#headApplied = true;
    return {
      decimals: option('decimals'),
      steps,
      chapters,
      editable: option('editable'),
      exportable: option('exportable'),
      mode: option('mode'),
    };
  }

  /** The last good result shown again with the view attributes now (a view option changed): no run. */
  #showView() {
    if (this.#isTiny() && this.#host.trained) {
      this.#runTrained(this.#lang()); // the same text and checkpoint: no run, the options only
      return;
    }
    if (this.#mode() === 'checkpoint') {
      this.#showCheckpoint();
      return;
    }
    const result = this.#controller.result;
    if (!result || this.#failed) return this.#schedule();
    let options;
    try {
      options = this.#viewOptions(result);
    } catch (problem) {
      this.#showError(problem);
      return;
    }
    this.#root.querySelector('.error').hidden = true;
    this.#host.setOptions(options);
  }

  /** An error as an inline message naming its attribute (the last good result stays), and attention-error. */
  #showError(problem) {
    const error = this.#root.querySelector('.error');
    this.#root.querySelector('.loading').hidden = true;
    error.hidden = false;
    const path = problem.field ? settingOfError(problem.field) : undefined;
    const where = path ? fieldByPath.get(path).name : problem.field;
    error.textContent = `${where ? `${where}: ` : ''}${errorText(problem, this.#host.t)}`;
    this.#emitError(problem);
  }

  #schedule() {
    if (this.#scheduled || !this.#visible) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      this.#run();
    });
  }

  /** The note of the preset attribute's preset: what program it mirrors (its words loaded the first time). */
  async #showPresetNote() {
    const note = this.#root.querySelector('.preset-note');
    const key = this.getAttribute(PRESET_ATTRIBUTE)?.trim();
    const shown = presetByKey.has(key) && key !== 'default';
    if (shown) await loadPresetNotes();
    // A newer call (another preset, another language) may have shown its note meanwhile: this one is still right
    // only while the attribute names the same preset.
    if (key !== this.getAttribute(PRESET_ATTRIBUTE)?.trim()) return;
    note.hidden = !shown;
    note.replaceChildren(...(shown ? withCode(this.#host.t(`preset.${key}.note`)) : []));
  }

  async #run() {
    // Languages other than English are a chunk of their own; if it cannot load, the language shown stays.
    const lang = this.#lang();
    if (!(await this.#host.useLanguage(lang))) return; // a newer run asked for another language
    this.#shownLang = lang;
    this.#showPresetNote();
    if (this.#isTiny()) return this.#runTrained(lang);
    if (this.#mode() === 'checkpoint') return this.#showCheckpoint();
    this.#showMode('attention');
    let result;
    try {
      const viewOptions = (result) => this.#viewOptions(result);
      result = await this.#host.show(this.configObject, { viewOptions });
    } catch (problem) {
      this.#failed = true;
      this.#showError(problem);
      return;
    }
    if (result === null) return; // a newer run superseded it
    this.#failed = false;
    this.#root.querySelector('.loading').hidden = true;
    this.#root.querySelector('.error').hidden = true;
    this.#emit('attention-change', result);
  }
}

// Typed properties that reflect the attributes: config fields read the
// attribute as its schema type, or, when it is not set, the value the engine
// used in the last run (so el.qkvBias is true for init="torch-mha").
for (const field of FIELDS) {
  Object.defineProperty(AttentionLabElement.prototype, camelCase(field.name), {
    get() {
      const text = this.getAttribute(field.name);
      if (text !== null) return coerce(field, text) ?? null;
      return this.result?.settings[field.path] ?? field.default;
    },
    set(value) {
      if (value === null || value === undefined) this.removeAttribute(field.name);
      else this.setAttribute(field.name, attributeValue(field, value));
    },
  });
}
for (const option of VIEW_OPTIONS) {
  if (Object.hasOwn(AttentionLabElement.prototype, camelCase(option.name))) continue; // head: the class's own
  Object.defineProperty(AttentionLabElement.prototype, camelCase(option.name), {
    get() {
      const value = readViewOption(option, this.getAttribute(option.name));
      return value instanceof Set ? [...value].join(' ') : value;
    },
    set(value) {
      if (value === null || value === undefined || value === false) this.removeAttribute(option.name);
      else if (value === true) this.setAttribute(option.name, '');
      else this.setAttribute(option.name, Array.isArray(value) ? value.join(' ') : String(value));
    },
  });
}
Object.defineProperty(AttentionLabElement.prototype, 'preset', {
  /** The preset attribute: a preset key ("tutorial"), or null. */
  get() {
    return this.getAttribute(PRESET_ATTRIBUTE);
  },
  set(value) {
    if (value === null || value === undefined) this.removeAttribute(PRESET_ATTRIBUTE);
    else this.setAttribute(PRESET_ATTRIBUTE, String(value));
  },
});
Object.defineProperty(AttentionLabElement.prototype, 'config', {
  /** The config attribute as an object (null when absent). */
  get() {
    return this.hasAttribute(CONFIG_ATTRIBUTE) ? parseConfigAttribute(this.getAttribute(CONFIG_ATTRIBUTE)) : null;
  },
  set(value) {
    if (value === null || value === undefined) this.removeAttribute(CONFIG_ATTRIBUTE);
    else this.setAttribute(CONFIG_ATTRIBUTE, typeof value === 'string' ? value : JSON.stringify(value));
  },
});

if (typeof customElements !== 'undefined' && !customElements.get('attention-lab')) {
  customElements.define('attention-lab', AttentionLabElement);
}
