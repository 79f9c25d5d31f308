// The Attention Lab JS API: one wasm module, one call.
//
//   const lab = await loadAttentionLab();
//   const result = lab.run({ text: 'He sat by the bank', numHeads: 2 });
//   result.tensors.weights   // { shape: [B, H, S, S_kv], data: Float32Array }
//
// Types: index.d.ts. The config schema lives in the engine
// (cpp/core/schema.cpp): lab.schema, or SCHEMA before the wasm loads.
import { SCHEMA } from './generated/schema.js';

export { SCHEMA };

/** Every tensor a run can return, in pipeline order. */
export const TENSOR_NAMES = SCHEMA.tensors;

/** A config the engine cannot run; `field` names the culprit ("dModel", "weights.values.W_Q[0][1]"). */
export class AttentionConfigError extends Error {
  constructor(field, message) {
    super(message);
    this.name = 'AttentionConfigError';
    this.field = field;
  }
}

// Explicit matrices bigger than this travel as typed arrays beside the JSON text.
const TYPED_ARRAY_MIN = 64;

const isNumberArray = (x) => Array.isArray(x) && x.every((v) => typeof v === 'number');
/** [[…], …] of equal-length rows of numbers (no nulls): sent as one typed array. */
const isDenseMatrix = (x) =>
  Array.isArray(x) && x.length > 0 && x.every((row) => isNumberArray(row) && row.length === x[0].length);

/**
 * The config as JSON text for the engine, plus the typed arrays it refers to.
 * Float32Arrays, Float64Arrays and dense number matrices become
 * {"$tensor": k, "shape": [...]} with the numbers in tensors[k], so a
 * 768×768 weight is copied once instead of printed and parsed. JSON has no
 * NaN or infinities, so they travel as the strings "NaN", "Infinity" and
 * "-Infinity"; the engine then names the field that holds one.
 */
export function encodeConfig(config) {
  if (typeof config === 'string') return { json: config, tensors: [] };
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    throw new AttentionConfigError('config', 'config must be an object (or JSON text)');
  }
  const tensors = [];
  const placeholder = (data, shape) => {
    tensors.push(data);
    return { $tensor: tensors.length - 1, shape };
  };
  try {
    const json = JSON.stringify(config, (key, value) => {
      if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
      if (typeof value === 'bigint') return Number(value);
      if (value instanceof Float32Array || value instanceof Float64Array) return placeholder(value, [value.length]);
      if (isDenseMatrix(value) && value.length * value[0].length >= TYPED_ARRAY_MIN) {
        return placeholder(Float64Array.from(value.flat()), [value.length, value[0].length]);
      }
      return value;
    });
    return { json, tensors };
  } catch (error) {
    throw new AttentionConfigError('config', `config cannot be written as JSON: ${error.message}`);
  }
}

class AttentionLab {
  #module;
  #schema = null;

  constructor(module) {
    this.#module = module;
  }

  /**
   * Runs attention on `config`. `options.tensors` limits the returned tensors
   * to those names (the run still computes all of them).
   */
  run(config, options = {}) {
    const wanted = options?.tensors ?? null;
    if (wanted !== null) {
      if (!Array.isArray(wanted)) throw new AttentionConfigError('options.tensors', 'options.tensors must be an array of tensor names');
      for (const name of wanted) {
        if (!TENSOR_NAMES.includes(name)) {
          throw new AttentionConfigError('options.tensors', `unknown tensor "${name}" (known: ${TENSOR_NAMES.join(', ')})`);
        }
      }
    }
    const { json, tensors } = encodeConfig(config);
    const outcome = this.#module.run(json, tensors, wanted);
    if (!outcome.ok) throw new AttentionConfigError(outcome.error.field, outcome.error.message);
    delete outcome.ok;
    return outcome;
  }

  /** The config schema, from the engine itself: every field's path, type, default and limits. */
  get schema() {
    this.#schema ??= this.#module.schema();
    return this.#schema;
  }

  /** Bytes of wasm linear memory: grows with the largest run, never per call. */
  get memoryBytes() {
    return this.#module.HEAPU8.buffer.byteLength;
  }
}

let labPromise = null;

/**
 * Loads the engine once; every caller (and every <attention-lab>) shares that
 * instance. The wasm (inlined in one JS module) is only fetched on this first call.
 */
export function loadAttentionLab() {
  if (!labPromise) {
    labPromise = import('./generated/attention-lab-wasm.js')
      .then(({ default: createAttentionLabModule }) => createAttentionLabModule())
      .then(
        (module) => new AttentionLab(module),
        (error) => {
          labPromise = null; // let a later call retry
          throw error;
        },
      );
  }
  return labPromise;
}
