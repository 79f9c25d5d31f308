// Colour scales for the heatmaps. Both are colour-blind safe: a blue–orange
// diverging scale centred at 0 for signed values, and viridis for
// probabilities. The centre of the diverging scale is the page background,
// so 0 reads as "nothing" in both themes.

const VIRIDIS = [
  '#440154',
  '#482878',
  '#3e4989',
  '#31688e',
  '#26828e',
  '#1f9e89',
  '#35b779',
  '#6ece58',
  '#b5de2b',
  '#fde725',
];
const NEGATIVE = [33, 102, 172]; // #2166ac
const POSITIVE = [217, 115, 13]; // #d9730d
const CENTER = { light: [255, 255, 255], dark: [30, 32, 36] };

const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
const VIRIDIS_RGB = VIRIDIS.map(hex);
const mix = (a, b, t) => a.map((x, i) => Math.round(x + (b[i] - x) * t));

/** [r, g, b] for v in [-limit, limit] on the diverging scale. */
export function divergingRgb(v, limit, theme) {
  const t = limit > 0 ? Math.max(-1, Math.min(1, v / limit)) : 0;
  const center = CENTER[theme] ?? CENTER.light;
  return t < 0 ? mix(center, NEGATIVE, -t) : mix(center, POSITIVE, t);
}

/** [r, g, b] for p in [0, 1] on viridis. */
export function sequentialRgb(p) {
  const t = Math.max(0, Math.min(1, p)) * (VIRIDIS_RGB.length - 1);
  const i = Math.min(VIRIDIS_RGB.length - 2, Math.floor(t));
  return mix(VIRIDIS_RGB[i], VIRIDIS_RGB[i + 1], t - i);
}

// WCAG 2 relative luminance of an sRGB colour [r, g, b] (0-255).
function luminance(rgb) {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio of two colours. */
export function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Black or white text, whichever has the higher WCAG contrast on [r, g, b] (never below 4.5:1). */
export function textOn(rgb) {
  return contrast(rgb, [0, 0, 0]) >= contrast(rgb, [255, 255, 255]) ? '#000' : '#fff';
}

/** textOn for a colour written "#rrggbb" (a head's colour, under its selected tab's number). */
export const textOnHex = (color) => textOn(hex(color));

export const css = ([r, g, b]) => `rgb(${r},${g},${b})`;

/** CSS gradient for a legend bar. */
export function legendGradient(kind, theme) {
  if (kind === 'prob') return `linear-gradient(90deg, ${VIRIDIS.join(', ')})`;
  const stops = [-1, -0.5, 0, 0.5, 1].map((t) => css(divergingRgb(t, 1, theme)));
  return `linear-gradient(90deg, ${stops.join(', ')})`;
}

/** One colour per head, distinct in both themes (Okabe–Ito palette). */
export const HEAD_COLORS = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#f0e442', '#999999'];
export const headColor = (h) => HEAD_COLORS[h % HEAD_COLORS.length];

// A heatmap colour is one of 256 steps of its scale, the same for table cells
// (a class) and canvas pixels (a palette table entry).
const paletteRgb = (kind, theme, k) =>
  kind === 'prob' ? sequentialRgb(k / 255) : divergingRgb((k / 255) * 2 - 1, 1, theme);

/**
 * The step (0-255) of v on its scale, limit being the scale's end (v not
 * NaN). Rounded as Math.round does (x + 0.5 truncated, x ≥ 0), which V8 runs
 * three times faster; matrix.js's drawHeatmap has this arithmetic inline.
 */
export function paletteIndex(kind, v, limit) {
  const t = v / limit;
  if (kind === 'prob') return ((t < 0 ? 0 : t > 1 ? 1 : t) * 255 + 0.5) | 0;
  return (((t < -1 ? -1 : t > 1 ? 1 : t) + 1) * 127.5 + 0.5) | 0;
}

/** The class of a heatmap cell: "hp-17" (probabilities), "hl-200" / "hd-200" (signed, light / dark theme). */
export const paletteClass = (kind, theme, k) => `h${kind === 'prob' ? 'p' : theme === 'dark' ? 'd' : 'l'}-${k}`;

// Canvas pixels are written as 32-bit words over ImageData's bytes (r, g, b, a
// in memory): one store per pixel. The word's byte order is the machine's.
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The opaque pixel r, g, b as a word of a Uint32Array over ImageData's bytes. */
export const pixelWord = (r, g, b) =>
  (LITTLE_ENDIAN ? (255 << 24) | (b << 16) | (g << 8) | r : (r << 24) | (g << 16) | (b << 8) | 255) >>> 0;

const paletteWordTables = new Map();

/**
 * 256 colours of a scale as pixel words (pixelWord), for drawing large
 * heatmaps pixel by pixel without allocating. Made once per scale and theme.
 */
export function paletteWords(kind, theme) {
  const key = kind === 'prob' ? 'prob' : `signed-${theme === 'dark' ? 'dark' : 'light'}`;
  let words = paletteWordTables.get(key);
  if (!words) {
    words = new Uint32Array(256);
    for (let k = 0; k < 256; k++) words[k] = pixelWord(...paletteRgb(kind, theme, k));
    paletteWordTables.set(key, words);
  }
  return words;
}

/** The class that marks the first column of head h's band. */
export const headBandClass = (h) => `hb-${h % HEAD_COLORS.length}`;

/**
 * A function of t in [0, 1] giving head h's colour mixed into the background
 * by t, as a pixel word (a head's small heatmap of weights): mix's arithmetic,
 * channel by channel, without an array per cell.
 */
export function headWords(h, theme) {
  const [r0, g0, b0] = CENTER[theme] ?? CENTER.light;
  const [r1, g1, b1] = hex(headColor(h));
  return (t) => {
    const s = Math.max(0, Math.min(1, t));
    return pixelWord(Math.round(r0 + (r1 - r0) * s), Math.round(g0 + (g1 - g0) * s), Math.round(b0 + (b1 - b0) * s));
  };
}

let heatmapSheet = null;

/**
 * The heatmap cell classes (every step of every scale, with its text colour)
 * as one constructed stylesheet: no inline style attribute anywhere, so the
 * colours survive a strict Content-Security-Policy.
 */
export function heatmapStyleSheet() {
  if (!heatmapSheet) {
    const rules = [];
    for (const [kind, theme] of [
      ['prob', 'light'],
      ['signed', 'light'],
      ['signed', 'dark'],
    ])
      for (let k = 0; k < 256; k++) {
        const rgb = paletteRgb(kind, theme, k);
        rules.push(`.${paletteClass(kind, theme, k)}{background:${css(rgb)};color:${textOn(rgb)}}`);
      }
    // A head's band: a stripe in its colour at the left of its first column (Q, K, V, concat).
    HEAD_COLORS.forEach((color, k) => rules.push(`.${headBandClass(k)}{box-shadow:inset 3px 0 0 ${color}}`));
    heatmapSheet = new CSSStyleSheet();
    heatmapSheet.replaceSync(rules.join('\n'));
  }
  return heatmapSheet;
}

/** Adds `sheets` to a document or shadow root (once each). */
export function adoptStyleSheets(root, sheets) {
  root.adoptedStyleSheets = [...root.adoptedStyleSheets.filter((s) => !sheets.includes(s)), ...sheets];
}
