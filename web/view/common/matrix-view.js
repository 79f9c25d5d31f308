// What a matrix view ({name, caption?, captionName?, data, offset, rows, cols,
// rowStride, kind, …}: matrix.js documents it) says without the DOM: a value,
// its colour scale's limit, the rows holding a NaN, its caption as text. The
// page's tables and canvases (matrix.js) and the figures (view/figures) read it here.
import { formatNumber } from '../../model/format.js';
import { paletteIndex } from './colors.js';

/** Up to this many rows and columns a matrix is a table of numbers; beyond, a heatmap of pixels. */
export const TABLE_LIMIT = 64;

export const valueAt = (view, i, j) => view.data[view.offset + i * view.rowStride + j];

/** One pass over a view: the largest finite |v| (the colour scale's limit) and the rows holding a NaN. */
export function scan({ data, offset, rows, cols, rowStride }) {
  let max = 0;
  const nanRows = [];
  for (let i = 0; i < rows; i++) {
    const start = offset + i * rowStride;
    let rowHasNaN = false;
    for (let k = start; k < start + cols; k++) {
      const v = data[k];
      const a = Math.abs(v);
      if (v !== v) rowHasNaN = true;
      else if (a > max && a !== Infinity) max = a;
    }
    if (rowHasNaN) nanRows.push(i);
  }
  return { max, nanRows };
}

/** The end of the view's colour scale for the largest finite |v| `max`: probabilities reach 1 at least. */
export const scaleLimit = (kind, max) => (kind === 'prob' ? Math.max(1, max) : max || 1);

/** The view's caption as plain text: the template with its tensor name. */
export const captionText = (view) => (view.caption ?? '{name}').replaceAll('{name}', view.captionName ?? view.name);

/** A heatmap's pixels per value at first (the page's zoom; the figure's cell size): up to 4, about 720 wide. */
export const heatmapZoom = (cols) => Math.max(1, Math.min(4, Math.floor(720 / cols)));

/** The texts at the ends of the view's legend: 0 (probabilities) or −limit, and limit. */
export const legendEnds = (kind, limit) => [kind === 'prob' ? '0' : formatNumber(-limit, 2), formatNumber(limit, 2)];

/**
 * What cell (i, j) shows on a scale with end `limit`: {look, text} and, on
 * the scale, its step k (0-255). look: 'mask-on' / 'mask-off' (a mask: dark =
 * blocked in every convention, its text the value as the mask holds it),
 * 'blocked', 'nan' or 'scale'. The table's classes (matrix.js) and a figure's
 * colours (view/figures) both follow it.
 */
export function cellFace(view, i, j, limit) {
  const v = valueAt(view, i, j);
  if (view.kind === 'mask') {
    const on = view.blocked ? view.blocked(i, j) : v !== 0;
    return { look: on ? 'mask-on' : 'mask-off', text: view.maskText ? view.maskText(v) : v ? '1' : '0' };
  }
  if (view.blocked?.(i, j)) return { look: 'blocked', text: formatNumber(v, view.decimals) };
  if (Number.isNaN(v)) return { look: 'nan', text: 'NaN' };
  return { look: 'scale', k: paletteIndex(view.kind, v, limit), text: formatNumber(v, view.decimals) };
}
