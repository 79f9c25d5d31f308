// The two steppers' steps: "KV cache, token by token" (lab.decode) and
// "FlashAttention's online softmax" (lab.flash). Each is one body element that
// lives across renders (the pipeline keeps it in its step); its figures are
// extra engine calls, asked of the host only once the step nears the viewport,
// and asked again when the result, the sentence, the head or the tile sizes change.
import { formatNumber } from '../../model/format.js';
import { fieldErrorText } from '../../i18n/index.js';
import {
  bytesText,
  decodeStep,
  defaultTileSize,
  flashTile,
  identicalEntries,
  lastOfRow,
  smallestTileSize,
  tileSizeOf,
} from '../../model/stepper-runs.js';
import { headStart } from '../../model/selection.js';
import { joined } from '../../model/words.js';
import { headColor } from '../common/colors.js';
import { kvCacheWords } from './kv-cache-words.js';
import { element } from '../common/dom.js';
import { renderMatrix, withCode } from '../common/matrix.js';

const features = (n) => Array.from({ length: n }, (_, k) => `d${k}`);

/**
 * A step control: ← Previous, a slider, Next →, and the current step said
 * (aria-live). Built once per body, updated in place so the pressed button or
 * the slider keeps its focus. onGo(index) moves.
 */
function stepControl(onGo) {
  const box = element('div', 'stepper-control');
  box.setAttribute('role', 'group');
  const prev = element('button', 'stepper-prev');
  prev.type = 'button';
  const next = element('button', 'stepper-next');
  next.type = 'button';
  const slider = element('input', 'stepper-slider');
  slider.type = 'range';
  slider.min = '0';
  slider.step = '1';
  const said = element('output', 'stepper-said');
  said.setAttribute('aria-live', 'polite');
  prev.addEventListener('click', () => onGo(Number(slider.value) - 1));
  next.addEventListener('click', () => onGo(Number(slider.value) + 1));
  slider.addEventListener('input', () => onGo(Number(slider.value)));
  box.append(prev, slider, next, said);
  return box;
}

/** The control brought up to step `index` of `count`, saying `text`. */
function updateControl(box, { t, label, index, count, text }) {
  box.setAttribute('aria-label', label);
  const [prev, slider, next, said] = box.children;
  prev.textContent = `← ${t('steps.previous')}`;
  next.textContent = `${t('steps.next')} →`;
  prev.disabled = index <= 0;
  next.disabled = index >= count - 1;
  slider.max = String(count - 1);
  slider.value = String(index);
  slider.setAttribute('aria-label', label);
  slider.setAttribute('aria-valuetext', text);
  if (said.textContent !== text) said.textContent = text;
}

/** A heading and a figure side by side with others: one group. */
function group(title, figure, color) {
  const box = element('div', 'matrix-group');
  const h = element('h3', null, title);
  if (color) h.style.borderLeft = `4px solid ${color}`;
  box.append(h, figure);
  return box;
}

/** A note whose `code` is marked (withCode). */
function paragraphWithCode(text) {
  const p = element('p', 'stepper-note');
  p.append(...withCode(text));
  return p;
}

const row = (...children) => {
  const box = element('div', 'matrix-row');
  box.append(...children);
  return box;
};

/**
 * One stepper's state and body. kind: 'decode' or 'flash'; fetch(method,
 * options) -> Promise of the figures (the host's engine).
 */
class StepperPanel {
  body = element('div', 'stepper-body');
  /** What the step shows, redrawn on every move; the controls before it stay (and keep their focus). */
  content = element('div', 'stepper-content');
  data = null;
  error = null;
  index = 0;
  /** The last render's context (update). */
  ctx = null;
  /** Whether a request is on its way. */
  pending = false;
  #key = null;
  #wanted = null;
  #visible = false;
  #figures = new Map();

