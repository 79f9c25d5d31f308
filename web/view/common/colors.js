// Colour scales for the heatmaps. Both are colour-blind safe: a blue–orange
// diverging scale centred at 0 for signed values, and viridis for
// probabilities. The centre of the diverging scale is the page background,
// so 0 reads as "nothing" in both themes.
//
// A theme names a palette: "light" and "dark" are built in; customPalette()
// makes one from an author's colours (the element's --attention-lab-*
// custom properties) and returns its key, which is then passed wherever a
// theme goes (view.theme), so classes, pixel tables and stylesheets are made
// once per palette.

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
/** One colour per head, distinct in both themes (Okabe–Ito palette). */
export const HEAD_COLORS = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#f0e442', '#999999'];

const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
// One channel x mixed towards y by t, rounded: every blend of the palettes (mix, headWords).
const mixChannel = (x, y, t) => Math.round(x + (y - x) * t);
const mix = (a, b, t) => a.map((x, i) => mixChannel(x, b[i], t));

// A palette: [r, g, b] colours. negative, zero, positive: the diverging
// scale's ends and centre; probability: the stops of the sequential scale
// (two or more, evenly spaced); heads: one per head.
// The built-in palette's colours as CSS hex, also for documentation (the element's manifest).
export const DEFAULT_COLORS = {
  negative: '#2166ac',
  zero: { light: '#ffffff', dark: '#1e2024' },
  positive: '#d9730d',
  probability: VIRIDIS,
  heads: HEAD_COLORS,
};
const LIGHT = Object.freeze({
  negative: hex(DEFAULT_COLORS.negative),
  zero: hex(DEFAULT_COLORS.zero.light),
  positive: hex(DEFAULT_COLORS.positive),
  probability: VIRIDIS.map(hex),
  heads: HEAD_COLORS.map(hex),
});
const DARK = Object.freeze({ ...LIGHT, zero: hex(DEFAULT_COLORS.zero.dark) });
const palettes = new Map([
  ['light', LIGHT],
  ['dark', DARK],
]);
const customKeys = new Map(); // a custom palette's colours as JSON -> its key
const paletteOf = (theme) => palettes.get(theme) ?? LIGHT;
/** A theme's palette: {negative, zero, positive, probability (stops), heads}, each [r, g, b] (light for an unknown theme). */
export const paletteColors = paletteOf;
const isBuiltIn = (theme) => theme === 'light' || theme === 'dark';

/**
 * The theme key of `theme`'s palette ("light" or "dark") with some colours
 * replaced: {negative?, zero?, positive?, probability? (stops), heads?}, each
 * [r, g, b]. The theme itself when nothing differs; else a key ("palette-1",
 * …) made once per distinct set of colours.
 */
export function customPalette(theme, colors) {
  const base = paletteOf(theme);
  const palette = { ...base, ...colors };
  const json = JSON.stringify(palette);
  if (json === JSON.stringify(base)) return isBuiltIn(theme) ? theme : 'light';
  let key = customKeys.get(json);
  if (!key) {
    key = `palette-${customKeys.size + 1}`;
    customKeys.set(json, key);
    palettes.set(key, Object.freeze(palette));
  }
  return key;
}

/** [r, g, b] for v in [-limit, limit] on the diverging scale. */
export function divergingRgb(v, limit, theme) {
  const t = limit > 0 ? Math.max(-1, Math.min(1, v / limit)) : 0;
  const { negative, zero, positive } = paletteOf(theme);
  return t < 0 ? mix(zero, negative, -t) : mix(zero, positive, t);
}

/** [r, g, b] for p in [0, 1] on the sequential scale (viridis unless the palette has its own). */
export function sequentialRgb(p, theme) {
  const stops = paletteOf(theme).probability;
  const t = Math.max(0, Math.min(1, p)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(t));
  return mix(stops[i], stops[i + 1], t - i);
}

