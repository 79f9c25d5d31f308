// The single-file builds' engine: the .wasm inlined in the page or the script,
// so it works from file:// with no network; never fetched. It is inlined
// deflated (deflate-raw, then base64: 194 KB of text that gzips to 146 KB,
// where the plain wasm's base64 gzips to 194 KB) and inflated here by the
// browser's DecompressionStream. build-single.js writes that module (under
// build/, not shipped) and vite.single.config.js resolves the name to it.
import { WASM_DEFLATE_RAW_BASE64 } from 'attention-lab-wasm-base64';
import { compileWasm } from './wasm-instance.js';

let compiled = null;

/** The bytes of a base64 text of deflate-raw data, inflated. */
async function inflate(base64) {
  const packed = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new Response(stream).arrayBuffer();
}

export function compileEngine() {
  compiled ??= inflate(WASM_DEFLATE_RAW_BASE64).then(compileWasm);
  return compiled;
}
