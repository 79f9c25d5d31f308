// Why a row of weights is NaN: all its keys masked with −∞ (softmax computes 0/0), or a score that
// overflowed to ∞ (∞ − ∞). The matrices of weights say it under the figure.

/** The note for the NaN rows `rows` of a weights matrix of this run. */
export const nanNote = (run, t) => (rows) => {
  const { Skv, rs, queryLabels } = run;
  const allMasked = (i) =>
    Array.from({ length: Skv }, (_, j) => run.blocked(i, j)).every(Boolean) && rs.fill === -Infinity;
  const names = (list) => list.map((i) => queryLabels[i]).join(', ');
  const masked = rows.filter(allMasked);
  const overflow = rows.filter((i) => !allMasked(i));
  const notes = [];
  if (masked.length) notes.push(t('matrix.nanNote', { rows: names(masked) }));
  if (overflow.length) notes.push(t('matrix.nanOverflow', { rows: names(overflow) }));
  return notes.join(' ');
};
