// The heads grid of a trained model (the tiny one: 2 layers × 4 heads; an
// opened checkpoint's: its layers × heads), each head's
// attention weights [T, T] as a small heatmap in its colour, named by its
// measured scores (model/tiny.js headLabels). On a text with a repeat, the
// induction stripes (query i of the repeat → key t(i), the byte after its
// earlier copy) are outlined on layer 2's head with the highest induction
// score, which fills them once training has made it an induction head. Each head is a button
// that picks the head the tensors below show.
import headsStrings from '../../i18n/heads.js';
import { addStrings } from '../../i18n/index.js';
import { headName, repeatStripes } from '../../model/tiny.js';
import { headColor, headWords } from '../common/colors.js';
import { element } from '../common/dom.js';

addStrings(headsStrings);

const SVG = 'http://www.w3.org/2000/svg';

/** A score (a mean weight, 0 … 1) to two decimals: 0.00 is "none", not a number to read in scientific notation. */
export const scoreText = (v) => (v === null || v === undefined ? '—' : v.toFixed(2));

/** A head's name for what its score says, in the UI language ('' when its scores name nothing). */
export function kindText(kind, t) {
  if (kind === 'induction') return t('trained.kind.induction');
  if (kind === 'previous-token') return t('trained.kind.previousToken');
  return '';
}

/** The head's weights [T, T] (slice h of a layer's [4, T, T]) as pixels of its colour, 0 … 1. */
function drawWeights(canvas, weights, h, T, theme) {
  canvas.width = T;
  canvas.height = T;
  const ctx = canvas.getContext('2d');
  const image = ctx.createImageData(T, T);
  const pixels = new Uint32Array(image.data.buffer);
  const color = headWords(h, theme);
  const offset = h * T * T;
  for (let k = 0; k < T * T; k++) pixels[k] = color(weights.data[offset + k]);
  ctx.putImageData(image, 0, 0);
}

/** The cells (i, t(i)) of the repeat outlined, over a T × T heatmap: one band per diagonal run. */
function stripeOutline(T, repeatTargets) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${T} ${T}`);
  svg.setAttribute('class', 'trained-stripe');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('preserveAspectRatio', 'none');
  for (const { row: i, column: c, length } of repeatStripes(repeatTargets)) {
    // A band over the cells (row i + k, column c + k), k < length: from the first cell's top edge to the last one's bottom edge.
    const [i1, c1] = [i + length - 1, c + length - 1];
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute(
      'd',
      `M${c},${i}L${c + 1},${i}L${c1 + 1},${i1}L${c1 + 1},${i1 + 1}L${c1},${i1 + 1}L${c},${i + 1}Z`,
    );
    path.setAttribute('vector-effect', 'non-scaling-stroke');
    svg.append(path);
  }
  return svg;
}

/**
 * The grid. {result (the tiny model's TinyModelResult, or an opened
 * checkpoint's run: its layers[l].weights [heads, T, T]), sizes: {T, layers,
 * heads} (the tiny model's result.sizes by default), labels (headLabels),
 * stripe: the layer-2 head to outline the repeat's stripes on (or null; the
 * tiny model's result.headScores.repeatTargets), selected: {layer, head},
 * theme, t, onPick(layer, head)}.
 */
export function renderHeadsGrid({ result, sizes = result.sizes, labels, stripe, selected, theme, t, onPick }) {
  const { T, layers, heads } = sizes;
  // More than the tiny model's 4 heads a layer (GPT-2's 12): small maps, a layer to a row where it fits.
  const box = element('div', heads > 4 ? 'trained-heads many' : 'trained-heads');
  for (let l = 0; l < layers; l++) {
    const row = element('div', 'trained-heads-row');
    row.setAttribute('role', 'group');
    row.setAttribute('aria-label', t('trained.heads.layer', { layer: l + 1 }));
    const heading = element('p', 'trained-heads-layer', t('trained.heads.layer', { layer: l + 1 }));
    row.append(heading);
    for (let h = 0; h < heads; h++) {
      const label = labels[l * heads + h];
      const kind = kindText(label.kind, t);
      const scores = [
        t('trained.score.previousToken', { value: scoreText(label.previousToken) }),
        label.induction === null ? '' : t('trained.score.induction', { value: scoreText(label.induction) }),
      ].filter(Boolean);
      const button = element('button', 'trained-head');
      button.type = 'button';
      button.dataset.head = headName(l, h);
      if (label.kind) button.dataset.kind = label.kind;
      button.style.setProperty('--head-color', headColor(h));
      button.setAttribute('aria-pressed', String(selected.layer === l && selected.head === h));
      // Its accessible name is what it shows (name, role, scores): an aria-label of other words would hide them.
      const figure = element('span', 'trained-head-map');
      const canvas = element('canvas');
      canvas.setAttribute('aria-hidden', 'true');
      drawWeights(canvas, result.layers[l].weights, h, T, theme);
      figure.append(canvas);
      if (l === 1 && h === stripe) figure.append(stripeOutline(T, result.headScores.repeatTargets));
      const name = element('span', 'trained-head-name', headName(l, h));
      name.translate = false;
      const kindLine = element('span', 'trained-head-kind', kind || t('trained.kind.none'));
      const scoreLine = element('span', 'trained-head-scores', scores.join(' · '));
      button.append(figure, name, ' ', kindLine, ' ', scoreLine); // spaces: the name read aloud is words
      button.addEventListener('click', () => onPick(l, h));
      row.append(button);
    }
    box.append(row);
  }
  return box;
}
