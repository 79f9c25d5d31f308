// Where the engine's WebAssembly comes from: the .wasm file next to the
// generated glue, compiled while it streams in browsers and read from disk in
// Node. The compiled module is kept, so a fresh instance (after the engine
// stopped, or to give memory back) costs no second download or compile. The
// single-file build swaps this module for wasm-binary.single.js (inlined).
import { AttentionEngineError } from './errors.js';
import { readInNode } from './node-file.js';
import { compileWasm, compileWasmStreaming } from './wasm-instance.js';

const WASM_URL = new URL('./generated/attention-lab-wasm.wasm', import.meta.url);

async function compile() {
  const inNode = readInNode(WASM_URL);
  if (inNode) return WebAssembly.compile(await inNode);
  const response = fetch(WASM_URL);
  if (WebAssembly.compileStreaming) {
    try {
      return await compileWasmStreaming(response);
    } catch (error) {
      if (error instanceof AttentionEngineError) throw error; // a CSP that forbids it: the bytes would fail too
      // A host that serves .wasm without application/wasm: compile from the bytes.
    }
  }
  const bytes = await (await fetch(WASM_URL)).arrayBuffer();
  return compileWasm(bytes);
}

let compiled = null;

/** The compiled engine (a WebAssembly.Module), compiled once. */
export function compileEngine() {
  compiled ??= compile().catch((error) => {
    compiled = null; // a later call tries again
    if (error instanceof AttentionEngineError) throw error; // it says what to change itself
    throw new Error(`the engine could not be loaded from ${WASM_URL}: ${error.message}`);
  });
  return compiled;
}
