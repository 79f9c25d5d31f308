// Why scale the scores: (a) the variance of q·k grows like d_k, measured
// here on seeded standard-normal vectors; (b) softmax saturates for large
// score differences, σ(x) = softmax([x, 0])₀ and its gradient s(1 − s); and
// per query row, the largest weight and the entropy of the weights with the
// scale and without it, computed from the raw scores with the same mask.
import { compactNumber, formatNumber } from '../../model/format.js';
import { chartLegend, lineChart } from '../common/charts.js';
import { whenVisible } from '../common/matrix.js';
import { patchable } from '../common/patch.js';

/** A seeded uniform generator in [0, 1) (mulberry32): the same numbers in every browser. */
export function seededUniform(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard-normal draws from a uniform generator (Box–Muller, both values of each pair). */
export function seededNormal(seed) {
  const uniform = seededUniform(seed);
  let spare = null;
  return () => {
    if (spare !== null) {
      const v = spare;
      spare = null;
      return v;
    }
    const r = Math.sqrt(-2 * Math.log(1 - uniform()));
    const angle = 2 * Math.PI * uniform();
    spare = r * Math.sin(angle);
    return r * Math.cos(angle);
  };
}

export const VARIANCE_DIMS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];
export const VARIANCE_PAIRS = 2000;

/**
 * For each d_k: the sample variance of q·k over `pairs` pairs of vectors
 * q, k ~ N(0, I_dk), and of q·k/√d_k. (Theory: Var(q·k) = d_k.) Each pair is
 * drawn once at the largest d_k; q·k for a smaller d_k is the sum of its
 * first d_k products, so every d_k sees `pairs` independent pairs.
 * Returns [{dk, variance, scaledVariance}].
 */
export function measureDotVariance(dims = VARIANCE_DIMS, pairs = VARIANCE_PAIRS, seed = 1) {
  const sorted = [...dims].sort((a, b) => a - b);
  const largest = sorted[sorted.length - 1];
  const normal = seededNormal(seed);
  const sum = new Float64Array(sorted.length);
  const sumSquares = new Float64Array(sorted.length);
  for (let n = 0; n < pairs; n++) {
    let dot = 0;
    let next = 0;
    for (let m = 0; m < largest; m++) {
      dot += normal() * normal();
      while (next < sorted.length && sorted[next] === m + 1) {
        sum[next] += dot;
        sumSquares[next] += dot * dot;
        next++;
      }
    }
  }
  return sorted.map((dk, k) => {
    const mean = sum[k] / pairs;
    const variance = (sumSquares[k] - pairs * mean * mean) / (pairs - 1);
    return { dk, variance, scaledVariance: variance / dk };
  });
}

const measured = new Map();
const varianceKey = (dk) =>
  (VARIANCE_DIMS.includes(dk) || !(dk >= 1) ? VARIANCE_DIMS : [...VARIANCE_DIMS, dk].sort((a, b) => a - b)).join(',');
/** measureDotVariance for the standard dims plus `dk`, computed once per page. */
export function dotVarianceWith(dk) {
  const key = varianceKey(dk);
  if (!measured.has(key)) measured.set(key, measureDotVariance(key.split(',').map(Number)));
  return measured.get(key);
}

/** softmax(values) along one row, stable (the largest value subtracted first). */
export function softmax(values) {
  const top = Math.max(...values);
  const exps = values.map((v) => Math.exp(v - top));
  const total = exps.reduce((a, c) => a + c, 0);
  return exps.map((e) => e / total);
}

/**
 * The saturation curve: at `steps` points x over [from, to], s = softmax([x, 0])₀ = σ(x)
 * and its gradient ds/dx = s(1 − s). Returns [{x, s, gradient}].
 */
export function saturationCurve(from = -10, to = 10, steps = 201) {
  return Array.from({ length: steps }, (_, k) => {
    const x = from + ((to - from) * k) / (steps - 1);
    const s = softmax([x, 0])[0];
    return { x, s, gradient: s * (1 - s) };
  });
}

/** The spread (max − min) of a row's visible scores, times `factor`; 0 with fewer than two. */
export function rowSpread(values, factor, blocked) {
  let lo = Infinity;
  let hi = -Infinity;
  let count = 0;
  for (let j = 0; j < values.length; j++) {
    if (blocked[j]) continue;
    const v = values[j] * factor;
    if (!Number.isFinite(v)) continue;
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
    count++;
  }
  return count < 2 ? 0 : hi - lo;
}

