// attention-lab … --figure NAME: the SVG the page and the element export
// (view/figures), from the run of a PyTorch fixture's config: its cells hold
// PyTorch's numbers at --decimals, its caption the run's settings in the
// language of --lang; a name the run has no figure of is a usage error that
// lists the figures, and --figure writes SVG only.
import { describe, expect, test } from 'vitest';
import { formatNumber } from '../../web/model/format.js';
import { readFixture } from './fixtures.js';
import { run } from './cli-run.js';
import { captionOf, cells, elements } from './svg-figure.js';

const { config, expected } = readFixture('causal'); // 2 heads, dModel 8, causal mask, seed 1
const tokens = expected.tokens[0];
const [, H, S, Skv] = expected.tensors.weights.shape;

describe('--figure', () => {
  test.each([
    [4, []],
    [2, ['--decimals', '2']],
  ])("weights of head 2 at %i decimals: PyTorch's numbers, the tokens, the shape", async (decimals, flags) => {
    const out = await run(['--config', '-', '--figure', 'weights', '--head', '1', ...flags], JSON.stringify(config));
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    expect(out.stdout.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    const got = cells(out.stdout);
    expect(got.size).toBe(S * Skv);
    for (let i = 0; i < S; i++)
      for (let j = 0; j < Skv; j++) {
        const v = expected.tensors.weights.data[(S + i) * Skv + j]; // head 1 (from 0)
        const text = got.get(`${i},${j}`).text;
        // PyTorch's number at these decimals (a last digit may differ only where it sits on a rounding edge).
        expect(Math.abs(Number(text) - v), `${i},${j}: ${text} vs ${v}`).toBeLessThanOrEqual(
          0.5 * 10 ** -decimals + 1e-6,
        );
        expect(text).toMatch(new RegExp(`^\\d\\.\\d{${decimals}}$`));
      }
    expect(got.get('0,0').text).toBe(formatNumber(1, decimals));
    expect(elements(out.stdout, 'title')[0].text).toContain(`[${S} × ${Skv}]`);
    const caption = captionOf(out.stdout);
    for (const value of [
      tokens.join(' · '),
      `d_model = ${expected.tensors.X.shape[2]}`,
      `heads = ${H}`,
      `mask = ${config.mask}`,
      `seed = ${config.seed}`,
    ])
      expect(caption).toContain(value);
  });

  test('the caption in Chinese with --lang zh; -o writes the file; links and a head grid too', async () => {
    const zh = await run(['--config', '-', '--figure', 'weights', '--lang', 'zh'], JSON.stringify(config));
    expect(zh.status).toBe(0);
    expect(captionOf(zh.stdout)).toContain(`头数 = ${H}，掩码 = ${config.mask}，随机种子 = ${config.seed}`);
    const links = await run(['--config', '-', '--figure', 'links'], JSON.stringify(config));
    expect(elements(links.stdout, 'line').length).toBe(expected.tensors.weights.data.filter((w) => w > 0.005).length);
    const heads = await run(['--config', '-', '--figure', 'heads:weights'], JSON.stringify(config));
    expect(elements(heads.stdout, 'rect').filter((r) => r['data-h'] !== undefined)).toHaveLength(H * S * Skv);
  });

  test("differential attention's second map of head 2 and its A: PyTorch's numbers (tests/reference/recent.py)", async () => {
    const diff = readFixture('recent/diff-causal');
    const [, twoH, rows, cols] = diff.expected.tensors.halfWeights.shape;
    const h = 1;
    for (const [figure, tensor, index] of [
      ['halfWeights_2', 'halfWeights', 2 * h + 1],
      ['weights', 'weights', h],
    ]) {
      const out = await run(['--config', '-', '--figure', figure, '--head', String(h)], JSON.stringify(diff.config));
      expect(out.stderr).toBe('');
      const got = cells(out.stdout);
      expect(got.size).toBe(rows * cols);
      for (let i = 0; i < rows; i++)
        for (let j = 0; j < cols; j++) {
          const v = Number(diff.expected.tensors[tensor].data[(index * rows + i) * cols + j]);
          expect(
            Math.abs(Number(got.get(`${i},${j}`).text.replace('−', '-')) - v),
            `${figure} ${i},${j}`,
          ).toBeLessThanOrEqual(5e-5 + 1e-6);
        }
    }
    expect(twoH).toBe(4);
  });

  test("an unknown figure is a usage error listing the run's figures; --figure writes SVG only", async () => {
    const unknown = await run(['--config', '-', '--figure', 'nope'], JSON.stringify(config));
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(
      /^attention-lab: no figure "nope" in this run \(its figures: X, W_Q, .*weights.*, links, heads:scores/,
    );
    const json = await run(['--config', '-', '--figure', 'weights', '--format', 'json'], JSON.stringify(config));
    expect(json.status).toBe(2);
    expect(json.stderr).toContain('--figure writes SVG');
    const svg = await run(['--config', '-', '--format', 'svg'], JSON.stringify(config));
    expect(svg.status).toBe(2);
    const decimals = await run(['--config', '-', '--figure', 'weights', '--decimals', '12'], JSON.stringify(config));
    expect(decimals.status).toBe(2);
    expect(decimals.stderr).toContain('--decimals');
  });
});
