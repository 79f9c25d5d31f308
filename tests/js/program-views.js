// Views of the engine's tensors ({shape, data}, row-major) in the layout a
// tutorial program uses: nn.Linear's [out, in] weights are our x·W matrices
// transposed, a per-head module holds a column block of them, a program
// without a batch has our batch row 0, nn.MultiheadAttention without
// batch_first has (S, B, D).

const strides = (shape) => shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));

/** Every index tuple of `shape` in row-major order. */
function* indices(shape) {
  const count = shape.reduce((a, b) => a * b, 1);
  const s = strides(shape);
  for (let flat = 0; flat < count; flat++) yield shape.map((n, axis) => Math.floor(flat / s[axis]) % n);
}

/** t.permute(order) */
export function permute(t, order) {
  const shape = order.map((axis) => t.shape[axis]);
  const from = strides(t.shape);
  const data = [];
  for (const index of indices(shape)) data.push(t.data[index.reduce((at, i, k) => at + i * from[order[k]], 0)]);
  return { shape, data };
}

/** t.narrow(axis, start, length) */
export function narrow(t, axis, start, length) {
  const shape = t.shape.map((n, k) => (k === axis ? length : n));
  const from = strides(t.shape);
  const data = [];
  for (const index of indices(shape))
    data.push(t.data[index.reduce((at, i, k) => at + (k === axis ? i + start : i) * from[k], 0)]);
  return { shape, data };
}

/** t[..., index, ...] along `axis` (that axis removed). */
export function select(t, axis, index) {
  const part = narrow(t, axis, index, 1);
  return { shape: part.shape.filter((_, k) => k !== axis), data: part.data };
}

/** The last two axes swapped: nn.Linear's weight from our W (and back). */
export const transpose = (t) => {
  const order = t.shape.map((_, k) => k);
  order.push(...order.splice(-2).reverse());
  return permute(t, order);
};

/** Batch row 0, for a program without a batch axis. */
export const first = (t) => select(t, 0, 0);

/** t.reshape(shape) (row-major, so the data stays). */
export const reshape = (t, shape) => ({ shape, data: t.data });

/** Integer ids [[...], ...] as a [B, S] tensor. */
export const idsMatrix = (rows) => ({ shape: [rows.length, rows[0].length], data: rows.flat() });

/** The ids of a one-sentence batch as a vector. */
export const idsTensor = (rows) => reshape(idsMatrix(rows), [rows[0].length]);

/** (B, S, heads·dk) -> (B, heads, S, dk): .view(b, s, heads, head_dim).transpose(1, 2) */
export const splitHeads = (t, heads) => {
  const [B, S, width] = t.shape;
  return permute(reshape(t, [B, S, heads, width / heads]), [0, 2, 1, 3]);
};
