// attention-lab --model-dir: a Hugging Face checkpoint folder from a shell.
// Its --json against PyTorch's fixtures (tests/reference/llama, gpt2), --text
// through the folder's tokenizer.json, the tables in English and Chinese, the
// .npz, and its errors named by flag or file.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { run as runCli } from './cli-run.js';

const run = (args, env) => runCli(args, '', env);
const REFERENCE = fileURLToPath(new URL('../reference/', import.meta.url));
const SHARDED = `${REFERENCE}llama/checkpoints/llama-sharded`;

// A GPT-2 folder with a tokenizer.json of its own: bytes a … z (ids 0 … 25), "Ġ" (the byte-level
// space, 26) and the merges c a -> ca (27), ca t -> cat (28), Ġ cat -> Ġcat (29); within the
// checkpoint's 64 ids. GPT-2's pattern splits "cat cat cat" into cat, ␣cat, ␣cat: ids 28 29 29.
function folderWithTokenizer() {
  const dir = mkdtempSync(join(tmpdir(), 'attention-lab-checkpoint-'));
  for (const name of ['config.json', 'model.safetensors'])
    copyFileSync(`${REFERENCE}gpt2/checkpoints/f32/${name}`, join(dir, name));
  const vocab = Object.fromEntries([...'abcdefghijklmnopqrstuvwxyz'].map((c, i) => [c, i]));
  Object.assign(vocab, { Ġ: 26, ca: 27, cat: 28, Ġcat: 29 });
  const tokenizer = {
    model: { type: 'BPE', vocab, merges: ['c a', 'ca t', 'Ġ cat'] },
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    added_tokens: [],
  };
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tokenizer));
  return dir;
}

