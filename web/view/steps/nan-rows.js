// Why a row of weights is NaN: all its keys masked with −∞ (softmax computes 0/0), or a score that
// overflowed to ∞ (∞ − ∞). The matrices of weights say it under the figure; context, concat and output
// say it was carried over from there.

/** The note for the NaN rows `rows` of a weights matrix of this run. */
export const nanNote = (run, t) => (rows) => notesByCause(run, t, rows, 'matrix.nanNote', 'matrix.nanOverflow');

/**
 * The note for the NaN rows of a matrix computed from the weights (context, concat, output): carried
 * over from the weights' NaN rows, whose cause it names as the weights' note does. The inputs and the
 * weights are finite (the engine checks them), so a NaN arises only in softmax.
 */
export const carriedNanNote = (run, t) => (rows) =>
  notesByCause(run, t, rows, 'matrix.nanCarried', 'matrix.nanCarried.overflow');

/**
 * Rows whose keys are all masked with −∞ (softmax's 0/0) and the others (a score overflowed): the
 * sentence of `maskedKey` for the first, of `overflowKey` for the others, each naming its rows.
 */
function notesByCause(run, t, rows, maskedKey, overflowKey) {
  const { Skv, rs, queryLabels } = run;
  const allMasked = (i) =>
    Array.from({ length: Skv }, (_, j) => run.blocked(i, j)).every(Boolean) && rs.fill === -Infinity;
  const names = (list) => list.map((i) => queryLabels[i]).join(', ');
  const masked = rows.filter(allMasked);
  const overflow = rows.filter((i) => !allMasked(i));
  const notes = [];
  if (masked.length) notes.push(t(maskedKey, { rows: names(masked) }));
  if (overflow.length) notes.push(t(overflowKey, { rows: names(overflow) }));
  return notes.join(' ');
}
