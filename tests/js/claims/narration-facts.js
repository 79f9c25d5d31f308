// What each kind of quoted number states, recomputed from the run: each returns a problem, or null.
import { readFileSync } from 'node:fs';
import { cells, isBlocked, readTensor } from './tensors.js';

/** "−1e9" -> -1e9, "−∞" -> -Infinity: a number as the page writes it. */
const parse = (text) => {
  const plain = text.replace(/−/g, '-').trim();
  if (plain === '-∞') return -Infinity;
  if (plain === '∞') return Infinity;
  return Number(plain);
};

/** The half-unit of the last digit written: 0.3536 -> 0.00005; 1.2e-7 -> 0.05e-7; 12 -> 0.5. */
function halfUnit(text) {
  const [mantissa, exponent = '0'] = text.replace(/−/g, '-').split('e');
  const decimals = (mantissa.split('.')[1] ?? '').length;
  return 0.5 * 10 ** (Number(exponent) - decimals);
}

/** Whether `text` writes `value` (within its last digit; ∞ and NaN exactly). */
function writes(text, value) {
  const shown = parse(text);
  if (!Number.isFinite(value) || !Number.isFinite(shown))
    return Object.is(shown, value) || (Number.isNaN(shown) && Number.isNaN(value));
  return Math.abs(shown - value) <= halfUnit(text) * (1 + 1e-9) + Math.abs(value) * 1e-6;
}

const mismatch = (quote, value) => (writes(quote.text, value) ? null : `the run has ${value}`);

/** The conditions a sentence's wording puts on a number ("each of the {H} heads" needs two or more). */
function bounds({ fact }, value) {
  if (fact.min !== undefined && value < fact.min) return `the wording needs ${fact.min} or more, the run has ${value}`;
  if (fact.above !== undefined && !(value > fact.above))
    return `the wording needs more than ${fact.above}, the run has ${value}`;
  if (fact.atMost !== undefined && !(value <= fact.atMost))
    return `the wording needs at most ${fact.atMost}, the run has ${value}`;
  return null;
}

const SETTING = {
  maskFill: (s) => (s.maskFill === '-inf' || s.maskFill === undefined ? -Infinity : Number(s.maskFill)),
};

/** A count over head h of sentence b of the weights and their dropout. */
function weightCounts(run, b, h) {
  const weights = readTensor(run.result, 'weights');
  const dropped = readTensor(run.result, 'dropped');
  const counts = { nonZeroWeights: 0, droppedZeroed: 0, zeroWeights: 0 };
  for (const [i, j] of cells(run.sizes.S, run.sizes.S_kv)) {
    const w = weights.at(b, h, i, j);
    if (w === 0 || Number.isNaN(w)) counts.zeroWeights++;
    else {
      counts.nonZeroWeights++;
      if (dropped.at(b, h, i, j) === 0) counts.droppedZeroed++;
    }
  }
  counts.droppedKept = counts.nonZeroWeights - counts.droppedZeroed;
  return counts;
}

/** Cells a sliding window blocks on its own, and those the sink tokens keep: by the window's definition. */
function windowCounts(run) {
  const window = Number(run.result.settings.window);
  const sinks = Number(run.result.settings.sinkTokens ?? 0);
  const counts = { windowBlocked: 0, sinkKept: 0, sinkKeys: Math.min(sinks, run.sizes.S_kv) };
  for (const [i, j] of cells(run.sizes.S, run.sizes.S_kv))
    if (j <= i && i - j >= window) counts[j < sinks ? 'sinkKept' : 'windowBlocked']++;
  return counts;
}

// rope.scaling's pairs, from the frequencies before and after: kept (the same float), interpolated (÷ factor,
// to float32 rounding), blended (between); changed = not kept.
const ROPE_COUNTS = { ropePairs: 1, ropeKept: 1, ropeInterpolated: 1, ropeBlended: 1, ropeChanged: 1 };
function ropeCounts(run) {
  const before = readTensor(run.result, 'ropeInvFreqBase').data;
  const after = readTensor(run.result, 'ropeInvFreq').data;
  const factor = Number(run.result.settings['rope.scaling.factor']);
  const counts = { ropePairs: before.length, ropeKept: 0, ropeInterpolated: 0, ropeBlended: 0 };
  before.forEach((b, i) => {
    if (after[i] === b) counts.ropeKept++;
    else if (Math.abs(after[i] * factor - b) <= 2 ** -22 * b) counts.ropeInterpolated++;
    else counts.ropeBlended++;
  });
  counts.ropeChanged = before.length - counts.ropeKept;
  return counts;
}

