import { readFileSync, readdirSync } from 'node:fs';
import { defineConfig } from 'vite';
import { authorsRecipes } from './scripts/authors-recipes.js';

// The Content-Security-Policy of every built page: scripts, styles and the
// wasm only from the site itself; no inline script or style (the heatmap
// colours and the element's styles are constructed stylesheets). The single
// file ships a variant with the hashes of its inline script and style
// (build-single.js); the README documents both.
export const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');

const contentSecurityPolicy = {
  name: 'attention-lab-csp',
  apply: 'build', // the dev server injects inline styles for hot reloading
  // After preloadEngine's tags (both 'post', this one listed later), so the policy is the head's first element.
  transformIndexHtml: {
    order: 'post',
    handler: (html) =>
      html.replace('<head>', `<head>\n    <meta http-equiv="Content-Security-Policy" content="${CSP}" />`),
  },
};

// The tiny model's weights, dist/tiny/step-NNNN.safetensors: api/tiny-weights.js names one
// checkpoint's file by URL (emitted there, assetFileNames below) and finds the others beside it, so
// the page carries one URL, not one per checkpoint. This puts the others there.
const tinyWeights = {
  name: 'attention-lab-tiny-weights',
  apply: 'build',
  generateBundle(options, bundle) {
    const folder = web('api/tiny/');
    for (const name of readdirSync(folder))
      if (name.endsWith('.safetensors') && !(`tiny/${name}` in bundle))
        this.emitFile({ type: 'asset', fileName: `tiny/${name}`, source: readFileSync(folder + name) });
  },
};

// The pages that run the engine at once ask for its .wasm (and the glue that
// instantiates it) from their <head>, so the download starts with the HTML
// instead of after the page's modules have run, and start with a small script
// (page/compile-engine.js, an entry of its own) that compiles the preloaded
// response as it streams in, before the page's larger modules are even
// parsed. The file names carry the build's hashes, so the tags are written at
// build time.
const ENGINE_PAGES = new Set(['index.html', 'embed.html']);
const preloadEngine = {
  name: 'attention-lab-preload-engine',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(html, { filename, bundle }) {
      if (!ENGINE_PAGES.has(filename.split('/').pop())) return html;
      const files = Object.keys(bundle);
      const wasm = files.find((file) => /attention-lab-wasm-[\w-]+\.wasm$/.test(file));
      const glue = files.find((file) => /attention-lab-wasm-[\w-]+\.js$/.test(file));
      const compile = files.find((file) => /compile-engine-[\w-]+\.js$/.test(file));
      if (!wasm || !glue || !compile)
        throw new Error('preload-engine: the engine, its glue or compile-engine is missing');
      // First in the head (after the CSP), before the page's own modules take the host's few connections.
      return {
        html,
        tags: [
          {
            tag: 'link',
            attrs: { rel: 'preload', href: `./${wasm}`, as: 'fetch', type: 'application/wasm', crossorigin: true },
            injectTo: 'head-prepend',
          },
          {
            tag: 'script',
            // async: it runs as soon as it arrives, not after the page's modules
            attrs: { type: 'module', async: true, src: `./${compile}`, crossorigin: true },
            injectTo: 'head-prepend',
          },
          // What it imports (wasm-binary.js, shared with the page's modules) and the glue.
          ...[...bundle[compile].imports, glue].map((file) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', href: `./${file}`, crossorigin: true },
            injectTo: 'head-prepend',
          })),
        ],
      };
    },
  },
};

