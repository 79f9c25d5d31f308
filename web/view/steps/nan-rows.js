// Why a row of weights is NaN: all its keys masked with −∞ (softmax computes 0/0), or a score that
// overflowed to ∞ (∞ − ∞). The matrices of weights say it under the figure.

/** The note for the NaN rows `rows` of a weights matrix of this run. */
export const nanNote = (run, t) => (rows) =>
  notesByCause(
    run,
    rows,
    (list) => t('matrix.nanNote', { rows: list }),
    (list) => t('matrix.nanOverflow', { rows: list }),
  );

/**
 * The note for the NaN rows of a matrix computed from the weights (context, concat, output): carried
 * over from the weights' NaN rows, whose cause it names as the weights' note does. The inputs and the
 * weights are finite (the engine checks them), so a NaN arises only in softmax.
 */
export const carriedNanNote = (run, t) => (rows) =>
  notesByCause(
    run,
    rows,
    (list) => t('matrix.nanCarried', { rows: list }),
    (list) => t('matrix.nanCarried.overflow', { rows: list }),
  );

/** Rows whose keys are all masked with −∞ (softmax's 0/0) and the others (a score overflowed): a note each. */
function notesByCause(run, rows, maskedNote, overflowNote) {
  const { Skv, rs, queryLabels } = run;
  const allMasked = (i) =>
    Array.from({ length: Skv }, (_, j) => run.blocked(i, j)).every(Boolean) && rs.fill === -Infinity;
  const names = (list) => list.map((i) => queryLabels[i]).join(', ');
  const masked = rows.filter(allMasked);
  const overflow = rows.filter((i) => !allMasked(i));
  const notes = [];
  if (masked.length) notes.push(maskedNote(names(masked)));
  if (overflow.length) notes.push(overflowNote(names(overflow)));
  return notes.join(' ');
}
