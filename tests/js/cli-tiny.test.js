// attention-lab --model tiny: the tiny trained model from a shell, its
// weights read from web/api/tiny; the bytes, head scores and second copy in
// English and Chinese, the whole result with --json (against PyTorch), the
// tensors as a .npz, and its errors named by field.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { compareTensors, fixtureDir } from './fixtures.js';
import { run as runCli } from './cli-run.js';
const run = (args, env) => runCli(args, '', env);

const report = JSON.parse(
  readFileSync(fileURLToPath(new URL('../reference/tiny/report.json', import.meta.url)), 'utf8'),
);

describe('attention-lab --model tiny', () => {
  test('in English: the bytes, every head with its scores, the second copy and the next byte', async () => {
    const { en } = report.final.sentences;
    const out = await run(['--model', 'tiny', '--checkpoint', '11000', '--text', en.text]);
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    expect(out.stdout).toContain('The tiny trained model at checkpoint 11000 (training step), on 56 bytes of UTF-8:');
    expect(out.stdout).toMatch(/ 0:T {2}1:h {2}2:e {2}3:␣ {2}4:c/);
    for (const head of ['L1H1', 'L1H4', 'L2H2', 'L2H4'])
      expect(out.stdout).toMatch(new RegExp(`^${head} +\\d\\.\\d{4} +\\d\\.\\d{4}$`, 'm'));
    // A layer-1 head reads the previous byte, a layer-2 head is an induction head (as the report's are).
    const rows = Object.fromEntries(
      [...out.stdout.matchAll(/^(L\dH\d) +(\S+) +(\S+)$/gm)].map(([, head, a, b]) => [head, [Number(a), Number(b)]]),
    );
    const best = (k) => Object.entries(rows).reduce((a, b) => (b[1][k] > a[1][k] ? b : a))[0];
    expect([best(0)[1], best(1)[1]]).toEqual(['1', '2']);
    expect(rows[best(0)][0]).toBeGreaterThan(0.9);
    expect(rows[best(1)][1]).toBeGreaterThan(0.3);
    // The second "The cat sat on the warm mat." is the repeat: 28 bytes.
    expect(out.stdout).toContain('28 bytes are a second copy (a run of at least 4 bytes typed again)');
    expect(out.stdout).toContain(`second copy: ${en.correct} of ${en.total} bytes predicted from the earlier copy`);
    expect(out.stdout).toMatch(/the next byte it predicts: .+ \d\.\d{4}, /);
  });

  test('in Chinese (--lang zh, or LANG): every line said in Chinese, a character shown with its part', async () => {
    const { zh } = report.final.sentences;
    for (const out of [
      await run(['--model', 'tiny', '--lang', 'zh', zh.text]),
      await run(['--model', 'tiny', zh.text], { LANG: 'zh_CN.UTF-8' }),
    ]) {
      expect(out.status).toBe(0);
      expect(out.stdout).toContain('训练好的小模型，检查点 11000（训练步数），输入 60 个 UTF-8 字节：');
      expect(out.stdout).toContain('0:今 1/3  1:今 2/3  2:今 3/3');
      expect(out.stdout).toMatch(/^头 +前一词元 +归纳$/m);
      expect(out.stdout).toContain(`第二遍：${zh.total} 个字节中有 ${zh.correct} 个由前一遍预测正确`);
      expect(out.stdout).toContain('有 30 个字节属于第二遍');
      expect(out.stdout).not.toMatch(/second copy|induction|bytes of/);
    }
  });

  test('a text with no repeat has no induction score, and says how to get one', async () => {
    const out = await run(['--model', 'tiny', '--checkpoint', '750', 'hello']);
    expect(out.status).toBe(0);
    expect(out.stdout).toMatch(/^L2H1 +\d\.\d{4} +—$/m);
    expect(out.stdout).toContain('type a run of at least 4 bytes again');
    expect(out.stdout).not.toContain('second copy:');
  });

  test('--json prints the whole result, every tensor as PyTorch computes it', async () => {
    const fixture = JSON.parse(readFileSync(`${fixtureDir}tiny/twice-750.json`, 'utf8'));
    const out = await run(['--model', 'tiny', '--checkpoint', '750', '--json', '--text', fixture.text]);
    expect(out.stderr).toBe('');
    const result = JSON.parse(out.stdout);
    expect(result).toMatchObject({ model: 'tiny', checkpoint: 750, ids: fixture.expected.ids, warnings: [] });
    expect(result.secondCopy).toMatchObject({ correct: fixture.expected.secondCopy.correct });
    const want = { ...fixture.expected.tensors };
    const got = { ...result.tensors };
    fixture.expected.layers.forEach((layer, l) => {
      for (const name of Object.keys(layer)) {
        want[`${l}.${name}`] = layer[name];
        got[`${l}.${name}`] = result.layers[l][name];
      }
    });
    expect(compareTensors(want, got).problems).toEqual([]);
  });

  test('--format npz writes every tensor, the layers as layers.<l>.<name>', async () => {
    const file = `${mkdtempSync(`${tmpdir()}/attention-lab-tiny-`)}/tiny.npz`;
    const out = await run(['--model', 'tiny', 'ab', '-o', file]);
    expect(out.status).toBe(0);
    const zip = readFileSync(file).toString('latin1');
    for (const name of ['logits.npy', 'probs.npy', 'layers.0.Q.npy', 'layers.1.weights.npy', 'layers.1.residual.npy'])
      expect(zip).toContain(name);
  });

  test('errors name the field, in the language chosen; ignored settings are a warning on stderr', async () => {
    const long = await run(['--model', 'tiny', 'x'.repeat(257)]);
    expect(long.status).toBe(3);
    expect(long.stderr).toContain('text is 257 bytes of UTF-8; the tiny model reads at most 256');
    const zh = await run(['--model', 'tiny', '--lang', 'zh', 'x'.repeat(257)]);
    expect(zh.stderr).toContain('文本有 257 个 UTF-8 字节');
    const unknown = await run(['--model', 'tiny', '--checkpoint', '600', 'ab']);
    expect(unknown.status).toBe(3);
    expect(unknown.stderr).toContain('checkpoint 600 is not one of');
    const batch = await run(['--model', 'tiny', 'ab', 'cd']);
    expect(batch.status).toBe(3);
    expect(batch.stderr).toContain('not as texts');
    const ignored = await run(['--model', 'tiny', 'ab', '--heads', '4', '--mask', 'causal']);
    expect(ignored.status).toBe(0);
    expect(ignored.stderr).toBe(
      'attention-lab: model "tiny" reads only text and checkpoint; these settings have no effect: numHeads, mask\n',
    );
  });
});
