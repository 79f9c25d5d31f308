// The host's handle on the engine (the page's and each element's). Small runs
// (the usual tutorial sizes) run right here, which costs microseconds; large
// ones go to a worker so the page never freezes (512 tokens × dModel 768 takes
// a few hundred ms). The worker is started at the first large run, and one
// serves every client of a page.
// run() resolves with the result, or null when a newer run() superseded it,
// and rejects with {field, code, params, message}. A worker that fails to load, crashes or
// does not answer in time is dropped, and the runs go on on the main thread.
import { loadAttentionLab } from '../../api/index.js';
import { preparedRunsOn } from '../../api/prepared-runs.js';
import { createEngineWorker } from './worker-factory.js';

// Multiply-adds above which a run moves off the main thread (~2 ms of wasm).
const MAIN_THREAD_LIMIT = 2e6;
// A worker run that takes longer than this is given up on.
const WORKER_TIMEOUT_MS = 60_000;

// Characters the "auto" tokenizer makes tokens of their own (Han, Kana, Hangul), roughly.
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]/g;
/** About how many tokens a sentence makes: its words, plus one per CJK character. */
const tokenCount = (line) => line.split(/\s+/).filter(Boolean).length + (line.match(CJK)?.length ?? 0);

/**
 * A rough count of a config's multiply-adds: projections plus scores and sums.
 * The tiny model (model "tiny") counts as none: it runs on this thread, whose
 * engine holds its weights (loadTinyModel), and its 256 bytes at most take a few milliseconds.
 */
export function estimateWork(config) {
  if (config.model === 'tiny') return 0;
  const lines = [config.text, ...(config.texts ?? []), config.contextText, ...(config.contextTexts ?? [])].filter(
    (x) => typeof x === 'string',
  );
  const preSplit = [...(config.tokens ?? []), ...(config.contextTokens ?? [])].filter(Array.isArray);
  const longest = Math.max(1, ...lines.map(tokenCount), ...preSplit.map((tokens) => tokens.length));
  const rows = Array.isArray(config.texts) ? config.texts : Array.isArray(config.tokens) ? config.tokens : [];
  const batch = Math.max(1, rows.length);
  const S = Math.min(Number(config.maxLen) || longest, 4096);
  const D = Number(config.dModel) || 8;
  return batch * (4 * S * D * D + 2 * S * S * D);
}

/** An engine error as the page shows it: {field, code, params, message} (web/i18n errorText says it). */
const asProblem = (error) => ({
  field: error?.field ?? 'engine',
  code: error?.code,
  params: error?.params ?? {},
  message: error?.message ?? String(error),
});

/**
 * A client's prepared runs on this thread (api/prepared-runs.js): an edit of
 * the config shown runs from its prepared state. `lab` is the lab to run on;
 * a new one (the engine reloaded) gets new prepared runs.
 */
function preparedRunsHere() {
  let runs = null;
  return {
    on: (lab) => (runs = preparedRunsOn(runs, lab)),
    release: () => runs?.release(),
  };
}

/**
 * A call of the engine (`method`: run, or a stepper's decode or flash) on this
 * thread, through the client's prepared runs `here`; null if `stillWanted()`
 * turned false while the engine loaded.
 */
async function callHere(method, config, options, stillWanted, here) {
  let lab;
  try {
    lab = await loadAttentionLab();
  } catch (error) {
    throw asProblem(error);
  }
  if (!stillWanted()) return null;
  try {
    return here.on(lab)[method](config, options);
  } catch (error) {
    throw asProblem(error);
  }
}

/** A worker's answer to a pending call: null when the call is no longer wanted. */
function settle(entry, { ok, result, error }) {
  clearTimeout(entry.timer);
  if (!entry.stillWanted()) entry.resolve(null);
  else if (ok) entry.resolve(result);
  else entry.reject(error);
}

/** A pending call again on this thread (its worker failed): null when it is no longer wanted. */
function rerunHere(entry) {
  clearTimeout(entry.timer);
  if (!entry.stillWanted()) entry.resolve(null);
  else callHere(entry.method, entry.config, entry.options, () => true, entry.here).then(entry.resolve, entry.reject);
}

/**
 * One engine worker, started at the first call sent to it, and the calls it
 * holds. A worker that fails to load, crashes or does not answer in time is
 * dropped: what it held, and every call after, runs on this thread.
 */
