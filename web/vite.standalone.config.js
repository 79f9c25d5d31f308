import { defineConfig } from 'vite';

// dist/attention-lab-element.standalone.js is built from this: the element as
// one classic script (IIFE) with the wasm inlined (wasm-binary.single.js, the
// single page's engine) and the Chinese strings in the same file (no chunks:
// a classic script cannot import, and file:// cannot fetch), without the
// engine worker (a second file): large configs run on the main thread.
// build-single.js writes the wasm's base64 module first, then runs this build.
// An Emscripten glue (the engine's, the tiny model's, the checkpoint's) names its .wasm by URL
// (new URL(..., import.meta.url)), which a library build would inline a second
// time as a data: URL, and an IIFE has no import.meta. Each is instantiated
// from a module compiled by api/ (instantiateWasm: the engine's inlined, the
// tiny model's fetched from tiny/), so a glue never fetches that file: the URL
// becomes the bare name and the script's own URL unknown.
const glueWithoutUrls = {
  name: 'attention-lab-glue-without-urls',
  enforce: 'pre',
  transform(code, id) {
    const glue = id.match(/\/api\/generated\/(attention-lab-(?:wasm|tiny|checkpoint))\.js$/)?.[1];
    if (!glue) return null;
    const wasmUrl = `new URL("${glue}.wasm",import.meta.url).toString()`;
    if (!code.includes(wasmUrl)) throw new Error(`standalone: ${glue}.js no longer names its .wasm as expected`);
    return code.replace(wasmUrl, `"${glue}.wasm"`).replaceAll('import.meta.url', 'undefined');
  },
};

export default defineConfig({
  plugins: [glueWithoutUrls],
  root: new URL('.', import.meta.url).pathname,
  resolve: {
    alias: [
      // No engine worker: every run on the main thread, as in the single page (worker-factory.single.js).
      {
        find: /^\.\/worker-factory\.js$/,
        replacement: new URL('./view/host/worker-factory.single.js', import.meta.url).pathname,
      },
      { find: /^\.\/wasm-binary\.js$/, replacement: new URL('./api/wasm-binary.single.js', import.meta.url).pathname },
      // The checkpoint wasm is fetched from dist/checkpoint/ when a model is opened, never inlined.
      {
        find: /^\.\/wasm-file\.js$/,
        replacement: new URL('./api/checkpoint/wasm-file.single.js', import.meta.url).pathname,
      },
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
