// The single-file and standalone builds' tiny-model weights: not inlined (they
// would weigh eight times 107 KB), but fetched from tiny/ beside the script
// (the standalone element) or the page (the single file), where the site's
// build puts them (dist/tiny/step-NNNN.safetensors). From file:// a browser
// cannot fetch them: the page then says so, and lab.loadTinyModel(step, bytes)
// takes the bytes of a file the reader chose.
const base = globalThis.document?.currentScript?.src || globalThis.location?.href;

/** The URL of checkpoint `step`'s weights file. */
export function tinyWeightsUrl(step) {
  return new URL(`./tiny/step-${String(step).padStart(4, '0')}.safetensors`, base);
}

/** The bytes of a weights file at `url`, fetched. */
export async function readWeightsFile(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
  return new Uint8Array(await response.arrayBuffer());
}
