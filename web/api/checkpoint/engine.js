// The checkpoint wasm (cpp/wasm/checkpoint_bindings.cpp: the piecewise loader
// and the families' forwards), compiled once when a model is first opened;
// each opened model gets an instance of its own, whose memory (the weights)
// goes with it.
import { instantiate } from '../wasm-instance.js';

const WASM_URL = new URL('../generated/attention-lab-checkpoint.wasm', import.meta.url);
const NODE_FS = 'node:fs/promises';

let compiled = null;

async function compile() {
  if (WASM_URL.protocol === 'file:' && typeof process === 'object' && process.versions?.node) {
    const { readFile } = await import(/* @vite-ignore */ NODE_FS);
    return WebAssembly.compile(await readFile(WASM_URL));
  }
  const response = await fetch(WASM_URL);
  if (!response.ok) throw new Error(`${WASM_URL}: HTTP ${response.status}`);
  return WebAssembly.compile(await response.arrayBuffer());
}

/** A new instance ({setConfig, addShard, plan, put, finish, run}, each returning JSON text). */
export function createCheckpointInstance() {
  compiled ??= compile().catch((error) => {
    compiled = null; // a later open tries again
    throw error;
  });
  return instantiate(import('../generated/attention-lab-checkpoint.js'), compiled);
}
