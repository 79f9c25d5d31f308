// The single-file and standalone builds' tiny-model weights: not inlined (they
// would weigh eight times 107 KB), but fetched from tiny/ beside the script
// (the standalone element) or the page (the single file), where the site's
// build puts them (dist/tiny/step-NNNN.safetensors). From file:// a browser
// cannot fetch them: the page then says so, and lab.loadTinyModel(step, bytes)
// takes the bytes of a file the reader chose.
import { fetchWeightsFile, weightsFileName } from './tiny-files.js';

const base = globalThis.document?.currentScript?.src || globalThis.location?.href;

/** The URL of checkpoint `step`'s weights file. */
export function tinyWeightsUrl(step) {
  return new URL(`./tiny/${weightsFileName(step)}`, base);
}

/** The bytes of a weights file at `url`, fetched. */
export const readWeightsFile = fetchWeightsFile;
