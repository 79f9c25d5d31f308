// The page's handle on the engine worker. run() resolves with the result or
// rejects with {field, message}; a newer run() supersedes older pending ones
// (they resolve to null), so typing fast only computes what is still wanted.
export function createEngineClient() {
  const worker = new Worker(new URL('./engine-worker.js', import.meta.url), { type: 'module' });
  const pending = new Map();
  let nextId = 1;
  let latest = 0;

  worker.onmessage = ({ data }) => {
    const entry = pending.get(data.id);
    if (!entry) return;
    pending.delete(data.id);
    if (data.id !== latest) entry.resolve(null);
    else if (data.ok) entry.resolve(data.result);
    else entry.reject(data.error);
  };

  return {
    run(config, options = {}) {
      const id = nextId++;
      latest = id;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, config, options });
      });
    },
  };
}
