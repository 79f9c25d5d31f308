// The tiny trained model's own wasm (cpp/wasm/tiny_bindings.cpp: its weights
// reader and forward), loaded by lab.loadTinyModel with the first weights, so
// a page fetches none of it before the "Trained model" mode is chosen. The
// engine's wasm reads and checks a run's config; this one runs the forward.
import { readTinyFile, tinyWasmUrl } from './tiny-weights.js';
import { instantiate, once } from './wasm-instance.js';

// A failure is lab.loadTinyModel's error model-not-fetched, in the reader's language.
const compileTinyModel = once(async () => WebAssembly.compile(await readTinyFile(tinyWasmUrl)));

/** A new instance of the tiny model's wasm ({loadWeights(step, bytes), run(step, ids)}, each returning JSON text). */
export const createTinyInstance = () => instantiate(import('./generated/attention-lab-tiny.js'), compileTinyModel());
