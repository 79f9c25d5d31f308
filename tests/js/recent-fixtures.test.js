// The 2025–26 variants (tests/reference/recent.py, PyTorch 1.13 written from each model's reference
// code) through the JS API on the real wasm build, for those the engine runs: every tensor of each case
// against PyTorch's, to the engine issue's tolerance; and a prepared run whose W_G is edited against the
// plain call on the edited config.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { compareTensors, reportWorst } from './fixtures.js';
import { expectSameResult } from './same-result.js';
import { editsFromJson, withEdits } from '../../web/model/edits.js';
import { errorText, loadLanguage } from '../../web/i18n/index.js';
import { getPath } from '../../web/model/schema.js';

const dir = fileURLToPath(new URL('../reference/fixtures/recent/', import.meta.url));
const names = JSON.parse(readFileSync(`${dir}index.json`, 'utf8'));
const read = (name) => JSON.parse(readFileSync(`${dir}${name}.json`, 'utf8'));
// The config fields of the variants the engine runs; a case that uses any other new field waits for it.
const RUN_FIELDS = ['outputGate', 'sinkLogit', 'rope.scaling', 'diff', 'mla'];
// Differential attention's half-head maps [B, 2H, S, S_kv]: the reference's scores, scaled and masked, which the
// engine names apart from the heads' own [B, H, S, S_kv] stages.
const DIFF_NAMES = { scores: 'halfScores', scaled: 'halfScaled', masked: 'halfMasked' };
const has = (config, path) => getPath(config, path) !== undefined;
const runs = (config) => RUN_FIELDS.some((field) => has(config, field));

let lab;
const recordWorst = reportWorst('JS API vs PyTorch, recent variants');
beforeAll(async () => {
  lab = await loadAttentionLab();
});

describe('the recent variants the engine runs reproduce PyTorch 1.13', () => {
  const cases = names.filter((name) => runs(read(name).config));

  test('the gated output’s and the per-head sinks’ cases are among them', () => {
    expect(cases.filter((name) => name.startsWith('gate-')).length).toBeGreaterThanOrEqual(6);
    expect(cases.filter((name) => name.startsWith('sinks-')).length).toBeGreaterThanOrEqual(7);
    expect(cases.filter((name) => name.startsWith('rope-')).length).toBeGreaterThanOrEqual(10);
    expect(cases.filter((name) => name.startsWith('diff-')).length).toBeGreaterThanOrEqual(4);
    expect(cases.filter((name) => name.startsWith('mla-')).length).toBeGreaterThanOrEqual(5);
  });

  test.each(cases)('%s', (name) => {
    const { config, expected } = read(name);
    const result = lab.run(config);
    expect(result.tokens).toEqual(expected.tokens);
    const diff = has(config, 'diff');
    const ours = (tensor) => (diff ? (DIFF_NAMES[tensor] ?? tensor) : tensor);
    const got = Object.fromEntries(
      Object.keys(expected.tensors)
        .map((tensor) => [tensor, result.tensors[ours(tensor)]])
        .filter(([, t]) => t),
    );
    // Differential attention and MLA return every tensor their references write.
    if (diff || has(config, 'mla')) {
      expect(Object.keys(expected.tensors).filter((tensor) => !got[tensor])).toEqual([]);
      // The multiplier of the scores: d^-0.5 of a half-head (d = d_k / 2), MLA's (nopeDim + ropeDim) ** -0.5.
      expect(result.scaleFactor).toBeCloseTo(expected.scaleFactor, 12);
      expect(result.headDim).toBe(expected.headDim);
    }
    // MLA runs both paths: the other one's output is the same attention, as PyTorch's two paths agree.
    if (has(config, 'mla')) {
      const { output, otherPathOutput } = result.tensors;
      const apart = Math.max(...output.data.map((x, k) => Math.abs(x - otherPathOutput.data[k])));
      expect(apart).toBeLessThan(1e-5);
      expect(expected.mla.maxAbsDifferenceOtherPath).toBeLessThan(1e-5);
    }
    const outcome = compareTensors(expected.tensors, got);
    recordWorst(name, outcome);
    expect(outcome.problems).toEqual([]);
  });
});

