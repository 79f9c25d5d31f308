// lab.prepare(config)'s handle: the config parsed, validated, tokenized,
// embedded and drawn once in the engine (cpp/core/prepared.h), then run many
// times, each run from the projections on:
//
//   const prepared = lab.prepare({ text: 'He sat by the bank', dModel: 64, numHeads: 4 });
//   prepared.run({ tensors: ['output'] });          // equals lab.run(config, { tensors: ['output'] })
//   prepared.run({ tensors: ['output'], x });      // x: a new X, Float32Array [B·S·dModel] row-major
//   prepared.update({ weights: { W_Q: [[0, 5, 0.5]] } });   // as withEdits(config, edits), no new draw
//   prepared.decode({ batch: 0 });                  // equals lab.decode(config with the edits, { batch: 0 })
//   prepared.dispose();
//
// A new X is written straight into wasm memory; the result comes back as
// lab.run's does. After the engine restarted (a trap, or memory recycled) the
// handle prepares its config again on the fresh instance, with its edits.
import { AttentionConfigError, parseEngineJson } from './errors.js';

// A handle dropped without dispose() frees its engine state once it is garbage-collected.
const unreleased = new FinalizationRegistry(({ module, id }) => module.disposePrepared(id));

export class PreparedRun {
  #engine; // the lab's bridge: module(), guarded(call), copyTensors, copyArrays, the options' readers, encode(config)
  #config; // {json, tensors}: the config as the engine reads it
  #edits = new Map(); // update()'s edits so far, one per cell, in the order they apply: replayed on a fresh instance
  #module = null; // the instance the engine state lives in
  #id = 0;
  #input = null; // {offset, length}: where a new X goes in that instance's memory
  #header = null; // the fields every run's result shares, frozen (warnings: null holds its place)
  #shape = null; // [B, S, dModel]
  #disposed = false;

  constructor(engine, config) {
    this.#engine = engine;
    this.#config = config;
    this.#open();
  }

  /** X's shape [B, S, dModel]: a new X (run's `x`) holds B·S·dModel numbers, row-major. */
  get xShape() {
    return [...this.#shape];
  }

  /**
   * Runs the prepared config: `options` as lab.run's (tensors, batch, head,
   * allHeads), and `x`, a Float32Array of B·S·dModel numbers that replaces X
   * for this call only. The result is lab.run's; the fields every run shares
   * (tokens, ids, vocab, sizes, settings...) are the same frozen objects from
   * call to call, warnings and tensors new ones.
   */
  run(options = {}) {
    const { wanted, allHeads, batch, head } = this.#engine.runOptions(options);
    const x = this.#checkedX(options?.x);
    this.#current();
    return this.#engine.guarded((module) => {
      if (x) module.HEAPF32.set(x, this.#input.offset / 4);
      const wantedText = wanted === null ? '*' : wanted.join(',');
      const outcome = parseEngineJson(module.runPrepared(this.#id, wantedText, batch, head, allHeads.join(','), !!x));
      if (!outcome.ok) return outcome;
      return { ...this.#header, warnings: outcome.warnings, tensors: this.#engine.copyTensors(outcome.tensors) };
    });
  }

  /** lab.decode(config, options) on the prepared config (with its edits): its X and weights, drawn once. */
  decode(options = {}) {
    const { batch } = this.#engine.decodeOptions(options);
    this.#current();
    return this.#engine.guarded((module) =>
      this.#engine.copyArrays(parseEngineJson(module.decodePrepared(this.#id, batch))),
    );
  }

  /** lab.flash(config, options) on the prepared config (with its edits): its X and weights, drawn once. */
  flash(options = {}) {
    const { batch, head, tileQueries, tileKeys } = this.#engine.flashOptions(options);
    this.#current();
    return this.#engine.guarded((module) =>
      this.#engine.copyArrays(parseEngineJson(module.flashPrepared(this.#id, batch, head, tileQueries, tileKeys))),
    );
  }

  /**
   * Applies `edits` ({weights: {W_Q: [[row, column, value]], b_Q: [[column, value]]},
   * embedding: [[token, column, value]]}, as the page's edits) after those
   * applied so far: the handle then runs as lab.run(withEdits(config, edits))
   * would. Nothing is drawn again; an embedding edit rebuilds X, and the next run without a new X
   * projects again only what the edits feed (W_Q: Q alone; W_O: nothing). On an error
   * (an index out of range, an unknown token) nothing changes.
   */
  update(edits) {
    const config = editsConfig(edits);
    this.#current();
    this.#send(config);
    // Kept per cell (its name and indices): a later edit of the same cell moves to the end, as it applies last.
    const keep = (group, cell) => {
      const key = JSON.stringify([group, ...cell.slice(0, -1)]);
      this.#edits.delete(key);
      this.#edits.set(key, [group, cell]);
    };
    for (const [name, cells] of Object.entries(config.weights?.edits ?? {})) for (const cell of cells) keep(name, cell);
    for (const cell of config.embedding?.edits ?? []) keep('', cell);
  }

  // An update's config ({weights: {edits}, embedding: {edits}}) to the engine state.
  #send(config) {
    const { json, tensors } = this.#engine.encode(config);
    this.#engine.guarded((module) => parseEngineJson(module.updatePrepared(this.#id, json, tensors)));
  }

