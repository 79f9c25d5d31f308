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
// an inline error naming it instead of a blank box.
import { AttentionConfigError, loadAttentionLab } from '../api/index.js';
import { errorText, isLanguageLoaded, loadLanguage, resolveLanguage, translator } from '../i18n/index.js';
import { editsFromJson, emptyEdits, withEdits } from '../model/edits.js';
import { PRESETS, defaultSettings, presetByKey, presetSettings } from '../model/presets.js';
import { FIELDS, camelCase, fieldByPath } from '../model/schema.js';
import {
  attributeValue,
  coerce,
  configFromSettings,
  mergeConfig,
  settingOfError,
  settingsFromAttributes,
} from '../model/settings.js';
import { adoptStyleSheets } from '../view/colors.js';
import { PipelineController } from '../view/controller.js';
import { withCode } from '../view/matrix.js';
import pipelineCss from '../view/pipeline.css?inline';
import teachCss from '../view/teach.css?inline';
import { VIEW_OPTIONS, readViewOption, viewOptionByName } from '../view/view-options.js';
import elementCss from './element.css?inline';

const CONFIG_ATTRIBUTE = 'config';
const PRESET_ATTRIBUTE = 'preset';

let sheet = null;
const elementStyleSheet = () => {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(`${pipelineCss}\n${teachCss}\n${elementCss}`);
  }
  return sheet;
};
const fieldByAttribute = new Map(FIELDS.map((field) => [field.name, field]));

/** The config attribute as an object; a malformed one is an error naming it. */
function parseConfigAttribute(text) {
  if (text === null || text.trim() === '') return {};
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw AttentionConfigError.of(CONFIG_ATTRIBUTE, 'config-attribute-json', { reason: error.message });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw AttentionConfigError.of(CONFIG_ATTRIBUTE, 'config-attribute-not-object');
  }
  return parsed;
}

/** The preset an attribute names (null when absent); an unknown key is an error naming the attribute. */
function presetOf(key) {
  if (key === null || key.trim() === '') return null;
  const preset = presetByKey.get(key.trim());
  if (preset) return preset;
  const known = PRESETS.map((p) => p.key).join(', ');
  throw AttentionConfigError.of(PRESET_ATTRIBUTE, 'unknown-preset', { key, known });
}

/** The edits a config carries (weights.edits, embedding.edits), to mark them; none if malformed (the engine reports it). */
function givenEditsOf(config) {
  try {
    return editsFromJson({ weights: config.weights?.edits ?? {}, embedding: config.embedding?.edits ?? [] });
  } catch {
    return emptyEdits();
  }
}

export class AttentionLabElement extends HTMLElement {
  static observedAttributes = [
    ...fieldByAttribute.keys(),
    ...viewOptionByName.keys(),
    CONFIG_ATTRIBUTE,
    PRESET_ATTRIBUTE,
  ];

