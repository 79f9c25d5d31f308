// Where the checkpoint wasm (generated/attention-lab-checkpoint.wasm) comes
// from: read from disk in Node, fetched in browsers (the site's build emits it
// as dist/checkpoint/attention-lab-checkpoint.wasm, loaded only when a model
// is first opened). The single-file and standalone builds swap this module
// for wasm-file.single.js.
const NODE_FS = 'node:fs/promises';
const WASM_URL = new URL('../generated/attention-lab-checkpoint.wasm', import.meta.url);

/** The wasm's bytes. */
export async function readCheckpointWasm() {
  if (WASM_URL.protocol === 'file:' && typeof process === 'object' && process.versions?.node) {
    const { readFile } = await import(/* @vite-ignore */ NODE_FS);
    return readFile(WASM_URL);
  }
  const response = await fetch(WASM_URL);
  if (!response.ok) throw new Error(`${WASM_URL}: HTTP ${response.status}`);
  return response.arrayBuffer();
}
