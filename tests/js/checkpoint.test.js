// A Hugging Face checkpoint opened through the JS API as the page and the CLI
// open one (web/api/checkpoint/open.js): config.json, each shard's header,
// then only the wanted tensors' byte ranges. Its forward against PyTorch 1.13
// (tests/reference/gpt2/generate.py, the fixtures the native tests read too),
// within 1e-5 of each tensor's largest magnitude; the worst difference is printed.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { fileSource, openCheckpoint } from '../../web/api/checkpoint/open.js';
import { directorySources } from '../../web/api/checkpoint/node-files.js';

const GPT2 = fileURLToPath(new URL('../reference/gpt2/', import.meta.url));

/** The largest |ours − torch| over a tensor, and that over its largest |torch| value. */
function worstDifference(name, got, want) {
  expect(got.shape, name).toEqual(want.shape);
  const scale = Math.max(...want.data.map((x) => Math.abs(Math.fround(x))));
  let worst = 0;
  want.data.forEach((x, i) => (worst = Math.max(worst, Math.abs(got.data[i] - Math.fround(x)))));
  expect(worst, name).toBeLessThanOrEqual(1e-5 * scale);
  return worst / (scale || 1);
}

// Each family's checkpoints (tests/reference/{gpt2,llama}/generate.py) and the sizes their config.json gives.
const FAMILIES = {
  gpt2: {
    names: ['f32', 'f16', 'bf16', 'f32-transformer'],
    sizes: {
      family: 'gpt2',
      layers: 2,
      heads: 2,
      kvHeads: 2,
      dModel: 16,
      headDim: 8,
      vocab: 64,
      maxTokens: 32,
      qkvBias: true,
    },
  },
  llama: {
    names: ['llama-f32', 'llama-f16', 'qwen2-f32', 'qwen2-bf16', 'llama-sharded'],
    sizes: null, // read from each config.json below
  },
};
const REFERENCE = fileURLToPath(new URL('../reference/', import.meta.url));

describe("a checkpoint from its folder: every tensor of every run is PyTorch's", () => {
  for (const [family, { names, sizes }] of Object.entries(FAMILIES))
    for (const name of names)
      test(`${family} ${name}`, async () => {
        const dir = `${REFERENCE}${family}/checkpoints/${name}`;
        const model = await openCheckpoint(await directorySources(dir));
        const config = JSON.parse(readFileSync(`${dir}/config.json`, 'utf8'));
        expect(model.sizes).toEqual(
          sizes ?? {
            family: config.model_type,
            layers: config.num_hidden_layers,
            heads: config.num_attention_heads,
            kvHeads: config.num_key_value_heads ?? config.num_attention_heads,
            dModel: config.hidden_size,
            headDim: config.hidden_size / config.num_attention_heads,
            vocab: config.vocab_size,
            maxTokens: config.max_position_embeddings,
            qkvBias: config.model_type === 'qwen2' || Boolean(config.attention_bias),
          },
        );
        let worst = 0;
        let compared = 0;
        const { runs } = JSON.parse(readFileSync(`${REFERENCE}${family}/fixtures/${name}.json`, 'utf8'));
        for (const run of runs) {
          const result = model.run(run.ids);
          expect(result.ids).toEqual(run.ids);
          for (const [tensor, got] of Object.entries(result.tensors)) {
            worst = Math.max(worst, worstDifference(tensor, got, run[tensor]));
            compared++;
          }
          expect(result.layers).toHaveLength(run.layers.length);
          result.layers.forEach((layer, l) => {
            for (const [tensor, got] of Object.entries(layer)) {
              worst = Math.max(worst, worstDifference(`layers[${l}].${tensor}`, got, run.layers[l][tensor]));
              compared++;
            }
          });
        }
        console.log(`${name}: ${compared} tensors, worst difference ${worst.toExponential(2)} of the largest`);
        expect(compared).toBeGreaterThan(30);
      });
});

describe('reading', () => {
  test('only the wanted tensors are read: not the causal-mask buffers the file holds too', async () => {
    const model = await openCheckpoint(await directorySources(`${GPT2}checkpoints/f32`));
    const file = readFileSync(`${GPT2}checkpoints/f32/model.safetensors`);
    const header = JSON.parse(file.subarray(8, 8 + Number(file.readBigUInt64LE(0))).toString());
    const wanted = Object.entries(header).filter(([key]) => key !== '__metadata__' && !/\.attn\.bias$/.test(key));
    const wantedBytes = wanted.reduce((sum, [, t]) => sum + t.data_offsets[1] - t.data_offsets[0], 0);
    expect(model.fileBytes).toBe(file.length);
    expect(model.bytesRead).toBe(8 + Number(file.readBigUInt64LE(0)) + wantedBytes);
    expect(model.bytesRead).toBeLessThan(file.length);
  });

  test('Files (the page) give the same numbers as the folder on disk (the CLI)', async () => {
    const dir = `${GPT2}checkpoints/f16`;
    const files = ['config.json', 'model.safetensors'].map((name) => new File([readFileSync(`${dir}/${name}`)], name));
    const fromFiles = (await openCheckpoint(files.map(fileSource))).run([1, 2, 3]);
    const fromDisk = (await openCheckpoint(await directorySources(dir))).run([1, 2, 3]);
    expect(fromFiles.tensors.logits.data).toEqual(fromDisk.tensors.logits.data);
  });
});

