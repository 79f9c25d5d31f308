// Writes the two single-file builds, each with the wasm inlined, working from
// file:// with no network:
//   dist/attention-lab.html                    the whole page (JS and CSS inlined)
//   dist/attention-lab-element.standalone.js     the <attention-lab> element as one classic script, in English
//   dist/attention-lab-element.standalone.zh.js  the same with the Chinese strings inside
//   dist/standalone/*.js                         what they load when needed (standalone-parts.js)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { partFile } from '../element/standalone-parts.js';
import { STANDALONE_FILES } from '../vite.standalone.config.js';
import { buildStandalone } from './standalone-parts.js';
import { WASM_LZMA_OPTIONS } from './wasm-lzma.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// The wasm as LZMA (xz's .lzma format, wasm-lzma.js's options) and base64, with the decoder's wasm,
// for web/api/wasm-binary.single.js (see vite.single.config.js and vite.standalone.config.js). xz
// writes "size unknown" in the header; the decoder wants the size, so it is written in (bytes 5-12).
const wasm = readFileSync(`${root}web/api/generated/attention-lab-wasm.wasm`);
const lzma = execFileSync('xz', ['--format=lzma', WASM_LZMA_OPTIONS, '--stdout'], { input: wasm, maxBuffer: 64 << 20 });
lzma.writeBigUInt64LE(BigInt(wasm.length), 5);
const decoder = readFileSync(`${root}web/api/generated/lzma-decode.wasm`);
mkdirSync(`${root}build/single-wasm`, { recursive: true });
writeFileSync(
  `${root}build/single-wasm/attention-lab-wasm-base64.js`,
  `export const WASM_LZMA_BASE64 = '${lzma.toString('base64')}';\n` +
    `export const LZMA_DECODER_BASE64 = '${decoder.toString('base64')}';\n`,
);
await build({ configFile: `${root}web/vite.single.config.js`, logLevel: 'warn' });

const out = `${root}build/single/`;
let html = readFileSync(`${out}index.html`, 'utf8');
// The inline script and style are allowed by their hashes in the file's own
// Content-Security-Policy (the hosted pages' policy, with hashes for 'self').
const hash = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const scriptHashes = [];
const styleHashes = [];
// Inline scripts may not contain "</script"; "<\/script" means the same in JS.
html = html.replace(/<script type="module" crossorigin src="\.\/([^"]+)"><\/script>/g, (_, file) => {
  const script = readFileSync(out + file, 'utf8').replace(/<\/script/gi, '<\\/script');
  scriptHashes.push(hash(script));
  return `<script type="module">${script}</script>`;
});
html = html.replace(/<link rel="stylesheet" crossorigin href="\.\/([^"]+)">/g, (_, file) => {
  const style = readFileSync(out + file, 'utf8');
  styleHashes.push(hash(style));
  return `<style>${style}</style>`;
});
const csp = [
  "default-src 'none'",
  `script-src ${scriptHashes.join(' ')} 'wasm-unsafe-eval'`,
  `style-src ${styleHashes.join(' ')}`,
  'img-src data: blob:',
  // The trained model's files (tiny/, beside the file when dist/ is served); from file:// no fetch works.
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
html = html.replace('<head>', `<head>\n    <meta http-equiv="Content-Security-Policy" content="${csp}" />`);
if (/(src|href)="\.\/assets\//.test(html)) throw new Error('build-single: an asset was left outside the single file');
writeFileSync(`${root}dist/attention-lab.html`, html);
console.log(`dist/attention-lab.html: ${(html.length / 1024).toFixed(0)} KiB`);

// The standalone element in English and in Chinese, and its parts.
const configFile = `${root}web/vite.standalone.config.js`;
rmSync(`${root}dist/standalone`, { recursive: true, force: true });
const parts = await buildStandalone(configFile, Object.keys(STANDALONE_FILES));
const kib = (bytes) => (bytes / 1024).toFixed(0);
const sizes = (file) => {
  const script = readFileSync(`${root}dist/${file}`);
  // A classic script has no import(): a chunk left beside it would be fetched from the page's folder.
  if (/\bimport\(/.test(script.toString())) throw new Error(`build-single: ${file} imports a chunk`);
  return `${kib(script.length)} KiB, ${kib(gzipSync(script, { level: 9 }).length)} KiB gzipped`;
};
for (const file of Object.values(STANDALONE_FILES)) console.log(`dist/${file}: ${sizes(file)}`);
for (const name of parts) console.log(`dist/${partFile(name)}: ${sizes(partFile(name))}`);
