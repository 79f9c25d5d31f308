// The single-file and standalone builds' checkpoint wasm: not inlined (it is
// only wanted when a model is opened) but fetched from checkpoint/ beside the
// script (the standalone element) or the page (the single file), where the
// site's build puts it (dist/checkpoint/attention-lab-checkpoint.wasm). From
// file:// a browser cannot fetch it: opening a model then says so.
import { AttentionConfigError } from '../errors.js';

const base = globalThis.document?.currentScript?.src || globalThis.location?.href;
const WASM_URL = new URL('./checkpoint/attention-lab-checkpoint.wasm', base);

/** The wasm's bytes, fetched; from file://, an error that says to serve the page. */
export async function readCheckpointWasm() {
  if (WASM_URL.protocol === 'file:')
    throw AttentionConfigError.of('checkpoint', 'checkpoint-needs-server', { url: WASM_URL.href });
  const response = await fetch(WASM_URL);
  if (!response.ok) throw new Error(`${WASM_URL}: HTTP ${response.status}`);
  return response.arrayBuffer();
}
