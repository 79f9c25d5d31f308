// Reading a run's tensors for the claims checker, by its own index arithmetic (row-major, full shapes).

/** Tensor `name` of the result with at(...index) and its rows, or null when the run has none. */
export function readTensor(result, name) {
  const tensor = result.tensors[name];
  if (!tensor) return null;
  const { shape, data } = tensor;
  const offset = (index) => index.reduce((at, i, axis) => at * shape[axis] + i, 0);
  return {
    shape,
    data,
    at: (...index) => data[offset(index)],
    /** The last axis at the leading index (e.g. row [b, h, i] of a [B, H, S, S_kv] tensor). */
    row: (...index) => {
      const n = shape[shape.length - 1];
      const start = offset([...index, 0]);
      return Array.from(data.subarray(start, start + n));
    },
  };
}

/** The run's sizes, read off the tensors' shapes: X [B, S, D], K [B, S_kv, H_kv·d_k], weights [B, H, S, S_kv], context [B, H, S, d_k]. */
export function sizesOf(result) {
  const { X, K, weights: scores, context } = result.tensors;
  // A query/key head's width: the context's, or MLA's nopeDim + ropeDim (its values have valueDim).
  const mla = result.settings['mla.kvRank'] !== undefined && result.settings['mla.kvRank'] !== null;
  const dk = mla ? Number(result.settings['mla.nopeDim']) + Number(result.settings['mla.ropeDim']) : context.shape[3];
  return {
    B: X.shape[0],
    S: X.shape[1],
    D: X.shape[2],
    S_kv: K.shape[1],
    H: scores.shape[1],
    d_k: dk,
    H_kv: K.shape[2] / dk,
    p: Number(result.settings['dropout.p'] ?? 0),
  };
}

/** The tensor the mask was applied to: the last of scaled, capped, biased the run has (differential attention: its maps). */
export const maskInputName = (result) =>
  result.tensors.halfScaled
    ? 'halfScaled'
    : result.tensors.biased
      ? 'biased'
      : result.tensors.capped
        ? 'capped'
        : 'scaled';

/** Whether the mask changed cell (i, j) of sentence b: the masked score differs from the score it was given. */
export function isBlocked(run, b, i, j) {
  const masked = readTensor(run.result, run.result.tensors.halfMasked ? 'halfMasked' : 'masked');
  const input = readTensor(run.result, maskInputName(run.result));
  const before = input.at(b, 0, i, j);
  const after = masked.at(b, 0, i, j);
  return !Object.is(before, after) && !(Number.isNaN(before) && Number.isNaN(after));
}

/** Every (i, j) of an S × S_kv grid. */
export function* cells(S, Skv) {
  for (let i = 0; i < S; i++) for (let j = 0; j < Skv; j++) yield [i, j];
}
