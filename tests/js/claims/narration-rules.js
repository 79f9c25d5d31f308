// What each kind of claim says of the run, recomputed from the tensors: each returns a problem, or null.
import { cells, isBlocked, readTensor } from './tensors.js';
import { differential, rowSums } from './narration-facts.js';

const parse = (text) => Number(text.replace(/−/g, '-'));

/** softmax(x · s) of a row, its largest value and its entropy, over the finite entries. */
function spread(row, s) {
  const finite = row.filter((x) => Number.isFinite(x));
  const max = Math.max(...finite.map((x) => x * s));
  const exps = finite.map((x) => Math.exp(x * s - max));
  const sum = exps.reduce((a, x) => a + x, 0);
  const p = exps.map((x) => x / sum);
  return { top: Math.max(...p), entropy: -p.reduce((a, x) => a + (x > 0 ? x * Math.log(x) : 0), 0) };
}

export const CLAIMS = {
  // The mask holds this value (states[0]) at every blocked (kept) cell of sentence b.
  maskMarks(claim, run) {
    const mask = readTensor(run.result, 'mask');
    const want = parse(claim.states[0]);
    for (const [i, j] of cells(run.sizes.S, run.sizes.S_kv)) {
      const blocked = isBlocked(run, claim.b, i, j);
      if ((claim.maskMarks === 'blocked') !== blocked) continue;
      const v = mask.at(claim.b, i, j);
      if (!Object.is(v, want) && v !== want) return `M[${i},${j}] of a ${claim.maskMarks} cell is ${v}, not ${want}`;
    }
    return null;
  },
  // The weights of head h are 0 at every blocked cell.
  weightsAt(claim, run) {
    const weights = readTensor(run.result, 'weights');
    for (const [i, j] of cells(run.sizes.S, run.sizes.S_kv))
      if (isBlocked(run, claim.b, i, j) && weights.at(claim.b, claim.h, i, j) !== 0)
        return `weight [${i},${j}] of a blocked cell is ${weights.at(claim.b, claim.h, i, j)}`;
    return null;
  },
  // Every row of head h of `tensor` sums to rowsSumTo (a weighted average), within float32 rounding.
  rowsSumTo(claim, run) {
    const sums = rowSums(run, claim.tensor, claim.b, claim.h);
    const worst = sums.find((s) => !(Math.abs(s - claim.rowsSumTo) <= 1e-5));
    return worst === undefined ? null : `a row of ${claim.tensor} sums to ${worst}`;
  },
  // Differential attention: every row of head h's A = A₁ − λ·A₂ sums to 1 − λ (λ from the λ vectors).
  rowsSumToOneMinusLambda(claim, run) {
    const want = differential(run).oneMinusLambda();
    const sums = rowSums(run, 'weights', claim.b, claim.h);
    const worst = sums.find((s) => !(Math.abs(s - want) <= 1e-5) && !Number.isNaN(s));
    return worst === undefined ? null : `a row of A sums to ${worst}, not 1 − λ = ${want}`;
  },
  // Each row's weights plus its sink weight sum to 1.
  rowsWithSinkSumToOne(claim, run) {
    const sinks = readTensor(run.result, 'sinkWeights');
    const sums = rowSums(run, 'weights', claim.b, claim.h);
    for (let i = 0; i < sums.length; i++) {
      const sink = sinks.shape.length === 3 ? sinks.at(claim.b, claim.h, i) : sinks.at(claim.b, claim.h, i, 0);
      if (!(Math.abs(sums[i] + sink - 1) <= 1e-5)) return `row ${i}: weights ${sums[i]} + sink ${sink}`;
    }
    return null;
  },
  // Every value of `tensor` is in [from, below).
  inRange(claim, run) {
    const tensor = readTensor(run.result, claim.inRange);
    if (!tensor) return `the run has no ${claim.inRange}`;
    const inside = (v) => v >= claim.from && (claim.upTo === undefined ? v < claim.below : v <= claim.upTo);
    const out = Array.from(tensor.data).find((v) => !inside(v));
    return out === undefined ? null : `${claim.inRange} holds ${out}`;
  },
  // Each of these tensors (those the run has) is all zeros.
  allZero(claim, run) {
    for (const name of claim.allZero) {
      const tensor = readTensor(run.result, name);
      if (tensor && Array.from(tensor.data).some((v) => v !== 0)) return `${name} is not all zeros`;
    }
    return null;
  },
  // These weights (those the run has) are equal: copies of one nn.Linear.
  equalWeights(claim, run) {
    const [first, ...rest] = claim.equalWeights.map((name) => readTensor(run.result, name)).filter(Boolean);
    const differs = rest.find((tensor) => tensor.data.some((v, k) => v !== first.data[k]));
    return differs ? 'the weights differ' : null;
  },
  // Head h has this many weights that are 0 (or NaN) before dropout.
  zeroWeights(claim, run) {
    const weights = readTensor(run.result, 'weights');
    const n = [...cells(run.sizes.S, run.sizes.S_kv)].filter(([i, j]) => {
      const w = weights.at(claim.b, claim.h, i, j);
      return w === 0 || Number.isNaN(w);
    }).length;
    return n === claim.zeroWeights ? null : `${n} weights are 0`;
  },
  // Every number of sentence b of `unitInterval` ([B, S, D]: the gate) is between 0 and 1.
  unitInterval(claim, run) {
    const tensor = readTensor(run.result, claim.unitInterval);
    const [, S, D] = tensor.shape;
    const outside = tensor.data.slice(claim.b * S * D, (claim.b + 1) * S * D).find((v) => !(v >= 0 && v <= 1));
    return outside === undefined ? null : `${claim.unitInterval} holds ${outside}`;
  },
  // Key j has the largest weight of row i of head h of `rowTop` (weights, or dropped when dropout is on).
  rowTop(claim, run) {
    const row = readTensor(run.result, claim.rowTop).row(claim.b, claim.h, claim.i);
    const max = Math.max(...row);
    return row[claim.j] === max && max > 0 ? null : `row ${claim.i}'s largest is ${max}, at ${row.indexOf(max)}`;
  },
  // Row i of head h of `rowAllZero` is all zeros (dropout zeroed it).
  rowAllZero(claim, run) {
    const row = readTensor(run.result, claim.rowAllZero).row(claim.b, claim.h, claim.i);
    return row.every((v) => v === 0) ? null : `row ${claim.i} is not all zeros`;
  },
  // Why head h's weights were 0 before dropout: 'masked' (each at a blocked cell), 'nan' (some NaN) or
  // 'softmax' (none NaN, some at a kept cell: exp underflowed).
  zeroWeightsAre(claim, run) {
    const weights = readTensor(run.result, 'weights');
    const zeros = [...cells(run.sizes.S, run.sizes.S_kv)].filter(([i, j]) => {
      const w = weights.at(claim.b, claim.h, i, j);
      return w === 0 || Number.isNaN(w);
    });
    const nan = zeros.some(([i, j]) => Number.isNaN(weights.at(claim.b, claim.h, i, j)));
    const unmasked = zeros.some(([i, j]) => !isBlocked(run, claim.b, i, j));
    const cause = nan ? 'nan' : unmasked ? 'softmax' : 'masked';
    return cause === claim.zeroWeightsAre ? null : `the zero weights are ${cause}`;
  },
  // Every head's row of `tensor` [B, S, H·d_k] has root mean square 1 (RMSNorm, eps 1e-6).
  rmsOne(claim, run) {
    const tensor = readTensor(run.result, claim.rmsOne);
    const dk = run.sizes.d_k;
    const [B, S, width] = tensor.shape;
    for (let b = 0; b < B; b++)
      for (let i = 0; i < S; i++)
        for (let c = 0; c < width; c += dk) {
          const row = tensor.row(b, i).slice(c, c + dk);
          const rms = Math.sqrt(row.reduce((a, x) => a + x * x, 0) / dk);
          if (!(Math.abs(rms - 1) <= 1e-3)) return `a row of ${claim.rmsOne} has RMS ${rms}`;
        }
    return null;
  },
  // Q_norm = Q / √(mean(Q²) + eps) per head row.
  qkNormEps(claim, run) {
    const q = readTensor(run.result, 'Q');
    const norm = readTensor(run.result, 'Q_norm');
    const dk = run.sizes.d_k;
    const row = q.row(0, 0).slice(0, dk);
    const rms = Math.sqrt(row.reduce((a, x) => a + x * x, 0) / dk + claim.qkNormEps);
    const got = norm.row(0, 0)[0];
    return Math.abs(row[0] / rms - got) <= 1e-5 ? null : `Q_norm[0,0] is ${got}, not ${row[0] / rms}`;
  },
  // Scaling flattens the softmax: unscaled, each row's largest weight is larger and its entropy smaller.
  scalingSharpens(claim, run) {
    const scores = readTensor(run.result, 'scores');
    const scaled = readTensor(run.result, 'scaled');
    for (let i = 0; i < run.sizes.S; i++) {
      const row = scores.row(claim.b, claim.h, i);
      const k = row.findIndex((x) => Math.abs(x) > 1e-2);
      const s = k < 0 ? 1 : scaled.row(claim.b, claim.h, i)[k] / row[k];
      if (!(s < 1)) return `the scale is ${s}: nothing is flattened`;
      const [withScale, without] = [spread(row, s), spread(row, 1)];
      if (without.top < withScale.top - 1e-9) return `row ${i}: its largest weight is smaller unscaled`;
    }
    return null;
  },
  // Dropout's survivors are multiplied by 1/(1 − p) and the others are 0.
  droppedAreZero(claim, run) {
    const weights = readTensor(run.result, 'weights');
    const dropped = readTensor(run.result, 'dropped');
    const keep = 1 / (1 - run.sizes.p);
    for (const [i, j] of cells(run.sizes.S, run.sizes.S_kv)) {
      const w = weights.at(claim.b, claim.h, i, j);
      const d = dropped.at(claim.b, claim.h, i, j);
      if (d !== 0 && !(Math.abs(d - w * keep) <= 1e-6 * Math.max(1, Math.abs(d)))) return `dropped [${i},${j}] is ${d}`;
    }
    return run.sizes.p > 0 ? null : 'dropout is off (p = 0): it sets nothing to 0';
  },
  // The KV cache of decode step `step` holds rows of `kvCacheHolds` (K, K_norm, K_rope, V) of the full run.
  kvCacheHolds(claim, run) {
    const { decoded } = run;
    if (!decoded) return 'no decode run to check against';
    const { H_kv: Hkv, headDim: dk } = decoded.sizes;
    const full = readTensor(run.result, claim.kvCacheHolds);
    const fresh = claim.kvCacheHolds.startsWith('V') ? decoded.newValues : decoded.newKeys;
    for (let j = 0; j <= claim.step; j++)
      for (let c = 0; c < Hkv * dk; c++) {
        const a = fresh[j * Hkv * dk + c];
        const want = full.at(run.b, j, c);
        if (!(Math.abs(a - want) <= 1e-5 * Math.max(1, Math.abs(want))))
          return `cache row ${j} holds ${a}, ${claim.kvCacheHolds} has ${want}`;
      }
    return null;
  },
  // The cache's bytes at length t + 1: 2 (k and v) · (t + 1) · heads · d_k · 4 (float32).
  kvCacheBytes(claim, run) {
    const { decoded } = run;
    const { H, headDim: dk } = decoded.sizes;
    const want = 2 * (claim.step + 1) * H * dk * 4;
    const got = decoded.cacheBytes.mha[claim.step];
    return got === want ? null : `the engine counts ${got} bytes, 2·n·H·d_k·4 is ${want}`;
  },
};
