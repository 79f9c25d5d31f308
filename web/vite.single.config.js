import { defineConfig } from 'vite';

// dist/attention-lab.html is built from this: the page as one JS chunk with
// the wasm inlined (wasm-binary.single.js), without the worker. build-single.js
// then inlines the JS and CSS into the HTML.
export default defineConfig({
  root: new URL('.', import.meta.url).pathname,
  base: './',
  resolve: {
    alias: [
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
    outDir: new URL('../build/single', import.meta.url).pathname,
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: false,
    cssCodeSplit: false,
    rollupOptions: {
      input: new URL('./index.html', import.meta.url).pathname,
      output: { codeSplitting: false },
    },
  },
});
