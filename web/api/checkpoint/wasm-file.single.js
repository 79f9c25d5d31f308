// The single-file and standalone builds' checkpoint wasm: not inlined (it is
// only wanted when a model is opened) but fetched from checkpoint/ beside the
// script (the standalone element) or the page (the single file), where the
// site's build puts it (dist/checkpoint/attention-lab-checkpoint.wasm). From
// file:// a browser cannot fetch it: opening a model then says so.
const base = globalThis.document?.currentScript?.src || globalThis.location?.href;
const WASM_URL = new URL('./checkpoint/attention-lab-checkpoint.wasm', base);

/** The wasm's bytes, fetched. */
export async function readCheckpointWasm() {
  const response = await fetch(WASM_URL);
  if (!response.ok) throw new Error(`${WASM_URL}: HTTP ${response.status}`);
  return response.arrayBuffer();
}
