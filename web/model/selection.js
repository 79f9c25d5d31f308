// Reading a result whose tensors may hold one sentence and one head only
// (RunOptions.batch and head: the page asks for what it shows). A tensor that
// holds sentence b alone has `batch` = b and B = 1 in its shape; one that
// holds head h alone has `head` = h and H = 1.

/** Sentence b's index within `tensor` [B, ...]: 0 when it holds that sentence alone. */
export const sentenceIndex = (tensor, b) => (tensor.batch === undefined ? b : 0);

/** Where sentence b starts in `tensor` [B, rows, cols]. */
export function sentenceStart(tensor, b) {
  const [, rows, cols] = tensor.shape;
  return sentenceIndex(tensor, b) * rows * cols;
}

/** Sentence b of `tensor` [B, rows, cols]: its [rows, cols] values (a view, not a copy). */
export function sentenceData(tensor, b) {
  const start = sentenceStart(tensor, b);
  return tensor.data.subarray(start, start + tensor.shape[1] * tensor.shape[2]);
}

/** Where head h of sentence b starts in a per-head `tensor` [B, H, rows, cols]. */
export function headStart(tensor, b, h) {
  const [, heads, rows, cols] = tensor.shape;
  return (sentenceIndex(tensor, b) * heads + (tensor.head === undefined ? h : 0)) * rows * cols;
}

/**
 * Where half-head s (0 or 1) of head h of sentence b starts in a differential attention map [B, 2H, rows, cols]
 * (half-head 2h + s), which holds only head h's two half-heads when it holds head h alone.
 */
export function halfHeadStart(tensor, b, h, s) {
  const [, halves, rows, cols] = tensor.shape;
  return (sentenceIndex(tensor, b) * halves + (tensor.head === undefined ? 2 * h + s : s)) * rows * cols;
}

/** Whether every tensor of `result` holds sentence b and head h. */
export function resultHolds(result, b, h) {
  return Object.values(result.tensors).every(
    (tensor) => (tensor.batch === undefined || tensor.batch === b) && (tensor.head === undefined || tensor.head === h),
  );
}
