// The single-file builds' engine: the .wasm inlined in the page or the script,
// so it works from file:// with no network; never fetched. It is inlined as
// LZMA and base64 (153 KB of text that gzips to 116 KB, where deflate's gzips
// to 146 KB and the plain wasm's base64 to 194 KB), with the decoder's own
// small wasm beside it (lzma-decode.js). build-single.js writes that module
// (under build/, not shipped) and vite.single.config.js resolves the name to it.
import { LZMA_DECODER_BASE64, WASM_LZMA_BASE64 } from 'attention-lab-wasm-base64';
import { base64Bytes, lzmaDecode } from './lzma-decode.js';
import { compileWasm } from './wasm-instance.js';

let compiled = null;

export function compileEngine() {
  compiled ??= lzmaDecode(base64Bytes(LZMA_DECODER_BASE64), base64Bytes(WASM_LZMA_BASE64)).then(compileWasm);
  return compiled;
}
