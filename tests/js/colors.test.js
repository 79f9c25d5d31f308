// Text on the heatmaps is chosen by WCAG contrast: every step of every scale
// (probabilities; signed values in the light and the dark theme), with the
// text colour the cell classes give it, reads at 4.5:1 or more; so does a
// row dimmed while a token is followed (a veil of 70% background, the number
// in the theme's text colour), and the number of a selected head's tab.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  HEAD_COLORS,
  contrast,
  customPalette,
  divergingRgb,
  headRgb,
  headWords,
  pixelWord,
  sequentialRgb,
  textOn,
  textOnHead,
} from '../../web/view/common/colors.js';

const rgbOf = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
// The 256 steps of each scale, as colors.js's heatmap classes make them.
const SCALES = {
  prob: (k) => sequentialRgb(k / 255),
  'signed light': (k) => divergingRgb((k / 255) * 2 - 1, 1, 'light'),
  'signed dark': (k) => divergingRgb((k / 255) * 2 - 1, 1, 'dark'),
};
const steps = (scale) => Array.from({ length: 256 }, (_, k) => SCALES[scale](k));

// The page's theme colours (the element's are the same defaults).
const css = readFileSync(new URL('../../web/page/styles.css', import.meta.url), 'utf8');
const themeColor = (block, name) =>
  rgbOf(css.slice(css.indexOf(block)).match(new RegExp(`--${name}: (#[0-9a-f]{6})`))[1]);
const THEMES = {
  light: { bg: themeColor(':root {', 'bg'), fg: themeColor(':root {', 'fg') },
  dark: { bg: themeColor(":root[data-theme='dark']", 'bg'), fg: themeColor(":root[data-theme='dark']", 'fg') },
};

/** The worst contrast over a list of [text, background] pairs, with where it is. */
function worst(pairs) {
  let low = { ratio: Infinity, at: -1 };
  pairs.forEach(([text, background], at) => {
    const ratio = contrast(text, background);
    if (ratio < low.ratio) low = { ratio, at };
  });
  return low;
}

describe('heatmap text contrast', () => {
  test('the contrast ratio is WCAG’s', () => {
    expect(contrast([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 10);
    expect(contrast([255, 255, 255], [255, 255, 255])).toBe(1);
    expect(contrast([118, 118, 118], [255, 255, 255])).toBeCloseTo(4.54, 2); // #767676, the known AA grey
  });

  test.each(Object.keys(SCALES))('every step of the %s scale has its number at 4.5:1 or more', (scale) => {
    const low = worst(steps(scale).map((rgb) => [rgbOf(textOn(rgb) === '#000' ? '#000000' : '#ffffff'), rgb]));
    console.log(`${scale}: worst ${low.ratio.toFixed(2)}:1 at step ${low.at}`);
    expect(low.ratio).toBeGreaterThanOrEqual(4.5);
  });

  test.each([
    ['prob', 'light'],
    ['prob', 'dark'],
    ['signed light', 'light'],
    ['signed dark', 'dark'],
  ])('a dimmed row (following a token) of the %s scale in the %s theme keeps 4.5:1', (scale, theme) => {
    const { bg, fg } = THEMES[theme];
    const veiled = (rgb) => rgb.map((c, i) => c + (bg[i] - c) * 0.7);
    const low = worst(steps(scale).map((rgb) => [fg, veiled(rgb)]));
    console.log(`${scale}, dimmed, ${theme}: worst ${low.ratio.toFixed(2)}:1 at step ${low.at}`);
    expect(low.ratio).toBeGreaterThanOrEqual(4.5);
  });

  test('a selected head tab’s number reads on its head colour, an author’s colours too', () => {
    const text = (h, theme) => rgbOf(textOnHead(h, theme) === '#000' ? '#000000' : '#ffffff');
    const low = worst(HEAD_COLORS.map((color, h) => [text(h, 'light'), rgbOf(color)]));
    console.log(`head tabs: worst ${low.ratio.toFixed(2)}:1 on ${HEAD_COLORS[low.at]}`);
    expect(low.ratio).toBeGreaterThanOrEqual(4.5);
    // Mid greys and saturated colours, where black and white contrast least.
    const authored = [
      [119, 119, 119],
      [255, 0, 0],
      [0, 128, 255],
      [118, 118, 118],
      [0, 160, 0],
      [128, 0, 128],
      [200, 200, 0],
      [90, 90, 200],
    ];
    const key = customPalette('light', { heads: authored });
    const lowAuthored = worst(authored.map((rgb, h) => [text(h, key), rgb]));
    console.log(`authored head tabs: worst ${lowAuthored.ratio.toFixed(2)}:1`);
    expect(lowAuthored.ratio).toBeGreaterThanOrEqual(4.5);
  });
});

describe('head heatmap pixels', () => {
  test('headWords gives headRgb’s colour as a pixel word, for every head and t (and t outside [0, 1])', () => {
    for (const theme of ['light', 'dark'])
      for (let h = 0; h < 2 * HEAD_COLORS.length; h++) {
        const word = headWords(h, theme);
        for (let k = -4; k <= 1004; k++) expect(word(k / 1000)).toBe(pixelWord(...headRgb(h, theme, k / 1000)));
      }
  });
});