/** Max and entropy of softmax(values * factor), blocked entries at `fill` (−∞ gives weight 0). */
function softmaxStats(values, factor, blocked, fill) {
  let top = -Infinity;
  for (let j = 0; j < values.length; j++) top = Math.max(top, blocked[j] ? fill : values[j] * factor);
  if (top === -Infinity) return { max: NaN, entropy: NaN };
  let sum = 0;
  for (let j = 0; j < values.length; j++) sum += Math.exp((blocked[j] ? fill : values[j] * factor) - top);
  let max = 0;
  let entropy = 0;
  for (let j = 0; j < values.length; j++) {
    const p = Math.exp((blocked[j] ? fill : values[j] * factor) - top) / sum;
    if (p > max) max = p;
    if (p > 0) entropy -= p * Math.log(p);
  }
  return { max, entropy };
}

/**
 * rows: for each query i, {label, scaled: {max, entropy}, unscaled: {max, entropy},
 * spread: {scaled, unscaled}} (the spread of its visible scores).
 * scores [S, S_kv] of one head; blocked(i, j); fill is the mask fill value;
 * from, to: the rows wanted (default all).
 */
export function scalingRows({ scores, offset, S, Skv, scaleFactor, blocked, fill, labels, from = 0, to = S }) {
  const rows = [];
  const blockedRow = new Uint8Array(Skv);
  for (let i = from; i < to; i++) {
    const raw = scores.subarray(offset + i * Skv, offset + (i + 1) * Skv);
    for (let j = 0; j < Skv; j++) blockedRow[j] = blocked(i, j) ? 1 : 0;
    rows.push({
      label: labels[i],
      scaled: softmaxStats(raw, scaleFactor, blockedRow, fill),
      unscaled: softmaxStats(raw, 1, blockedRow, fill),
      spread: { scaled: rowSpread(raw, scaleFactor, blockedRow), unscaled: rowSpread(raw, 1, blockedRow) },
    });
  }
  return rows;
}

// The statistics table is filled this many rows per slice (slices.js) for a long input.
const TABLE_ROWS = 128;

/** The rows' statistics as a table; `later` fills its rows a block at a time (now, or in later slices). */
export function renderScalingTable(rows, keyCount, decimals, t, later = (run) => run()) {
  const maxEntropy = Math.log(Math.max(2, keyCount));
  const table = document.createElement('table');
  table.className = 'stats';
  const caption = document.createElement('caption');
  caption.className = 'sr-only';
  caption.textContent = t('step.scaling.title');
  table.append(caption);
  const head = table.createTHead().insertRow();
  for (const key of ['scaling.row', 'scaling.maxWith', 'scaling.maxWithout', 'scaling.entWith', 'scaling.entWithout']) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = t(key);
    head.append(th);
  }
  const body = table.createTBody();
  for (let from = 0; from < rows.length; from += TABLE_ROWS)
    later(() => fillRows(body, rows.slice(from, from + TABLE_ROWS), maxEntropy, decimals));
  return table;
}

/** Appends `rows` to the table body: numbers as one HTML string (only numbers we formatted); labels as textContent. */
function fillRows(body, rows, maxEntropy, decimals) {
  const first = body.rows.length;
  const html = [];
  for (const row of rows) {
    html.push('<tr><th scope="row"></th>');
    // Bars: a max weight is already in [0, 1]; an entropy is shown relative to log(S_kv), its largest value.
    const cells = [
      [row.scaled.max, 1],
      [row.unscaled.max, 1],
      [row.scaled.entropy, maxEntropy],
      [row.unscaled.entropy, maxEntropy],
    ];
    for (const [v, full] of cells) {
      const width = (Math.max(0, Math.min(1, v / full)) * 100 || 0).toFixed(1);
      html.push(`<td>${formatNumber(v, decimals)}<span class="bar" data-width="${width}"></span></td>`);
    }
    html.push('</tr>');
  }
  body.insertAdjacentHTML('beforeend', html.join(''));
  rows.forEach((row, i) => {
    const tr = body.rows[first + i];
    tr.cells[0].textContent = row.label;
    tr.cells[0].translate = false; // a token is data, never translated
    // Bar widths through the CSSOM, which a strict Content-Security-Policy allows (style attributes it does not).
    for (const bar of tr.querySelectorAll('.bar')) bar.style.width = `${bar.dataset.width}%`;
  });
}

