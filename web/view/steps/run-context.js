// What every step reads of a run, worked out once and without the DOM: the
// sizes, the sentence b and head h shown (and the K/V head g it reads), the
// row and column labels, the run's settings and the mask as a predicate.
// The steps, the explanations and the claims test all start from it.
import { dropoutSummary } from '../../model/dropout.js';
import { maskBlocks, runSettings } from '../../model/run-settings.js';
import { headStart, sentenceData, sentenceStart } from '../../model/selection.js';
import { kvHeadOf } from '../../model/variant-math.js';

/** "d0", "d1", …: n feature labels. */
export const features = (n, prefix = 'd', from = 0) => Array.from({ length: n }, (_, k) => `${prefix}${from + k}`);

/** The mean over heads of a [B, H, S, S_kv] tensor (every head of it), for sentence b: [S, S_kv]. */
export function meanOverHeads(tensor, b, H, S, Skv) {
  const out = new Float32Array(S * Skv);
  for (let h = 0; h < H; h++) {
    const offset = headStart(tensor, b, h);
    for (let k = 0; k < S * Skv; k++) out[k] += tensor.data[offset + k];
  }
  for (let k = 0; k < S * Skv; k++) out[k] /= H;
  return out;
}

/** The sizes of a result and the sentence b, head h (clamped) and K/V head g shown. */
function shownSizes(result, wantB, wantH) {
  const { B, H, S, S_kv: Skv, D } = result.sizes;
  const b = Math.min(wantB, B - 1);
  const h = Math.min(wantH, H - 1);
  // Grouped-query attention: K and V have H_kv heads; the selected query head h reads K/V head g.
  const Hkv = result.sizes.H_kv ?? H;
  return { B, H, S, Skv, D, dk: result.headDim, b, h, Hkv, g: kvHeadOf(h, H, Hkv), gqa: Hkv < H, multiHead: H > 1 };
}

/** The labels of the query rows and key columns of sentence b: its tokens, or x0…, c0… for random inputs. */
function labelsOf(result, b, S, Skv) {
  const cross = Boolean(result.tensors.X_context);
  const randomInput = result.tokens.length === 0;
  const queryLabels = randomInput ? features(S, 'x') : result.tokens[b];
  const keyLabels = cross ? (result.contextTokens ? result.contextTokens[b] : features(Skv, 'c')) : queryLabels;
  return { cross, randomInput, queryLabels, keyLabels };
}

/**
 * The run context of `result` for sentence b and head h (clamped to the run's):
 * {result, T, B, H, S, Skv, D, dk, b, h, Hkv, g, gqa, multiHead, cross, randomInput, queryLabels, keyLabels,
 *  rs, factor, bias: {Q, K, V, O}, hasWO, diff, mla, dv, Dv, focus, decimals, weightsGiven, blocked(i, j), hasBlocked(),
 *  blockedWeightMax, dropout, averaged}; blockedWeightMax, dropout and averaged are worked out when first read. The view options it takes: the followed token
 * (focus: a query row, or null), the decimals the matrices show, and whether the weights were given.
 */
export function runContext(
  result,
  { b: wantB = 0, h: wantH = 0, focus = null, decimals = 4, weightsGiven = false } = {},
) {
  const T = result.tensors;
  const rs = runSettings(result.settings);
  const sizes = shownSizes(result, wantB, wantH);
  const { b, h, S, Skv, H } = sizes;
  const maskStart = sentenceStart(T.mask, b);
  const blocked = (i, j) => maskBlocks(T.mask.data[maskStart + i * Skv + j], rs.maskConvention);
  let anyBlocked;
  let leaked;
  let dropout;
  let averaged;
  return {
    result,
    T,
    ...sizes,
    ...labelsOf(result, b, S, Skv),
    rs,
    factor: result.scaleFactor,
    bias: { Q: Boolean(T.b_Q), K: Boolean(T.b_K), V: Boolean(T.b_V), O: Boolean(T.b_O) },
    hasWO: Boolean(T.W_O),
    // Differential attention: two maps per head, A = A₁ − λ·A₂ (diff-maps.js, diff-weights.js, diff-norm.js).
    diff: rs.diffDepth !== null,
    // Multi-head latent attention (mla-*.js): dk is a query/key head's nopeDim + ropeDim (result.headDim), dv a
    // value head's valueDim and Dv = H·dv the concat's width; without MLA, dv = dk and Dv = D.
    mla: rs.mla !== null,
    dv: rs.mla ? rs.mla.valueDim : sizes.dk,
    Dv: rs.mla ? sizes.H * rs.mla.valueDim : sizes.D,
    focus,
    decimals,
    weightsGiven,
    blocked,
    /** Whether the mask blocks anything in this sentence: worked out once for every matrix it colours. */
    hasBlocked: () =>
      (anyBlocked ??= Array.from({ length: S }, (_, i) => i).some((i) =>
        Array.from({ length: Skv }, (_, j) => j).some((j) => blocked(i, j)),
      )),
    /**
     * The largest weight softmax left at a blocked cell of head h: 0 when the fill is negative enough
     * (−∞, −1e9); a fill such as −1 leaves the blocked keys some weight, and the words must not say 0.
     */
    get blockedWeightMax() {
      if (leaked !== undefined) return leaked;
      const weights = T.weights.data.subarray(headStart(T.weights, b, h));
      leaked = 0;
      for (let i = 0; i < S; i++)
        for (let j = 0; j < Skv; j++) if (blocked(i, j)) leaked = Math.max(leaked, weights[i * Skv + j]);
      return leaked;
    },
    /** What dropout did to head h's weights (model/dropout.js). */
    get dropout() {
      const at = (tensor) => tensor.data.subarray(headStart(tensor, b, h));
      return (dropout ??= dropoutSummary(at(T.weights), at(T.dropped), 0, S, Skv, rs.p, blocked));
    },
    /** Averaged over heads: nn.MultiheadAttention's returned weights (PyTorch 1.13: after dropout). */
    get averaged() {
      return (averaged ??= T.averagedWeights
        ? sentenceData(T.averagedWeights, b)
        : meanOverHeads(rs.p > 0 ? T.dropped : T.weights, b, H, S, Skv));
    },
  };
}
