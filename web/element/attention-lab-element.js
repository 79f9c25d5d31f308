// <attention-lab>: the calculator as a custom element for tutorial pages.
//
//   <script type="module" src="attention-lab-element.js"></script>
//   <attention-lab text="The cat sat" heads="2" steps="scores weights output"></attention-lab>
//
// Attributes mirror the config (see attributes.js) plus config='{json}' for
// the rest; properties reflect them. It renders in Shadow DOM, loads the
// engine when it nears the viewport (one shared instance per page), emits
// `attention-change` with the result as detail, and shows a bad attribute as
// an inline error instead of a blank box.
import { loadAttentionLab } from '../api/index.js';
import { controlForField, formToConfig } from '../page/controls.js';
import { applyEdits, emptyEdits } from '../page/edits.js';
import { cellOfEvent, explainCell } from '../page/explain.js';
import { headColor } from '../page/colors.js';
import { t, withLanguage } from '../page/i18n.js';
import pipelineCss from '../page/pipeline.css?inline';
import { renderPipeline, renderTabs } from '../page/sections.js';
import { CONFIG_ATTRIBUTES, VIEW_ATTRIBUTES, formFromAttributes } from './attributes.js';
import elementCss from './element.css?inline';

const camel = (name) => name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

/** Deep merge of plain objects (config attribute over the attribute fields). */
function merge(base, extra) {
  const out = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    out[key] = value && typeof value === 'object' && !Array.isArray(value) && base[key] && typeof base[key] === 'object'
      ? merge(base[key], value) : value;
  }
  return out;
}

export class AttentionLabElement extends HTMLElement {
  static observedAttributes = [...CONFIG_ATTRIBUTES.map(([name]) => name), ...VIEW_ATTRIBUTES];

