// The pieces an explanation is written with, as data (model/words.js): the
// cell it is about ("name[row,col] = value"), a number quoted with its fact,
// a list of terms, and the facts of derived figures (a sum, a product …).
import { formula, say, shown, terms, whole } from '../../model/words.js';

/** How many terms a list shows before "… (n more)". */
export const MAX_TERMS = 16;

/** "name[row,col]": the cell an explanation is about (row null: a vector). */
export const cellName = (name, row, col) => (row === null ? `${name}[${col}]` : `${name}[${row},${col}]`);

/** "d3": feature c's label. */
export const d = (c) => `d${c}`;

/** The fact of a tensor's cell: its name in result.tensors and a full index. */
export const cellFact = (tensor, ...index) => ({ cell: [tensor, ...index] });

/** The fact of a figure worked out from others: {value: op, of: facts}. */
export const derived = (op, ...of) => ({ value: op, of });

/** The value of `tensor` at a full index, read where the tensor may hold one sentence (batch) or head alone. */
export function tensorValue(tensor, index) {
  let k = 0;
  tensor.shape.forEach((n, axis) => {
    let x = index[axis];
    if (axis === 0 && tensor.batch !== undefined) x = 0;
    // One head held alone: index 0, or its two half-heads 2h, 2h + 1 (differential attention's maps).
    if (axis === 1 && tensor.head !== undefined) x = n === 2 ? x - 2 * tensor.head : 0;
    k = k * n + x;
  });
  return tensor.data[k];
}

/**
 * The number reader of one explanation: num(value, fact) quotes a number as the
 * matrices write it; cell(tensor, ...index) quotes that cell with its value.
 */
export function reader(ctx) {
  const num = (value, fact) => shown(value, ctx.decimals, fact);
  const value = (name, ...index) => tensorValue(ctx.result.tensors[name], index);
  const cell = (name, ...index) => num(value(name, ...index), cellFact(name, ...index));
  return { num, value, cell };
}

/** "name[row,col] = value": the opening line, the value a quote. */
export const headLine = (name, row, col, value) => formula`${cellName(name, row, col)} = ${value}`;

/**
 * A list of term sentences; `count` is the fact of how many there are (the
 * list claims that many), and past MAX_TERMS a page shows "… (n more)".
 */
export function termList(items, count, t) {
  const hidden = items.length - MAX_TERMS;
  const more =
    hidden > 0
      ? say(t, 'explain.more', { count: whole(hidden, derived('difference', count, { constant: MAX_TERMS })) })
      : null;
  return terms(items, { more, shown: MAX_TERMS, claims: [{ claim: 'count', of: count, n: items.length }] });
}
