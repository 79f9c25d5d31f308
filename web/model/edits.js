// Edited numbers. An edit changes one number and nothing else: the engine
// still draws every random number where PyTorch draws it, then writes the
// edit over it. Edits travel sparse, as [row, col, value]:
//   config.weights.edits = {W_Q: [[i, j, v]], b_Q: [[j, v]]}
//   config.embedding.edits = [[token, d, v]]   (the engine finds the token's row)
// Maps keep them, so a token such as "__proto__" or "constructor" is plain data.
import { isVectorWeight } from './schema.js';

export const emptyEdits = () => ({ weights: new Map(), embedding: new Map() });

const cellsOf = (map, key) => {
  if (!map.has(key)) map.set(key, new Map());
  return map.get(key);
};
// A weight cell's key: "i,j" (a bias has i = 0).
const cellKey = (i, j) => `${i},${j}`;

export function setWeightEdit(edits, name, i, j, value) {
  cellsOf(edits.weights, name).set(cellKey(i, j), value);
}
export function setEmbeddingEdit(edits, token, d, value) {
  cellsOf(edits.embedding, token).set(d, value);
}
export const isWeightEdited = (edits, name, i, j) => edits.weights.get(name)?.has(cellKey(i, j)) ?? false;
export const isEmbeddingEdited = (edits, token, d) => edits.embedding.get(token)?.has(d) ?? false;

export function countEdits(edits) {
  let n = 0;
  for (const cells of [...edits.weights.values(), ...edits.embedding.values()]) n += cells.size;
  return n;
}

/** The edits as plain JSON: {weights: {W_Q: [[i, j, v]], b_Q: [[j, v]]}, embedding: [[token, d, v]]}. */
export function editsToJson(edits) {
  const weights = {};
  for (const [name, cells] of edits.weights) {
    if (!cells.size) continue;
    const vector = isVectorWeight(name);
    weights[name] = [...cells].map(([key, v]) => {
      const [i, j] = key.split(',').map(Number);
      return vector ? [j, v] : [i, j, v];
    });
  }
  const embedding = [];
  for (const [token, cells] of edits.embedding) for (const [d, v] of cells) embedding.push([token, d, v]);
  return { weights, embedding };
}

/** Edits from editsToJson()'s form (shapes are checked by the caller or by the engine). */
export function editsFromJson({ weights = {}, embedding = [] }) {
  const edits = emptyEdits();
  for (const [name, cells] of Object.entries(weights))
    for (const cell of cells) setWeightEdit(edits, name, cell.length === 2 ? 0 : cell[0], cell.at(-2), cell.at(-1));
  for (const [token, d, v] of embedding) setEmbeddingEdit(edits, token, d, v);
  return edits;
}

/**
 * A copy of `config` with the edits added as weights.edits and embedding.edits,
 * after any edits the config already holds (an element's config or
 * weight-edits attribute), so both apply and these win on the same cell.
 */
export function withEdits(config, edits) {
  const { weights, embedding } = editsToJson(edits);
  const out = { ...config };
  if (Object.keys(weights).length) {
    const given = config.weights?.edits ?? {};
    const merged = { ...given };
    for (const [name, cells] of Object.entries(weights))
      merged[name] = Array.isArray(given[name]) ? [...given[name], ...cells] : cells;
    out.weights = { ...config.weights, edits: merged };
  }
  if (embedding.length) {
    const given = config.embedding?.edits;
    out.embedding = { ...config.embedding, edits: Array.isArray(given) ? [...given, ...embedding] : embedding };
  }
  return out;
}