describe('a run of some tensors (the page asks for those it shows)', () => {
  for (const name of ['gpt2/checkpoints/f32', 'llama/checkpoints/qwen2-f32'])
    test(`${name}: the tensors named, the same numbers; probs without every position's logits`, async () => {
      const model = await openCheckpoint(await directorySources(`${REFERENCE}${name}`));
      const ids = [3, 1, 4, 1, 5, 9, 2, 6];
      const full = model.run(ids);
      const copy = (result) =>
        JSON.parse(JSON.stringify(result, (_, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v)));
      const fullCopy = copy(full);
      const some = model.run(ids, { tensors: ['probs', 'weights', 'Q'] });
      expect(Object.keys(some.tensors)).toEqual(['probs']);
      expect(some.tensors.probs.data).toEqual(Float32Array.from(fullCopy.tensors.probs.data)); // bit for bit
      some.layers.forEach((layer, l) => {
        expect(Object.keys(layer)).toEqual(['Q', 'weights']);
        expect(Array.from(layer.weights.data)).toEqual(fullCopy.layers[l].weights.data);
      });
      expect(some.headScores).toEqual(full.headScores);
      // Logits named: every position's, as the full run has them.
      const logits = model.run(ids, { tensors: ['logits'] }).tensors.logits;
      expect(logits.shape).toEqual([ids.length, model.sizes.vocab]);
      expect(Array.from(logits.data)).toEqual(fullCopy.tensors.logits.data);
      expect(Object.keys(model.run(ids, { tensors: [] }).tensors)).toEqual([]);
    });

  test('an unknown name, or not a list of names, is an error on options.tensors', async () => {
    const model = await openCheckpoint(await directorySources(`${GPT2}checkpoints/f32`));
    expect(() => model.run([1, 2], { tensors: ['weights', 'attention'] })).toThrow(
      expect.objectContaining({ field: 'options.tensors', code: 'unknown-tensor' }),
    );
    expect(() => model.run([1, 2], { tensors: 'weights' })).toThrow(
      expect.objectContaining({ field: 'options.tensors', code: 'tensors-not-array' }),
    );
    expect(model.run([1, 2]).tensors.logits.shape).toEqual([2, 64]); // still usable
  });
});

describe('errors name the file or the field', () => {
  const source = (name, bytes) => fileSource(new File([bytes], name));
  const config = readFileSync(`${GPT2}checkpoints/f32/config.json`);
  const weights = readFileSync(`${GPT2}checkpoints/f32/model.safetensors`);

  test('no config.json, no weights', async () => {
    await expect(openCheckpoint([source('model.safetensors', weights)])).rejects.toMatchObject({
      field: 'config.json',
      code: 'checkpoint-no-config',
    });
    await expect(openCheckpoint([source('config.json', config)])).rejects.toMatchObject({
      field: 'checkpoint',
      code: 'checkpoint-no-weights',
    });
  });

  test('a cut shard names itself; a bad config names its key', async () => {
    const cut = weights.subarray(0, weights.length / 2);
    await expect(
      openCheckpoint([source('config.json', config), source('model-00002-of-00002.safetensors', cut)]),
    ).rejects.toMatchObject({ field: 'model-00002-of-00002.safetensors', code: 'weights-file-bounds' });
    const bad = JSON.stringify({ ...JSON.parse(config), n_head: 3 });
    await expect(
      openCheckpoint([source('config.json', bad), source('model.safetensors', weights)]),
    ).rejects.toMatchObject({ field: 'config.json.n_embd', code: 'model-config-not-divisible' });
    const llama2 = JSON.stringify({ model_type: 'mamba' });
    await expect(
      openCheckpoint([source('config.json', llama2), source('model.safetensors', weights)]),
    ).rejects.toMatchObject({ field: 'config.json.model_type', code: 'not-one-of' });
  });

  test('ids: out of range, not whole, too many', async () => {
    const model = await openCheckpoint([source('config.json', config), source('model.safetensors', weights)]);
    expect(() => model.run([1, 64])).toThrow(expect.objectContaining({ field: 'ids[1]', code: 'out-of-range' }));
    expect(() => model.run([0.5])).toThrow(expect.objectContaining({ field: 'ids[0]', code: 'not-whole' }));
    expect(() => model.run(new Array(33).fill(1))).toThrow(
      expect.objectContaining({ field: 'ids', code: 'model-too-many-tokens' }),
    );
    expect(model.run([1]).ids).toEqual([1]); // still usable after each error
    model.close();
    expect(() => model.run([1])).toThrow(expect.objectContaining({ code: 'checkpoint-step-order' }));
  });
});

describe('memory', () => {
  test('opening model after model (each closed) keeps memory flat: a closed model’s instance is let go', () => {
    // In a process of its own (checkpoint-soak.js): the tests' worker threads share this one's RSS.
    const soak = (keep) =>
      spawnSync(
        process.execPath,
        ['--expose-gc', fileURLToPath(new URL('./checkpoint-soak.js', import.meta.url)), keep],
        {
          encoding: 'utf8',
        },
      );
    const closed = soak('close');
    expect(closed.stderr).toBe('');
    const grown = Number(closed.stdout);
    console.log(`30 models of 16 MiB opened and closed: RSS grew ${grown.toFixed(1)} MiB`);
    expect(grown).toBeLessThan(120);
    // The measure sees a leak: the same models kept grow it by their 16 MiB each.
    expect(Number(soak('keep').stdout)).toBeGreaterThan(300);
  });
});
