// The small SVG kit the figures share (matrix-svg.js, heads-svg.js,
// links-svg.js): elements as text, colours as hex, fonts named (with CJK
// fonts, so Chinese captions and tokens have glyphs wherever the file is
// opened), a text's width estimated without a DOM, and the document around a
// figure with its title above and its caption wrapped below. Pure: the CLI
// writes the same text in Node as the page and the element in a browser.
import { paletteColors, textOn } from '../common/colors.js';

/** The words' fonts: the page's (styles.css --font), CJK fonts named before the generic family. */
export const FONT_FAMILY =
  "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'Noto Sans CJK SC', 'Source Han Sans SC', 'PingFang SC', 'Microsoft YaHei', 'WenQuanYi Micro Hei', sans-serif";
/** The numbers' fonts: the page's (--mono). */
export const MONO_FAMILY = "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, 'WenQuanYi Micro Hei Mono', monospace";

/**
 * A figure's background and text colours on `theme`'s palette: the background is the palette's zero (white
 * in the light theme, the page's dark grey in the dark one, an author's --attention-lab-background), so
 * the heatmap's 0 reads as "nothing" as on the page; the text is the page's --fg and --muted on it.
 */
export function inksOf(theme) {
  const zero = paletteColors(theme).zero;
  const light = textOn(zero) === '#000';
  return { background: hexOf(zero), ink: light ? '#1d1f23' : '#e8eaed', muted: light ? '#5d6470' : '#a5acb8' };
}

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeXml = (text) => String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** [r, g, b] as "#rrggbb". */
export const hexOf = (rgb) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

/** A number for an attribute: at most two decimals, no trailing zeros. */
const num = (v) => String(Math.round(v * 100) / 100);

/** An element as text: attributes (numbers rounded, text escaped; undefined ones left out) and content (text, escaped). */
export function tag(name, attributes = {}, content = null) {
  const attrs = Object.entries(attributes)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => ` ${k}="${typeof v === 'number' ? num(v) : escapeXml(v)}"`)
    .join('');
  return content === null ? `<${name}${attrs}/>` : `<${name}${attrs}>${escapeXml(content)}</${name}>`;
}

/** An element with child elements (text already made by tag()). */
export const group = (name, attributes, children) =>
  `${tag(name, attributes).slice(0, -2)}>${children.join('')}</${name}>`;

// Wide characters (CJK, full-width forms) take about a font size; others about 0.6 of it in these fonts.
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/** About how wide `text` is at font size `size` (no DOM to measure it): a layout's columns and lines. */
export function textWidth(text, size) {
  let width = 0;
  for (const c of String(text)) width += WIDE.test(c) ? size : 0.6 * size;
  return width;
}

/** `text` in lines at most `width` wide at `size`: broken at spaces, or between wide characters. */
export function wrapText(text, width, size) {
  // "seed = 0" stays on one line: its spaces are held as a character that is not one until the lines are made.
  const KEEP = '\u0001';
  const held = String(text).replace(/ = /g, `${KEEP}=${KEEP}`);
  // A run of narrow characters, or one wide character, with the closing punctuation after it (never a line's first).
  const pieces =
    held.match(
      /[^\s\u2e80-\ua4cf\uac00-\ud7a3\uff00-\uff60]+[。，、；：）」』！？]*\s*|\S[。，、；：）」』！？]*\s*|\s+/gu,
    ) ?? [];
  const lines = [''];
  for (const piece of pieces) {
    const next = lines[lines.length - 1] + piece;
    if (lines[lines.length - 1] && textWidth(next.trimEnd(), size) > width) lines.push(piece.trimStart());
    else lines[lines.length - 1] = next;
  }
  return lines.map((line) => line.trimEnd().replaceAll(KEEP, ' ')).filter(Boolean);
}

const TITLE_SIZE = 14;
const CAPTION_SIZE = 12;
const PAD = 12;

/**
 * A whole figure: `body` (SVG text) drawn in a box bodyWidth × bodyHeight,
 * under its title and over its caption (both wrapped to the figure's width),
 * on white. Returns {svg, width, height} (the width and height in CSS pixels,
 * which a PNG multiplies by its scale), and the body's offset {x, y}. inks: inksOf(the palette's theme).
 */
export function figureDocument({ title, caption, body, bodyWidth, bodyHeight, inks, lang = 'en' }) {
  const width = Math.ceil(Math.max(bodyWidth, 360) + 2 * PAD);
  const titleLines = wrapText(title, width - 2 * PAD, TITLE_SIZE);
  const captionLines = wrapText(caption, width - 2 * PAD, CAPTION_SIZE);
  const top = PAD + titleLines.length * (TITLE_SIZE + 6);
  const captionTop = top + bodyHeight + PAD;
  const height = Math.ceil(captionTop + captionLines.length * (CAPTION_SIZE + 5) + PAD);
  const lines = (list, size, y0, attributes) =>
    list.map((line, k) => tag('text', { x: PAD, y: y0 + (k + 1) * size + k * 5, ...attributes }, line));
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" xml:lang="${escapeXml(lang)}" font-family="${escapeXml(FONT_FAMILY)}">`,
    tag('title', {}, title),
    tag('rect', { width, height, fill: inks.background }),
    group('g', { class: 'figure-title', fill: inks.ink, 'font-size': TITLE_SIZE, 'font-weight': 600 }, [
      ...lines(titleLines, TITLE_SIZE, PAD - 4, {}),
    ]),
    group('g', { class: 'figure-body', transform: `translate(${PAD} ${top})` }, [body]),
    group('g', { class: 'figure-caption', fill: inks.muted, 'font-size': CAPTION_SIZE }, [
      ...lines(captionLines, CAPTION_SIZE, captionTop - 4, {}),
    ]),
    '</svg>',
  ].join('\n');
  return { svg: `${svg}\n`, width, height, x: PAD, y: top };
}
