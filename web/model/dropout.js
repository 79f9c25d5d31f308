// What dropout did to one head's weights: which survived (the keep mask m),
// how many it zeroed, and the factor 1/(1 − p) the survivors were scaled by.
// m is read off the result: a non-zero weight survived where its dropped
// value is non-zero. A weight that is already 0 (a masked key) stays 0
// whatever m is, so its m cannot be known and does not count.

/** m of a weight that was 0 already: not known. */
export const UNKNOWN = -1;

/**
 * weights and dropped [S, S_kv] slices at `offset`. Returns
 * {keep: Float32Array (1 kept, 0 zeroed, −1 unknown), zeroed, nonZero, zeroWeights, factor}.
 */
export function dropoutSummary(weights, dropped, offset, S, Skv, p) {
  const keep = new Float32Array(S * Skv);
  let zeroed = 0;
  let nonZero = 0;
  for (let k = 0; k < S * Skv; k++) {
    const w = weights[offset + k];
    if (w === 0 || Number.isNaN(w)) {
      keep[k] = UNKNOWN;
      continue;
    }
    nonZero++;
    const kept = dropped[offset + k] !== 0;
    keep[k] = kept ? 1 : 0;
    if (!kept) zeroed++;
  }
  return { keep, zeroed, nonZero, zeroWeights: S * Skv - nonZero, factor: p > 0 ? 1 / (1 - p) : 1 };
}

/** Whether cell k was zeroed by dropout (not a weight that was 0 already). */
export const droppedByDropout = (summary, k) => summary.keep[k] === 0;
