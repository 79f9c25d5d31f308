// The Attention Lab JS API: one wasm module, one call.
//
//   const lab = await loadAttentionLab();
//   const result = lab.run({ text: 'He sat by the bank', numHeads: 2 });
//   result.tensors.weights   // { shape: [B, H, S, S_kv], data: Float32Array }
//
//   await lab.loadTinyModel(11000);   // the tiny trained model's weights (model "tiny")
//   lab.run({ model: 'tiny', text: 'The cat sat. The cat sat.' }).headScores.induction
//
// Types: index.d.ts. The config schema lives in the engine
// (cpp/core/schema.cpp); the build writes it out (generated/schema.js): SCHEMA, or lab.schema.
import { AttentionConfigError, AttentionEngineError, engineError, parseEngineJson } from './errors.js';
import { SCHEMA } from './generated/schema.js';
import { copyArrays } from './wasm-arrays.js';
import { PreparedRun } from './prepared-run.js';
import { createTinyInstance } from './tiny-engine.js';
import { readTinyFile, tinyWasmUrl, tinyWeightsUrl } from './tiny-weights.js';
import { compileEngine } from './wasm-binary.js';
import { instantiate } from './wasm-instance.js';

export { AttentionConfigError, AttentionEngineError, SCHEMA };
export { loadTokenizer } from './checkpoint/tokenizer.js';
export { fileSource, openCheckpoint } from './checkpoint/open.js';

/** Every tensor a run can return, in pipeline order. */
export const TENSOR_NAMES = SCHEMA.tensors;

/**
 * The tiny trained model (model "tiny"): its shipped checkpoints (training
 * steps, from the engine's kTinyCheckpoints), its fixed sizes, and where each
 * checkpoint's weights file is.
 */
export const TINY_MODEL = Object.freeze({ ...SCHEMA.tinyModel, weightsUrl: tinyWeightsUrl });

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
 * "-Infinity"; the engine then names the field that holds one. A lone
 * surrogate in a string (half of a UTF-16 pair) travels as the escape
 * JSON.stringify writes for it (\ud800), which the engine names too.
 */
export function encodeConfig(config) {
  if (typeof config === 'string') return { json: config, tensors: [] };
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    throw AttentionConfigError.of('config', 'config-not-object-or-text');
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
    throw AttentionConfigError.of('config', 'config-not-serializable', { reason: error.message });
  }
}

// A UTF-16 unit that is half of a surrogate pair without its other half.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * JSON text as the engine receives it. Embind's std::string conversion pairs
 * a lone surrogate with whatever unit follows it ("a\uD800b" arrived as
 * "a\u{10062}", and one just before a closing quote swallowed the quote), so a
 * text that holds one goes as UTF-8 bytes instead, each lone surrogate in the
 * 3 bytes of its code point (ED A0 80 for U+D800), the form the engine's JSON
 * reader gives a \uD800 escape: the engine names the field that holds it.
 */
