// Writes dist/attention-lab.html: the whole page in one file (JS, CSS and the
// wasm inlined) that works from file:// with no network.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('../../', import.meta.url));
await build({ configFile: `${root}web/vite.single.config.js`, logLevel: 'warn' });

const out = `${root}build/single/`;
let html = readFileSync(`${out}index.html`, 'utf8');
// Inline scripts may not contain "</script"; "<\/script" means the same in JS.
html = html.replace(/<script type="module" crossorigin src="\.\/([^"]+)"><\/script>/g, (_, file) =>
  `<script type="module">${readFileSync(out + file, 'utf8').replace(/<\/script/gi, '<\\/script')}</script>`);
html = html.replace(/<link rel="stylesheet" crossorigin href="\.\/([^"]+)">/g, (_, file) => `<style>${readFileSync(out + file, 'utf8')}</style>`);
if (/(src|href)="\.\/assets\//.test(html)) throw new Error('build-single: an asset was left outside the single file');
writeFileSync(`${root}dist/attention-lab.html`, html);
console.log(`dist/attention-lab.html: ${(html.length / 1024).toFixed(0)} KiB`);
