// What the pipeline view shows for the modern attention variants, checked on
// PyTorch 1.13's own numbers (tests/reference/fixtures): the K/V head each
// query head reads (and .repeat's wrong one), ALiBi's slopes, RoPE's rotation
// and its same-distance-same-score promise, the window and sink marks of the
// mask, the sink column; and the new steps' formulas in English and Chinese.
import { describe, expect, test } from 'vitest';
import { loadLanguage, translator } from '../../web/i18n/index.js';
import {
  alibiSlopes,
  kvHeadOf,
  repeatKvHeadOf,
  ropeEqualDistance,
  ropePairOf,
  ropeRotate,
  samePairAtDistance,
  windowEffect,
} from '../../web/model/variant-math.js';
import { formulaText } from '../../web/view/steps/formulas.js';
import { loadAllSteps, stepFormula } from '../../web/view/steps/registry.js';
import { blockReasons, runSettings } from '../../web/model/run-settings.js';
import { STEP_NAMES } from '../../web/view/steps/registry.js';
import { sinkColumns } from '../../web/view/steps/variant-figures.js';
import { frequencyKinds } from '../../web/view/steps/rope-scaling.js';
import { readFixture } from './fixtures.js';

// MLA's steps: their code is loaded with the first MLA run (registry.js); these tests word every step.
await loadAllSteps();

const en = translator('en');
const zh = await loadLanguage('zh');

/** A fixture's tensors as Float64Arrays with their shapes, and its config. */
function fixture(name) {
  const { config, expected } = readFixture(name);
  const tensors = {};
  for (const [key, { shape, data }] of Object.entries(expected.tensors))
    tensors[key] = { shape, data: Float64Array.from(data, Number) };
  return { config, tensors, tokens: expected.tokens };
}

/** Row i, head `head`'s d_k numbers of a [B=1, S, heads·d_k] tensor. */
const headRow = (tensor, i, head, dk) => {
  const width = tensor.shape[2];
  return tensor.data.subarray(i * width + head * dk, i * width + head * dk + dk);
};

describe('GQA: the K/V head each query head reads', () => {
  test('repeat_interleave groups neighbours; .repeat tiles (the wrong grouping)', () => {
    const right = Array.from({ length: 8 }, (_, h) => kvHeadOf(h, 8, 2));
    const wrong = Array.from({ length: 8 }, (_, h) => repeatKvHeadOf(h, 2));
    expect(right).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    expect(wrong).toEqual([0, 1, 0, 1, 0, 1, 0, 1]);
    // Multi-query: one K/V head, both groupings agree; plain multi-head: each head its own.
    expect(Array.from({ length: 4 }, (_, h) => kvHeadOf(h, 4, 1))).toEqual([0, 0, 0, 0]);
    expect(Array.from({ length: 4 }, (_, h) => kvHeadOf(h, 4, 4))).toEqual([0, 1, 2, 3]);
  });

  test("PyTorch's scores of query head h are q_h · k of K/V head h // (H / H_kv)", () => {
    const { config, tensors } = fixture('gqa-4-to-2');
    const H = config.numHeads;
    const Hkv = config.numKVHeads;
    const dk = config.dModel / H;
    const [, , S, Skv] = tensors.scores.shape;
    let worst = 0;
    let worstWrong = 0;
    for (let h = 0; h < H; h++)
      for (let i = 0; i < S; i++)
        for (let j = 0; j < Skv; j++) {
          const score = tensors.scores.data[(h * S + i) * Skv + j];
          const q = headRow(tensors.Q, i, h, dk);
          const dot = (g) => headRow(tensors.K, j, g, dk).reduce((sum, k, m) => sum + q[m] * k, 0);
          worst = Math.max(worst, Math.abs(dot(kvHeadOf(h, H, Hkv)) - score));
          worstWrong = Math.max(worstWrong, Math.abs(dot(repeatKvHeadOf(h, Hkv)) - score));
        }
    console.log(`GQA 4 -> 2: worst |q_h·k_g - torch score| = ${worst.toExponential(2)}`);
    expect(worst).toBeLessThan(1e-5);
    expect(worstWrong).toBeGreaterThan(1e-2); // .repeat reads other heads' keys
  });
});