function engineText(text) {
  if (typeof text !== 'string' || text.isWellFormed()) return text;
  const encoder = new TextEncoder();
  const parts = [];
  let start = 0;
  for (const { index } of text.matchAll(LONE_SURROGATE)) {
    const unit = text.charCodeAt(index);
    parts.push(encoder.encode(text.slice(start, index)), [
      0xe0 | (unit >> 12),
      0x80 | ((unit >> 6) & 0x3f),
      0x80 | (unit & 0x3f),
    ]);
    start = index + 1;
  }
  parts.push(encoder.encode(text.slice(start)));
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

// Above this much wasm memory after a run, the instance is replaced by a fresh
// one, so one large run does not keep hundreds of MiB for the life of the page.
const RECYCLE_BYTES = 256 * 2 ** 20;

/** A new engine instance from the (once) compiled module. */
const createInstance = () => instantiate(import('./generated/attention-lab-wasm.js'), compileEngine());

class AttentionLab {
  #module = null;
  #restarting = null;
  // The tiny model's wasm (tiny-engine.js), started by the first loadTinyModel; null before, or after a trap.
  #tiny = null;
  #tinyStarting = null;
  // The tiny model's weights files by checkpoint, kept to load them again into a fresh instance.
  #tinyWeights = new Map();
  #tinyLoading = new Map(); // checkpoint -> the promise of its load under way

  constructor(module) {
    this.#module = module;
  }

  /** Resolves when the instance can run (at once, unless it is restarting; a failed restart is tried again). */
  get ready() {
    if (!this.#module && !this.#restarting) this.#restart();
    return this.#restarting ?? Promise.resolve(this);
  }

  /**
   * Runs attention on `config`. `options.tensors` limits the returned tensors
   * to those names, and the engine computes only what they need;
   * `options.batch` and `options.head` keep one sentence and one head of them
   * (except the per-head tensors named in `options.allHeads`).
   */
  run(config, options = {}) {
    const { wanted, allHeads, batch, head } = runOptions(options);
    const outcome = this.#call(config, (module, json, tensors) => {
      const outcome = parseEngineJson(
        module.run(json, tensors, wanted === null ? '*' : wanted.join(','), batch, head, allHeads.join(',')),
      );
      if (outcome.ok && outcome.model !== 'tiny') outcome.tensors = this.#copyTensors(outcome.tensors);
      return outcome;
    });
    // With model "tiny" the engine read and checked the config ({model, checkpoint, text, ids, warnings});
    // the model's own wasm runs it.
    return outcome.model === 'tiny' ? this.#runTiny(outcome) : outcome;
  }

  /**
   * Prepares `config` once (parsed, validated, tokenized, embedded, drawn) for
   * many runs: a PreparedRun, whose run(options) takes lab.run's options plus
   * `x`, a new X (Float32Array [B·S·dModel]) for that call, and whose
   * update(edits) applies weight and embedding edits without drawing again.
   * dispose() frees it.
   */
  prepare(config) {
    const { json, tensors } = encodeConfig(config);
    checkSizes(json, tensors);
    return new PreparedRun(this.#bridge, { json: engineText(json), tensors });
  }

  // What a PreparedRun needs of the lab: its instance, the engine-call guard, the tensors' copy, the option readers.
  #bridge = {
    module: () => this.#module,
    guarded: (call) => this.#guarded(call),
    copyTensors: (described) => this.#copyTensors(described),
    copyArrays: (outcome) => this.#copyArrays(outcome),
    runOptions,
    decodeOptions,
    flashOptions,
    encode: (config) => {
      const { json, tensors } = encodeConfig(config);
      return { json: engineText(json), tensors };
    },
  };

  /**
   * The tiny model's forward on what the engine read, through the weights of
   * its checkpoint: the run's result, the forward's arrays copied out as the
   * steppers' are ({"$array"} ranges of the model's wasm memory).
   */
  #runTiny({ warnings, ...read }) {
    const { checkpoint, ids } = read;
    if (!this.#tiny) throw AttentionConfigError.of('checkpoint', 'checkpoint-not-loaded', { step: String(checkpoint) });
    let forward;
    try {
      forward = parseEngineJson(this.#tiny.run(checkpoint, Uint8Array.from(ids)));
    } catch (error) {
      // A trap leaves the model's instance unusable: a fresh one starts with the weights kept (loadTinyModel awaits it).
      this.#tiny = null;
      this.#startTiny().catch(() => {}); // reported to whoever awaits it
      throw AttentionEngineError.of('engine-failed', error);
    }
    if (!forward.ok) {
      const { field, message, code, params } = forward.error;
      throw new AttentionConfigError(field, message, code, params);
    }
    const arrays = this.#copyArrays(forward, this.#tiny);
    delete arrays.ok;
    return { ...read, ...arrays, warnings };
  }

  /**
   * Loads the tiny model's weights of `checkpoint` (a training step of
   * TINY_MODEL.checkpoints) for runs with model "tiny": the shipped file
   * (TINY_MODEL.weightsUrl), or `bytes`, a safetensors file's Uint8Array.
   * Loading a checkpoint again without bytes does nothing. The weights stay
   * loaded when the engine restarts.
   */
  async loadTinyModel(checkpoint = SCHEMA.tinyModel.checkpoints.at(-1), bytes = undefined) {
    const step = checkpointOption(checkpoint);
    if (bytes !== undefined && !(bytes instanceof Uint8Array)) {
      throw AttentionConfigError.of('bytes', 'weights-not-bytes', { field: 'bytes' });
    }
    const kept = this.#tinyWeights.get(step);
    if (bytes === undefined && kept && this.#tiny) return { step, bytes: kept.length };
    if (bytes === undefined && this.#tinyLoading.has(step)) return this.#tinyLoading.get(step);
    const loading = (async () => {
      // After a trap the model's instance starts again, with the files kept.
      const [file, tiny] = await Promise.all([bytes ?? kept ?? readShippedWeights(step), this.#startTiny()]);
      this.#registerTinyWeights(tiny, step, file);
      this.#tinyWeights.set(step, file);
      return { step, bytes: file.length };
    })();
    if (bytes === undefined) {
      this.#tinyLoading.set(step, loading);
      loading.then(
        () => this.#tinyLoading.delete(step),
        () => this.#tinyLoading.delete(step),
      );
    }
    return loading;
  }

  /** The tiny model's instance, started once (again after a trap), with every weights file loaded so far. */
  #startTiny() {
    if (this.#tiny) return Promise.resolve(this.#tiny);
    this.#tinyStarting ??= createTinyInstance().then(
      (tiny) => {
        for (const [step, file] of this.#tinyWeights) this.#registerTinyWeights(tiny, step, file);
        this.#tiny = tiny;
        this.#tinyStarting = null;
        return tiny;
      },
      (error) => {
        this.#tinyStarting = null;
        throw notFetched(tinyWasmUrl, 'model-not-fetched', { url: String(tinyWasmUrl), reason: error.message });
      },
    );
    return this.#tinyStarting;
  }

  /** Hands a weights file to the tiny model's instance; a bad file is an AttentionConfigError on "weights file". */
  #registerTinyWeights(tiny, step, file) {
    const outcome = parseEngineJson(tiny.loadWeights(step, file));
    if (!outcome.ok) {
      const { field, message, code, params } = outcome.error;
      throw new AttentionConfigError(field, message, code, params);
    }
  }

  /**
   * The KV cache, token by token: sentence `options.batch` (default 0)
   * decoded one query at a time, each step's row against the full causal run.
   */
  decode(config, options = {}) {
    const { batch } = decodeOptions(options);
    return this.#call(config, (module, json, tensors) =>
      this.#copyArrays(parseEngineJson(module.decode(json, tensors, batch))),
    );
  }

  /**
   * FlashAttention-2's online softmax over head `options.head` of sentence
   * `options.batch`, in tiles of `options.tileQueries` × `options.tileKeys`.
   */
  flash(config, options = {}) {
    const { batch, head, tileQueries, tileKeys } = flashOptions(options);
    return this.#call(config, (module, json, tensors) =>
      this.#copyArrays(parseEngineJson(module.flash(json, tensors, batch, head, tileQueries, tileKeys))),
    );
  }

  /**
   * One engine call on `config`: `call(module, json, typedArrays)` returns the
   * parsed outcome ({ok: true, ...} or {ok: false, error}). An engine error
   * becomes an AttentionConfigError; a trap restarts the instance.
   */
  #call(config, call) {
    const { json, tensors } = encodeConfig(config);
    checkSizes(json, tensors);
    return this.#guarded((module) => call(module, engineText(json), tensors));
  }

  /**
   * `call(module)` on the instance, returning its parsed outcome: {ok: false,
   * error} becomes an AttentionConfigError, a trap restarts the instance.
   */
  #guarded(call) {
    if (!this.#module) throw AttentionEngineError.of('engine-restarting');
    let outcome;
    try {
      outcome = call(this.#module);
    } catch (error) {
      // A trap (out of memory, or a bug) leaves the instance unusable: start a fresh one.
      this.#module = null;
      this.#restart();
      const outOfMemory = /memory|alloc|Aborted/i.test(String(error?.message));
      throw AttentionEngineError.of(outOfMemory ? 'engine-out-of-memory' : 'engine-failed', error);
    }
    if (outcome.ok === false) {
      const { field, message, code, params } = outcome.error;
      throw new AttentionConfigError(field, message, code, params);
    }
    delete outcome.ok;
    if (this.memoryBytes > RECYCLE_BYTES) this.#restart();
    return outcome;
  }

  /**
   * A stepper's outcome with each {"$array": {offset, length}} (a range of
   * wasm memory) replaced by a Float32Array of its own, and each
   * {"$number": "NaN" | "Infinity" | "-Infinity"} by that number.
   */
  #copyArrays(outcome, module = this.#module) {
    return copyArrays(outcome, module);
  }

  /**
   * The engine's {name: {shape, offset, length, batch?, head?}} -> {name: {shape, data, batch?, head?}}: each
   * tensor copied out of wasm memory into a Float32Array of its own; an alias
   * ({sameAs: name}, e.g. masked without a mask) becomes that same object.
   */
  #copyTensors(described) {
    const memory = this.#module.HEAPU8.buffer;
    const tensors = {};
    for (const [name, t] of Object.entries(described)) {
      if (t.sameAs) {
        tensors[name] = tensors[t.sameAs];
        continue;
      }
      tensors[name] = { shape: t.shape, data: new Float32Array(memory, t.offset, t.length).slice() };
      if (t.batch !== undefined) tensors[name].batch = t.batch;
      if (t.head !== undefined) tensors[name].head = t.head;
    }
    return tensors;
  }

  // A fresh instance; the old one (if still usable) serves until it is ready.
  #restart() {
    this.#restarting ??= createInstance().then(
      (module) => {
        this.#module = module;
        this.#restarting = null;
        return this;
      },
      (error) => {
        this.#restarting = null;
        throw error;
      },
    );
    this.#restarting.catch(() => {}); // reported to whoever awaits it
  }

  /**
   * The engine's rules on config text as JSON (size, duplicate keys, number
   * grammar, depth): an AttentionConfigError (code json-duplicate-key,
   * field "config" or the repeated key's path), or null when it is valid.
   */
  jsonError(text) {
    const error = this.#module.jsonError(engineText(text));
    if (!error) return null;
    const { field, message, code, params } = engineError(error);
    return new AttentionConfigError(field, message, code, params);
  }

  /**
   * The config schema: every field's path, type, default and limits, the tensors and the error
   * catalogue. The build writes it from the engine's own table (web/scripts/write-schema.js runs the
   * same core objects' schema_dump), so the engine's wasm does not carry a copy to export.
   */
  get schema() {
    return SCHEMA;
  }

  /** Bytes of wasm linear memory (0 while restarting). */
  get memoryBytes() {
    return this.#module ? this.#module.HEAPU8.buffer.byteLength : 0;
  }
}

