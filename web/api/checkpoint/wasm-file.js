// Where the checkpoint wasm (generated/attention-lab-checkpoint.wasm) comes
// from: read from disk in Node, fetched in browsers (the site's build emits it
// as dist/checkpoint/attention-lab-checkpoint.wasm, loaded only when a model
// is first opened). The single-file and standalone builds swap this module
// for wasm-file.single.js.
import { readInNode } from '../node-file.js';

const WASM_URL = new URL('../generated/attention-lab-checkpoint.wasm', import.meta.url);

/** The wasm's bytes. */
export async function readCheckpointWasm() {
  const inNode = readInNode(WASM_URL);
  if (inNode) return inNode;
  const response = await fetch(WASM_URL);
  if (!response.ok) throw new Error(`${WASM_URL}: HTTP ${response.status}`);
  return response.arrayBuffer();
}