describe('attention-lab --model-dir', () => {
  test("--ids --json: the ids, each layer's weights [H, T, T], the logits [T, V], as PyTorch computed them", async () => {
    const { runs } = JSON.parse(readFileSync(`${REFERENCE}llama/fixtures/llama-sharded.json`, 'utf8'));
    const [fixture] = runs;
    const out = await run(['--model-dir', SHARDED, '--ids', JSON.stringify(fixture.ids), '--json']);
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    const result = JSON.parse(out.stdout);
    const T = fixture.ids.length;
    expect(result.ids).toEqual(fixture.ids);
    expect(result.layers).toHaveLength(fixture.layers.length);
    for (const [l, layer] of result.layers.entries()) {
      expect(layer.weights.shape).toEqual(fixture.layers[l].weights.shape);
      expect(layer.weights.shape.slice(1)).toEqual([T, T]);
      layer.weights.data.forEach((w, k) => expect(w).toBeCloseTo(fixture.layers[l].weights.data[k], 6));
    }
    expect(result.tensors.logits.shape).toEqual([T, result.sizes.vocab]);
    const scale = Math.max(...fixture.logits.data.map(Math.abs));
    result.tensors.logits.data.forEach((x, k) =>
      expect(Math.abs(x - fixture.logits.data[k])).toBeLessThan(1e-5 * scale),
    );
  });

  for (const [family, name] of [
    ['gpt2', 'f32-transformer'],
    ['llama', 'qwen2-f32'],
  ])
    test(`${name}: --json gives PyTorch's logits and last-layer weights`, async () => {
      const [fixture] = JSON.parse(readFileSync(`${REFERENCE}${family}/fixtures/${name}.json`, 'utf8')).runs;
      const dir = `${REFERENCE}${family}/checkpoints/${name}`;
      const out = await run(['--model-dir', dir, '--ids', JSON.stringify(fixture.ids), '--json']);
      expect(out.status).toBe(0);
      const result = JSON.parse(out.stdout);
      expect(result.sizes.family).toBe(name.startsWith('qwen2') ? 'qwen2' : 'gpt2');
      for (const [got, want] of [
        [result.tensors.logits, fixture.logits],
        [result.layers.at(-1).weights, fixture.layers.at(-1).weights],
      ]) {
        expect(got.shape).toEqual(want.shape);
        const scale = Math.max(...want.data.map(Math.abs));
        got.data.forEach((x, k) => expect(Math.abs(x - want.data[k])).toBeLessThanOrEqual(1e-5 * scale));
      }
    });

  test("--text through the folder's tokenizer.json; the tables in English and in Chinese", async () => {
    const dir = folderWithTokenizer();
    const en = await run(['--model-dir', dir, '--text', 'cat a cat a']);
    expect(en.stderr).toBe('');
    expect(en.status).toBe(0);
    expect(en.stdout).toContain(
      'A gpt2 checkpoint: 2 layers of 2 heads (2 of keys and values) of 8 dimensions, d_model 16, a vocabulary of 64; on 6 tokens:',
    );
    // " a" has no merge: the space and the letter are tokens of their own.
    expect(en.stdout).toContain('  0:cat  1:␣  2:a  3:␣cat  4:␣  5:a');
    for (const head of ['L1H1', 'L1H2', 'L2H1', 'L2H2'])
      expect(en.stdout).toMatch(new RegExp(`^${head} +\\d\\.\\d{4} +\\d\\.\\d{4}$`, 'm'));
    // ␣ at 4 repeats ␣ at 1 (-> a, at 2); ␣ a at 4-5 repeats ␣ a at 1-2 (-> ␣cat, at 3): 2 positions.
    const json = JSON.parse((await run(['--model-dir', dir, '--text', 'cat a cat a', '--json'])).stdout);
    expect(json.ids).toEqual([28, 26, 0, 29, 26, 0]);
    expect(json.tokens).toEqual(['cat', '␣', 'a', '␣cat', '␣', 'a']);
    expect(json.headScores.inductionTargets).toEqual([-1, -1, -1, -1, 2, 3]);
    expect(en.stdout).toContain('induction score: the mean, over the 2 positions whose tokens repeat an earlier run');
    // Each score is the mean it says: the weights at (4, 2) and (5, 3) of head L1H1.
    const w = json.layers[0].weights.data;
    expect(json.headScores.induction[0][0]).toBeCloseTo((w[4 * 6 + 2] + w[5 * 6 + 3]) / 2, 6);
    // "cat cat cat": ␣cat at 2 repeats ␣cat at 1, but what followed it is 2 itself: no earlier target.
    const none = await run(['--model-dir', dir, '--text', 'cat cat cat']);
    expect(none.stdout).toMatch(/^L1H1 +\d\.\d{4} +—$/m);
    expect(none.stdout).toContain('induction score: no token repeats an earlier run that another token followed');
    const zh = await run(['--model-dir', dir, 'cat cat cat', '--lang', 'zh']);
    expect(zh.status).toBe(0);
    expect(zh.stdout).toContain('一个 gpt2 检查点：2 层，每层 2 个头');
    expect(zh.stdout).toContain('词元（按它的 tokenizer.json 切分；␣ 表示空格）：');
    expect(zh.stdout).toMatch(/它预测的下一个词元（编号，概率）：\d+ 0\.\d{4}, /);
  });

  test('the tensors as a .npz: layers.L.name', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'attention-lab-npz-')), 'run.npz');
    const out = await run(['--model-dir', SHARDED, '--ids', '[1, 2, 3]', '-o', file]);
    expect(out.status).toBe(0);
    const bytes = readFileSync(file);
    for (const name of ['logits.npy', 'layers.0.weights.npy', 'layers.1.Q.npy', 'tokenEmbeddings.npy'])
      expect(bytes.includes(Buffer.from(name))).toBe(true);
  });

  test('errors name the flag or the file, in the language asked for', async () => {
    const both = await run(['--model-dir', SHARDED, '--ids', '[1]', '--text', 'a']);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('give exactly one of them');
    const neither = await run(['--model-dir', SHARDED]);
    expect(neither.status).toBe(2);
    const badIds = await run(['--model-dir', SHARDED, '--ids', 'one two']);
    expect(badIds.status).toBe(3);
    expect(badIds.stderr).toMatch(/--ids.*a JSON array of token ids/);
    const range = await run(['--model-dir', SHARDED, '--ids', '[1, 4800]']);
    expect(range.status).toBe(3);
    expect(range.stderr).toContain('ids[1]');
    const noTokenizer = await run(['--model-dir', SHARDED, '--text', 'hi', '--lang', 'zh']);
    expect(noTokenizer.status).toBe(3);
    expect(noTokenizer.stderr).toContain('没有 `tokenizer.json`');
    const missing = await run(['--model-dir', join(tmpdir(), 'no-such-model-folder'), '--ids', '[1]']);
    expect(missing.status).toBe(3);
    expect(missing.stderr).toContain('no-such-model-folder');
  });
});
