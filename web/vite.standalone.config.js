import { defineConfig } from 'vite';

// dist/attention-lab-element.standalone.js is built from this: the element as
// one classic script (IIFE) with the wasm inlined (wasm-binary.single.js, the
// single page's engine) and the Chinese strings in the same file (no chunks:
// a classic script cannot import, and file:// cannot fetch). build-single.js
// writes the wasm's base64 module first, then runs this build.
// The Emscripten glue names its .wasm by URL (new URL(..., import.meta.url)),
// which a library build would inline a second time as a data: URL, and an
// IIFE has no import.meta. The engine is instantiated from the inlined module
// (instantiateWasm in api/index.js), so the glue never fetches that file: the
// URL becomes the bare name and the script's own URL unknown.
const GLUE_WASM_URL = 'new URL("attention-lab-wasm.wasm",import.meta.url).toString()';
const glueWithoutUrls = {
  name: 'attention-lab-glue-without-urls',
  enforce: 'pre',
  transform(code, id) {
    if (!id.endsWith('/api/generated/attention-lab-wasm.js')) return null;
    if (!code.includes(GLUE_WASM_URL)) throw new Error('standalone: the glue no longer names its .wasm as expected');
    return code.replace(GLUE_WASM_URL, '"attention-lab-wasm.wasm"').replaceAll('import.meta.url', 'undefined');
  },
};

export default defineConfig({
  plugins: [glueWithoutUrls],
  root: new URL('.', import.meta.url).pathname,
  resolve: {
    alias: [
      { find: /^\.\/wasm-binary\.js$/, replacement: new URL('./api/wasm-binary.single.js', import.meta.url).pathname },
      // The tiny model's weights are fetched from dist/tiny/, never inlined.
      {
        find: /^\.\/tiny-weights\.js$/,
        replacement: new URL('./api/tiny-weights.single.js', import.meta.url).pathname,
      },
      {
        find: 'attention-lab-wasm-base64',
        replacement: new URL('../build/single-wasm/attention-lab-wasm-base64.js', import.meta.url).pathname,
      },
    ],
  },
  build: {
    outDir: new URL('../dist', import.meta.url).pathname,
    emptyOutDir: false, // dist/ holds the site, built first
    copyPublicDir: false,
    target: 'es2022',
    lib: {
      entry: new URL('./element/standalone.js', import.meta.url).pathname,
      formats: ['iife'],
      name: 'AttentionLabStandalone', // unused: the entry exports nothing, so no global is made
      fileName: () => 'attention-lab-element.standalone.js',
    },
  },
});
