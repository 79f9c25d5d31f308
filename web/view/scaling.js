// Why divide by √d_k: per query row, the largest weight and the entropy of
// the weights with the scale and without it, computed from the raw scores
// with the same mask.
import { formatNumber } from './matrix.js';

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
 * rows: for each query i, {label, scaled: {max, entropy}, unscaled: {max, entropy}}.
 * scores [S, S_kv] of one head; blocked(i, j); fill is the mask fill value.
 */
export function scalingRows({ scores, offset, S, Skv, scaleFactor, blocked, fill, labels }) {
  const rows = [];
  const blockedRow = new Uint8Array(Skv);
  for (let i = 0; i < S; i++) {
    const raw = scores.subarray(offset + i * Skv, offset + (i + 1) * Skv);
    for (let j = 0; j < Skv; j++) blockedRow[j] = blocked(i, j) ? 1 : 0;
    rows.push({
      label: labels[i],
      scaled: softmaxStats(raw, scaleFactor, blockedRow, fill),
      unscaled: softmaxStats(raw, 1, blockedRow, fill),
    });
  }
  return rows;
}

export function renderScalingTable(rows, keyCount, decimals, t) {
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
  // Numbers as one HTML string (only numbers we formatted); labels as textContent.
  const body = table.createTBody();
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
  body.innerHTML = html.join('');
  rows.forEach((row, i) => {
    body.rows[i].cells[0].textContent = row.label;
  });
  // Bar widths through the CSSOM, which a strict Content-Security-Policy allows (style attributes it does not).
  for (const bar of body.querySelectorAll('.bar')) bar.style.width = `${bar.dataset.width}%`;
  return table;
}
