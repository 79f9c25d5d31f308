// The page's handle on the engine. Small runs (the usual tutorial sizes) run
// right here, which costs microseconds; large ones go to a worker so the page
// never freezes (512 tokens × dModel 768 takes a few hundred ms).
// run() resolves with the result, or null when a newer run() superseded it,
// and rejects with {field, message}.
import { loadAttentionLab } from '../api/index.js';
import { createEngineWorker } from './worker-factory.js';

// Multiply-adds above which a run moves off the main thread (~2 ms of wasm).
const MAIN_THREAD_LIMIT = 2e6;

/** A rough count of a config's multiply-adds: projections plus scores and sums. */
export function estimateWork(config) {
  const lines = [config.text, ...(config.texts ?? []), config.contextText, ...(config.contextTexts ?? [])].filter((x) => typeof x === 'string');
  const longest = Math.max(1, ...lines.map((line) => line.split(/\s+/).filter(Boolean).length));
  const batch = Math.max(1, config.texts?.length ?? 1);
  const S = Math.min(Number(config.maxLen) || longest, 4096);
  const D = Number(config.dModel) || 8;
  return batch * (4 * S * D * D + 2 * S * S * D);
}

export function createEngineClient() {
  let worker = null;
  const pending = new Map();
  let nextId = 1;
  let latest = 0;

  const startWorker = () => {
    worker = createEngineWorker();
    worker.onmessage = ({ data }) => {
      const entry = pending.get(data.id);
      if (!entry) return;
      pending.delete(data.id);
      if (data.id !== latest) entry.resolve(null);
      else if (data.ok) entry.resolve(data.result);
      else entry.reject(data.error);
    };
  };

  return {
    async run(config, options = {}) {
      const id = nextId++;
      latest = id;
      if (estimateWork(config) <= MAIN_THREAD_LIMIT || !createEngineWorker) {
        const lab = await loadAttentionLab();
        if (id !== latest) return null;
        try {
          return lab.run(config, options);
        } catch (error) {
          throw { field: error.field ?? 'config', message: error.message };
        }
      }
      if (!worker) startWorker();
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, config, options });
      });
    },
  };
}
