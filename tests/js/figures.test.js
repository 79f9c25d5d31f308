// The figure writers (web/view/figures): a matrix's SVG holds the numbers of
// PyTorch's fixture at the chosen decimals as <text>, each cell filled with
// the palette's colour for its value (the viridis and diverging ends, the
// mask's grey), its tokens as row and column labels, its shape in the title
// and a caption (tokens, d_model, heads, mask, seed) in English and Chinese;
// the links diagram and the head grid draw the fixture's weights in the
// heads' colours. Expected numbers are PyTorch's (tests/reference), never the engine's.
import { describe, expect, test } from 'vitest';
import { loadLanguage } from '../../web/i18n/index.js';
import { formatNumber } from '../../web/model/format.js';
import { DEFAULT_COLORS, HEAD_COLORS } from '../../web/view/common/colors.js';
import { headsSvg } from '../../web/view/figures/heads-svg.js';
import { linksSvg } from '../../web/view/figures/links-svg.js';
import { matrixSvg } from '../../web/view/figures/matrix-svg.js';
import { figureCaption } from '../../web/view/figures/caption.js';
import { readFixture } from './fixtures.js';
import { allText, captionOf, cells, elements } from './svg-figure.js';

const { config, expected } = readFixture('causal'); // "I am a student of life", causal mask, seed 1, 2 heads
const tokens = expected.tokens[0];
const [, H, S, Skv] = expected.tensors.weights.shape;
const D = expected.tensors.X.shape[2];
const tensor = (name) => Float32Array.from(expected.tensors[name].data, Number);
const head = 1;
const blocked = (i, j) => j > i; // causal: a query sees itself and the keys before it
// The result the caption reads: PyTorch's tokens and sizes, the fixture's settings.
const result = {
  tokens: expected.tokens,
  sizes: { B: 1, H, S, S_kv: Skv, D },
  settings: { dModel: D, numHeads: H, mask: config.mask, seed: config.seed },
};

const weightsView = (decimals) => ({
  name: 'weights',
  caption: 'Attention weights {name} (head 2)',
  data: tensor('weights'),
  offset: head * S * Skv,
  rows: S,
  cols: Skv,
  rowLabels: tokens,
  colLabels: tokens,
  kind: 'prob',
  theme: 'light',
  decimals,
  blocked,
});

