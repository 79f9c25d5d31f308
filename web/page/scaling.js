// Why divide by √d_k: per query row, the largest weight and the entropy of
// the weights with the scale and without it, computed from the raw scores
// with the same mask.
import { formatNumber } from './matrix.js';
import { t } from './i18n.js';

function softmaxStats(values) {
  const finite = values.filter((v) => v !== -Infinity);
  if (finite.length === 0) return { max: NaN, entropy: NaN };
  const top = Math.max(...finite);
  const exps = values.map((v) => (v === -Infinity ? 0 : Math.exp(v - top)));
  const sum = exps.reduce((a, b) => a + b, 0);
  const p = exps.map((e) => e / sum);
  const entropy = -p.reduce((acc, x) => (x > 0 ? acc + x * Math.log(x) : acc), 0);
  return { max: Math.max(...p), entropy };
}

/**
 * rows: for each query i, {label, scaled: {max, entropy}, unscaled: {max, entropy}}.
 * scores [S, S_kv] of one head; blocked(i, j); fill is the mask fill value.
 */
export function scalingRows({ scores, offset, S, Skv, scaleFactor, blocked, fill, labels }) {
  const rows = [];
  for (let i = 0; i < S; i++) {
    const raw = [];
    for (let j = 0; j < Skv; j++) raw.push(scores[offset + i * Skv + j]);
    const masked = (factor) => raw.map((v, j) => (blocked(i, j) ? fill : v * factor));
    rows.push({ label: labels[i], scaled: softmaxStats(masked(scaleFactor)), unscaled: softmaxStats(masked(1)) });
  }
  return rows;
}

export function renderScalingTable(rows, keyCount, decimals) {
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
  for (const row of rows) {
    const tr = body.insertRow();
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = row.label;
    tr.append(th);
    // Bars: a max weight is already in [0, 1]; an entropy is shown relative to log(S_kv), its largest value.
    const cells = [[row.scaled.max, 1], [row.unscaled.max, 1], [row.scaled.entropy, maxEntropy], [row.unscaled.entropy, maxEntropy]];
    for (const [v, full] of cells) {
      const td = tr.insertCell();
      td.textContent = formatNumber(v, decimals);
      const bar = document.createElement('span');
      bar.className = 'bar';
      bar.style.width = `${Math.max(0, Math.min(1, v / full)) * 100}%`;
      td.append(bar);
    }
  }
  return table;
}
