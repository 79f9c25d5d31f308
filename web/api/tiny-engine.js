// The tiny trained model's own wasm (cpp/wasm/tiny_bindings.cpp: its weights
// reader and forward), loaded by lab.loadTinyModel with the first weights, so
// a page fetches none of it before the "Trained model" mode is chosen. The
// engine's wasm reads and checks a run's config; this one runs the forward.
import { readTinyFile, tinyWasmUrl } from './tiny-weights.js';
import { compileWasm, instantiate } from './wasm-instance.js';

/**
 * A new instance of the tiny model's wasm ({loadWeights(step, bytes), run(step, ids)}, each returning JSON
 * text). lab.loadTinyModel makes one (and one more only after a trap), so the module is not kept.
 */
export const createTinyInstance = () =>
  instantiate(
    import('./generated/attention-lab-tiny.js'),
    readTinyFile(tinyWasmUrl).then((bytes) => compileWasm(bytes)),
  );