function count(quote, run) {
  const { fact } = quote;
  const { S, S_kv } = run.sizes;
  const b = fact.b ?? 0;
  let value;
  if (fact.count === 'pairs') value = S * S_kv;
  else if (fact.count === 'kept') value = [...cells(S, S_kv)].filter(([i, j]) => !isBlocked(run, b, i, j)).length;
  else if (fact.count === 'blocked') value = [...cells(S, S_kv)].filter(([i, j]) => isBlocked(run, b, i, j)).length;
  else if (fact.count in { windowBlocked: 1, sinkKept: 1, sinkKeys: 1 }) value = windowCounts(run)[fact.count];
  else if (fact.count in { nonZeroWeights: 1, droppedZeroed: 1, zeroWeights: 1, droppedKept: 1 })
    value = weightCounts(run, b, fact.h ?? 0)[fact.count];
  else if (fact.count in ROPE_COUNTS) value = ropeCounts(run)[fact.count];
  else if (fact.count === 'negativeWeights')
    value = Array.from({ length: S }, (_, i) => Array.from(readTensor(run.result, 'weights').row(b, fact.h, i)))
      .flat()
      .filter((w) => w < 0).length;
  else if (run.decoded && fact.count in DECODE_COUNTS) value = DECODE_COUNTS[fact.count](run.decoded, fact);
  else return `no way to count ${fact.count}`;
  return mismatch(quote, value) ?? bounds(quote, value);
}

// The KV-cache stepper's counts, from lab.decode's own arrays.
const DECODE_COUNTS = {
  kvLength: (decoded, fact) => fact.step + 1,
  kvPosition: (decoded, fact) => fact.step,
  kvRows: (decoded) => decoded.sizes.S * decoded.sizes.H,
  kvIdenticalRows(decoded) {
    const { S, H } = decoded.sizes;
    let n = 0;
    for (let t = 0; t < S; t++)
      for (let h = 0; h < H; h++) {
        const start = (t * H + h) * S;
        let same = true;
        for (let j = 0; j <= t; j++)
          if (!Object.is(decoded.weights[start + j], decoded.fullWeights[start + j])) same = false;
        if (same) n++;
      }
    return n;
  },
};

/** A derived figure, worked out from the tensors. */
function value(quote, run) {
  const { fact } = quote;
  const b = fact.b ?? 0;
  const h = fact.h ?? 0;
  const { S, S_kv, H, H_kv } = run.sizes;
  const figures = {
    // scaled / scores where the scores are not tiny.
    scaleFactor() {
      const scores = readTensor(run.result, 'scores');
      const scaled = readTensor(run.result, 'scaled');
      for (const [i, j] of cells(S, S_kv)) {
        const s = scores.at(b, h, i, j);
        if (Math.abs(s) > 1e-2) return scaled.at(b, h, i, j) / s;
      }
      return NaN;
    },
    // dropped / weights at a weight dropout kept; 1 without dropout.
    keepFactor() {
      const weights = readTensor(run.result, 'weights');
      const dropped = readTensor(run.result, 'dropped');
      for (const [i, j] of cells(S, S_kv)) {
        const w = weights.at(b, h, i, j);
        const d = dropped.at(b, h, i, j);
        if (w > 1e-3 && d !== 0) return d / w;
      }
      return 1 / (1 - run.sizes.p);
    },
    gqaGroup: () => H / H_kv,
    // The largest weight of head h at a blocked cell (a fill that is not negative enough leaves some).
    blockedWeightMax() {
      const weights = readTensor(run.result, 'weights');
      return Math.max(0, ...maskCells(run, b, true).map(([i, j]) => weights.at(b, h, i, j)));
    },
    // 2π over the slowest frequency, before or after rope.scaling.
    ropeLongestWavelength: () =>
      (2 * Math.PI) / Math.min(...readTensor(run.result, fact.before ? 'ropeInvFreqBase' : 'ropeInvFreq').data),
    // Differential attention, from the λ vectors and diff.depth in float64.
    ...differential(run),
    // MLA, from its tensors and settings: the latent's RMS, its two paths apart, the cache per token.
    ...latentAttention(run, fact),
    contextRms() {
      const row = readTensor(run.result, 'context').row(b, h, fact.i);
      return Math.sqrt(row.reduce((a, x) => a + x * x, 0) / row.length);
    },
    rowSumMin: () => Math.min(...rowSums(run, 'weights', b, h)),
    rowSumMax: () => Math.max(...rowSums(run, 'weights', b, h)),
  };
  if (!(fact.value in figures)) return `no way to work out ${fact.value}`;
  const v = figures[fact.value]();
  return writes(quote.text, v) || Math.abs(parse(quote.text) - v) <= 1e-4 * Math.abs(v) ? null : `the run gives ${v}`;
}

