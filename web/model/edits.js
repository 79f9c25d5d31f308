// Edited numbers, applied to a config as explicit values with nulls: null
// keeps the drawn number, so an edit changes that number and nothing else
// (every random draw stays where PyTorch makes it).
//   edits = { weights: { W_Q: { flatIndex: value } }, embedding: { token: { d: value } } }

export const emptyEdits = () => ({ weights: {}, embedding: {} });

export const countEdits = (edits) =>
  [...Object.values(edits.weights), ...Object.values(edits.embedding)].reduce((n, cells) => n + Object.keys(cells).length, 0);

/**
 * A copy of `config` with `edits` applied. Embedding edits need the vocab
 * (id order) of a result for the same sentences; without one they wait.
 */
export function applyEdits(config, edits, vocab) {
  const out = structuredClone(config);
  const D = Number(out.dModel ?? 8);
  const values = { ...(out.weights?.values ?? {}) };
  for (const [name, cells] of Object.entries(edits.weights)) {
    const indices = Object.keys(cells);
    if (!indices.length) continue;
    const isBias = name.startsWith('b_');
    const flat = new Array(isBias ? D : D * D).fill(null);
    for (const index of indices) if (Number(index) < flat.length) flat[Number(index)] = cells[index];
    values[name] = isBias ? flat : Array.from({ length: D }, (_, i) => flat.slice(i * D, (i + 1) * D));
  }
  if (Object.keys(values).length) out.weights = { ...out.weights, values };
  const tokens = Object.keys(edits.embedding);
  if (tokens.length && vocab?.length) {
    const table = vocab.map(() => null);
    for (const token of tokens) {
      const id = vocab.indexOf(token);
      if (id >= 0) table[id] = Array.from({ length: D }, (_, d) => edits.embedding[token][d] ?? null);
    }
    if (table.some((row) => row !== null)) out.embedding = { ...out.embedding, values: table };
  }
  return out;
}