describe("ALiBi's slopes", () => {
  for (const name of ['alibi-8-heads', 'alibi-6-heads']) {
    test(`${name}: the paper's slopes are PyTorch's bias at distance 1`, () => {
      const { config, tensors } = fixture(name);
      const [H, S, Skv] = tensors.alibiBias.shape;
      expect(H).toBe(config.numHeads);
      const slopes = alibiSlopes(H);
      let worst = 0;
      for (let h = 0; h < H; h++)
        for (let i = 0; i < S; i++)
          for (let j = 0; j < Skv; j++)
            worst = Math.max(worst, Math.abs(-slopes[h] * (i - j) - tensors.alibiBias.data[(h * S + i) * Skv + j]));
      console.log(`${name}: worst |−m_h·(i − j) − torch bias| = ${worst.toExponential(2)}`);
      expect(worst).toBeLessThan(1e-5);
    });
  }

  test('8 heads: 1/2 … 1/256; 6 heads: the 4-head slopes, then every other slope of 8', () => {
    expect(alibiSlopes(8)).toEqual([1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64, 1 / 128, 1 / 256]);
    expect(alibiSlopes(6)).toEqual([1 / 4, 1 / 16, 1 / 64, 1 / 256, 2 ** -1, 2 ** -3]);
  });
});

describe('RoPE', () => {
  for (const [name, qName, kName] of [
    ['rope-rotate-half', 'Q', 'K'],
    ['rope-interleaved', 'Q', 'K'],
    ['rope-interleaved-base-100', 'Q', 'K'],
    ['rope-rotate-half-base-500000', 'Q', 'K'],
  ])
    test(`${name}: each head's q and k rotated by the angles of their position are PyTorch's Q_rope, K_rope`, () => {
      const { config, tensors } = fixture(name);
      const style = config.rope.style;
      const H = config.numHeads ?? 1;
      const dk = tensors.Q.shape[2] / H;
      const [S, half] = tensors.ropeAngles.shape;
      let worst = 0;
      for (const [input, output] of [
        [qName, 'Q_rope'],
        [kName, 'K_rope'],
      ]) {
        const heads = tensors[input].shape[2] / dk;
        for (let m = 0; m < S; m++)
          for (let h = 0; h < heads; h++) {
            const rotated = ropeRotate(
              headRow(tensors[input], m, h, dk),
              tensors.ropeAngles.data.subarray(m * half),
              style,
            );
            const want = headRow(tensors[output], m, h, dk);
            for (let c = 0; c < dk; c++) worst = Math.max(worst, Math.abs(rotated[c] - want[c]));
          }
      }
      console.log(`${name}: worst |rotate(q) − torch Q_rope/K_rope| = ${worst.toExponential(2)}`);
      expect(worst).toBeLessThan(1e-5);
    });

  test('the pair of a feature: rotate-half (i, i + d_k/2), interleaved (2i, 2i + 1)', () => {
    expect(ropePairOf(5, 8, 'rotate-half')).toEqual({ i: 1, pair: [1, 5] });
    expect(ropePairOf(5, 8, 'interleaved')).toEqual({ i: 2, pair: [4, 5] });
  });

  test("the same q and k at two position pairs of one distance give the same score (the run's numbers)", () => {
    const { config, tensors } = fixture('rope-rotate-half');
    const H = config.numHeads;
    const dk = tensors.Q.shape[2] / H;
    const [S, half] = tensors.ropeAngles.shape;
    const anglesAt = (m) => tensors.ropeAngles.data.subarray(m * half, (m + 1) * half);
    const h = 1;
    const [i, j] = [S - 1, Math.floor((S - 1) / 2)];
    const q = headRow(tensors.Q, i, h, dk);
    const k = headRow(tensors.K, j, h, dk);
    const { first, second } = ropeEqualDistance(q, k, [i, j], S, anglesAt, 'rotate-half');
    expect(second.slice(0, 2)).toEqual([i - j, 0]);
    const torchScore = tensors.scores.data[(h * S + i) * S + j];
    console.log(
      `RoPE same distance: q·k @ (${i}, ${j}) = ${first[2]}, @ (${second[0]}, ${second[1]}) = ${second[2]}, torch ${torchScore}`,
    );
    expect(Math.abs(first[2] - torchScore)).toBeLessThan(1e-5); // the first pair is the run's own score
    expect(Math.abs(second[2] - first[2])).toBeLessThan(1e-5); // the second, at the same distance, equals it
    // Another distance gives another score: the check is not trivially true.
    const other = ropeEqualDistance(q, k, [i, j - 1], S, anglesAt, 'rotate-half');
    expect(Math.abs(other.first[2] - first[2])).toBeGreaterThan(1e-4);
  });

  test('the second pair of positions: moved to start at 0, or right as far as S allows, or none', () => {
    expect(samePairAtDistance(7, 3, 8)).toEqual([4, 0]);
    expect(samePairAtDistance(2, 0, 8)).toEqual([7, 5]);
    expect(samePairAtDistance(0, 0, 1)).toBe(null);
    // Two tokens: the page compares (1, 0), the only pair at distance 1; the notice says two positions.
    expect(samePairAtDistance(1, 0, 2)).toBe(null);
    expect(en('rope.same.none', { S: 2, m: 1, n: 0 })).toBe(
      'With 2 position(s) there is no second pair at the distance of (1, 0): it is the only one, so there is nothing to compare its score with.',
    );
    expect(zh('rope.same.none', { S: 2, m: 1, n: 0 })).toBe(
      '只有 2 个位置，找不到与 (1, 0) 距离相同的第二对位置，没有可比较的分数。',
    );
  });
});

