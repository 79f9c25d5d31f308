// Gzipped weight of the main page: what it loads at start (its script and
// everything that imports statically, the CSS, the engine's .wasm and the glue
// that instantiates it, which index.html preloads), and apart from that the
// chunks it loads only when asked (another language's strings, the exports,
// the PyTorch script) and the worker; walked from dist/.vite/manifest.json.
// Also the single file, which holds everything.
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const dist = new URL('../../dist/', import.meta.url);
const gzipped = (path) => gzipSync(readFileSync(new URL(path, dist)), { level: 9 }).length;

/** The files a page fetches at start, and the lazy chunks it can fetch later ({file: gzipped bytes}). */
function pageFiles(manifest, entry) {
  const atStart = new Set();
  const dynamic = new Set();
  const tinyModel = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || atStart.has(chunk.file)) return;
    atStart.add(chunk.file);
    for (const css of chunk.css ?? []) atStart.add(css);
    // The engine's .wasm is an asset of the API chunk (new URL(...)), fetched at start; the worker, also an
    // asset, loads only for large inputs, the tiny model's files (dist/tiny/: its wasm, its weights) with its
    // mode, and the checkpoint's wasm with a model opened (a chunk that names it is not one that fetches it).
    for (const asset of chunk.assets ?? []) {
      if (asset.startsWith('tiny/')) tinyModel.add(asset);
      else if (/attention-lab-wasm-[\w-]+\.wasm$/.test(asset)) atStart.add(asset);
    }
    for (const next of chunk.imports ?? []) visit(next);
    for (const next of chunk.dynamicImports ?? []) dynamic.add(next);
  };
  visit(entry);
  // What the page's <head> preloads or runs besides (the engine's glue, a dynamic import; compile-engine) is fetched at start too.
  const html = readFileSync(new URL(manifest[entry].src, dist), 'utf8');
  const preloaded = [
    ...html.matchAll(/<link rel="(?:modulepreload|preload)"[^>]* href="\.\/([^"]+)"/g),
    ...html.matchAll(/<script[^>]* src="\.\/([^"]+)"/g),
  ].map((m) => m[1]);
  for (const [key, chunk] of Object.entries(manifest)) if (preloaded.includes(chunk.file)) visit(key);
  const lazy = new Set();
  const visitLazy = (key) => {
    const chunk = manifest[key];
    if (!chunk || atStart.has(chunk.file) || lazy.has(chunk.file)) return;
    lazy.add(chunk.file);
    for (const next of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])]) visitLazy(next);
  };
  for (const key of dynamic) visitLazy(key);
  for (const file of tinyModel) if (file.endsWith('.wasm')) lazy.add(file);
  const weigh = (files) => Object.fromEntries([...files].map((file) => [file, gzipped(file)]));
  return { atStart: weigh(atStart), lazy: weigh(lazy) };
}

const sum = (files) => Object.values(files).reduce((total, bytes) => total + bytes, 0);

export function pageWeights() {
  const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', dist), 'utf8'));
  const { atStart, lazy } = pageFiles(manifest, 'index.html');
  // The worker is emitted as an asset (new URL(...)), not a manifest chunk.
  const worker = readdirSync(new URL('assets/', dist)).find((name) => name.startsWith('engine-worker'));
  return {
    mainPage: sum(atStart),
    mainPageFiles: Object.keys(atStart),
    mainPageByFile: atStart,
    lazyChunks: lazy,
    workerChunk: worker ? gzipped(`assets/${worker}`) : null,
    singleFile: gzipped('attention-lab.html'),
  };
}

// node web/scripts/bench-size.js: the table by file.
if (import.meta.url === `file://${process.argv[1]}`) {
  const weights = pageWeights();
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`.padStart(9);
  console.log('main page at start (gzipped):');
  for (const [file, bytes] of Object.entries(weights.mainPageByFile)) console.log(`${kb(bytes)}  ${file}`);
  console.log(`${kb(weights.mainPage)}  total (target <= 150 KB)`);
  console.log('loaded when asked for:');
  for (const [file, bytes] of Object.entries(weights.lazyChunks)) console.log(`${kb(bytes)}  ${file}`);
  if (weights.workerChunk) console.log(`${kb(weights.workerChunk)}  the worker (large inputs)`);
  console.log(`${kb(weights.singleFile)}  dist/attention-lab.html, the single file (target <= 300 KB)`);
}
