// Every head's small heatmap (the page's head grid, head-multiples.js) as an
// SVG figure: the same pooled blocks (head-blocks.js) on one scale for all
// heads, weights in the head's colour mixed into the background, scores on the
// diverging scale, each head framed in its colour and named under it; the
// page's note on the scale, the title and the caption. Pure.
import { FIXED_RGB, headRgb, paletteColors, paletteIndex, paletteRgb } from '../common/colors.js';
import { SIZE, blockMeans, headLimit, headsScaleNote, pooling } from '../common/head-blocks.js';
import { figureDocument, group, hexOf, inksOf, tag } from './svg.js';

const GAP = 20;
const LABEL = 22;
const PER_ROW = 4;

/**
 * view: {data ([B, H, S, S_kv]), b, H, S, Skv, kind: 'prob' | 'signed', theme}; options: {t, title,
 * caption, lang}. {svg, width, height}; a block is a <rect> with data-h, data-i and data-j (block indices).
 */
export function headsSvg(view, { t, title, caption = '', lang = 'en' }) {
  const { data, b, H, S, Skv, kind, theme } = view;
  const { pool, rows, cols, cell } = pooling(S, Skv);
  let limit = 0;
  for (let h = 0; h < H; h++) limit = Math.max(limit, headLimit(data, b, H, h, S, Skv));
  const scale = limit || 1;
  const heads = paletteColors(theme).heads;
  const inks = inksOf(theme);
  const boxWidth = cols * cell;
  const boxHeight = rows * cell;
  const perRow = Math.min(H, PER_ROW);
  const parts = [];
  for (let h = 0; h < H; h++) {
    const x0 = (h % perRow) * (SIZE + GAP);
    const y0 = Math.floor(h / perRow) * (SIZE + LABEL + GAP);
    const means = blockMeans(data, (b * H + h) * S * Skv, S, Skv, pool, rows, cols);
    const blocks = [];
    for (let k = 0; k < means.length; k++) {
      const v = means[k];
      const rgb =
        v !== v
          ? FIXED_RGB.nan
          : kind === 'prob'
            ? headRgb(h, theme, v / scale)
            : paletteRgb('signed', theme, paletteIndex('signed', v, scale));
      const [i, j] = [Math.floor(k / cols), k % cols];
      blocks.push(
        tag('rect', {
          'data-h': h,
          'data-i': i,
          'data-j': j,
          x: x0 + j * cell,
          y: y0 + i * cell,
          width: cell,
          height: cell,
          fill: hexOf(rgb),
        }),
      );
    }
    const color = hexOf(heads[h % heads.length]);
    parts.push(
      group('g', { class: 'head', 'data-h': h, 'shape-rendering': 'crispEdges' }, blocks),
      tag('rect', {
        x: x0 - 1.5,
        y: y0 - 1.5,
        width: boxWidth + 3,
        height: boxHeight + 3,
        fill: 'none',
        stroke: color,
        'stroke-width': 3,
      }),
      tag('text', { x: x0, y: y0 + boxHeight + 18, fill: inks.ink, 'font-size': 12 }, t('view.head', { h: h + 1 })),
    );
  }
  const gridRows = Math.ceil(H / perRow);
  const gridHeight = gridRows * (SIZE + LABEL + GAP) - GAP;
  parts.push(
    tag('text', { x: 0, y: gridHeight + 16, fill: inks.muted, 'font-size': 12 }, headsScaleNote(t, kind, scale, pool)),
  );
  return figureDocument({
    title,
    caption,
    body: parts.join(''),
    bodyWidth: perRow * (SIZE + GAP) - GAP,
    bodyHeight: gridHeight + 22,
    inks,
    lang,
  });
}
