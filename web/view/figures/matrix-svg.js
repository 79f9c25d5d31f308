// A matrix as an SVG figure: the page's table (its numbers as <text> at the
// view's decimals, each cell filled with the colour its table cell or canvas
// pixel has) up to TABLE_LIMIT rows and columns, a heatmap of coloured squares
// (no numbers, as the page's canvas) beyond; its row and column labels, its
// legend, its title and caption. Pure: the view is the one the page renders
// (matrix.js documents it), or one built from a result (tensor-views.js).
import { FIXED_RGB, paletteRgb, textOn } from '../common/colors.js';
import {
  TABLE_LIMIT,
  captionText,
  cellFace,
  heatmapZoom,
  legendEnds,
  scaleLimit,
  scan,
} from '../common/matrix-view.js';
import { MONO_FAMILY, figureDocument, group, hexOf, inksOf, tag, textWidth } from './svg.js';

const FONT_SIZE = 12;
const CELL_HEIGHT = 20;
const GAP = 2;
const LEGEND_WIDTH = 120;

/** The [r, g, b] a cell of `look` (cellFace) is filled with on `theme`'s palette. */
export function cellRgb(kind, theme, { look, k }) {
  if (look === 'scale') return paletteRgb(kind, theme, k);
  return { 'mask-on': FIXED_RGB.maskOn, 'mask-off': FIXED_RGB.maskOff, blocked: FIXED_RGB.blocked, nan: FIXED_RGB.nan }[
    look
  ];
}

/** The legend: the scale's colours as a gradient between its two ends' numbers (none for a mask). */
function legend(view, limit, y, inks) {
  if (view.kind === 'mask') return { svg: '', height: 0 };
  const [lo, hi] = legendEnds(view.kind, limit);
  const id = `scale-${view.name.replace(/[^\w-]/g, '_')}`;
  const stops = [0, 32, 64, 96, 128, 160, 192, 224, 255].map((k) =>
    tag('stop', {
      offset: `${((k / 255) * 100).toFixed(1)}%`,
      'stop-color': hexOf(paletteRgb(view.kind, view.theme, k)),
    }),
  );
  const x = textWidth(lo, FONT_SIZE) + 6;
  const svg = [
    group('linearGradient', { id }, stops),
    tag('text', { x: 0, y: y + 10, fill: inks.muted, 'font-family': MONO_FAMILY }, lo),
    tag('rect', { x, y, width: LEGEND_WIDTH, height: 12, fill: `url(#${id})` }),
    tag('text', { x: x + LEGEND_WIDTH + 6, y: y + 10, fill: inks.muted, 'font-family': MONO_FAMILY }, hi),
  ].join('');
  return { svg, height: 12 + GAP * 4 };
}

/**
 * The figure of a matrix view: {svg, width, height}. options: {caption (the
 * figure's caption, figure-caption.js), lang}. A cell is a <rect> with
 * data-i and data-j and, in a table, a <text> with the same (its number).
 */
export function matrixSvg(view, { caption = '', lang = 'en' } = {}) {
  const v = { rowStride: view.cols, offset: 0, ...view };
  const { rows, cols } = v;
  const { max } = scan(v);
  const inks = inksOf(v.theme);
  const limit = scaleLimit(v.kind, max);
  const table = rows <= TABLE_LIMIT && cols <= TABLE_LIMIT;
  const faces = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => cellFace(v, i, j, limit)),
  );
  const parts = [];
  let width;
  let height;
  if (table) {
    const widest = Math.max(
      ...faces.flat().map((face) => textWidth(face.text, FONT_SIZE)),
      ...v.colLabels.map((label) => textWidth(label, FONT_SIZE)),
    );
    const cellWidth = Math.max(52, Math.ceil(widest + 12));
    const labelWidth = Math.ceil(Math.max(0, ...v.rowLabels.map((label) => textWidth(label, FONT_SIZE))) + 12);
    const top = CELL_HEIGHT;
    const x = (j) => labelWidth + j * (cellWidth + GAP);
    const y = (i) => top + i * (CELL_HEIGHT + GAP);
    const labels = [];
    v.colLabels.forEach((label, j) =>
      labels.push(tag('text', { x: x(j) + cellWidth / 2, y: top - 6, 'text-anchor': 'middle' }, label)),
    );
    v.rowLabels.forEach((label, i) =>
      labels.push(tag('text', { x: labelWidth - 6, y: y(i) + 14, 'text-anchor': 'end' }, label)),
    );
    parts.push(group('g', { class: 'labels', fill: inks.muted }, labels));
    const cells = [];
    faces.forEach((row, i) =>
      row.forEach((face, j) => {
        const rgb = cellRgb(v.kind, v.theme, face);
        const at = { 'data-i': i, 'data-j': j };
        cells.push(
          tag('rect', { ...at, x: x(j), y: y(i), width: cellWidth, height: CELL_HEIGHT, rx: 3, fill: hexOf(rgb) }),
        );
        const anchor =
          v.kind === 'mask'
            ? { x: x(j) + cellWidth / 2, 'text-anchor': 'middle' }
            : { x: x(j) + cellWidth - 6, 'text-anchor': 'end' };
        cells.push(tag('text', { ...at, ...anchor, y: y(i) + 14, fill: textOn(rgb) }, face.text));
      }),
    );
    parts.push(group('g', { class: 'cells', 'font-family': MONO_FAMILY }, cells));
    width = x(cols) - GAP;
    height = y(rows) - GAP;
  } else {
    // As the page's canvas: a square of `zoom` pixels per value, no numbers and no labels.
    const zoom = heatmapZoom(cols);
    const cells = [];
    faces.forEach((row, i) =>
      row.forEach((face, j) =>
        cells.push(
          tag('rect', {
            'data-i': i,
            'data-j': j,
            x: j * zoom,
            y: i * zoom,
            width: zoom,
            height: zoom,
            fill: hexOf(cellRgb(v.kind, v.theme, face)),
          }),
        ),
      ),
    );
    parts.push(group('g', { class: 'cells', 'shape-rendering': 'crispEdges' }, cells));
    width = cols * zoom;
    height = rows * zoom;
  }
  const scale = legend(v, limit, height + GAP * 4, inks);
  parts.push(scale.svg);
  const shape = ` [${rows} × ${cols}]`;
  return figureDocument({
    title: captionText(v) + shape,
    caption,
    body: group('g', { 'font-size': FONT_SIZE }, parts),
    bodyWidth: Math.max(width, scale.height ? LEGEND_WIDTH + 100 : 0),
    bodyHeight: height + scale.height + GAP * 4,
    inks,
    lang,
  });
}