// An sRGB channel (0-255) made linear, as WCAG 2 defines it.
const linear = (c) => {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};
// The 256 whole channels' values, computed once: the page's first render gives 768 heatmap classes their
// text colour (textOn), which took 9,216 powers (about 15 ms of a cold load) before.
const LINEAR = Array.from({ length: 256 }, (_, c) => linear(c));

// WCAG 2 relative luminance of an sRGB colour [r, g, b] (0-255).
function luminance(rgb) {
  const [r, g, b] = rgb.map((c) => (Number.isInteger(c) && c >= 0 && c <= 255 ? LINEAR[c] : linear(c)));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio of two colours. */
export function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * Black or white text, whichever has the higher WCAG contrast on [r, g, b]:
 * at least 4.58:1 on any colour (the two contrasts multiply to 21), so every
 * palette, an author's too, keeps its numbers readable.
 */
export function textOn(rgb) {
  return contrast(rgb, [0, 0, 0]) >= contrast(rgb, [255, 255, 255]) ? '#000' : '#fff';
}

/** The text colour on head h's colour in `theme`'s palette (its selected tab's number), by textOn. */
export const textOnHead = (h, theme) => textOn(paletteOf(theme).heads[h % HEAD_COLORS.length]);

export const css = ([r, g, b]) => `rgb(${r},${g},${b})`;

/** CSS gradient for a legend bar. */
export function legendGradient(kind, theme) {
  if (kind === 'prob') return `linear-gradient(90deg, ${paletteOf(theme).probability.map(css).join(', ')})`;
  const stops = [-1, -0.5, 0, 0.5, 1].map((t) => css(divergingRgb(t, 1, theme)));
  return `linear-gradient(90deg, ${stops.join(', ')})`;
}

/**
 * Head h's colour for CSS: the element's --attention-lab-head-<h+1> custom
 * property (heads 1 to 8; the ninth takes the first's colour), else the
 * built-in one. headWords draws the same colour into canvases (from the palette).
 */
export const headColor = (h) =>
  `var(--attention-lab-head-${(h % HEAD_COLORS.length) + 1}, ${HEAD_COLORS[h % HEAD_COLORS.length]})`;

// A heatmap colour is one of 256 steps of its scale, the same for table cells
// (a class) and canvas pixels (a palette table entry).
export const paletteRgb = (kind, theme, k) =>
  kind === 'prob' ? sequentialRgb(k / 255, theme) : divergingRgb((k / 255) * 2 - 1, 1, theme);

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

/**
 * The class of a heatmap cell: "hp-17" (probabilities), "hl-200" / "hd-200"
 * (signed, light / dark theme); a custom palette's: "hp-palette-1-17", "hs-palette-1-200".
 */
export function paletteClass(kind, theme, k) {
  if (!isBuiltIn(theme) && palettes.has(theme)) return `h${kind === 'prob' ? 'p' : 's'}-${theme}-${k}`;
  return `h${kind === 'prob' ? 'p' : theme === 'dark' ? 'd' : 'l'}-${k}`;
}

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
  const known = palettes.has(theme) ? theme : 'light';
  const key = kind === 'prob' ? (isBuiltIn(known) ? 'prob' : `prob-${known}`) : `signed-${known}`;
  let words = paletteWordTables.get(key);
  if (!words) {
    words = new Uint32Array(256);
    for (let k = 0; k < 256; k++) words[k] = pixelWord(...paletteRgb(kind, theme, k));
    paletteWordTables.set(key, words);
  }
  return words;
}

/**
 * The colours that are not on a scale, as the canvas heatmaps draw them (the
 * tables' classes follow the page's CSS): a NaN, a cell the mask blocks, and
 * a mask's blocked and kept cells. [r, g, b]; figures (view/figures) use them too.
 */
export const FIXED_RGB = Object.freeze({
  nan: [220, 0, 120],
  blocked: [128, 128, 128],
  maskOn: [60, 60, 60],
  maskOff: [235, 235, 235],
});

/** Head h's colour mixed into the background (zero) by t in [0, 1]: [r, g, b] (a head's small heatmap of weights). */
export function headRgb(h, theme, t) {
  const { zero, heads } = paletteOf(theme);
  return mix(zero, heads[h % heads.length], Math.max(0, Math.min(1, t)));
}