describe('RoPE scaling: what the table says each pair’s frequency went through', () => {
  const kindsOf = (name) => {
    const { config, expected } = readFixture(`recent/${name}`);
    const T = expected.tensors;
    return frequencyKinds(T.ropeInvFreqBase.data.map(Number), T.ropeInvFreq.data.map(Number), config.rope.scaling);
  };

  test('YaRN: kept, interpolated and blended exactly where PyTorch’s extrapolation factor is 1, 0 or between', () => {
    for (const name of ['rope-yarn', 'rope-yarn-causal', 'rope-yarn-padded-dropout']) {
      const e = readFixture(`recent/${name}`).expected.tensors.ropeExtrapolationFactor.data.map(Number);
      expect(kindsOf(name), name).toEqual(e.map((x) => (x === 1 ? 'kept' : x === 0 ? 'interpolated' : 'blended')));
    }
  });

  test('linear interpolates every pair; dynamic NTK slows every pair but the first, or keeps them all', () => {
    expect(new Set(kindsOf('rope-linear'))).toEqual(new Set(['interpolated']));
    const [first, ...rest] = kindsOf('rope-dynamic');
    expect([first, new Set(rest)]).toEqual(['kept', new Set(['slowed'])]);
    expect(new Set(kindsOf('rope-dynamic-short'))).toEqual(new Set(['kept']));
  });
});

describe('the mask: a sliding window and sink tokens', () => {
  test("causal + window + sinks reproduce PyTorch's mask, each blocked cell with its reason", () => {
    const { config, tensors } = fixture('window-sinks');
    const rs = runSettings({ mask: config.mask, window: config.window, sinkTokens: config.sinkTokens });
    const [, S, Skv] = tensors.mask.shape;
    let sinks = 0;
    for (let i = 0; i < S; i++)
      for (let j = 0; j < Skv; j++) {
        const reasons = blockReasons(rs.mask, i, j, 'x', rs);
        expect(reasons.length > 0, `${i},${j}`).toBe(tensors.mask.data[i * Skv + j] !== 0);
        if (windowEffect(i, j, rs.window, rs.sinkTokens) === 'sink') {
          sinks++;
          expect(tensors.mask.data[i * Skv + j]).toBe(0); // kept
        }
      }
    // Keys 0 and 1 are kept for the queries the window of 3 would cut them from: 10 − 3 − 0 + 10 − 3 − 1.
    expect(sinks).toBe(7 + 6);
    expect(blockReasons('causal', 9, 5, 'x', rs)).toEqual(['window']);
    expect(blockReasons('causal', 2, 5, 'x', rs)).toEqual(['future']);
  });
});

