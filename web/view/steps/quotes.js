// The numbers the steps' sentences quote, each with the fact it states
// (model/words.js), read off the run context (run-context.js).
import { compact, shown, whole } from '../../model/words.js';

const SIZE_OF = { B: 'B', H: 'H', H_kv: 'Hkv', S: 'S', S_kv: 'Skv', D: 'D', d_k: 'dk' };

/** A size of the run ('S', 'S_kv', 'D', 'd_k', 'H', 'H_kv', 'B'); where: {min} the sentence's wording needs. */
export const size = (run, letter, where = {}) => whole(run[SIZE_OF[letter]], { size: letter, ...where });

/** "head 2": the shown head's number. */
export const headNumber = (run) => whole(run.h + 1, { headNumber: run.h });

/** The width (last axis) or another axis of a tensor of the run, as its shape says. */
export const axis = (run, tensor, index) => whole(run.T[tensor].shape[index], { shape: [tensor, index] });

/** One number stated for every tensor listed: [[tensor, axis], …] all have this size. */
export const sharedAxis = (run, value, axes) => whole(value, { shapes: axes });

/** A value of a cell of a tensor, as the matrices show it: index [b, h, i, j] or [b, i, c]. */
export const cell = (run, tensor, index, value, where = {}) =>
  shown(value, run.decimals, { cell: [tensor, ...index], ...where });

/** A setting of the run, written compactly (a probability, a logit, a fill). */
export const setting = (value, name, where = {}) => compact(value, { setting: name, ...where });

/** A figure the test recomputes from the tensors by its own means: {value: name, ...where}. */
export const derived = (value, name, where = {}, decimals = null) =>
  decimals === null ? compact(value, { value: name, ...where }) : shown(value, decimals, { value: name, ...where });

/** A count the test makes itself from the tensors: {count: name, ...where}. */
export const count = (value, name, where = {}) => whole(value, { count: name, ...where });
