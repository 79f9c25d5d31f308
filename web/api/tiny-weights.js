// Where the tiny model's weights come from: web/api/tiny/step-NNNN.safetensors,
// next to this module (about 107 KB each, float16). Fetched in browsers (the
// site's build emits each checkpoint as a file of its own, dist/tiny/, loaded
// only when asked for) and read from disk in Node. The single-file and
// standalone builds swap this module for tiny-weights.single.js.
import { fetchWeightsFile } from './tiny-files.js';

const NODE_FS = 'node:fs/promises';

/** The URL of checkpoint `step`'s weights file. */
export function tinyWeightsUrl(step) {
  // One literal pattern, so that Vite bundles every checkpoint as an asset: weightsFileName(step), written out.
  return new URL(`./tiny/step-${String(step).padStart(4, '0')}.safetensors`, import.meta.url);
}

/** The bytes of a weights file at `url`: from disk in Node, else fetched. */
export async function readWeightsFile(url) {
  if (url.protocol === 'file:' && typeof process === 'object' && process.versions?.node) {
    const { readFile } = await import(/* @vite-ignore */ NODE_FS);
    return new Uint8Array(await readFile(url));
  }
  return fetchWeightsFile(url);
}
