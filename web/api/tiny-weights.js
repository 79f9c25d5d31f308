// Where the tiny model's files come from: its weights, web/api/tiny/step-NNNN.safetensors
// next to this module (about 129 KB each, float16), and its wasm (the forward,
// generated/attention-lab-tiny.wasm). Fetched in browsers (the site's build
// emits each as a file of its own, in dist/tiny/, loaded only when asked for)
// and read from disk in Node. The single-file and standalone builds swap this
// module for tiny-weights.single.js.
import { readInNode } from './node-file.js';
import { fetchTinyFile, weightsFileName } from './tiny-files.js';

// One checkpoint's file named by URL, so the site's build emits it in dist/tiny/ (where its plugin
// puts the others too, web/vite.config.js): every checkpoint's file is found beside it.
const LAST_WEIGHTS = new URL('./tiny/step-11000.safetensors', import.meta.url);

/** The URL of checkpoint `step`'s weights file. */
export const tinyWeightsUrl = (step) => new URL(weightsFileName(step), LAST_WEIGHTS);

/** The URL of the tiny model's wasm. */
export const tinyWasmUrl = new URL('./generated/attention-lab-tiny.wasm', import.meta.url);

/** The bytes of a tiny model file (weights, wasm) at `url`: from disk in Node, else fetched. */
export async function readTinyFile(url) {
  const inNode = readInNode(url);
  if (inNode) return new Uint8Array(await inNode);
  return fetchTinyFile(url);
}