  /** Frees the engine's state; a run or update after this is an error. Calling it again does nothing. */
  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    unreleased.unregister(this);
    if (this.#module && this.#module === this.#engine.module()) this.#module.disposePrepared(this.#id);
    this.#module = null;
  }

  // The engine state on the lab's current instance: prepared again (with the edits) after a restart.
  #current() {
    if (this.#disposed) throw AttentionConfigError.of('prepared', 'prepared-disposed', { field: 'prepared' });
    if (this.#module !== this.#engine.module()) this.#open();
  }

  #open() {
    const { json, tensors } = this.#config;
    const outcome = this.#engine.guarded((module) => ({ module, ...parseEngineJson(module.prepare(json, tensors)) }));
    unreleased.unregister(this); // a state on an instance that restarted went with it
    this.#module = outcome.module;
    this.#id = outcome.id;
    unreleased.register(this, { module: outcome.module, id: outcome.id }, this);
    this.#input = outcome.input;
    this.#header = deepFreeze(outcome.header);
    this.#shape = [outcome.header.sizes.B, outcome.header.sizes.S, outcome.header.sizes.D];
    if (this.#edits.size === 0) return;
    const replay = { weights: {}, embedding: [] };
    for (const [group, cell] of this.#edits.values()) {
      if (group === '') replay.embedding.push(cell);
      else (replay.weights[group] ??= []).push(cell);
    }
    this.#send(editsConfig(replay));
  }

  // run's x: undefined, or a Float32Array of B·S·dModel numbers (an error on "x" otherwise).
  #checkedX(x) {
    if (x === undefined || x === null) return null;
    const count = String(this.#shape[0] * this.#shape[1] * this.#shape[2]);
    const shape = `[${this.#shape.join(', ')}]`;
    if (!(x instanceof Float32Array)) {
      const got = Array.isArray(x) ? 'an array' : (x?.constructor?.name ?? typeof x);
      throw AttentionConfigError.of('x', 'prepared-x-type', { field: 'x', count, shape, got: String(got) });
    }
    if (String(x.length) !== count) {
      throw AttentionConfigError.of('x', 'prepared-x-length', { field: 'x', length: String(x.length), count, shape });
    }
    return x;
  }
}

/** update()'s edits as a config that holds only weights.edits and embedding.edits (an error on "edits" otherwise). */
function editsConfig(edits) {
  const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
  const keys = isObject(edits) ? Object.keys(edits) : [];
  const fits =
    isObject(edits) &&
    keys.every((key) => key === 'weights' || key === 'embedding') &&
    (edits.weights === undefined || isObject(edits.weights)) &&
    (edits.embedding === undefined || Array.isArray(edits.embedding));
  if (!fits) {
    const got = JSON.stringify(edits) ?? String(edits);
    throw AttentionConfigError.of('edits', 'prepared-edits-not-object', { field: 'edits', got: got.slice(0, 80) });
  }
  const config = {};
  if (edits.weights) config.weights = { edits: edits.weights };
  if (edits.embedding) config.embedding = { edits: edits.embedding };
  return config;
}

/** `value` with every object and array in it frozen: the header a handle's results share. */
function deepFreeze(value) {
  if (value !== null && typeof value === 'object') for (const v of Object.values(value)) deepFreeze(v);
  return Object.freeze(value);
}