/**
 * Differential attention's figures from its weights and depth (multihead_diffattn.py): the two dot products of
 * the λ vectors, their exponentials, λ_init = 0.8 − 0.6·e^(−0.3·depth), λ and 1 − λ, 1 − λ_init.
 */
export function differential(run) {
  const vector = (name) => Array.from(readTensor(run.result, name)?.data ?? []);
  const dot = (a, b) => vector(a).reduce((sum, x, k) => sum + x * vector(b)[k], 0);
  const init = () => 0.8 - 0.6 * Math.exp(-0.3 * Number(run.result.settings['diff.depth']));
  const lambda = () => Math.exp(dot('lambda_q1', 'lambda_k1')) - Math.exp(dot('lambda_q2', 'lambda_k2')) + init();
  return {
    lambdaDot1: () => dot('lambda_q1', 'lambda_k1'),
    lambdaDot2: () => dot('lambda_q2', 'lambda_k2'),
    lambdaExp1: () => Math.exp(dot('lambda_q1', 'lambda_k1')),
    lambdaExp2: () => Math.exp(dot('lambda_q2', 'lambda_k2')),
    lambdaInit: init,
    lambda,
    oneMinusLambda: () => 1 - lambda(),
    oneMinusLambdaInit: () => 1 - init(),
  };
}

/**
 * MLA's figures (DeepSeek's model.py): the RMS of token i's latent, the largest |scores − otherPathScores| of head
 * h and |output − otherPathOutput| of sentence b, and the numbers cached per token (kvRank + ropeDim) against
 * multi-head attention's K and V at this dModel (2·H·dModel/H), and up to token i.
 */
export function latentAttention(run, fact) {
  const setting = (name) => Number(run.result.settings[`mla.${name}`]);
  const apart = (name, other, rows) => {
    const a = readTensor(run.result, name);
    const b = readTensor(run.result, other);
    let worst = 0;
    for (const index of rows) worst = Math.max(worst, Math.abs(a.at(...index) - b.at(...index)));
    return worst;
  };
  const { S, S_kv, D, H } = run.sizes;
  const perToken = () => setting('kvRank') + setting('ropeDim');
  const mha = () => 2 * H * (D / H);
  return {
    latentRms() {
      const row = Array.from({ length: setting('kvRank') }, (_, c) =>
        readTensor(run.result, 'latent').at(fact.b, fact.i, c),
      );
      return Math.sqrt(row.reduce((a, x) => a + x * x, 0) / row.length);
    },
    mlaScoresApart: () =>
      apart(
        'scores',
        'otherPathScores',
        [...cells(S, S_kv)].map(([i, j]) => [fact.b, fact.h, i, j]),
      ),
    mlaOutputApart: () =>
      apart(
        'output',
        'otherPathOutput',
        [...cells(S, D)].map(([i, j]) => [fact.b, i, j]),
      ),
    mlaCachePerToken: perToken,
    mhaHeadDim: () => D / H,
    mhaCachePerToken: mha,
    tokensSoFar: () => fact.i + 1,
    mlaCacheAfter: () => (fact.i + 1) * perToken(),
    mhaCacheAfter: () => (fact.i + 1) * mha(),
  };
}

/** The sums of the rows of head h of sentence b of a [B, H, S, S_kv] tensor. */
export function rowSums(run, name, b, h) {
  const tensor = readTensor(run.result, name);
  return Array.from({ length: run.sizes.S }, (_, i) => tensor.row(b, h, i).reduce((a, x) => a + x, 0));
}

/** The cells of sentence b the mask blocked (blocked: true) or kept. */
const maskCells = (run, b, blocked) =>
  [...cells(run.sizes.S, run.sizes.S_kv)].filter(([i, j]) => isBlocked(run, b, i, j) === blocked);

