// The engine worker (the single-file build swaps this module for
// worker-factory.single.js, which has none: file:// pages cannot start one).
export const createEngineWorker = () => new Worker(new URL('./engine-worker.js', import.meta.url), { type: 'module' });
