// The checkpoint view's sentences (web/model/checkpoint-heads.js) on real
// runs of the repository's small checkpoints opened as the page opens them
// (web/api/checkpoint/open.js): every number a sentence states is found,
// written with the page's decimals, from PyTorch 1.13's tensors of the same
// run (tests/reference/llama/fixtures/*.json, written by generate.py), in
// English and in Chinese. The expected values are read from the fixture, not
// from our engine; the engine's own numbers are only what the sentences say.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { directorySources } from '../../web/api/checkpoint/node-files.js';
import { openCheckpoint } from '../../web/api/checkpoint/open.js';
import checkpointStrings from '../../web/i18n/checkpoint.js';
import { addStrings, errorText, loadLanguage, translator } from '../../web/i18n/index.js';
import {
  CHANCE_FACTOR,
  HEAD_STEPS,
  MIN_INDUCTION_POSITIONS,
  checkpointHeadLabels,
  checkpointStepTexts,
  checkpointSummary,
  headFacts,
  kvHeadOf,
  parseIds,
  sharingHeads,
  topNextTokens,
} from '../../web/model/checkpoint-heads.js';
import { formatNumber } from '../../web/model/format.js';
import { INDUCTION_THRESHOLD, PREVIOUS_TOKEN_THRESHOLD } from '../../web/model/tiny.js';

addStrings(checkpointStrings);

const LLAMA = fileURLToPath(new URL('../reference/llama/', import.meta.url));
const DECIMALS = 4;
const n = (v) => formatNumber(v, DECIMALS);

/** A checkpoint of tests/reference/llama opened from its folder, its fixture's first run and our run of its ids. */
async function opened(name) {
  const dir = `${LLAMA}checkpoints/${name}`;
  const model = await openCheckpoint(await directorySources(dir));
  const torch = JSON.parse(readFileSync(`${LLAMA}fixtures/${name}.json`, 'utf8')).runs[0];
  return { dir, model, torch, result: model.run(torch.ids) };
}

/** Row i of head h of a fixture tensor {shape: [heads, rows, cols], data}. */
function torchRow(tensor, h, i) {
  const [, rows, cols] = tensor.shape;
  return tensor.data.slice((h * rows + i) * cols, (h * rows + i + 1) * cols);
}

/** The position of the largest of values[0 … end). */
const argmax = (values, end) => values.slice(0, end).reduce((best, v, k, row) => (v > row[best] ? k : best), 0);

/** What the sentences of (layer, head, query) must say, from PyTorch's tensors of the run. */
function expectedFromTorch(torch, sizes, { layer, head, query }) {
  const L = torch.layers[layer];
  const kv = Math.floor(head / (sizes.heads / sizes.kvHeads)); // repeat_kv: query head h reads KV head ⌊h / groups⌋
  const T = torch.ids.length;
  const keyNorms = Array.from({ length: T }, (_, j) => Math.hypot(...torchRow(L.K, kv, j)));
  const scores = torchRow(L.scores, head, query);
  const weights = torchRow(L.weights, head, query);
  const best = argmax(scores, query + 1);
  const heaviest = argmax(weights, query + 1);
  return {
    kv,
    qNorm: Math.hypot(...torchRow(L.Q, head, query)),
    kMin: Math.min(...keyNorms),
    kMax: Math.max(...keyNorms),
    best,
    score: scores[best],
    scaled: torchRow(L.scaled, head, query)[best],
    heaviest,
    weight: weights[heaviest],
    sum: weights.reduce((s, w) => s + w, 0),
    output: torchRow(L.headOutputs, head, query)[0],
  };
}

let zh;
beforeAll(async () => {
  zh = await loadLanguage('zh');
});