describe('the output gate', () => {
  test('an edit of W_G through a prepared run is the plain call on the edited config', () => {
    const { config } = read('gate-causal-qwen-like');
    const edits = { weights: { W_G: [[1, 2, 2.5]] } };
    const handle = lab.prepare(config);
    handle.update(edits);
    const edited = lab.run(withEdits(config, editsFromJson(edits)));
    expectSameResult(handle.run(), edited);
    handle.dispose();
    // The edit reaches the gate: the logits of every token in column 2 move, and nothing before the gate.
    const before = lab.run(config).tensors;
    expect(edited.tensors.gateLogits.data.some((v, k) => v !== before.gateLogits.data[k])).toBe(true);
    expect(edited.tensors.concat.data).toEqual(before.concat.data);
  });

  test('W_G given without outputGate is an error naming the field', () => {
    expect(() => lab.run({ text: 'a b', weights: { edits: { W_G: [[0, 0, 1]] } } })).toThrow(
      /weights\.edits\.W_G is given but outputGate is false/,
    );
  });
});

describe('learned per-head sinks', () => {
  test('equal logits per head are the one scalar logit, bit for bit', () => {
    const { config } = read('sinks-equal-vs-scalar');
    const perHead = lab.run(config);
    const scalar = lab.run({ ...config, sinkLogit: config.sinkLogit[0] });
    expect(perHead.settings.sinkLogit).toEqual([0.5, 0.5]);
    expect(scalar.settings.sinkLogit).toBe(0.5);
    expectSameResult({ ...perHead, settings: null }, { ...scalar, settings: null });
  });

  test('each head reads its own logit: changing head 2’s moves head 2’s weights only', () => {
    const { config } = read('sinks-per-head-causal');
    const before = lab.run(config).tensors.sinkWeights;
    const after = lab.run({ ...config, sinkLogit: config.sinkLogit.map((x, h) => (h === 1 ? x + 3 : x)) }).tensors
      .sinkWeights;
    const S = before.shape[2];
    const moved = (h) => before.data.slice(h * S, (h + 1) * S).some((v, i) => v !== after.data[h * S + i]);
    expect([0, 1, 2, 3].map(moved)).toEqual([false, true, false, false]);
  });

  test('a list whose length is not numHeads is an error naming the field, in English and Chinese', async () => {
    const config = { text: 'a b', dModel: 8, numHeads: 2, sinkLogit: [1, 2, 3] };
    let error;
    try {
      lab.run(config);
    } catch (thrown) {
      error = thrown;
    }
    expect(error.field).toBe('sinkLogit');
    expect(error.message).toBe('sinkLogit has 3 sink logits: give one number, or one per head (2)');
    expect(errorText(error, await loadLanguage('zh'))).toBe(
      'sinkLogit 有 3 个汇聚 logit：请给一个数，或每个头一个（2 个）',
    );
  });
});

describe('long-context RoPE', () => {
  const unscaled = (config) => ({ ...config, rope: { style: config.rope.style, base: config.rope.base } });

  test.each(['rope-yarn-factor-1', 'rope-dynamic-short'])('%s rotates exactly as no scaling does', (name) => {
    const { config } = read(name);
    const scaled = lab.run(config).tensors;
    const plain = lab.run(unscaled(config)).tensors;
    for (const tensor of ['ropeAngles', 'Q_rope', 'K_rope', 'weights', 'output'])
      expect(Array.from(scaled[tensor].data), tensor).toEqual(Array.from(plain[tensor].data));
    expect(Array.from(scaled.ropeInvFreq.data)).toEqual(Array.from(scaled.ropeInvFreqBase.data));
  });

  test('YaRN with truncate false (gpt-oss) ramps between pairs, where truncate rounds the ends to whole pairs', () => {
    const { config, expected } = read('rope-yarn-no-truncate');
    const { low, high } = expected.ropeScaling;
    expect([Number.isInteger(low), Number.isInteger(high)]).toEqual([false, false]);
    const loose = lab.run(config).tensors.ropeExtrapolationFactor.data;
    const truncated = lab.run({
      ...config,
      rope: { ...config.rope, scaling: { ...config.rope.scaling, truncate: true } },
    }).tensors.ropeExtrapolationFactor.data;
    // Pair i is kept (1) up to the ramp's start and interpolated (0) from its end: rounded, the ramp is wider.
    const ramp = (factors) => [factors.findIndex((x) => x < 1), factors.findIndex((x) => x === 0)];
    expect(ramp(loose)).toEqual([Math.ceil(low), Math.ceil(high)]);
    expect(ramp(truncated)).toEqual([Math.floor(low) + 1, Math.ceil(high)]);
    expect(Array.from(loose)).not.toEqual(Array.from(truncated));
  });

  test('linear scaling turns position m as the unscaled RoPE turns m / factor', () => {
    const { config } = read('rope-linear');
    const { ropeAngles, ropeInvFreqBase } = lab.run(config).tensors;
    const factor = config.rope.scaling.factor;
    const [S, half] = ropeAngles.shape;
    let worst = 0;
    for (let m = 0; m < S; m++)
      for (let i = 0; i < half; i++)
        worst = Math.max(worst, Math.abs(ropeAngles.data[m * half + i] - (m / factor) * ropeInvFreqBase.data[i]));
    expect(worst).toBeLessThan(1e-6);
  });
});

