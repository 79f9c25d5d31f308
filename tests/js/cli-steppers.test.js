// attention-lab decode | flash: tables in English and Chinese, --json equal to
// the API's result, and option errors named by their flag.
import { beforeAll, describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { terminalColumns } from '../../web/cli/stepper-commands.js';
import { run } from './cli-run.js';

const SENTENCE = 'the cat sat on the mat';
const CONFIG = { text: SENTENCE, dModel: 8, numHeads: 2, numKVHeads: 1, mask: 'causal' };
const FLAGS = [SENTENCE, '--d-model', '8', '--heads', '2', '--kv-heads', '1', '--mask', 'causal'];

let lab;
beforeAll(async () => {
  lab = await loadAttentionLab();
});

/** The --json output's numbers back as float32 ("NaN" strings included): the shortest text of each float32. */
const numbers = (list) => list.map((x) => Math.fround(Number(x)));

describe('attention-lab decode', () => {
  test('prints one line per step with the cache bytes and the weights, in English', async () => {
    const out = await run(['decode', ...FLAGS, '--head', '1']);
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    const d = lab.decode(CONFIG);
    expect(out.stdout).toContain('KV cache, token by token: 6 tokens, 2 query heads, 1 key/value heads, headDim 4');
    expect(out.stdout).toContain('weights of head 1 over the cache');
    expect(out.stdout).toContain('Rows bit-identical to the full causal run: 12 of 12');
    expect(out.stdout).toContain('attends only to key 0 ("the")');
    // Step 5: six cached keys, 2·6·2·4·4 bytes for MHA, half of it with one KV head, and head 1's weights.
    const step5 = out.stdout.split('\n').find((line) => /^5\s+mat\s/.test(line));
    const weights = Array.from(d.weights.subarray((5 * 2 + 1) * 6, (5 * 2 + 1) * 6 + 6), (w) => w.toFixed(4));
    expect(step5.split(/\s+/)).toEqual(['5', 'mat', '6', '384', '192', '192', ...weights]);
  });

  test('in Chinese with --lang zh', async () => {
    const out = await run(['decode', ...FLAGS, '--lang', 'zh']);
    expect(out.status).toBe(0);
    expect(out.stdout).toContain('KV 缓存逐词元解码');
    expect(out.stdout).toContain('与完整因果运行逐位相同的行：12 / 12');
  });

  test('Chinese tokens and headers line up in terminal columns (a Han character takes two)', async () => {
    const out = await run([
      'decode',
      '他 坐 在 河 岸 边',
      '--d-model',
      '8',
      '--heads',
      '2',
      '--mask',
      'causal',
      '--lang',
      'zh',
    ]);
    expect(out.status).toBe(0);
    const lines = out.stdout.split('\n');
    const table = lines.slice(
      lines.findIndex((line) => line.startsWith('步')),
      lines.findIndex((l) => /^5\s/.test(l)) + 1,
    );
    expect(table).toHaveLength(7);
    // Where the third column (the cached keys) starts, in terminal columns, on the header and on every step.
    const starts = table.map((line) => {
      const cells = line.split(/ {2,}/);
      return terminalColumns(line.slice(0, line.indexOf(cells[2], cells[0].length + cells[1].length)));
    });
    expect(new Set(starts).size, table.join('\n')).toBe(1);
  });

  test('--json is the API result', async () => {
    const out = await run(['decode', ...FLAGS, '--json']);
    expect(out.status).toBe(0);
    const got = JSON.parse(out.stdout);
    const d = lab.decode(CONFIG);
    expect(got.sizes).toEqual(d.sizes);
    expect(got.cacheBytes).toEqual(d.cacheBytes);
    expect(got.identicalRows).toBe(d.rows);
    expect(numbers(got.weights)).toEqual(Array.from(d.weights));
  });

  test('errors name the field or the flag', async () => {
    const noMask = await run(['decode', SENTENCE]);
    expect(noMask.status).toBe(3);
    expect(noMask.stderr).toMatch(/^attention-lab: mask: .*causal/);
    const head = await run(['decode', ...FLAGS, '--head', '2']);
    expect(head.status).toBe(2);
    expect(head.stderr).toBe('attention-lab: --head (2) must be between 0 and 1\n');
    const batch = await run(['decode', ...FLAGS, '--batch', '1']);
    expect(batch.status).toBe(2);
    expect(batch.stderr).toContain('--batch (1) must be between 0 and 0');
  });
});

describe('attention-lab flash', () => {
  test('prints every tile with m, ℓ and α, then the difference from the plain softmax', async () => {
    const out = await run(['flash', ...FLAGS, '--tile-queries', '2', '--tile-keys', '4', '--head', '1']);
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    const f = lab.flash(CONFIG, { tileQueries: 2, tileKeys: 4, head: 1 });
    expect(out.stdout).toContain('head 1: tiles of 2 queries × 4 keys, 6 tiles');
    expect(out.stdout.match(/skipped: every logit in it is masked/g)).toHaveLength(
      f.tiles.filter((t) => t.skipped).length,
    );
    expect(out.stdout).toContain(
      `largest |difference| ${f.maxAbsDifference.toExponential(2)}; ${f.identical} of ${f.total} entries bit-identical`,
    );
    // The first tile's first row: m, ℓ and α = 0 (nothing seen before).
    const first = out.stdout.split('\n').find((line) => /^0\s+0–1\s+0–3\s+0\s/.test(line));
    expect(first.split(/\s+/).slice(4)).toEqual([f.runningMax[0].toFixed(4), f.runningSum[0].toFixed(4), '0.0000']);
  });

  test('in Chinese, and --json', async () => {
    const zh = await run(['flash', ...FLAGS, '--lang', 'zh']);
    expect(zh.status).toBe(0);
    expect(zh.stdout).toContain('FlashAttention-2 在线 softmax，头 0');
    expect(zh.stdout).toContain('并非全部相同');
    const json = JSON.parse((await run(['flash', ...FLAGS, '--tile-queries', '3', '--json'])).stdout);
    const f = lab.flash(CONFIG, { tileQueries: 3 });
    expect(json.tiles).toEqual(f.tiles);
    expect(numbers(json.output)).toEqual(Array.from(f.output));
    expect(numbers(json.runningMax)).toEqual(Array.from(f.runningMax));
  });

  test.each([
    [['--tile-keys', '0'], '--tile-keys must be a whole number from 1 (queries or keys per tile), got 0'],
    [['--tile-queries', 'x'], '--tile-queries must be a whole number from 1 (queries or keys per tile), got x'],
    [['--head', '2'], '--head (2) must be between 0 and 1'],
  ])('%j: %s', async (flags, message) => {
    const out = await run(['flash', ...FLAGS, ...flags]);
    expect(out.stderr).toBe(`attention-lab: ${message}\n`);
    expect(out.status).toBe(2);
  });

  test("a plain run does not take the steppers' flags", async () => {
    const out = await run([SENTENCE, '--tile-keys', '2']);
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('--tile-keys');
  });
});
