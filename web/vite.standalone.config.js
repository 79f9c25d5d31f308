import { defineConfig } from 'vite';

// The standalone element is built from this, in two modes, by build-single.js
// (which writes the wasm's base64 module first) through standalone-parts.js:
//   en  dist/attention-lab-element.standalone.js: the element as one classic
//       script (IIFE) with the wasm inlined (wasm-binary.single.js, the single
//       page's engine) and the English strings;
//   zh  dist/attention-lab-element.standalone.zh.js: the same with the Chinese
//       strings inside instead (English is a part: standalone/en.js).
// What the module build imports when needed (the other language's strings, the trained
// model's and the checkpoint's views and wasm glue) is in classic scripts
// beside it, in dist/standalone/ (element/standalone-parts.js). No engine
// worker (another file): large configs run on the main thread.
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

// The strings of the page alone (web/page/, and the iframe embed's page): its settings form's labels, help
// and choices (field.*, help.*, enum.*, form.*; the authors' page and the CLI read them from the tables too),
// share links, printing, presenting, the theme switch, the status line, the input box, the docs link and the
// embed page's titles. The element shows none of them, so its scripts leave them out of each language's
// table; the one sentence of the steppers that names a setting keeps the mask's label and choices.
const I18N_TABLE = /\/web\/i18n\/(en|zh)\.js$/;
const PAGE_ONLY = /^(?:help|form|share|print|present|docs|theme|status|input|app|embed)\.|^(?:field|enum)\.(?!mask\b)/;
const withoutFormHelp = {
  name: 'attention-lab-without-page-strings',
  async transform(code, id) {
    if (!I18N_TABLE.test(id)) return null;
    const { default: strings } = await import(id);
    const kept = Object.entries(strings).filter(([key]) => !PAGE_ONLY.test(key));
    if (kept.length === Object.keys(strings).length) throw new Error(`standalone: ${id} has no page strings`);
    return `export default ${JSON.stringify(Object.fromEntries(kept))};\n`;
  },
};

const FILES = {
  en: { file: 'attention-lab-element.standalone.js' },
  zh: { file: 'attention-lab-element.standalone.zh.js', loaders: './i18n/loaders.bundled-zh.js' },
};
/** The standalone scripts' names, by mode. */
export const STANDALONE_FILES = Object.fromEntries(Object.entries(FILES).map(([mode, { file }]) => [mode, file]));

export default defineConfig(({ mode }) => {
  const { file, loaders } = FILES[mode] ?? FILES.en;
  const languageLoaders = loaders
    ? [{ find: /^\.\/loaders\.js$/, replacement: new URL(loaders, import.meta.url).pathname }]
    : [];
  return {
    plugins: [glueWithoutUrls, withoutFormHelp],
    root: new URL('.', import.meta.url).pathname,
    resolve: {
      alias: [
        ...languageLoaders,
        // No engine worker: every run on the main thread, as in the single page (worker-factory.single.js).
        {
          find: /^\.\/worker-factory\.js$/,
          replacement: new URL('./view/host/worker-factory.single.js', import.meta.url).pathname,
        },
        {
          find: /^\.\/wasm-binary\.js$/,
          replacement: new URL('./api/wasm-binary.single.js', import.meta.url).pathname,
        },
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
        fileName: () => file,
      },
    },
  };
});