describe('llama-sharded (two shards), layer 2 head 2: each sentence states PyTorch’s numbers', () => {
  let run;
  beforeAll(async () => {
    run = await opened('llama-sharded');
  });

  for (const query of [9, 4])
    test(`following token ${query}, in English and Chinese`, () => {
      const { model, torch, result } = run;
      const pick = { layer: 1, head: 1, query };
      const want = expectedFromTorch(torch, model.sizes, pick);
      const facts = headFacts(result, model.sizes, pick);
      // The facts are the run's numbers, PyTorch's to float32 rounding; the positions are the same.
      expect(facts.scores.key).toBe(want.best);
      expect(facts.weights.key).toBe(want.heaviest);
      expect(facts.kv).toBe(want.kv);
      for (const [got, value] of [
        [facts.q.norm, want.qNorm],
        [facts.k.min, want.kMin],
        [facts.k.max, want.kMax],
        [facts.scores.value, want.score],
        [facts.scaled.value, want.scaled],
        [facts.weights.value, want.weight],
        [facts.weights.sum, want.sum],
        [facts.output.value, want.output],
      ])
        expect(Math.abs(got - value)).toBeLessThan(1e-5);
      expect(facts.scaled.value).toBeCloseTo(facts.scores.value / Math.sqrt(model.sizes.headDim), 5);
      const labels = torch.ids.map(String);
      for (const t of [translator('en'), zh]) {
        const texts = checkpointStepTexts({ facts, query, head: 1, labels, t, decimals: DECIMALS });
        expect(Object.keys(texts)).toEqual(HEAD_STEPS);
        const token = (j) => t('checkpoint.token', { i: j, label: labels[j] });
        const T = torch.ids.length;
        expect(texts.Q).toContain(n(want.qNorm));
        expect(texts.Q).toContain(token(query));
        expect(texts.Q).toContain(t('checkpoint.step.rope')); // Llama: Q and K after RoPE
        expect(texts.K).toContain(n(want.kMin));
        expect(texts.K).toContain(n(want.kMax));
        expect(facts.sharing).toEqual([1]); // no grouped-query attention here: the K sentence says no sharing
        expect(texts.K).not.toContain(t('checkpoint.step.K.shared', { heads: '1, 2', count: 2 }));
        expect(texts.scores).toContain(n(want.score));
        expect(texts.scores).toContain(token(want.best));
        expect(texts.scaled).toContain(n(Math.sqrt(8)));
        expect(texts.scaled).toContain(n(want.score));
        expect(texts.scaled).toContain(n(want.scaled));
        expect(texts.mask).toContain(`${T}×${T}`);
        expect(texts.mask).toContain(String((T * (T - 1)) / 2));
        expect(texts.mask).toContain(String(query + 1));
        expect(texts.weights).toContain(n(want.weight));
        expect(texts.weights).toContain(token(want.heaviest));
        expect(texts.weights).toContain(n(want.sum));
        expect(n(want.sum)).toBe('1.0000');
        expect(texts.headOutputs).toContain(n(want.output));
        expect(texts.headOutputs).toContain(String(query + 1));
        if (t.lang === 'zh') for (const text of Object.values(texts)) expect(text).not.toMatch(/\b(the|of|token)\b/);
      }
    });

  test('the next token’s top 5 are PyTorch’s most likely, in order', () => {
    const { result, torch } = run;
    const top = topNextTokens(result.tensors.probs, 5);
    const want = torch.probs.data
      .map((p, id) => ({ id, p }))
      .sort((a, b) => b.p - a.p)
      .slice(0, 5);
    expect(top.map((x) => x.id)).toEqual(want.map((x) => x.id));
    top.forEach((x, k) => expect(Math.abs(x.p - want[k].p)).toBeLessThan(1e-6));
  });

  test('top next tokens: ties keep the lower id first, and a k over the vocabulary gives every id', () => {
    const probs = { shape: [2, 6], data: Float32Array.of(9, 9, 9, 9, 9, 9, 0.1, 0.3, 0.1, 0.3, 0.2, 0) };
    expect(topNextTokens(probs, 3)).toEqual([
      { id: 1, p: probs.data[7] },
      { id: 3, p: probs.data[9] },
      { id: 4, p: probs.data[10] },
    ]);
    expect(topNextTokens(probs, 10).map((x) => x.id)).toEqual([1, 3, 4, 0, 2, 5]);
  });

  test('the summary: the config’s sizes and the bytes read of the files’ bytes', () => {
    const { dir, model } = run;
    const config = JSON.parse(readFileSync(`${dir}/config.json`, 'utf8'));
    const fileBytes = ['model-00001-of-00002', 'model-00002-of-00002']
      .map((name) => statSync(`${dir}/${name}.safetensors`).size)
      .reduce((a, b) => a + b);
    expect(model.fileBytes).toBe(fileBytes);
    const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`; // the files are under 1 MiB
    for (const t of [translator('en'), zh]) {
      const text = checkpointSummary(model, t);
      for (const value of [
        config.num_hidden_layers,
        config.num_attention_heads,
        config.hidden_size,
        config.hidden_size / config.num_attention_heads,
        config.vocab_size,
        kib(fileBytes),
        kib(model.bytesRead),
      ])
        expect(text).toContain(String(value));
      expect(text).toContain('Llama');
    }
    expect(checkpointSummary(model, translator('en'))).toMatch(/^Llama: 2 layers, 2 heads, 2 KV heads, head dim 8/);
  });

  test('a head is named only when chance could hardly give its score', () => {
    const { result, model } = run;
    const T = result.ids.length;
    const named = checkpointHeadLabels(result, model.sizes);
    // The even spread 1 / (i + 1), averaged over the positions each score averages over.
    const targets = result.headScores.inductionTargets.flatMap((t, i) => (t >= 0 ? [i] : []));
    const mean = (xs) => xs.reduce((a, i) => a + 1 / (i + 1), 0) / xs.length;
    expect(named.positions).toBe(targets.length);
    expect(named.previousChance).toBeCloseTo(mean(Array.from({ length: T - 1 }, (_, k) => k + 1)), 12);
    if (targets.length) expect(named.inductionChance).toBeCloseTo(mean(targets), 12);
    for (const label of named.labels) {
      if (label.kind === 'induction') {
        expect(targets.length).toBeGreaterThanOrEqual(MIN_INDUCTION_POSITIONS);
        expect(label.induction).toBeGreaterThanOrEqual(
          Math.max(INDUCTION_THRESHOLD, CHANCE_FACTOR * named.inductionChance),
        );
      }
      if (label.kind === 'previous-token')
        expect(label.previousToken).toBeGreaterThanOrEqual(
          Math.max(PREVIOUS_TOKEN_THRESHOLD, CHANCE_FACTOR * named.previousChance),
        );
    }
    // Fewer positions than the minimum: no head is called an induction head, whatever its score.
    const few = { ...result, headScores: { ...result.headScores, inductionTargets: [-1, 1, -1] } };
    expect(checkpointHeadLabels(few, model.sizes).labels.some((l) => l.kind === 'induction')).toBe(false);
  });
});

describe('grouped-query attention (qwen2-f32: 2 query heads, 1 KV head)', () => {
  test('both heads read KV head 1, and the K sentence says so with PyTorch’s key lengths', async () => {
    const { model, torch, result } = await opened('qwen2-f32');
    expect(model.sizes).toMatchObject({ heads: 2, kvHeads: 1 });
    expect(sharingHeads(model.sizes, 1)).toEqual([0, 1]);
    const pick = { layer: 0, head: 1, query: 7 };
    const want = expectedFromTorch(torch, model.sizes, pick);
    const facts = headFacts(result, model.sizes, pick);
    for (const t of [translator('en'), zh]) {
      const texts = checkpointStepTexts({ facts, query: 7, head: 1, labels: torch.ids.map(String), t, decimals: 4 });
      expect(texts.K).toContain(t('checkpoint.step.K.shared', { heads: '1, 2', count: 2 }));
      expect(texts.K).toContain(n(want.kMin));
      expect(texts.K).toContain(n(want.kMax));
      expect(texts.weights).toContain(n(want.weight));
    }
  });
});

describe('one token', () => {
  test('the sentences say one query, key and value, and a query that sees itself alone, in both languages', async () => {
    const { model, torch } = await opened('llama-sharded');
    const result = model.run(torch.ids.slice(0, 1));
    const facts = headFacts(result, model.sizes, { layer: 0, head: 0, query: 0 });
    const labels = [String(torch.ids[0])];
    const en = checkpointStepTexts({ facts, query: 0, head: 0, labels, t: translator('en'), decimals: 4 });
    expect(en.Q).toMatch(/^One query of 8 numbers, for the one token token 0 \(24\): its length is ‖q‖ = /);
    expect(en.K).toMatch(/^One key of 8 numbers from KV head 1: its length ‖k‖ is /);
    expect(en.V).toMatch(/^One value of 8 numbers/);
    expect(en.mask).toBe('The query of token 0 (24), the only token, may look at itself alone.');
    expect(en.headOutputs).toContain(n(facts.output.value));
    for (const text of Object.values(en)) expect(text).not.toMatch(/\b1 (queries|keys|values|tokens|cells)\b/);
    const cn = checkpointStepTexts({ facts, query: 0, head: 0, labels, t: zh, decimals: 4 });
    expect(cn.mask).toContain('唯一的词元');
    expect(facts.weights.value).toBe(1);
  });
});

describe('pure helpers', () => {
  test('kvHeadOf: each KV head serves heads / kvHeads consecutive query heads (repeat_kv)', () => {
    const sizes = { heads: 8, kvHeads: 2 };
    expect(Array.from({ length: 8 }, (_, h) => kvHeadOf(sizes, h))).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    expect(sharingHeads({ heads: 4, kvHeads: 4 }, 2)).toEqual([2]);
  });

  test('parseIds: a JSON array or numbers split by spaces and commas; anything else is ids-syntax', () => {
    expect(parseIds('[24, 15, 29]')).toEqual([24, 15, 29]);
    expect(parseIds(' 24 15,29 ')).toEqual([24, 15, 29]);
    expect(parseIds('')).toEqual([]);
    expect(parseIds('1.5 2')).toEqual([1.5, 2]); // the model names ids[0] as not whole
    for (const bad of ['a b', '[1, "2"]', '[1,', '1 two'])
      expect(() => parseIds(bad), bad).toThrow(expect.objectContaining({ code: 'ids-syntax' }));
  });
});

describe('lab.run with model "checkpoint"', () => {
  test('a field error on model saying the checkpoint runs from the files you open, in English and Chinese', async () => {
    const lab = await loadAttentionLab();
    let problem;
    try {
      lab.run({ model: 'checkpoint', text: 'the cat sat' });
    } catch (error) {
      problem = error;
    }
    expect(problem).toMatchObject({ field: 'model', code: 'model-checkpoint-files' });
    expect(problem.message).toContain('openCheckpoint');
    const chinese = errorText(problem, zh);
    expect(chinese).toContain('openCheckpoint');
    expect(chinese).not.toBe(problem.message);
    expect(chinese).toMatch(/打开/);
  });
});
