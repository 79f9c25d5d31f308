// Runs of a config that changes mostly by its edits, as the page and each
// <attention-lab> make them: a config that differs from the last one only in
// weights.edits and embedding.edits goes through the last lab.prepare handle,
// its new and changed cells sent with update(), so nothing is parsed, drawn or
// embedded again and only the projections an edit feeds are recomputed. Any
// other change (a new token, a setting, an undone edit) prepares anew. The
// results, and the errors, are lab.run's, lab.decode's and lab.flash's:
//
//   const runs = new PreparedRuns(lab);
//   runs.run(config, options);   // = lab.run(config, options)
//   runs.decode(config);         // = lab.decode(config), on the same prepared state
//   runs.release();              // frees the engine state (the next call prepares again)
//
// Every call computes: a result is never reused for unchanged inputs.

/** The cells of a config's edits by cell ("W_Q|[0,5]", "|[\"cat\",2]" for the embedding): [group, cell]. */
function editCells(config) {
  const cells = new Map();
  const add = (group, cell) => {
    if (!Array.isArray(cell)) return false;
    const key = `${group}|${JSON.stringify(cell.slice(0, -1))}`;
    cells.delete(key); // a later edit of the same cell applies last
    cells.set(key, [group, cell.slice()]); // a copy: a caller may change its cell in place before the next run
    return true;
  };
  for (const [name, list] of Object.entries(config.weights?.edits ?? {}))
    if (!Array.isArray(list) || !list.every((cell) => add(name, cell))) return null;
  const embedding = config.embedding?.edits ?? [];
  if (!Array.isArray(embedding) || !embedding.every((cell) => add('', cell))) return null;
  return cells;
}

/** `config` without its edits (and without a weights or embedding object left empty): what a handle is drawn from. */
function withoutEdits(config) {
  const base = { ...config };
  for (const key of ['weights', 'embedding']) {
    if (!config[key] || typeof config[key] !== 'object' || Array.isArray(config[key])) continue;
    const rest = { ...config[key] };
    delete rest.edits;
    if (Object.keys(rest).length > 0) base[key] = rest;
    else delete base[key];
  }
  return base;
}

/** The cells of `next` that `applied` lacks or holds with another value, as update()'s edits; null when one was undone. */
function newCells(applied, next) {
  for (const key of applied.keys()) if (!next.has(key)) return null;
  const edits = { weights: {}, embedding: [] };
  let count = 0;
  for (const [key, [group, cell]] of next) {
    const before = applied.get(key)?.[1];
    if (before && Object.is(before.at(-1), cell.at(-1))) continue;
    if (group === '') edits.embedding.push(cell);
    else (edits.weights[group] ??= []).push(cell);
    count++;
  }
  return count === 0 ? {} : edits;
}

// Above this many numbers in a config's typed arrays (explicit weights, a given X), comparing the config
// with the last one would cost about what the run costs: such a config runs as it is.
const COMPARED_NUMBERS = 4096;

/** The numbers `value`'s typed arrays hold, counted until past `limit`. */
function typedNumbers(value, limit) {
  if (ArrayBuffer.isView(value)) return value.length;
  if (value === null || typeof value !== 'object') return 0;
  let count = 0;
  for (const child of Object.values(value)) if ((count += typedNumbers(child, limit - count)) > limit) break;
  return count;
}

// A config the engine runs as plain attention (a prepared handle holds it), compared cheaply; the tiny model,
// config text and large typed arrays run as they are.
const preparable = (config) =>
  config !== null &&
  typeof config === 'object' &&
  !Array.isArray(config) &&
  (config.model ?? 'attention') === 'attention' &&
  typedNumbers(config, COMPARED_NUMBERS) <= COMPARED_NUMBERS;

/**
 * `previous` (a PreparedRuns, or null) when it runs on `lab`, else new prepared runs on it: a client's
 * runs after the engine reloaded (its state went with the old instance).
 */
export const preparedRunsOn = (previous, lab) => (previous?.lab === lab ? previous : new PreparedRuns(lab));

export class PreparedRuns {
  #lab;
  #handle = null; // the PreparedRun of #base, with #applied's edits
  #base = null; // JSON of the config without its edits
  #applied = new Map(); // the edit cells the handle holds

  constructor(lab) {
    this.#lab = lab;
  }

  /** The lab these runs go to. */
  get lab() {
    return this.#lab;
  }

  /** lab.run(config, options), through the prepared handle when only the edits changed. */
  run(config, options = {}) {
    return this.#call(
      config,
      (handle) => handle.run(options),
      () => this.#lab.run(config, options),
    );
  }

  /** lab.decode(config, options), likewise. */
  decode(config, options = {}) {
    return this.#call(
      config,
      (handle) => handle.decode(options),
      () => this.#lab.decode(config, options),
    );
  }

  /** lab.flash(config, options), likewise. */
  flash(config, options = {}) {
    return this.#call(
      config,
      (handle) => handle.flash(options),
      () => this.#lab.flash(config, options),
    );
  }

  /** Frees the engine state; the next call prepares again. */
  release() {
    this.#handle?.dispose();
    this.#handle = null;
    this.#base = null;
    this.#applied = new Map();
  }

  #call(config, viaHandle, plain) {
    const handle = preparable(config) ? this.#handleFor(config) : null;
    return handle ? viaHandle(handle) : plain();
  }

  // The handle that runs `config`, brought up to its edits; null when it cannot be prepared (lab's plain call
  // then gives its result, or its error, as it would without a handle).
  #handleFor(config) {
    const cells = editCells(config);
    if (!cells) return null;
    const base = JSON.stringify(withoutEdits(config));
    const edits = this.#handle && base === this.#base ? newCells(this.#applied, cells) : null;
    if (edits) {
      try {
        if (edits.weights || edits.embedding) this.#handle.update(edits);
        this.#applied = cells;
        return this.#handle;
      } catch {
        return null; // a bad edit: the plain call names it as lab.run does (the handle is unchanged)
      }
    }
    this.release();
    try {
      this.#handle = this.#lab.prepare(config);
    } catch {
      return null;
    }
    this.#base = base;
    this.#applied = cells;
    return this.#handle;
  }
}