// YaRN's frequencies where the ramp's ends meet (low == high: high += 0.001) and in the common case, as
// PyTorch 1.13 printed them: tests/reference/recent_ops.py yarn_inv_freq(dk, base, factor, orig, β_fast, β_slow),
// each [float(x) for x in inv_freq], and the attention factor 0.1·ln(factor) + 1 as a float32.
const YARN_BY_TORCH = [
  { dk: 4, base: 10000, orig: 64, betaFast: 32, betaSlow: 1, factor: 4, invFreq: [1.0, 0.0024999999441206455] },
  {
    dk: 8,
    base: 10000,
    orig: 64,
    betaFast: 32,
    betaSlow: 32,
    factor: 4,
    invFreq: [1.0, 0.02500000037252903, 0.0024999999441206455, 0.0002500000118743628],
  },
  {
    dk: 8,
    base: 100,
    orig: 16,
    betaFast: 4,
    betaSlow: 4,
    factor: 2.5,
    invFreq: [1.0, 0.12649111449718475, 0.03999999910593033, 0.012649111449718475],
  },
];

test.each(YARN_BY_TORCH)('YaRN at d_k $dk, β $betaFast / $betaSlow: the inverse frequencies bit for bit', (c) => {
  const rope = {
    style: 'interleaved',
    base: c.base,
    scaling: {
      type: 'yarn',
      factor: c.factor,
      originalMaxPositions: c.orig,
      betaFast: c.betaFast,
      betaSlow: c.betaSlow,
    },
  };
  const { tensors } = lab.run({ text: 'a b c', dModel: 2 * c.dk, numHeads: 2, rope }, { tensors: ['ropeInvFreq'] });
  expect(Array.from(tensors.ropeInvFreq.data)).toEqual(c.invFreq);
});

test('a prepared run with YaRN, per-head sinks, a window and dropout gives the plain call’s numbers after an edit', () => {
  const { config } = read('sinks-yarn-gate');
  const edits = { weights: { W_Q: [[1, 2, 0.75]] } };
  const handle = lab.prepare(config);
  handle.update(edits);
  expectSameResult(handle.run(), lab.run(withEdits(config, editsFromJson(edits))));
  handle.dispose();
});