function createWorkerLink(workerFactory, timeoutMs) {
  let worker = null;
  let broken = !workerFactory;
  const pending = new Map(); // id -> {resolve, reject, timer, method, config, options, stillWanted, here}
  let nextId = 1;

  // The worker failed: forget it, and rerun what it held on the main thread.
  const drop = () => {
    worker?.terminate();
    worker = null;
    broken = true;
    for (const [id, entry] of pending) {
      pending.delete(id);
      rerunHere(entry);
    }
  };

  const answer = ({ data }) => {
    // The worker could not load the engine: its runs, and the next ones, go to the main thread.
    if (data.fatal) return drop();
    const entry = pending.get(data.id);
    if (!entry) return;
    pending.delete(data.id);
    settle(entry, data);
  };

  const start = () => {
    worker = workerFactory();
    worker.onmessage = answer;
    worker.onerror = (event) => {
      event.preventDefault?.();
      drop();
    };
    worker.onmessageerror = drop;
  };

  return {
    get broken() {
      return broken;
    },
    /**
     * A call in the worker, through the prepared runs of client `session` there (on this thread, through
     * `here`, if it cannot start); null if `stillWanted()` turned false.
     */
    call(method, config, options, stillWanted, session, here) {
      if (!worker) {
        try {
          start();
        } catch {
          broken = true;
          return callHere(method, config, options, stillWanted, here);
        }
      }
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(drop, timeoutMs);
        pending.set(id, { resolve, reject, timer, method, config, options, stillWanted, here });
        worker.postMessage({ id, method, config, options, session });
      });
    },
    /** Frees client `session`'s prepared state in the worker, if it has one. */
    release(session) {
      worker?.postMessage({ method: 'release', session });
    },
  };
}

// Each client's prepared runs in a shared worker are its session's.
let nextSession = 1;

// The shipped worker's link, shared by every client of a page (the page's, each element's): one worker, one
// engine instance in it, whatever the number of elements.
let sharedLink = null;
const linkFor = (workerFactory, timeoutMs) =>
  workerFactory === createEngineWorker && timeoutMs === WORKER_TIMEOUT_MS
    ? (sharedLink ??= createWorkerLink(workerFactory, timeoutMs))
    : createWorkerLink(workerFactory, timeoutMs);

/**
 * An engine client: small runs here, large ones in the worker (shared by the
 * clients of a page). Its runs supersede one another, not another client's.
 */
export function createEngineClient({ workerFactory = createEngineWorker, timeoutMs = WORKER_TIMEOUT_MS } = {}) {
  const link = linkFor(workerFactory, timeoutMs);
  const session = nextSession++; // this client's prepared runs in the worker
  const here = preparedRunsHere(); // and on this thread
  let inWorker = false; // where the last call went: the prepared state on the other side is released
  let calls = 0;
  let latest = 0;

  async function call(method, config, options, superseding) {
    const id = ++calls;
    if (superseding) latest = id;
    const stillWanted = () => !superseding || id === latest;
    const toWorker = estimateWork(config) > MAIN_THREAD_LIMIT && !link.broken;
    if (toWorker !== inWorker) {
      if (inWorker) link.release(session);
      else here.release();
      inWorker = toWorker;
    }
    if (!toWorker) return callHere(method, config, options, stillWanted, here);
    return link.call(method, config, options, stillWanted, session, here);
  }

  return {
    /** Whether runs still go to a worker (false once it failed). */
    get usesWorker() {
      return !link.broken;
    },
    /**
     * A run (RunOptions `options`); with `superseding` false it neither
     * supersedes the others nor is superseded (a download's full result).
     */
    async run(config, options = {}, { superseding = true } = {}) {
      return call('run', config, options, superseding);
    },
    /** A stepper's figures (lab.decode or lab.flash: `method`), off the main thread like a large run; never superseded. */
    stepper(method, config, options = {}) {
      return call(method, config, options, false);
    },
    /**
     * The tiny model's weights of `checkpoint` (lab.loadTinyModel: the shipped file, or `bytes`), loaded into
     * this thread's engine, where its runs go. Resolves {step, bytes}; rejects with {field, code, params, message}.
     */
    /** The bytes of this thread's engine instance (its wasm memory only grows: the soak test reads it). */
    async memoryBytes() {
      return (await loadAttentionLab()).memoryBytes;
    },
    /** Frees the client's prepared engine state (an element taken off the page); the next run prepares again. */
    release() {
      here.release();
      link.release(session);
    },
    async loadTinyModel(checkpoint, bytes) {
      try {
        const lab = await loadAttentionLab();
        return await lab.loadTinyModel(checkpoint, bytes);
      } catch (error) {
        throw asProblem(error);
      }
    },
  };
}