/**
 * lab.run's options (and a PreparedRun's): the tensor names wanted (null: all), the per-head tensors kept
 * with every head, the sentence and head kept (-1: all); an error names the option.
 */
function runOptions(options) {
  return {
    wanted: tensorNames(options?.tensors, 'options.tensors'),
    allHeads: tensorNames(options?.allHeads, 'options.allHeads') ?? [],
    batch: indexOption(options?.batch, 'options.batch'),
    head: indexOption(options?.head, 'options.head'),
  };
}

/** A list of tensor names from the options (null when absent), or an error on `field`. */
function tensorNames(names, field) {
  if (names === undefined || names === null) return null;
  if (!Array.isArray(names)) throw AttentionConfigError.of(field, 'tensors-not-array', { field });
  for (const name of names) {
    if (!TENSOR_NAMES.includes(name)) {
      throw AttentionConfigError.of(field, 'unknown-tensor', { name: String(name), known: TENSOR_NAMES.join(', ') });
    }
  }
  return names;
}

/** lab.decode's options, checked: {batch}. */
function decodeOptions(options) {
  return { batch: Math.max(0, indexOption(options?.batch, 'options.batch')) };
}

/** lab.flash's options, checked: {batch, head, tileQueries, tileKeys}. */
function flashOptions(options) {
  return {
    batch: Math.max(0, indexOption(options?.batch, 'options.batch')),
    head: Math.max(0, indexOption(options?.head, 'options.head')),
    tileQueries: tileOption(options?.tileQueries, 'options.tileQueries'),
    tileKeys: tileOption(options?.tileKeys, 'options.tileKeys'),
  };
}