describe('a matrix figure', () => {
  test.each([4, 2])('holds the weights at %i decimals as text, and the fills of their values', (decimals) => {
    const { svg, width, height } = matrixSvg(weightsView(decimals), { caption: 'c' });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain(`width="${width}" height="${height}"`);
    const got = cells(svg);
    expect(got.size).toBe(S * Skv);
    for (let i = 0; i < S; i++)
      for (let j = 0; j < Skv; j++) {
        const v = expected.tensors.weights.data[(head * S + i) * Skv + j];
        const cell = got.get(`${i},${j}`);
        expect(cell.text, `${i},${j}`).toBe(formatNumber(Math.fround(v), decimals));
        expect(Math.abs(Number(cell.text) - v)).toBeLessThanOrEqual(0.5 * 10 ** -decimals + 1e-7);
        // The mask's blocked cells are grey (the canvas's 128, 128, 128); the kept ones are on viridis.
        if (blocked(i, j)) expect(cell.fill).toBe('#808080');
      }
    // The first query sees only itself: weight 1, viridis's top; a weight of 0.0000 would be its bottom.
    expect(got.get('0,0').text).toBe(formatNumber(1, decimals));
    expect(got.get('0,0').fill).toBe(DEFAULT_COLORS.probability.at(-1));
  });

  test("every kept cell's fill is the viridis colour of its value (the page's 256 steps)", () => {
    const got = cells(matrixSvg(weightsView(4)).svg);
    const stops = DEFAULT_COLORS.probability.map((h) => [1, 3, 5].map((k) => parseInt(h.slice(k, k + 2), 16)));
    for (let i = 0; i < S; i++)
      for (let j = 0; j <= i; j++) {
        const v = expected.tensors.weights.data[(head * S + i) * Skv + j];
        // Viridis by hand: the value's step k of 255, between two of the scale's ten stops.
        const k = Math.round(v * 255);
        const t = (k / 255) * (stops.length - 1);
        const at = Math.min(stops.length - 2, Math.floor(t));
        const rgb = stops[at].map((c, n) => Math.round(c + (stops[at + 1][n] - c) * (t - at)));
        const hex = `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
        expect(got.get(`${i},${j}`).fill, `${i},${j} = ${v}`).toBe(hex);
      }
  });

  test("a signed matrix's largest |value| takes the scale's end colour, and 0 would be white", () => {
    const data = tensor('scores');
    const view = { ...weightsView(4), name: 'scores', caption: '{name}', data, kind: 'signed', blocked: undefined };
    const got = cells(matrixSvg(view).svg);
    let at = null;
    for (let i = 0; i < S; i++)
      for (let j = 0; j < Skv; j++) {
        const v = data[(head * S + i) * Skv + j];
        if (!at || Math.abs(v) > Math.abs(at.v)) at = { i, j, v };
      }
    expect(got.get(`${at.i},${at.j}`).fill).toBe(at.v < 0 ? DEFAULT_COLORS.negative : DEFAULT_COLORS.positive);
  });

  test("on the dark palette, the figure's background is its zero colour (0 reads as nothing) and its text light", () => {
    const view = {
      ...weightsView(4),
      name: 'scores',
      caption: '{name}',
      data: tensor('scores'),
      kind: 'signed',
      theme: 'dark',
    };
    const { svg } = matrixSvg(view);
    expect(elements(svg, 'rect')[0].fill).toBe(DEFAULT_COLORS.zero.dark);
    expect(svg).toContain('<g class="figure-title" fill="#e8eaed"');
    expect(cells(svg).size).toBe(S * Skv);
  });

  test('names its rows and columns by the tokens, and its tensor and shape in the title', () => {
    const { svg } = matrixSvg(weightsView(4));
    const texts = elements(svg, 'text').filter((t) => t['data-i'] === undefined);
    const middle = texts.filter((t) => t['text-anchor'] === 'middle').map((t) => t.text);
    const end = texts.filter((t) => t['text-anchor'] === 'end').map((t) => t.text);
    expect(middle).toEqual(tokens);
    expect(end).toEqual(tokens);
    expect(elements(svg, 'title')[0].text).toBe(`Attention weights weights (head 2) [${S} × ${Skv}]`);
    expect(svg).toMatch(/font-family="[^"]*WenQuanYi Micro Hei[^"]*"/);
  });

  test('a mask shows 1 where it blocks and 0 where it keeps, dark and light', () => {
    const view = { ...weightsView(4), name: 'mask', caption: '{name}', data: tensor('mask'), offset: 0, kind: 'mask' };
    const got = cells(matrixSvg(view).svg);
    expect(got.get('0,1')).toEqual({ fill: '#3c3c3c', text: '1' });
    expect(got.get('1,0')).toEqual({ fill: '#ebebeb', text: '0' });
  });

  test('beyond 64 × 64, a heatmap: a square per value, no numbers', () => {
    const n = 80;
    const data = Float32Array.from({ length: n * n }, (_, k) => (k % 7) / 6);
    const labels = Array.from({ length: n }, (_, k) => `t${k}`);
    const view = {
      name: 'big',
      data,
      rows: n,
      cols: n,
      rowLabels: labels,
      colLabels: labels,
      kind: 'prob',
      decimals: 4,
    };
    const { svg } = matrixSvg(view);
    const got = cells(svg);
    expect(got.size).toBe(n * n);
    expect([...got.values()].every((c) => c.text === null)).toBe(true);
    expect(got.get('0,6').fill).toBe(DEFAULT_COLORS.probability.at(-1));
  });
});

describe('captions', () => {
  test('state the tokens, d_model, heads, mask and seed in English and Chinese', async () => {
    const values = [`S = ${tokens.length}`, `d_model = ${D}`, config.mask, tokens.join(' · ')];
    const en = figureCaption(await loadLanguage('en'), result);
    for (const value of [...values, `heads = ${H}`, `seed = ${config.seed}`]) expect(en).toContain(value);
    const zh = figureCaption(await loadLanguage('zh'), result);
    for (const value of [...values, `头数 = ${H}`, `随机种子 = ${config.seed}`]) expect(zh).toContain(value);
    // In the figure, wrapped into lines and read back whole.
    expect(captionOf(matrixSvg(weightsView(4), { caption: zh, lang: 'zh' }).svg)).toBe(zh);
    expect(captionOf(matrixSvg(weightsView(4), { caption: en }).svg)).toBe(en);
  });
});

describe('the links diagram and the head grid', () => {
  const weights = tensor('weights');
  const base = { b: 0, H, S, Skv, queryLabels: tokens, keyLabels: tokens, theme: 'light' };

  test("a line per weight above 0.005, in its head's colour, its opacity the weight", () => {
    const { svg } = linksSvg({ ...base, weights, heads: [0, 1] }, { title: 'Links', caption: 'c' });
    const lines = elements(svg, 'line');
    const data = expected.tensors.weights.data;
    expect(lines).toHaveLength(data.filter((w) => w > 0.005).length);
    for (const line of lines) {
      const [h, i, j] = ['data-h', 'data-i', 'data-j'].map((k) => Number(line[k]));
      expect(line.stroke).toBe(HEAD_COLORS[h]);
      expect(Number(line['stroke-opacity'])).toBeCloseTo(data[(h * S + i) * Skv + j], 2);
    }
    expect(allText(svg)).toContain(tokens.join('\n'));
  });

  test("each head's blocks: weight 1 is the head's full colour, and each head is named", async () => {
    const t = await loadLanguage('en');
    const view = { data: weights, b: 0, H, S, Skv, kind: 'prob', theme: 'light' };
    const { svg } = headsSvg(view, { t, title: 'Heads', caption: 'c' });
    const blocks = elements(svg, 'rect').filter((r) => r['data-h'] !== undefined);
    expect(blocks).toHaveLength(H * S * Skv);
    for (let h = 0; h < H; h++) {
      const first = blocks.find((r) => r['data-h'] === String(h) && r['data-i'] === '0' && r['data-j'] === '0');
      expect(first.fill).toBe(HEAD_COLORS[h]); // the first query's weight on itself: 1, the largest of all heads
      expect(allText(svg)).toContain(t('view.head', { h: h + 1 }));
    }
  });
});