// Vite's helper for import() with preloads resolves each dependency with import.meta.resolve(dependency)
// when the browser has it, else with new URL(dependency, import.meta.url). webpack (and rspack) read both
// as module requests and, the dependency being a variable, warn "Critical dependency: the request of a
// dependency is an expression" in every site that bundles the element (Docusaurus: a client and a server
// warning for each). With this build's relative base the helper has made each dependency an absolute URL
// already (new URL(dependency, the importer's URL)), so new URL(dependency) is the same URL; a Vite whose
// helper reads otherwise stops the build here.
const RESOLVE_DEPENDENCY = /function importMetaResolve\((\w+)\) \{[^{}]*\}/;
const preloadWithoutResolve = {
  name: 'attention-lab-preload-without-resolve',
  apply: 'build',
  transform(code, id) {
    if (id !== '\0vite/preload-helper.js') return null;
    if (!RESOLVE_DEPENDENCY.test(code)) throw new Error("vite's preload helper changed: see preloadWithoutResolve");
    return {
      code: code.replace(RESOLVE_DEPENDENCY, 'function importMetaResolve($1) { return new URL($1); }'),
      map: null,
    };
  },
};

const web = (name) => new URL(`./${name}`, import.meta.url).pathname;

// The site: the page, the iframe target, the authors' docs, and the element
// as a stable, hash-free file (attention-lab-element.js) for script tags.
// The root is web/: its three HTML files are the entry points, and the
// layers (api, i18n, model, view, page, element) are folders beside them.
export default defineConfig({
  root: web(''),
  plugins: [preloadEngine, contentSecurityPolicy, tinyWeights, preloadWithoutResolve, authorsRecipes],
  base: './', // relative URLs: dist/ works from any folder of any static host
  build: {
    outDir: new URL('../dist', import.meta.url).pathname,
    emptyOutDir: true,
    target: 'es2022',
    minify: process.env.NO_MINIFY ? false : 'oxc',
    manifest: true, // dist/.vite/manifest.json: npm run bench sums the main page's assets from it
    // No modulepreload polyfill (0.4 KB gzipped at every start): every browser with wasm SIMD but
    // Safari 16.4–16.6 has modulepreload, and there the hints are skipped and the modules load as imported.
    // A dynamic import() preloads nothing besides itself (its static imports are the start's chunks, loaded
    // already): a site that bundles the element again (VitePress, Docusaurus, Astro) renames our chunks, and
    // the names a preload list would carry (assets/run-settings-*.js, …) are then 404s in its console.
    modulePreload: {
      polyfill: false,
      resolveDependencies: (_file, deps, { hostType }) => (hostType === 'js' ? [] : deps),
    },
    rollupOptions: {
      // The element's entry keeps its exports' names (AttentionLabElement, as custom-elements.json says),
      // though embed.js and authors.js import it too.
      preserveEntrySignatures: 'strict',
      // The checkpoint API (api/checkpoint/: the safetensors loader, the tokenizer) has no side effects
      // at load (its top-level TextEncoders, maps and wasm URL are values), but Rollup cannot tell: said
      // here, the pages that only re-export it through api/index.js (all of them: the checkpoint view
      // imports it itself, lazily) no longer carry it at start (4.6 KB gzipped of the main page's).
      treeshake: { moduleSideEffects: (id) => !id.includes('/web/api/checkpoint/') },
      input: {
        index: web('index.html'),
        embed: web('embed.html'),
        authors: web('authors.html'),
        element: web('element/attention-lab-element.js'),
        'compile-engine': web('page/compile-engine.js'),
      },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'element' ? 'attention-lab-element.js' : 'assets/[name]-[hash].js'),
        // The tiny model's files (api/tiny-weights.js) as dist/tiny/step-NNNN.safetensors and
        // attention-lab-tiny.wasm, and the checkpoint wasm as dist/checkpoint/attention-lab-checkpoint.wasm,
        // without a hash: the single file and the standalone element fetch them from there
        // (api/tiny-weights.single.js, api/checkpoint/wasm-file.single.js).
        assetFileNames: (asset) =>
          asset.names.some((name) => name.endsWith('.safetensors') || name === 'attention-lab-tiny.wasm')
            ? 'tiny/[name][extname]'
            : asset.names.includes('attention-lab-checkpoint.wasm')
              ? 'checkpoint/[name][extname]'
              : 'assets/[name]-[hash][extname]',
      },
    },
  },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
});
