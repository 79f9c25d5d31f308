// What dropout did to one head's weights: which survived (the keep mask m),
// how many it zeroed, and the factor 1/(1 − p) the survivors were scaled by.
// m is read off the result: a non-zero weight survived where its dropped
// value is non-zero. A weight that is already 0 (a masked key) stays 0
// whatever m is, so its m cannot be known and does not count.

/** m of a weight that was 0 already: not known. */
export const UNKNOWN = -1;

/**
 * weights and dropped [S, S_kv] slices at `offset`; blocked(i, j), when given, says which cells the mask
 * blocked. Returns {keep: Float32Array (1 kept, 0 zeroed, −1 unknown), zeroed, nonZero, zeroWeights,
 * zeroCause, factor}: zeroCause says why the zeroWeights were 0 (or NaN) before dropout: 'nan' when some are
 * NaN (a row softmax made NaN), 'masked' when each is at a blocked cell, else 'softmax' (exp underflowed,
 * a score far below its row's largest); null without `blocked`.
 */
export function dropoutSummary(weights, dropped, offset, S, Skv, p, blocked = null) {
  const keep = new Float32Array(S * Skv);
  let zeroed = 0;
  let nonZero = 0;
  let nan = false;
  let unmasked = false;
  for (let k = 0; k < S * Skv; k++) {
    const w = weights[offset + k];
    if (w === 0 || Number.isNaN(w)) {
      keep[k] = UNKNOWN;
      if (Number.isNaN(w)) nan = true;
      else if (blocked && !blocked(Math.floor(k / Skv), k % Skv)) unmasked = true;
      continue;
    }
    nonZero++;
    const kept = dropped[offset + k] !== 0;
    keep[k] = kept ? 1 : 0;
    if (!kept) zeroed++;
  }
  const zeroCause = !blocked ? null : nan ? 'nan' : unmasked ? 'softmax' : 'masked';
  return { keep, zeroed, nonZero, zeroWeights: S * Skv - nonZero, zeroCause, factor: p > 0 ? 1 / (1 - p) : 1 };
}

/** Whether cell k was zeroed by dropout (not a weight that was 0 already). */
export const droppedByDropout = (summary, k) => summary.keep[k] === 0;