const powersOf4 = (max) => {
  const ticks = [];
  for (let v = 1; v <= max; v *= 4) ticks.push(v);
  return ticks;
};

/** A table as the text alternative of a chart, in a <details> (header: column names, rows: numbers). */
function dataTable(summary, columns, rows) {
  const details = document.createElement('details');
  details.className = 'chart-data';
  const label = document.createElement('summary');
  label.textContent = summary;
  const table = document.createElement('table');
  table.className = 'stats';
  const caption = document.createElement('caption');
  caption.className = 'sr-only';
  caption.textContent = summary;
  table.append(caption);
  const head = table.createTHead().insertRow();
  for (const name of columns) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = name;
    head.append(th);
  }
  const body = table.createTBody();
  for (const values of rows) {
    const tr = body.insertRow();
    values.forEach((v, k) => {
      const cell = document.createElement(k === 0 ? 'th' : 'td');
      if (k === 0) cell.scope = 'row';
      cell.textContent = typeof v === 'number' ? compactNumber(v) : v;
      tr.append(cell);
    });
  }
  details.append(label, table);
  return details;
}

/** A chart's figure; `captionParts`: its caption's text, and nodes (a token marked as data). */
function figure(name, svg, legend, captionParts, data) {
  const box = document.createElement('figure');
  box.className = 'chart-figure';
  box.dataset.chart = name;
  const caption = document.createElement('figcaption');
  caption.append(...[captionParts].flat());
  box.append(svg, legend, caption, data);
  return box;
}

/** (a) Var(q·k) against d_k, measured, beside the line d_k, log–log, this run's d_k marked. */
function varianceFigure({ dk, D, scale, factor, t }) {
  const measuredRows = dotVarianceWith(dk);
  const xMax = Math.max(512, 2 ** Math.ceil(Math.log2(Math.max(1, dk))));
  const svg = lineChart({
    title: t('scaling.varianceTitle'),
    x: { min: 1, max: xMax, log: true, label: 'd_k', ticks: powersOf4(xMax), format: String },
    y: {
      min: 0.25,
      max: xMax * 2,
      log: true,
      label: t('scaling.axisVariance'),
      ticks: powersOf4(xMax * 2),
      format: String,
    },
    series: [
      {
        points: [
          [1, 1],
          [xMax, xMax],
        ],
        type: 'line',
        className: 'chart-theory',
      },
      { points: measuredRows.map((r) => [r.dk, r.variance]), type: 'dots', className: 'chart-measured' },
      { points: measuredRows.map((r) => [r.dk, r.scaledVariance]), type: 'dots', className: 'chart-scaled' },
    ],
    marks: [{ x: dk, label: `d_k = ${dk}`, className: 'chart-mark' }],
  });
  const legend = chartLegend([
    { className: 'chart-measured', label: t('scaling.measured') },
    { className: 'chart-theory', label: t('scaling.theory') },
    { className: 'chart-scaled', label: t('scaling.measuredScaled') },
  ]);
  const caption = [t('scaling.varianceCaption', { pairs: VARIANCE_PAIRS })];
  // What this run's scale does to the variance: Var(s·q·k) = s²·d_k.
  const yours = { 'head-dim': 'scaling.yoursHeadDim', 'd-model': 'scaling.yoursDModel', none: 'scaling.yoursNone' }[
    scale
  ];
  caption.push(
    t(yours ?? 'scaling.yoursCustom', {
      dk,
      D,
      s2: compactNumber(factor * factor),
      v: compactNumber(dk * factor * factor),
    }),
  );
  const data = dataTable(
    t('scaling.data'),
    ['d_k', 'Var(q·k)', 'Var(q·k/√d_k)'],
    measuredRows.map((r) => [String(r.dk), r.variance, r.scaledVariance]),
  );
  return figure('variance', svg, legend, caption.join(' '), data);
}