describe('the sink column', () => {
  test("each row's weights sum to 1 minus its sink weight, less than 1 (PyTorch's numbers)", () => {
    const { tensors } = fixture('sink-logit-nonzero');
    const [, H, S, Skv] = tensors.weights.shape;
    let worst = 0;
    for (let h = 0; h < H; h++) {
      const columns = sinkColumns(tensors.weights.data, h * S * Skv, tensors.sinkWeights.data, h * S, S, Skv);
      for (let i = 0; i < S; i++) {
        const [sink, sum] = [columns[i * 2], columns[i * 2 + 1]];
        expect(sink).toBeGreaterThan(0);
        expect(sum).toBeLessThan(1);
        worst = Math.max(worst, Math.abs(sink + sum - 1));
      }
    }
    console.log(`sink + Σ weights − 1: worst ${worst.toExponential(2)}`);
    expect(worst).toBeLessThan(1e-6);
  });
});

describe('the new steps', () => {
  const formulaFor = (settings, step, extra = {}) => {
    const rs = runSettings(settings);
    const f = { t: en, rs, bias: {}, hasWO: true, factor: 0.5, dk: 4, D: 16, H: 4, Hkv: 4, ...extra };
    return formulaText(stepFormula(step, f));
  };

  test('public names, as <attention-lab steps="…"> takes them', () => {
    expect(STEP_NAMES.qkNorm).toBe('qk-norm');
    expect(STEP_NAMES.rope).toBe('rope');
    expect(STEP_NAMES.softcap).toBe('softcap');
    expect(STEP_NAMES.alibi).toBe('alibi');
  });

  test('each formula is written for the run', () => {
    expect(formulaFor({ qkNorm: true }, 'qkNorm')).toContain('mean(q^2) + 10^−6');
    expect(formulaFor({ 'rope.style': 'rotate-half', 'rope.base': 10000 }, 'rope')).toContain('rotate_half(q)');
    expect(formulaFor({ 'rope.style': 'interleaved', 'rope.base': 500000 }, 'rope')).toContain('θ_i = 500000^−2i/d_k');
    expect(formulaFor({ softcap: 50 }, 'softcap')).toBe('capped = c · tanh(scaled / c), c = 50');
    expect(formulaFor({ alibi: true }, 'alibi')).toContain('m_h = 2^−8h/4');
    expect(formulaFor({ alibi: true, softcap: 2 }, 'alibi')).toMatch(/^biased = capped \+ alibiBias_h/);
    expect(formulaFor({ alibi: true }, 'alibi', { H: 6 })).toContain('(h ≤ 4)');
    // The steps after them use what the variants made.
    expect(formulaFor({ 'rope.style': 'rotate-half' }, 'scores', { H: 8, Hkv: 2 })).toBe(
      'scores = Q_rope,hK_rope,g^⊤, g = h // (H / H_kv) = h // 4',
    );
    expect(formulaFor({ mask: 'causal', softcap: 50, alibi: true }, 'masked')).toBe(
      'masked = biased.masked_fill(M, −∞)',
    );
    expect(formulaFor({ mask: 'causal', sinkLogit: 0 }, 'attnweights')).toContain('softmax([masked, 0], dim=−1)');
    // Learned per-head sinks: the formula names the shown head's logit.
    expect(formulaFor({ mask: 'causal', sinkLogit: [0.5, -1.25] }, 'attnweights')).toContain(
      'softmax([masked, s_1 = 0.5], dim=−1)',
    );
    expect(formulaFor({}, 'split', { H: 8, Hkv: 2 })).toContain('[B, H_kv, S_kv, d_k]');
  });

  test('every new string exists in English and Chinese, with the Chinese course terms', () => {
    for (const step of ['qkNorm', 'rope', 'softcap', 'alibi', 'gate'])
      for (const part of ['title', 'meaning', 'short', 'narration'])
        for (const t of [en, zh]) expect(t.has(`step.${step}.${part}`), `${step}.${part}`).toBe(true);
    expect(zh('step.rope.title')).toContain('旋转位置编码');
    expect(zh('help.numKVHeads')).toContain('分组查询注意力');
    expect(zh('help.numKVHeads')).toContain('多查询注意力');
    expect(zh('field.window')).toContain('滑动窗口');
    expect(zh('mask.sinks', { n: 4, kept: 3 })).toContain('注意力汇聚');
    expect(zh('field.softcap')).toContain('软上限');
    expect(en('gqa.note', { H: 8, Hkv: 2, group: 4, width: 8 })).toContain('h // 4');
    expect(zh('gqa.note', { H: 8, Hkv: 2, group: 4, width: 8 })).toContain('h // 4');
  });
});
