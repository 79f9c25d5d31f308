// The links diagram as an SVG figure: the page's lines (links-layout.js: the
// same tokens, places and lines), each in its head's colour of the palette as
// hex (the page's is a CSS variable) at opacity = weight, under its title and
// over its caption. Pure, like every figure writer.
import { paletteColors } from '../common/colors.js';
import { linksDense, linksLayout, linksOfQuery } from '../common/links-layout.js';
import { figureDocument, group, hexOf, inksOf, tag } from './svg.js';

/**
 * view: {weights ([B, H, S, S_kv] data), b, H, S, Skv, queryLabels, keyLabels, heads (drawn), focus (a
 * query row or null), theme}; options: {title, caption, lang}. {svg, width, height}; a line has data-h,
 * data-i and data-j.
 */
export function linksSvg(view, { title, caption = '', lang = 'en' }) {
  const { weights, b, H, S, Skv, queryLabels, keyLabels, heads, focus = null, theme } = view;
  const { width, height, leftX, rightX, y } = linksLayout(S, Skv);
  const dense = linksDense(heads, S, Skv, focus);
  const colors = paletteColors(theme).heads;
  const inks = inksOf(theme);
  const lines = [];
  for (const h of heads)
    for (let i = 0; i < S; i++) {
      if (focus !== null && focus !== i) continue;
      for (const [j, w] of linksOfQuery(weights, { b, H, S, Skv }, h, i, dense))
        lines.push(
          tag('line', {
            'data-h': h,
            'data-i': i,
            'data-j': j,
            x1: leftX + 4,
            y1: y(i) - 4,
            x2: rightX - 4,
            y2: y(j) - 4,
            stroke: hexOf(colors[h % colors.length]),
            'stroke-opacity': Math.min(1, w),
            'stroke-width': 2,
          }),
        );
    }
  const labels = [
    ...queryLabels.map((label, i) => tag('text', { x: leftX - 6, y: y(i), 'text-anchor': 'end' }, label)),
    ...keyLabels.map((label, j) => tag('text', { x: rightX + 6, y: y(j), 'text-anchor': 'start' }, label)),
  ];
  const body = [
    group('g', { class: 'lines' }, lines),
    group('g', { class: 'tokens', fill: inks.ink, 'font-size': 13 }, labels),
  ];
  return figureDocument({ title, caption, body: body.join(''), bodyWidth: width, bodyHeight: height, inks, lang });
}