/** A sentence or head index from the options: -1 when absent (all of them), or an error on `field`. */
function indexOption(value, field) {
  if (value === undefined || value === null) return -1;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw AttentionConfigError.of(field, 'not-an-index', { field, got: String(value) });
  }
  return value;
}

/** A checkpoint of the tiny model: one of its shipped training steps, or an error on "checkpoint". */
function checkpointOption(value) {
  const { checkpoints } = SCHEMA.tinyModel;
  if (checkpoints.includes(value)) return value;
  throw AttentionConfigError.of('checkpoint', 'checkpoint-unknown', {
    got: typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value)),
    steps: checkpoints.join(', '),
  });
}

/** The shipped weights file of checkpoint `step`; one that cannot be read is an error on "weights file". */
async function readShippedWeights(step) {
  const url = tinyWeightsUrl(step);
  try {
    return await readTinyFile(url);
  } catch (error) {
    throw notFetched(url, 'weights-not-fetched', { step: String(step), url: String(url), reason: error.message });
  }
}

/**
 * A tiny model's file that could not be fetched, as an error on "weights file": `code` with `params`, or,
 * for a page opened from a file (file://, where no browser fetches files; Node reads them from disk), what
 * to do instead.
 */
function notFetched(url, code, params) {
  if (globalThis.location?.protocol === 'file:' && new URL(url).protocol === 'file:')
    return AttentionConfigError.of('weights file', 'tiny-needs-server', { url: String(url) });
  return AttentionConfigError.of('weights file', code, params);
}

