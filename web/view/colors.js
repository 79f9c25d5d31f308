// Colour scales for the heatmaps. Both are colour-blind safe: a blue–orange
// diverging scale centred at 0 for signed values, and viridis for
// probabilities. The centre of the diverging scale is the page background,
// so 0 reads as "nothing" in both themes.

const VIRIDIS = ['#440154', '#482878', '#3e4989', '#31688e', '#26828e', '#1f9e89', '#35b779', '#6ece58', '#b5de2b', '#fde725'];
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

/** Black or white text, whichever reads better on [r, g, b]. */
export function textOn([r, g, b]) {
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? '#111' : '#fff';
}

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

/**
 * 256 colours of a scale as a flat [r, g, b, …] table, for drawing large
 * heatmaps pixel by pixel without allocating: index = round(t * 255).
 */
export function paletteTable(kind, theme) {
  const table = new Uint8ClampedArray(256 * 3);
  for (let k = 0; k < 256; k++) {
    const rgb = kind === 'prob' ? sequentialRgb(k / 255) : divergingRgb((k / 255) * 2 - 1, 1, theme);
    table.set(rgb, k * 3);
  }
  return table;
}