  #root;
  #scheduled = false;
  #visible = false;
  #observer = null;
  #result = null;
  #layout = null;
  #edits = emptyEdits();
  #view = { b: 0, h: 0, focus: null };

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = `${pipelineCss}\n${elementCss}`;
    this.#root.innerHTML = `<div class="bar" part="heads"><div class="tabs batch" role="tablist"></div><div class="tabs heads" role="tablist"></div></div>
      <p class="error" part="error" role="alert" hidden></p><p class="loading">…</p>
      <div class="pipeline"></div><div class="explain-body" part="explain" aria-live="polite"></div>`;
    this.#root.prepend(style);
    const pipeline = this.#root.querySelector('.pipeline');
    pipeline.addEventListener('mouseover', (e) => this.#explain(e));
    pipeline.addEventListener('focusin', (e) => this.#explain(e));
  }

  connectedCallback() {
    // Load the engine only when the element is about to be seen.
    if (typeof IntersectionObserver === 'undefined') {
      this.#visible = true;
      this.#schedule();
      return;
    }
    this.#observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        this.#visible = true;
        this.#observer.disconnect();
        this.#schedule();
      }
    }, { rootMargin: '300px' });
    this.#observer.observe(this);
  }

  disconnectedCallback() {
    this.#observer?.disconnect();
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue) return;
    if (CONFIG_ATTRIBUTES.some(([attribute]) => attribute === name)) this.#edits = emptyEdits();
    this.#schedule();
  }

  /** The last result (null before the first run or while the attributes are invalid). */
  get result() {
    return this.#result;
  }

  /** The config the attributes describe. Throws a SyntaxError for a malformed config attribute. */
  get configObject() {
    const form = formFromAttributes((name) => this.getAttribute(name));
    const extra = this.getAttribute('config');
    let parsed = {};
    if (extra !== null && extra.trim() !== '') {
      try {
        parsed = JSON.parse(extra);
      } catch (error) {
        throw { field: 'config', message: `the config attribute is not valid JSON: ${error.message}` };
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw { field: 'config', message: 'the config attribute must be a JSON object' };
    }
    return merge(formToConfig(form), parsed);
  }

  #schedule() {
    if (this.#scheduled || !this.#visible) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      this.#run();
    });
  }

  async #run() {
    const error = this.#root.querySelector('.error');
    const loading = this.#root.querySelector('.loading');
    let result;
    try {
      const config = applyEdits(this.configObject, this.#edits, this.#result?.vocab);
      const lab = await loadAttentionLab();
      result = lab.run(config);
    } catch (problem) {
      loading.hidden = true;
      error.hidden = false;
      const control = problem.field ? controlForField(problem.field) : null;
      const attribute = CONFIG_ATTRIBUTES.find(([, field]) => field === control)?.[0];
      error.textContent = `${attribute ? `${attribute}: ` : problem.field ? `${problem.field}: ` : ''}${problem.message}`;
      this.dispatchEvent(new CustomEvent('attention-error', { detail: { field: problem.field, message: problem.message }, bubbles: true, composed: true }));
      return;
    }
    loading.hidden = true;
    error.hidden = true;
    this.#result = result;
    this.#render();
    this.dispatchEvent(new CustomEvent('attention-change', { detail: result, bubbles: true, composed: true }));
  }

  #render() {
    const result = this.#result;
    if (!result) return;
    const steps = this.getAttribute('steps');
    const view = {
      ...this.#view,
      decimals: Number(this.getAttribute('decimals') ?? 4),
      theme: this.getAttribute('theme') === 'dark' ? 'dark' : 'light',
      steps: steps ? new Set(steps.split(/[\s,]+/).filter(Boolean)) : null,
      editable: this.hasAttribute('editable'),
      maskFill: -Infinity,
    };
    withLanguage(this.getAttribute('lang') ?? 'en', () => {
      this.#layout = renderPipeline(this.#root.querySelector('.pipeline'), result, view, {
        isEdited: (name, index) => this.#edits.weights[name]?.[index] !== undefined,
        isEmbeddingEdited: (token, d) => this.#edits.embedding[token]?.[d] !== undefined,
      }, {
        editWeight: (name, index, value) => {
          (this.#edits.weights[name] ??= {})[index] = value;
          this.#schedule();
        },
        editEmbedding: (token, d, value) => {
          (this.#edits.embedding[token] ??= {})[d] = value;
          this.#schedule();
        },
        focus: (i) => {
          this.#view.focus = i;
          this.#render();
        },
      });
      this.#renderTabs();
    });
  }

  #renderTabs() {
    const [B, H] = this.#result.tensors.scores.shape;
    renderTabs(this.#root.querySelector('.batch'), { count: B, current: this.#view.b, label: t('controls.batch'), onPick: (k) => { this.#view.b = k; this.#render(); } });
    renderTabs(this.#root.querySelector('.heads'), { count: H, current: this.#view.h, label: t('controls.head'), colorOf: headColor, onPick: (k) => { this.#view.h = k; this.#render(); } });
  }

  #explain(event) {
    const cell = cellOfEvent(event);
    if (!cell || !this.#result) return;
    withLanguage(this.getAttribute('lang') ?? 'en', () => {
      const info = explainCell(cell.step, cell.i, cell.j, {
        ...this.#layout, result: this.#result, decimals: Number(this.getAttribute('decimals') ?? 4),
      });
      if (info) this.#root.querySelector('.explain-body').replaceChildren(...info.nodes);
    });
  }
}

// Properties mirror attributes: el.dModel = 16 sets d-model="16"; booleans toggle.
for (const name of [...CONFIG_ATTRIBUTES.map(([attribute]) => attribute), ...VIEW_ATTRIBUTES]) {
  const isBoolean = ['compact', 'editable', 'qkv-bias'].includes(name);
  Object.defineProperty(AttentionLabElement.prototype, camel(name), {
    get() {
      return isBoolean ? this.hasAttribute(name) : this.getAttribute(name);
    },
    set(value) {
      if (isBoolean) this.toggleAttribute(name, Boolean(value));
      else if (value === null || value === undefined) this.removeAttribute(name);
      else this.setAttribute(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
    },
  });
}

if (!customElements.get('attention-lab')) customElements.define('attention-lab', AttentionLabElement);
