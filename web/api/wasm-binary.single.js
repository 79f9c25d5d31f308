// The single-file build's engine: the .wasm inlined (base64) in the page, so
// it works from file:// with no network; decoded here, never fetched.
// build-single.js writes that module (under build/, not shipped) and
// vite.single.config.js resolves the name to it.
import { WASM_BASE64 } from 'attention-lab-wasm-base64';
import { compileWasm } from './wasm-instance.js';

let compiled = null;

export function compileEngine() {
  compiled ??= compileWasm(Uint8Array.from(atob(WASM_BASE64), (c) => c.charCodeAt(0)));
  return compiled;
}