/** A tile size from the options: 2 when absent, else a whole number ≥ 1 (an error on `field`). */
function tileOption(value, field) {
  if (value === undefined || value === null) return 2;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw AttentionConfigError.of(field, 'tile-size', { field, got: String(value) });
  }
  return value;
}

/**
 * The config's JSON text and typed arrays against the engine's limits, before
 * any of it is copied into wasm memory: an oversized config is an error that
 * says what to do, never an out-of-memory trap.
 */
function checkSizes(json, tensors) {
  const { configTextBytes, givenBytes } = SCHEMA.limits;
  // UTF-8 takes at most 3 bytes per UTF-16 unit: count exactly only near the limit.
  if (json.length * 3 > configTextBytes && new TextEncoder().encode(json).length > configTextBytes) {
    throw AttentionConfigError.of('config', 'config-text-too-large', { limit: String(configTextBytes / 2 ** 20) });
  }
  const given = tensors.reduce((sum, t) => sum + 4 * t.length, 0);
  if (given > givenBytes) {
    throw AttentionConfigError.of('config', 'given-values-over-limit', {
      need: String(Math.ceil(given / 2 ** 20)),
      limit: String(givenBytes / 2 ** 20),
    });
  }
}

let labPromise = null;

/**
 * Loads the engine once; every caller (and every <attention-lab>) shares that
 * instance. The wasm is only fetched on this first call. After the engine
 * stopped, this resolves once its fresh instance is ready.
 */
export function loadAttentionLab() {
  if (!labPromise) {
    labPromise = createInstance().then(
      (module) => new AttentionLab(module),
      (error) => {
        labPromise = null; // let a later call retry
        throw error;
      },
    );
  }
  return labPromise.then((lab) => lab.ready);
}
