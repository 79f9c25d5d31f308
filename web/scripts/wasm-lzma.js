// How build-single.js compresses the engine's wasm for the single file and the standalone scripts
// (xz's .lzma format), shared with the decoder's test so that it decodes what the build writes.
// The strongest preset with no position bits (pb=0 where the preset has 2): wasm code is bytes, not
// 4-byte words, and the engine's stream comes out 391 bytes (0.3 %) smaller, which the standalone
// scripts' 250 KB budget needs.
export const WASM_LZMA_OPTIONS = '--lzma1=preset=9e,lc=3,lp=0,pb=0';