/** (b) σ(x) = softmax([x, 0])₀ and s(1 − s) over [−10, 10], with a row's spread of scores marked. */
function saturationFigure({ rows, focus, t }) {
  const curve = saturationCurve();
  // The row shown: the focused query, else the one whose unscaled scores spread the most.
  let r = focus ?? 0;
  if (focus === null || focus === undefined || !rows[r])
    r = rows.reduce((best, row, k) => (row.spread.unscaled > rows[best].spread.unscaled ? k : best), 0);
  const row = rows[r];
  const marks = [];
  const text = [t('scaling.saturationCaption')];
  const slot = '\u0000'; // where the row's token goes in the translated sentence
  if (row) {
    const at = (x) => {
      const s = 1 / (1 + Math.exp(-x));
      return { x: compactNumber(x), s: compactNumber(s), g: compactNumber(s * (1 - s)) };
    };
    const scaled = at(row.spread.scaled);
    const unscaled = at(row.spread.unscaled);
    marks.push(
      { x: row.spread.scaled, label: t('scaling.markScaled', { x: scaled.x }), className: 'chart-mark', row: 0 },
      {
        x: row.spread.unscaled,
        label: t('scaling.markUnscaled', { x: unscaled.x }),
        className: 'chart-mark-alt',
        row: 1,
      },
    );
    const token = document.createElement('span');
    token.translate = false; // a token is data, never translated
    token.textContent = row.label;
    const [before, ...after] = t('scaling.rowSpread', {
      row: slot,
      scaled: scaled.x,
      s1: scaled.s,
      g1: scaled.g,
      unscaled: unscaled.x,
      s2: unscaled.s,
      g2: unscaled.g,
    }).split(slot);
    text.push(` ${before}`, ...(after.length ? [token, after.join(row.label)] : []));
  }
  const svg = lineChart({
    title: t('scaling.saturationTitle'),
    x: { min: -10, max: 10, label: t('scaling.axisX'), ticks: [-10, -5, 0, 5, 10], format: compactNumber },
    y: { min: 0, max: 1, label: '', ticks: [0, 0.25, 0.5, 0.75, 1], format: compactNumber },
    series: [
      { points: curve.map((c) => [c.x, c.s]), type: 'line', className: 'chart-sigma' },
      { points: curve.map((c) => [c.x, c.gradient]), type: 'line', className: 'chart-gradient' },
    ],
    marks,
  });
  const legend = chartLegend([
    { className: 'chart-sigma', label: 'σ(x) = softmax([x, 0])₀' },
    { className: 'chart-gradient', label: t('scaling.gradient') },
  ]);
  const sample = curve.filter((c) => [-10, -5, -2, 0, 2, 5, 10].some((x) => Math.abs(c.x - x) < 1e-9));
  const data = dataTable(
    t('scaling.data'),
    ['x', 'σ(x)', 's(1 − s)'],
    sample.map((c) => [compactNumber(c.x), c.s, c.gradient]),
  );
  return figure('saturation', svg, legend, text, data);
}

/**
 * The scaling section's top: the factor this run uses, then why scale,
 * (a) the variance of q·k and (b) softmax saturation.
 * {rows (scalingRows), focus, dk, D, scale, factor, scaleText, t}
 */
export function renderScalingCharts({ rows, focus, dk, D, scale, factor, scaleText, t }) {
  const box = patchable(document.createElement('div'));
  box.className = 'scaling-charts';
  const line = document.createElement('p');
  line.className = 'scale-factor';
  line.textContent = t('scaling.factor', { factor: scaleText });
  const charts = patchable(document.createElement('div'));
  charts.className = 'charts';
  // The variance is measured once per page (a few hundred thousand draws), when the section nears the
  // viewport; once measured, its chart is drawn at once (a re-render keeps the section's height).
  const variance = () => varianceFigure({ dk, D, scale, factor, t });
  const slot = measured.has(varianceKey(dk)) ? variance() : document.createElement('figure');
  if (!slot.dataset.chart) {
    slot.className = 'chart-figure chart-pending';
    slot.dataset.chart = 'variance';
    // What it will show: a re-render keeps an equal slot (patch.js), whose chart is then still the right one.
    slot.dataset.pending = JSON.stringify([dk, D, scale, factor, t.lang ?? t('scaling.varianceTitle')]);
    whenVisible(slot, () => slot.replaceWith(variance()));
  }
  charts.append(slot, saturationFigure({ rows, focus, t }));
  box.append(line, charts);
  return box;
}