/** The class that marks the first column of head h's band. */
export const headBandClass = (h) => `hb-${h % HEAD_COLORS.length}`;

/**
 * A function of t in [0, 1] giving head h's colour mixed into the background
 * by t (headRgb's very numbers), as a pixel word: drawn for every cell of every head's small heatmap
 * (a checkpoint's 144 heads at 64 tokens: 590k cells), so the palette is read once and nothing is allocated
 * per cell.
 */
export function headWords(h, theme) {
  const { zero, heads } = paletteOf(theme);
  const [r0, g0, b0] = zero;
  const [r1, g1, b1] = heads[h % heads.length];
  return (t) => {
    const u = Math.max(0, Math.min(1, t));
    return pixelWord(mixChannel(r0, r1, u), mixChannel(g0, g1, u), mixChannel(b0, b1, u));
  };
}

const heatmapSheets = new Map();

// Every step of a scale as a class rule, with the text colour that reads on it.
const scaleRules = (kind, theme) =>
  Array.from({ length: 256 }, (_, k) => {
    const rgb = paletteRgb(kind, theme, k);
    return `.${paletteClass(kind, theme, k)}{background:${css(rgb)};color:${textOn(rgb)}}`;
  });

/**
 * The heatmap cell classes (every step of every scale, with its text colour)
 * as one constructed stylesheet: no inline style attribute anywhere, so the
 * colours survive a strict Content-Security-Policy. With no theme (or a
 * built-in one): the light and dark scales and the head bands, shared by
 * every root; with a custom palette's key: that palette's scales.
 */
export function heatmapStyleSheet(theme = 'light') {
  const key = isBuiltIn(theme) || !palettes.has(theme) ? 'built-in' : theme;
  let sheet = heatmapSheets.get(key);
  if (!sheet) {
    const rules =
      key === 'built-in'
        ? [
            ...scaleRules('prob', 'light'),
            ...scaleRules('signed', 'light'),
            ...scaleRules('signed', 'dark'),
            // A head's band: a stripe in its colour at the left of its first column (Q, K, V, concat).
            ...HEAD_COLORS.map((_, k) => `.${headBandClass(k)}{box-shadow:inset 3px 0 0 ${headColor(k)}}`),
          ]
        : [...scaleRules('prob', theme), ...scaleRules('signed', theme)];
    sheet = new CSSStyleSheet();
    sheet.replaceSync(rules.join('\n'));
    heatmapSheets.set(key, sheet);
  }
  return sheet;
}

/** Adds `sheets` to a document or shadow root (once each). */
export function adoptStyleSheets(root, sheets) {
  root.adoptedStyleSheets = [...root.adoptedStyleSheets.filter((s) => !sheets.includes(s)), ...sheets];
}

let colorProbe = null;
const parsedColors = new Map(); // CSS colour text -> [r, g, b] or null: each text is drawn once

/**
 * [r, g, b] of an opaque CSS colour in any syntax the browser knows
 * ("#8e44ad", "oklch(60% 0.2 250)", "rebeccapurple"): drawn into a 1×1 canvas
 * and read back as sRGB. Null if the text is not a colour, or is not opaque
 * ("transparent", to show a site's own background): a heatmap cell needs a
 * solid colour, so the theme's own stays.
 */
export function cssColorRgb(text) {
  if (!text) return null;
  if (!parsedColors.has(text)) parsedColors.set(text, drawnColor(text));
  return parsedColors.get(text);
}

// The element reads its colour properties on every view change: the canvas read-back is done once per text.
function drawnColor(text) {
  if (!CSS.supports('color', text)) return null;
  colorProbe ??= new OffscreenCanvas(1, 1).getContext('2d', { willReadFrequently: true });
  colorProbe.globalCompositeOperation = 'copy';
  colorProbe.fillStyle = text;
  colorProbe.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = colorProbe.getImageData(0, 0, 1, 1).data;
  return a === 255 ? Object.freeze([r, g, b]) : null;
}