describe('differential attention', () => {
  const config = () => read('diff-padded').config;

  test('a selected head keeps its two half-heads 2h and 2h + 1, and its own weights, as the full run holds them', () => {
    const full = lab.run(config()).tensors;
    const [B, twoH, S, Skv] = full.halfWeights.shape;
    const h = 2;
    const one = lab.run(config(), { batch: 1, head: h }).tensors;
    expect(one.halfWeights.shape).toEqual([1, 2, S, Skv]);
    expect(one.weights.shape).toEqual([1, 1, S, Skv]);
    const cells = S * Skv;
    for (const name of ['halfScores', 'halfScaled', 'halfMasked', 'halfWeights']) {
      const start = (1 * twoH + 2 * h) * cells;
      expect(Array.from(one[name].data), name).toEqual(Array.from(full[name].data.slice(start, start + 2 * cells)));
    }
    const start = (1 * (twoH / 2) + h) * cells;
    expect(Array.from(one.weights.data)).toEqual(Array.from(full.weights.data.slice(start, start + cells)));
    expect(B).toBe(2);
  });

  test('A is softmax₁ − λ·softmax₂ in float32, and each row sums to 1 − λ', () => {
    const { halfWeights, weights, lambdaFull } = lab.run(config()).tensors;
    const [B, H, S, Skv] = weights.shape;
    const lambda = lambdaFull.data[0];
    const cells = S * Skv;
    let worstRow = 0;
    for (let b = 0; b < B; b++)
      for (let h = 0; h < H; h++)
        for (let i = 0; i < S; i++) {
          let sum = 0;
          for (let j = 0; j < Skv; j++) {
            const k = i * Skv + j;
            const first = halfWeights.data[(b * 2 * H + 2 * h) * cells + k];
            const second = halfWeights.data[(b * 2 * H + 2 * h + 1) * cells + k];
            const a = weights.data[(b * H + h) * cells + k];
            expect(a).toBe(Math.fround(first - Math.fround(lambda * second)));
            sum += a;
          }
          worstRow = Math.max(worstRow, Math.abs(sum - (1 - lambda)));
        }
    expect(worstRow).toBeLessThan(1e-5);
  });

  test('the settings it leaves out are errors on diff.depth that name them, in English and Chinese', async () => {
    const zh = await loadLanguage('zh');
    const caught = (cfg) => {
      try {
        lab.run(cfg);
      } catch (error) {
        return error;
      }
      return null;
    };
    const base = { text: 'a b c', dModel: 8, numHeads: 2, diff: { depth: 1 } };
    const dropout = caught({ ...base, dropout: { p: 0.1 } });
    expect(dropout.field).toBe('diff.depth');
    expect(dropout.message).toMatch(/has no dropout\.p: turn dropout\.p off or leave diff\.depth empty/);
    expect(errorText(dropout, zh)).toMatch(/没有 dropout\.p/);
    for (const [key, value] of [
      ['numKVHeads', 1],
      ['rope', { style: 'rotate-half' }],
      ['alibi', true],
      ['outputGate', true],
      ['sinkLogit', 0],
      ['contextText', 'x y'],
    ])
      expect(caught({ ...base, [key]: value }).message, key).toContain(`no ${key === 'rope' ? 'rope.style' : key}`);
    const odd = caught({ ...base, dModel: 6, numHeads: 2 });
    expect([odd.field, odd.message]).toEqual([
      'diff.depth',
      'differential attention splits each head into two half-heads: dModel (6) must be divisible by 2 × numHeads (2)',
    ]);
    const stray = caught({ text: 'a b', weights: { values: { subln: [1, 1, 1, 1] } } });
    expect(stray.message).toBe(
      'weights.values.subln is given but diff.depth is not set: it belongs to differential attention',
    );
    expect(() => lab.decode({ ...base, mask: 'causal' })).toThrow(/differential attention's two maps/);
  });

  test('an edit of a λ vector and of subln through a prepared run is the plain call on the edited config', () => {
    const edits = { weights: { lambda_q2: [[1, 0.7]], subln: [[3, 2]] } };
    const handle = lab.prepare(config());
    handle.update(edits);
    const edited = lab.run(withEdits(config(), editsFromJson(edits)));
    expectSameResult(handle.run(), edited);
    handle.dispose();
    // λ moves for every head, and subln's column 3 scales that column of every head's normed rows.
    const before = lab.run(config()).tensors;
    expect(edited.tensors.lambdaFull.data[0]).not.toBe(before.lambdaFull.data[0]);
    expect(edited.tensors.halfWeights.data).toEqual(before.halfWeights.data);
  });

  test('all five weights given draw nothing: the dropout-free run is the one with them drawn and given back', () => {
    const drawn = lab.run(config()).tensors;
    const values = Object.fromEntries(
      ['lambda_q1', 'lambda_k1', 'lambda_q2', 'lambda_k2', 'subln'].map((n) => [n, Array.from(drawn[n].data)]),
    );
    const given = lab.run({ ...config(), weights: { values } }).tensors;
    expect(Array.from(given.output.data)).toEqual(Array.from(drawn.output.data));
  });
});
