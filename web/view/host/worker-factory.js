// The engine worker, the page's and the element's (the single-file builds swap
// this module for worker-factory.single.js, which has none).
export const createEngineWorker = () => new Worker(new URL('./engine-worker.js', import.meta.url), { type: 'module' });
