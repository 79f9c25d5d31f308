// The heads' small heatmaps without the DOM: how a head's [S, S_kv] slice is
// pooled into blocks, the blocks' means and the shared colour scale's limit.
// The page's canvases (head-multiples.js) and the head grid figure (view/figures) read them.

import { formatNumber } from '../../model/format.js';

const MAX_CELLS = 24;
/** A head's heatmap is at most this many pixels a side on the page. */
export const SIZE = 96;

/** How a head's [S, S_kv] is pooled: pool × pool blocks, rows × cols of them, each `cell` pixels a side. */
export function pooling(S, Skv) {
  const pool = Math.max(1, Math.ceil(Math.max(S, Skv) / MAX_CELLS));
  const rows = Math.ceil(S / pool);
  const cols = Math.ceil(Skv / pool);
  return { pool, rows, cols, cell: SIZE / Math.max(rows, cols) };
}

/**
 * The means of a [S, Skv] slice at `offset` over blocks of pool × pool, as
 * [rows, cols] (NaN and ±∞ skipped; NaN where none is finite). One pass in
 * memory order; each block adds its values in the order of its rows, as a
 * loop over the block would.
 */
export function blockMeans(data, offset, S, Skv, pool, rows, cols) {
  const sums = new Float64Array(rows * cols);
  const counts = new Uint32Array(rows * cols);
  for (let i = 0; i < S; i++) {
    const start = offset + i * Skv;
    const block = Math.floor(i / pool) * cols;
    for (let bj = 0; bj < cols; bj++) {
      const end = Math.min(Skv, (bj + 1) * pool);
      let sum = sums[block + bj];
      let count = 0;
      for (let j = bj * pool; j < end; j++) {
        const v = data[start + j];
        if (v - v === 0) {
          // finite (NaN − NaN and ∞ − ∞ are NaN)
          sum += v;
          count++;
        }
      }
      sums[block + bj] = sum;
      counts[block + bj] += count;
    }
  }
  for (let k = 0; k < sums.length; k++) sums[k] = counts[k] ? sums[k] / counts[k] : NaN;
  return sums;
}

/** The largest finite |v| of head h's [S, S_kv] slice of sentence b. */
export function headLimit(data, b, H, h, S, Skv) {
  let limit = 0;
  const offset = (b * H + h) * S * Skv;
  for (let k = offset; k < offset + S * Skv; k++) {
    const v = Math.abs(data[k]);
    if (v > limit && v !== Infinity) limit = v;
  }
  return limit;
}

/** The note under the heads: their one scale (0 … limit for weights, ±limit for scores) and the pooling, if any. */
export function headsScaleNote(t, kind, limit, pool) {
  const range = kind === 'prob' ? `0 … ${formatNumber(limit, 2)}` : `±${formatNumber(limit, 2)}`;
  return [t('heads.scale', { range }), pool > 1 ? t('heads.pooled', { n: pool }) : ''].join(' ').trim();
}
