// The single-file and standalone builds' tiny-model files: not inlined (the
// weights would weigh eight times 129 KB, and the model's wasm is only wanted
// with the mode), but fetched from tiny/ beside the script (the standalone
// element) or the page (the single file), where the site's build puts them
// (dist/tiny/step-NNNN.safetensors, attention-lab-tiny.wasm). From file:// a
// browser cannot fetch them: the page then says so.
import { fetchTinyFile, weightsFileName } from './tiny-files.js';

const base = globalThis.document?.currentScript?.src || globalThis.location?.href;

/** The URL of checkpoint `step`'s weights file. */
export function tinyWeightsUrl(step) {
  return new URL(`./tiny/${weightsFileName(step)}`, base);
}

/** The URL of the tiny model's wasm. */
export const tinyWasmUrl = new URL('./tiny/attention-lab-tiny.wasm', base);

/** The bytes of a tiny model file (weights, wasm) at `url`, fetched. */
export const readTinyFile = fetchTinyFile;
