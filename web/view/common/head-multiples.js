// Every head side by side, as small heatmaps framed in the head's colour,
// above the selected head's detailed matrix. Each is a button: clicking it
// selects that head (as the head tabs do). Weights fill with the head's
// colour (0 = background, the largest weight of all heads = full colour);
// signed scores use the tables' diverging scale, ±the largest |score|. One
// scale for all heads, so they compare. Long inputs are pooled to at most
// MAX_CELLS squares a side.
import { headColor, headWords, paletteIndex, paletteWords } from './colors.js';
import { blockMeans, headLimit, headsScaleNote, pooling } from './head-blocks.js';

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
  const { pool, rows, cols, cell } = pooling(S, Skv);
  const key = JSON.stringify([name, H, rows, cols, kind, theme, t.lang ?? t('view.head', { h: 1 })]);
  const reused = previous?.multiplesKey === key;
  const box = reused ? previous : document.createElement('div');
  box.multiplesKey = key;
  // What a figure of it is drawn from (view/figures/heads-svg.js): the numbers shown now.
  box.multiplesView = { name, data, b, H, S, Skv, kind, theme };
  if (!reused) {
    box.className = 'head-multiples';
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', t('heads.multiples', { name, count: H }));
    box.dataset.heads = name;
  }
  const canvases = [];
  for (let h = 0; h < H; h++) {
    if (reused) {
      const button = box.children[h];
      button.setAttribute('aria-pressed', String(h === selected));
      canvases.push(button.firstChild);
      continue;
    }
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'head-multiple';
    button.setAttribute('aria-pressed', String(h === selected));
    button.setAttribute('aria-label', t('heads.select', { name, h: h + 1 }));
    button.style.setProperty('--head-color', headColor(h));
    // One pixel per block, scaled up by CSS without smoothing (pipeline.css).
    const canvas = document.createElement('canvas');
    canvas.width = cols;
    canvas.height = rows;
    canvas.style.setProperty('--multiple-width', `${Math.round(cols * cell)}px`);
    canvas.style.setProperty('--multiple-height', `${Math.round(rows * cell)}px`);
    canvas.setAttribute('aria-hidden', 'true');
    const label = document.createElement('span');
    label.className = 'head-multiple-label';
    label.textContent = t('view.head', { h: h + 1 });
    button.append(canvas, label);
    button.addEventListener('click', () => onPick(h));
    box.append(button);
    canvases.push(canvas);
  }
  // One colour scale for every head, so their heatmaps compare: each head's share worked out in its own slice.
  let limit = 0;
  for (let h = 0; h < H; h++) later(() => (limit = Math.max(limit, headLimit(data, b, H, h, S, Skv))));
  for (let h = 0; h < H; h++) later(() => drawHead(canvases[h], h, limit || 1));
  // Head h's blocks as pixels of its colour (weights) or the diverging scale (scores). A block
  // without a finite value stays transparent: the canvas's background, the theme's NaN colour.
  function drawHead(canvas, h, scale) {
    const offset = (b * H + h) * S * Skv;
    const means = blockMeans(data, offset, S, Skv, pool, rows, cols);
    const ctx = canvas.getContext('2d');
    const image = ctx.createImageData(cols, rows);
    const pixels = new Uint32Array(image.data.buffer);
    const weightColor = headWords(h, theme);
    const palette = paletteWords('signed', theme);
    for (let k = 0; k < means.length; k++) {
      const v = means[k];
      if (v !== v) continue;
      pixels[k] = kind === 'prob' ? weightColor(v / scale) : palette[paletteIndex('signed', v, scale)];
    }
    ctx.putImageData(image, 0, 0);
    canvas.classList.add('drawn');
  }
  const note = reused ? box.lastChild : document.createElement('p');
  note.className = 'note';
  later(() => {
    note.textContent = headsScaleNote(t, kind, limit || 1, pool);
  });
  if (!reused) box.append(note);
  return box;
}
