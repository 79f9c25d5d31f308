// Gzipped weight of what the main page loads (JS, wasm inlined in JS, CSS),
// walked from dist/.vite/manifest.json, and of the single file.
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const dist = new URL('../../dist/', import.meta.url);
const gzipped = (path) => gzipSync(readFileSync(new URL(path, dist)), { level: 9 }).length;

export function pageWeights() {
  const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', dist), 'utf8'));
  const files = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    // The engine's .wasm is an asset of the API chunk (new URL(...)); the worker, also an asset, loads only for large inputs.
    for (const asset of chunk.assets ?? []) if (asset.endsWith('.wasm')) files.add(asset);
    for (const next of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])]) visit(next);
  };
  visit('index.html');
  const mainPage = [...files].reduce((sum, file) => sum + gzipped(file), 0);
  // The worker is emitted as an asset (new URL(...)), not a manifest chunk.
  const worker = readdirSync(new URL('assets/', dist)).find((name) => name.startsWith('engine-worker'));
  return {
    mainPage,
    mainPageFiles: [...files],
    workerChunk: worker ? gzipped(`assets/${worker}`) : null,
    singleFile: gzipped('attention-lab.html'),
  };
}