// DeepSeek-V3's sizes as tests/reference/recent.py wrote them into its MLA fixtures (cachePerTokenDeepSeekV3).
const DEEPSEEK_V3 = JSON.parse(
  readFileSync(new URL('../../reference/fixtures/recent/mla-naive.json', import.meta.url), 'utf8'),
).expected.mla.cachePerTokenDeepSeekV3;

export const FACTS = {
  // A DeepSeek-V3 size or cache count (kvRank, ropeDim, numHeads, nopeDim, mla, mha), as the reference has it.
  deepseekV3(quote) {
    const key = quote.fact.deepseekV3;
    return key in DEEPSEEK_V3 ? mismatch(quote, DEEPSEEK_V3[key]) : `the reference has no ${key}`;
  },
  // What M holds at every blocked (kept) cell of sentence b.
  maskValue(quote, run) {
    const mask = readTensor(run.result, 'mask');
    const want = parse(quote.text);
    const wrong = maskCells(run, quote.fact.b, quote.fact.maskValue === 'blocked').find(
      ([i, j]) => !Object.is(mask.at(quote.fact.b, i, j), want) && mask.at(quote.fact.b, i, j) !== want,
    );
    return wrong ? `M[${wrong}] is ${mask.at(quote.fact.b, ...wrong)}` : null;
  },
  // The weight of head h at every blocked cell.
  weightAt(quote, run) {
    const weights = readTensor(run.result, 'weights');
    const { b, h } = quote.fact;
    const wrong = maskCells(run, b, true).find(([i, j]) => !writes(quote.text, weights.at(b, h, i, j)));
    return wrong ? `weight [${wrong}] is ${weights.at(b, h, ...wrong)}` : null;
  },
  // The K/V head (1-based) each of the first query heads reads: repeat_interleave, or .repeat's tiling.
  kvPattern(quote, run) {
    const { H, H_kv } = run.sizes;
    const heads = Array.from({ length: Math.min(H, 8) }, (_, h) =>
      quote.fact.kvPattern === 'tiled' ? (h % H_kv) + 1 : Math.floor(h / (H / H_kv)) + 1,
    );
    return quote.text === heads.join(' ') ? null : `the heads read ${heads.join(' ')}`;
  },
  size(quote, run) {
    if (!(quote.fact.size in run.sizes)) return `no size ${quote.fact.size}`;
    const v = run.sizes[quote.fact.size];
    return mismatch(quote, v) ?? bounds(quote, v);
  },
  headNumber(quote, run) {
    const h = quote.fact.headNumber;
    if (!(h >= 0 && h < run.sizes.H)) return `head ${h} is not one of the run's ${run.sizes.H}`;
    return mismatch(quote, h + 1);
  },
  shape(quote, run) {
    const [name, axis] = quote.fact.shape;
    const tensor = readTensor(run.result, name);
    return tensor ? mismatch(quote, tensor.shape[axis]) : `the run has no ${name}`;
  },
  shapes(quote, run) {
    for (const [name, axis] of quote.fact.shapes) {
      const tensor = readTensor(run.result, name);
      if (!tensor) return `the run has no ${name}`;
      if (!writes(quote.text, tensor.shape[axis])) return `${name} is ${tensor.shape[axis]} on axis ${axis}`;
    }
    return null;
  },
  cell(quote, run) {
    const [name, ...index] = quote.fact.cell;
    const tensor = readTensor(run.result, name);
    if (!tensor) return `the run has no ${name}`;
    const v = tensor.at(...index);
    const wrong = mismatch(quote, v);
    if (wrong || !quote.fact.rowMax) return wrong;
    const row = tensor.row(...index.slice(0, -1));
    return v === Math.max(...row) ? null : `the row's largest is ${Math.max(...row)}`;
  },
  setting(quote, run) {
    const settings = run.result.settings;
    const name = quote.fact.setting;
    const given = settings[name];
    const v = SETTING[name]
      ? SETTING[name](settings)
      : Number(Array.isArray(given) ? given[quote.fact.head ?? NaN] : given);
    return (
      (Number.isFinite(v)
        ? Math.abs(parse(quote.text) - v) <= 5e-4 * Math.max(1, Math.abs(v))
          ? null
          : `the setting is ${v}`
        : mismatch(quote, v)) ?? bounds(quote, v)
    );
  },
  count,
  value,
};
