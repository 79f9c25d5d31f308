// The page's handle on the engine. Small runs (the usual tutorial sizes) run
// right here, which costs microseconds; large ones go to a worker so the page
// never freezes (512 tokens × dModel 768 takes a few hundred ms).
// run() resolves with the result, or null when a newer run() superseded it,
// and rejects with {field, code, params, message}. A worker that fails to load, crashes or
// does not answer in time is dropped, and the runs go on on the main thread.
import { loadAttentionLab } from '../api/index.js';
import { createEngineWorker } from './worker-factory.js';

// Multiply-adds above which a run moves off the main thread (~2 ms of wasm).
const MAIN_THREAD_LIMIT = 2e6;
// A worker run that takes longer than this is given up on.
const WORKER_TIMEOUT_MS = 60_000;

// Characters the "auto" tokenizer makes tokens of their own (Han, Kana, Hangul), roughly.
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]/g;
/** About how many tokens a sentence makes: its words, plus one per CJK character. */
const tokenCount = (line) => line.split(/\s+/).filter(Boolean).length + (line.match(CJK)?.length ?? 0);

/** A rough count of a config's multiply-adds: projections plus scores and sums. */
export function estimateWork(config) {
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

/** A run (or `call`: "decode", "flash") on this thread; null if `stillWanted()` turned false while the engine loaded. */
async function runHere(config, options, stillWanted = () => true, call = 'run') {
  let lab;
  try {
    lab = await loadAttentionLab();
  } catch (error) {
    throw asProblem(error);
  }
  if (!stillWanted()) return null;
  try {
    return lab[call](config, options);
  } catch (error) {
    throw asProblem(error);
  }
}

export function createEngineClient({ workerFactory = createEngineWorker, timeoutMs = WORKER_TIMEOUT_MS } = {}) {
  let worker = null;
  let workerBroken = !workerFactory;
  const pending = new Map(); // id -> {resolve, reject, timer, config, options, stillWanted}
  let nextId = 1;
  let latest = 0;

  // The worker failed: forget it, and rerun what it held on the main thread.
  const dropWorker = () => {
    worker?.terminate();
    worker = null;
    workerBroken = true;
    for (const [id, entry] of pending) {
      pending.delete(id);
      clearTimeout(entry.timer);
      if (!entry.stillWanted()) entry.resolve(null);
      else runHere(entry.config, entry.options, () => true, entry.call).then(entry.resolve, entry.reject);
    }
  };

  const startWorker = () => {
    worker = workerFactory();
    worker.onmessage = ({ data }) => {
      // The worker could not load the engine: its runs, and the next ones, go to the main thread.
      if (data.fatal) return dropWorker();
      const entry = pending.get(data.id);
      if (!entry) return;
      pending.delete(data.id);
      clearTimeout(entry.timer);
      if (!entry.stillWanted()) entry.resolve(null);
      else if (data.ok) entry.resolve(data.result);
      else entry.reject(data.error);
    };
    worker.onerror = (event) => {
      event.preventDefault?.();
      dropWorker();
    };
    worker.onmessageerror = dropWorker;
  };

  // One engine call: on this thread when small (or without a worker), else in the worker.
  const callEngine = (call, config, options, superseding) => {
    const id = nextId++;
    if (superseding) latest = id;
    const stillWanted = () => !superseding || id === latest;
    if (estimateWork(config) <= MAIN_THREAD_LIMIT || workerBroken) return runHere(config, options, stillWanted, call);
    if (!worker) {
      try {
        startWorker();
      } catch {
        workerBroken = true;
        return runHere(config, options, () => true, call);
      }
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(dropWorker, timeoutMs);
      pending.set(id, { resolve, reject, timer, config, options, stillWanted, call });
      worker.postMessage({ id, config, options, call });
    });
  };

  return {
    /** Whether runs still go to a worker (false once it failed). */
    get usesWorker() {
      return !workerBroken;
    },
    /**
     * A run (RunOptions `options`); with `superseding` false it neither
     * supersedes the others nor is superseded (a download's full result).
     */
    async run(config, options = {}, { superseding = true } = {}) {
      return callEngine('run', config, options, superseding);
    },
    /**
     * lab.decode (DecodeOptions) and lab.flash (FlashOptions), the steppers:
     * resolve with the result (they neither supersede a run nor are
     * superseded), reject like run.
     */
    async decode(config, options = {}) {
      return callEngine('decode', config, options, false);
    },
    async flash(config, options = {}) {
      return callEngine('flash', config, options, false);
    },
  };
}
