// Every head side by side, as small heatmaps framed in the head's colour,
// above the selected head's detailed matrix. Each is a button: clicking it
// selects that head (as the head tabs do). Weights fill with the head's
// colour (0 = background, the largest weight of all heads = full colour);
// signed scores use the tables' diverging scale, ±the largest |score|. One
// scale for all heads, so they compare. Long inputs are pooled to at most
// MAX_CELLS squares a side.
import { formatNumber } from './matrix.js';
import { css, headColor, headRgb, heatmapRgb } from './colors.js';

const SVG = 'http://www.w3.org/2000/svg';
const MAX_CELLS = 24;
const SIZE = 96;

/** Mean of a block of a [rows, cols] slice at `offset` (NaN and ±∞ skipped; NaN if none is finite). */
function blockMean(data, offset, cols, i0, i1, j0, j1) {
  let sum = 0;
  let count = 0;
  for (let i = i0; i < i1; i++)
    for (let j = j0; j < j1; j++) {
      const v = data[offset + i * cols + j];
      if (Number.isFinite(v)) {
        sum += v;
        count++;
      }
    }
  return count ? sum / count : NaN;
}

/** The largest finite |v| of head h's [S, S_kv] slice of sentence b. */
function headLimit(data, b, H, h, S, Skv) {
  let limit = 0;
  const offset = (b * H + h) * S * Skv;
  for (let k = offset; k < offset + S * Skv; k++) {
    const v = Math.abs(data[k]);
    if (v > limit && v !== Infinity) limit = v;
  }
  return limit;
}

/**
 * The heads of one [B, H, S, S_kv] tensor as small heatmaps.
 * {name, data, b, H, S, Skv, selected, kind: 'prob' | 'signed', theme, t, onPick(h),
 * later?(run) (works out a head's scale and draws its heatmap now or in a later slice, slices.js)}
 * previous: the box of the last render; when it has the same structure (heads,
 * size, kind, theme, language), its heatmaps are redrawn in place and it is returned.
 */
export function renderHeadMultiples(
  { name, data, b, H, S, Skv, selected, kind, theme, t, onPick, later = (run) => run() },
  previous = null,
) {
  const pool = Math.max(1, Math.ceil(Math.max(S, Skv) / MAX_CELLS));
  const rows = Math.ceil(S / pool);
  const cols = Math.ceil(Skv / pool);
  const cell = SIZE / Math.max(rows, cols);
  const key = JSON.stringify([name, H, rows, cols, kind, theme, t.lang ?? t('view.head', { h: 1 })]);
  const reused = previous?.multiplesKey === key;
  const box = reused ? previous : document.createElement('div');
  box.multiplesKey = key;
  if (!reused) {
    box.className = 'head-multiples';
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', t('heads.multiples', { name, count: H }));
    box.dataset.heads = name;
  }
  const svgs = [];
  for (let h = 0; h < H; h++) {
    if (reused) {
      const button = box.children[h];
      button.setAttribute('aria-pressed', String(h === selected));
      svgs.push(button.firstChild);
      continue;
    }
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'head-multiple';
    button.setAttribute('aria-pressed', String(h === selected));
    button.setAttribute('aria-label', t('heads.select', { name, h: h + 1 }));
    button.style.setProperty('--head-color', headColor(h));
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', `0 0 ${cols * cell} ${rows * cell}`);
    svg.setAttribute('width', String(Math.round(cols * cell)));
    svg.setAttribute('height', String(Math.round(rows * cell)));
    svg.setAttribute('aria-hidden', 'true');
    const label = document.createElement('span');
    label.className = 'head-multiple-label';
    label.textContent = t('view.head', { h: h + 1 });
    button.append(svg, label);
    button.addEventListener('click', () => onPick(h));
    box.append(button);
    svgs.push(svg);
  }
  // One colour scale for every head, so their heatmaps compare: each head's share worked out in its own slice.
  let limit = 0;
  for (let h = 0; h < H; h++) later(() => (limit = Math.max(limit, headLimit(data, b, H, h, S, Skv))));
  for (let h = 0; h < H; h++) later(() => drawHead(svgs[h], h, limit || 1));
  // Head h's blocks as squares of its colour (weights) or the diverging scale (scores); a redraw reuses the squares.
  function drawHead(svg, h, scale) {
    const offset = (b * H + h) * S * Skv;
    let k = 0;
    for (let bi = 0; bi < rows; bi++)
      for (let bj = 0; bj < cols; bj++) {
        const v = blockMean(
          data,
          offset,
          Skv,
          bi * pool,
          Math.min(S, (bi + 1) * pool),
          bj * pool,
          Math.min(Skv, (bj + 1) * pool),
        );
        let rect = svg.children[k++];
        if (!rect) {
          rect = document.createElementNS(SVG, 'rect');
          rect.setAttribute('x', String(bj * cell));
          rect.setAttribute('y', String(bi * cell));
          rect.setAttribute('width', String(cell));
          rect.setAttribute('height', String(cell));
          svg.append(rect);
        }
        const rgb = Number.isNaN(v)
          ? null
          : kind === 'prob'
            ? headRgb(h, v / scale, theme)
            : heatmapRgb('signed', theme, v, scale);
        const className = rgb ? 'cell' : 'cell empty';
        if (rect.getAttribute('class') !== className) rect.setAttribute('class', className);
        if (rgb) rect.setAttribute('fill', css(rgb));
        else rect.removeAttribute('fill');
      }
  }
  const note = reused ? box.lastChild : document.createElement('p');
  note.className = 'note';
  later(() => {
    const scale = limit || 1;
    const range = kind === 'prob' ? `0 … ${formatNumber(scale, 2)}` : `±${formatNumber(scale, 2)}`;
    note.textContent = [t('heads.scale', { range }), pool > 1 ? t('heads.pooled', { n: pool }) : ''].join(' ').trim();
  });
  if (!reused) box.append(note);
  return box;
}