  #root;
  #controller;
  #scheduled = false;
  #visible = false;
  #observer = null;

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    // A constructed stylesheet, not a <style> element: a strict Content-Security-Policy allows it.
    adoptStyleSheets(this.#root, [elementStyleSheet()]);
    // The overview is a group, not a <nav>: a page with several elements would repeat one landmark.
    this.#root.innerHTML = `<div class="bar" part="heads"><div class="tabs batch" role="tablist"></div><div class="tabs heads" role="tablist"></div><div class="follow-token" part="follow"></div></div>
      <div class="overview" part="overview" role="group"></div><div class="stepper" part="stepper" hidden></div>
      <p class="preset-note" part="note" hidden></p><p class="error" part="error" role="alert" hidden></p><p class="loading">…</p>
      <div class="pipeline"></div><div class="explain-body" part="explain" aria-live="polite"></div>`;
    const $ = (selector) => this.#root.querySelector(selector);
    this.#controller = new PipelineController(
      {
        root: this.#root,
        pipeline: $('.pipeline'),
        explain: $('.explain-body'),
        batchTabs: $('.batch'),
        headTabs: $('.heads'),
        overview: $('.overview'),
        follow: $('.follow-token'),
        stepper: $('.stepper'),
      },
      { onEditsChange: () => this.#schedule() },
    );
  }

  connectedCallback() {
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
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue) return;
    if (fieldByAttribute.has(name) || name === CONFIG_ATTRIBUTE || name === PRESET_ATTRIBUTE)
      this.#controller.resetEdits();
    // The language also picks the sentences of a preset or of the default example: run again.
    if (viewOptionByName.has(name) && name !== 'lang' && this.#controller.result) {
      this.#controller.setOptions(this.#viewOptions());
      return;
    }
    this.#schedule();
  }

  /** The last result (null before the first run or while the attributes are invalid). */
  get result() {
    return this.#controller.result;
  }

  /**
   * The config the attributes describe: the preset's settings (or the default
   * example's) in the element's language, the attributes over them, the
   * config attribute merged over all.
   */
  get configObject() {
    const settings = settingsFromAttributes((name) => this.getAttribute(name));
    const extra = parseConfigAttribute(this.getAttribute(CONFIG_ATTRIBUTE));
    const preset = presetOf(this.getAttribute(PRESET_ATTRIBUTE));
    const base = preset ? presetSettings(preset, this.#lang()) : defaultSettings(this.#lang());
    // A field given for the input or the context replaces the base's choice there (text vs input).
    const given = (field) => settings[field.path] !== undefined || extra[field.path] !== undefined;
    const replaced = new Set(FIELDS.filter((field) => field.oneOf && given(field)).map((field) => field.oneOf));
    for (const field of FIELDS) if (replaced.has(field.oneOf)) delete base[field.path];
    const config = mergeConfig(configFromSettings({ ...base, ...settings }), extra);
    this.#controller.givenEdits = givenEditsOf(config);
    return withEdits(config, this.#controller.edits);
  }

  /** The UI language: the lang attribute, or the page's around the element. */
  #lang() {
    const tag = this.getAttribute('lang') ?? this.parentElement?.closest('[lang]')?.getAttribute('lang') ?? 'en';
    return resolveLanguage(tag);
  }

  /** The UI language's translator; English until its strings have arrived (#run waits for them). */
  #t() {
    return translator(isLanguageLoaded(this.#lang()) ? this.#lang() : 'en');
  }

  #viewOptions() {
    const option = (name) => readViewOption(viewOptionByName.get(name), this.getAttribute(name));
    return {
      t: this.#t(),
      decimals: option('decimals'),
      theme: option('theme'),
      steps: option('steps'),
      editable: option('editable'),
      mode: option('mode'),
    };
  }

  #schedule() {
    if (this.#scheduled || !this.#visible) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      this.#run();
    });
  }

  /** The note of the preset attribute's preset: what program it mirrors. */
  #showPresetNote() {
    const note = this.#root.querySelector('.preset-note');
    const key = this.getAttribute(PRESET_ATTRIBUTE)?.trim();
    note.hidden = !presetByKey.has(key) || key === 'default';
    note.replaceChildren(...(note.hidden ? [] : withCode(this.#t()(`preset.${key}.note`))));
  }

  async #run() {
    const error = this.#root.querySelector('.error');
    const loading = this.#root.querySelector('.loading');
    // Languages other than English are a chunk of their own; if it cannot load, English it is.
    await loadLanguage(this.#lang()).catch(() => {});
    this.#showPresetNote();
    let result;
    let config;
    try {
      config = this.configObject;
      const lab = await loadAttentionLab();
      result = lab.run(config);
    } catch (problem) {
      loading.hidden = true;
      error.hidden = false;
      const path = problem.field ? settingOfError(problem.field) : undefined;
      const where = path ? fieldByPath.get(path).name : problem.field;
      error.textContent = `${where ? `${where}: ` : ''}${errorText(problem, this.#viewOptions().t)}`;
      this.dispatchEvent(
        new CustomEvent('attention-error', {
          detail: { field: problem.field, code: problem.code, params: problem.params ?? {}, message: problem.message },
          bubbles: true,
          composed: true,
        }),
      );
      return;
    }
    loading.hidden = true;
    error.hidden = true;
    this.#controller.setResult(result, { ...this.#viewOptions(), weightsGiven: Boolean(config.weights?.values) });
    this.dispatchEvent(new CustomEvent('attention-change', { detail: result, bubbles: true, composed: true }));
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