  constructor(kind, fetch) {
    this.kind = kind;
    this.fetch = fetch;
    this.body.dataset.stepper = kind;
    if (typeof IntersectionObserver === 'undefined') this.#visible = true;
    else
      new IntersectionObserver(
        (entries) => {
          this.#visible = entries.some((entry) => entry.isIntersecting);
          if (this.#visible) this.#load();
        },
        { rootMargin: '400px' },
      ).observe(this.body);
  }

  /** After every render: ctx {t, result, b, h, decimals, theme, exportable (a figure's copy and download buttons), queryLabels, keyLabels}. */
  update(ctx) {
    const options = this.options(ctx);
    const key = { result: ctx.result, json: JSON.stringify(options) };
    const current = this.#wanted?.key ?? this.#key;
    const same = current && current.result === key.result && current.json === key.json;
    if (same && !this.#wanted) this.ctx = ctx;
    else {
      this.#wanted = { key, options, ctx };
      this.#load();
      // Off screen, the figures shown stay with the result they belong to (never drawn against this one, whose
      // sizes may differ) until the step comes near and loads its own; only the language, theme and decimals
      // are this render's.
      if (this.#wanted)
        this.ctx = this.ctx
          ? { ...this.ctx, t: ctx.t, decimals: ctx.decimals, theme: ctx.theme, exportable: ctx.exportable }
          : ctx;
    }
    this.draw();
  }

  // The figures asked of the host when the step is near the viewport and they are not the wanted ones.
  #load() {
    const wanted = this.#wanted;
    if (!wanted || !this.#visible || !this.body.isConnected) return;
    this.#wanted = null;
    this.ctx = wanted.ctx;
    this.#key = wanted.key;
    this.data = null;
    this.error = null;
    this.pending = true;
    this.body.setAttribute('aria-busy', 'true');
    this.draw();
    this.fetch(this.kind, wanted.options).then(
      (data) => this.#arrived(wanted.key, data, null),
      (error) => this.#arrived(wanted.key, null, error),
    );
  }

  #arrived(key, data, error) {
    if (key !== this.#key) return; // a newer result asked for its own
    this.pending = false;
    this.data = data;
    this.error = error;
    if (data) this.index = Math.min(this.index, this.count() - 1);
    this.body.removeAttribute('aria-busy');
    this.draw();
    this.body.dispatchEvent(new CustomEvent('stepper-ready', { bubbles: true, composed: true }));
  }

  /** Whether it waits for its figures: a request on its way, or the step in view with another result's shown. */
  get busy() {
    return this.pending || (this.#wanted !== null && this.#visible);
  }

  /** Whether the figures shown are those of the current result (and no request is waiting). */
  get ready() {
    return Boolean(this.data || this.error) && !this.#wanted;
  }

  go(index) {
    this.index = Math.max(0, Math.min(this.count() - 1, index));
    this.draw();
  }

  /** A matrix figure, updated in place when only its numbers changed (cells keep their focus). */
  figure(view) {
    const { t, decimals, theme, exportable } = this.ctx;
    const figure = renderMatrix(
      { t, decimals, theme, exportable: Boolean(exportable), kind: 'signed', ...view },
      this.#figures.get(view.name),
    );
    this.#figures.set(view.name, figure);
    return figure;
  }

  /** The controls before the content (built once): none here. */
  controls() {
    return [];
  }

  draw() {
    const ctx = this.ctx;
    if (!ctx) return;
    const { t } = ctx;
    if (!this.body.firstChild) this.body.append(...this.controls(), this.content);
    for (const control of this.controls()) control.hidden = !this.data;
    if (this.error) this.content.replaceChildren(element('p', 'notice stepper-error', stepperErrorText(this.error, t)));
    else if (!this.data) this.content.replaceChildren(element('p', 'stepper-status', t('stepper.computing')));
    else this.content.replaceChildren(...this.render(ctx));
  }
}

// Why a stepper cannot run on these settings. The KV cache on a run without a causal mask (the default
// example) is said as what to set, in the form's own words; anything else is the engine's field error.
function stepperErrorText(error, t) {
  if (error.code === 'decode-needs-causal')
    return t('kv.needsCausal', { field: t('field.mask'), value: t('enum.mask.causal') });
  return fieldErrorText(error, t);
}

class KvCachePanel extends StepperPanel {
  #control = stepControl((index) => this.go(index));

  controls() {
    return [this.#control];
  }

  options(ctx) {
    return { batch: ctx.b };
  }

  count() {
    return this.data.sizes.S;
  }

  render(ctx) {
    const { t, h, queryLabels } = ctx;
    const decoded = this.data;
    const { S, H, H_kv: Hkv, headDim: dk } = decoded.sizes;
    const tokens = decoded.tokens.length ? decoded.tokens : queryLabels;
    const step = this.index;
    const at = decodeStep(decoded, step, h);
    const token = tokens[step];
    const words = kvCacheWords(decoded, at, step, token, t, ctx.result.tensors);
    updateControl(this.#control, {
      t,
      label: t('kv.control'),
      index: step,
      count: S,
      text: t('kv.said', { n: step + 1, count: S, t: step, token }),
    });
    const cached = tokens.slice(0, step + 1);
    const newRow = (i) => (i === step ? ['cache-new'] : []);
    const headTitle = t('view.head', { h: h + 1 });
    const keyHead = Hkv === H ? headTitle : t('kv.kvHead', { g: at.g + 1, h: h + 1 });
    // The key and the value cache of the K/V head this query head reads, the new row outlined.
    const cacheGroup = (kind, title, data) =>
      group(
        `${title.text} (${keyHead})`,
        this.figure({
          name: `kv-${kind}`,
          caption: `${kind}_cache (${keyHead})`,
          data,
          rows: step + 1,
          cols: dk,
          rowLabels: cached,
          colLabels: features(dk),
          cellClass: newRow,
        }),
        headColor(h),
      );
    const cache = row(cacheGroup('K', words.keysTitle, at.keys), cacheGroup('V', words.valuesTitle, at.values));
    const oneRow = (name, title, data, kind) =>
      group(
        title,
        this.figure({
          name,
          caption: `${name} (${headTitle})`,
          data,
          rows: 1,
          cols: step + 1,
          rowLabels: [token],
          colLabels: cached,
          kind,
        }),
      );
    const rows = row(
      oneRow('kv-scores', t('kv.scores'), at.scores, 'signed'),
      oneRow('kv-weights', t('kv.weights'), at.weights, 'prob'),
      oneRow('kv-full', t('kv.full'), at.full, 'prob'),
    );
    const identical = element(
      'p',
      at.identical ? 'stepper-verdict same' : 'stepper-verdict differs',
      joined(words.verdict).text,
    );
    return [
      element('p', 'stepper-note', words.appended.text),
      cache,
      rows,
      identical,
      this.#bytes(t, decoded.sizes, at.bytes, step, words),
      this.#trap(t, at, step, token, cached, decoded.sizes.H),
    ];
  }

  /** The cache's size at this length for MHA, GQA and MQA: a table with bars. */
  #bytes(t, { H, H_kv: Hkv }, bytes, step, words) {
    const box = element('div', 'kv-bytes');
    box.append(element('h3', null, t('kv.bytes.title', { n: step + 1 })));
    const table = element('table', 'kv-bytes-table');
    const caption = element('caption', 'sr-only', t('kv.bytes.title', { n: step + 1 }));
    table.append(caption);
    const head = table.createTHead().insertRow();
    for (const key of ['kv.bytes.layout', 'kv.bytes.heads', 'kv.bytes.size']) {
      const th = element('th', null, t(key));
      th.scope = 'col';
      head.append(th);
    }
    head.append(element('td'));
    const body = table.createTBody();
    const largest = Math.max(bytes.mha, bytes.gqa, bytes.mqa) || 1;
    const layouts = [
      ['mha', H],
      ['gqa', Hkv],
      ['mqa', 1],
    ];
    for (const [layout, heads] of layouts) {
      const tr = body.insertRow();
      tr.dataset.layout = layout;
      const th = element('th', null, t(`kv.bytes.${layout}`));
      th.scope = 'row';
      tr.append(th, element('td', 'num', String(heads)), element('td', 'num', bytesText(bytes[layout])));
      const barCell = element('td', 'kv-bar-cell');
      const bar = element('span', 'kv-bar');
      bar.style.width = `${(100 * bytes[layout]) / largest}%`;
      barCell.append(bar);
      tr.append(barCell);
      if (layout === 'gqa' && Hkv === H) tr.classList.add('same-as-mha');
    }
    box.append(table, element('p', 'stepper-note', words.bytes.text));
    if (words.noGqa) box.append(element('p', 'stepper-note', words.noGqa.text));
    return box;
  }

  /**
   * is_causal=True on the one decode query: the top-left mask leaves key 0 only. The engine works it out
   * for head 1 (lab.decode's isCausalOneQuery), which the figure's title says when there are more heads.
   */
  #trap(t, at, step, token, cached, H) {
    const box = element('div', 'kv-trap');
    // With one cached key the top-left mask keeps the only key: the row is still right at this step.
    // Key 0's weight is all of it, unless a sink logit takes its share.
    const why =
      step === 0
        ? t('kv.trap.why.first')
        : at.isCausal[0] === 1
          ? t('kv.trap.why', { n: step + 1 })
          : t('kv.trap.why.sink', { n: step + 1, w: formatNumber(at.isCausal[0], this.ctx.decimals) });
    box.append(
      element('h3', null, t('kv.trap.title')),
      paragraphWithCode(why),
      row(
        group(
          H > 1 ? t('kv.trap.wrong.head1') : t('kv.trap.wrong'),
          this.figure({
            name: 'kv-causal',
            caption: 'is_causal=True (head 1)',
            data: at.isCausal,
            rows: 1,
            cols: step + 1,
            rowLabels: [token],
            colLabels: cached,
            kind: 'prob',
          }),
        ),
      ),
      paragraphWithCode(t('kv.trap.fix')),
    );
    return box;
  }
}

class FlashPanel extends StepperPanel {
  #control = stepControl((index) => this.go(index));
  #tiles = element('div', 'flash-tiles');
  #sizes = null; // {S, queries, keys}: the tile sizes chosen for S rows

  controls() {
    return [this.#tiles, this.#control];
  }

  constructor(kind, fetch) {
    super(kind, fetch);
    for (const name of ['queries', 'keys']) {
      const label = element('label', 'flash-tile-size');
      const text = element('span');
      const input = element('input');
      input.type = 'number';
      input.step = '1';
      input.dataset.tile = name;
      input.addEventListener('change', () => this.#setTile(name, input.value));
      label.append(text, input);
      this.#tiles.append(label);
    }
  }

  #setTile(name, value) {
    if (!this.#sizes) return;
    this.#sizes[name] = tileSizeOf(value, this.#sizes.S, this.#sizes[name]);
    this.index = 0;
    this.update(this.ctx);
  }

  options(ctx) {
    const { S } = ctx.result.sizes;
    if (this.#sizes?.S !== S) this.#sizes = { S, queries: defaultTileSize(S), keys: defaultTileSize(S) };
    return { batch: ctx.b, head: ctx.h, tileQueries: this.#sizes.queries, tileKeys: this.#sizes.keys };
  }

  count() {
    return this.data.tiles.length + 1; // every tile, then the division by ℓ
  }

  #updateTiles(t) {
    const { S, queries, keys } = this.#sizes;
    const [q, k] = this.#tiles.children;
    for (const [label, key, value] of [
      [q, 'flash.tileQueries', queries],
      [k, 'flash.tileKeys', keys],
    ]) {
      label.firstChild.textContent = t(key);
      const input = label.lastChild;
      input.min = String(smallestTileSize(S));
      input.max = String(S);
      if (document.activeElement !== input || input.value === '') input.value = String(value);
    }
  }

  render(ctx) {
    const { t, result, b, h, queryLabels, keyLabels } = ctx;
    const flashed = this.data;
    const dk = flashed.output.length / result.sizes.S;
    const tileQueries = flashed.runningMax.length / flashed.tiles.length;
    const T = flashed.tiles.length;
    const k = this.index;
    const end = k === T;
    this.#updateTiles(t);
    const tile = end ? null : flashTile(flashed, k, tileQueries, dk);
    const said = end
      ? t('flash.saidEnd', { n: k + 1, count: T + 1 })
      : t(tile.skipped ? 'flash.saidSkipped' : 'flash.said', {
          n: k + 1,
          count: T + 1,
          q0: tile.queryStart,
          q1: tile.queryEnd - 1,
          k0: tile.keyStart,
          k1: tile.keyEnd - 1,
        });
    updateControl(this.#control, { t, label: t('flash.control'), index: k, count: T + 1, text: said });
    // The logits of the head, each cell marked by its tile: now, done, skipped or to come.
    const masked = result.tensors.masked;
    const { S, S_kv: Skv } = result.sizes;
    const tileOf = (i, j) =>
      flashed.tiles.findIndex((x) => x.queryStart <= i && i < x.queryEnd && x.keyStart <= j && j < x.keyEnd);
    const cellTile = new Int32Array(S * Skv);
    for (let i = 0; i < S; i++) for (let j = 0; j < Skv; j++) cellTile[i * Skv + j] = tileOf(i, j);
    const logits = this.figure({
      name: 'flash-logits',
      caption: `${t('flash.logits')} (${t('view.head', { h: h + 1 })})`,
      data: masked.data,
      offset: headStart(masked, b, h),
      rows: S,
      cols: Skv,
      rowLabels: queryLabels,
      colLabels: keyLabels,
      blocked: (i, j) => masked.data[headStart(masked, b, h) + i * Skv + j] === -Infinity,
      cellClass: (i, j) => {
        const at = cellTile[i * Skv + j];
        const classes = flashed.tiles[at]?.skipped ? ['tile-skipped'] : [];
        if (at === k) classes.push('tile-now');
        else if (at < k || end) classes.push('tile-done');
        return classes;
      },
    });
    const parts = [row(group(t('flash.logits'), logits, headColor(h)))];
    if (end) parts.push(...this.#end(t, flashed, dk, queryLabels));
    else parts.push(...this.#tile(t, tile, dk, lastOfRow(flashed, k)));
    return parts;
  }

  #tile(t, tile, dk, last) {
    if (tile.skipped) return [element('p', 'stepper-note flash-skipped', t('flash.skipped'))];
    const labels = tile.rows.map((r) => this.ctx.queryLabels[r.i]);
    const stats = new Float32Array(tile.rows.length * 4);
    tile.rows.forEach((r, n) => stats.set([r.mOld, r.m, r.alpha, r.l], n * 4));
    const partial = new Float32Array(tile.rows.length * dk);
    tile.rows.forEach((r, n) => partial.set(r.partial, n * dk));
    return [
      element('p', 'stepper-note', t(tile.first ? 'flash.first' : 'flash.update')),
      row(
        group(
          t('flash.stats'),
          this.figure({
            name: 'flash-stats',
            caption: 'm, ℓ, α',
            data: stats,
            rows: tile.rows.length,
            cols: 4,
            rowLabels: labels,
            colLabels: ['m_old', 'm', 'α', 'ℓ'],
          }),
        ),
        group(
          t('flash.partial'),
          this.figure({
            name: 'flash-partial',
            caption: 'O',
            data: partial,
            rows: tile.rows.length,
            cols: dk,
            rowLabels: labels,
            colLabels: features(dk),
          }),
        ),
      ),
      ...(last ? [element('p', 'stepper-note', t('flash.rowDone'))] : []),
    ];
  }

  #end(t, flashed, dk, queryLabels) {
    const S = flashed.output.length / dk;
    const same = identicalEntries(flashed.output, flashed.plain);
    const differs = (i, j) => (same[i * dk + j] ? [] : ['not-identical']);
    const matrix = (name, title, data) =>
      group(
        title,
        this.figure({
          name,
          caption: name,
          data,
          rows: S,
          cols: dk,
          rowLabels: queryLabels,
          colLabels: features(dk),
          cellClass: differs,
        }),
      );
    const percent = flashed.total ? (100 * flashed.identical) / flashed.total : 100;
    return [
      element('p', 'stepper-note', t('flash.divide')),
      row(
        matrix('flash-output', t('flash.output'), flashed.output),
        matrix('flash-plain', t('flash.plain'), flashed.plain),
      ),
      element(
        'p',
        'stepper-verdict flash-summary',
        t('flash.summary', {
          diff: formatNumber(flashed.maxAbsDifference, 4),
          identical: flashed.identical,
          total: flashed.total,
          percent: percent.toFixed(1),
        }),
      ),
      element('p', 'stepper-note', t(flashed.identical === flashed.total ? 'flash.whyAll' : 'flash.why')),
    ];
  }
}

/**
 * The steppers of a controller: body(step) gives a step's body for
 * the pipeline, update(ctx) after every render. fetch(method, options) runs
 * lab.decode / lab.flash for the current result's config.
 */
export class Steppers {
  #panels;

  constructor(fetch) {
    this.#panels = { kvcache: new KvCachePanel('decode', fetch), flash: new FlashPanel('flash', fetch) };
  }

  body(step) {
    return this.#panels[step].body;
  }

  /** ctx: {t, result, b, h, decimals, theme, queryLabels, keyLabels}; only the steps on the page are drawn. */
  update(ctx) {
    for (const panel of Object.values(this.#panels)) panel.update(ctx);
  }

  /** Whether a stepper waits for its figures. */
  get busy() {
    return Object.values(this.#panels).some((panel) => panel.busy);
  }

  /** What the explanations read: each stepper's figures and step. */
  get state() {
    const { kvcache, flash } = this.#panels;
    return {
      decode: kvcache.data && { data: kvcache.data, t: kvcache.index },
      flash: flash.data && { data: flash.data, k: flash.index },
    };
  }
}
