// The Attention Lab JS API: one wasm module, one call.
//
//   const lab = await loadAttentionLab();
//   const result = lab.run({ text: 'He sat by the bank', numHeads: 2 });
//   result.tensors.weights   // { shape: [B, H, S, S_kv], data: Float32Array }
//
// Types: index.d.ts. The config schema is parsed and checked in C++
// (cpp/core/config_json.cpp), so the JS API, the CLI and the page share it.
/** Every tensor a run can return, in pipeline order. */
export const TENSOR_NAMES = Object.freeze([
  'X', 'X_context', 'W_Q', 'W_K', 'W_V', 'b_Q', 'b_K', 'b_V', 'W_O', 'b_O',
  'Q', 'K', 'V', 'scores', 'scaled', 'mask', 'masked', 'weights', 'dropped',
  'context', 'concat', 'output',
]);

/** A config the engine cannot run; `field` names the culprit ("dModel", "weights.values.W_Q[0][1]"). */
export class AttentionConfigError extends Error {
  constructor(field, message) {
    super(message);
    this.name = 'AttentionConfigError';
    this.field = field;
  }
}

/**
 * JSON text for the engine. JSON has no NaN or infinities, so they travel as
 * the strings "NaN", "Infinity" and "-Infinity"; the engine then names the
 * field that holds one ("weights.values.W_Q[0][1] must be a finite number, got NaN").
 */
export function encodeConfig(config) {
  if (typeof config === 'string') return config;
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    throw new AttentionConfigError('config', 'config must be an object (or JSON text)');
  }
  try {
    return JSON.stringify(config, (key, value) => {
      if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
      if (typeof value === 'bigint') return Number(value);
      return value;
    });
  } catch (error) {
    throw new AttentionConfigError('config', `config cannot be written as JSON: ${error.message}`);
  }
}

class AttentionLab {
  #module;

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
          throw new AttentionConfigError('options.tensors', `options.tensors: unknown tensor "${name}" (known: ${TENSOR_NAMES.join(', ')})`);
        }
      }
    }
    const outcome = this.#module.run(encodeConfig(config), wanted);
    if (!outcome.ok) throw new AttentionConfigError(outcome.error.field, outcome.error.message);
    delete outcome.ok;
    return outcome;
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
