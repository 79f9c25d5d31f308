import { defineConfig } from 'vite';

const web = (name) => new URL(`./${name}`, import.meta.url).pathname;

// The site: the page, the iframe target, the authors' docs, and the element
// as a stable, hash-free file (attention-lab-element.js) for script tags.
// The root is web/: its three HTML files are the entry points, and the
// layers (api, i18n, model, view, page, element) are folders beside them.
export default defineConfig({
  root: web(''),
  base: './', // relative URLs: dist/ works from any folder of any static host
  build: {
    outDir: new URL('../dist', import.meta.url).pathname,
    emptyOutDir: true,
    target: 'es2022',
    minify: process.env.NO_MINIFY ? false : 'oxc',
    manifest: true, // dist/.vite/manifest.json: npm run bench sums the main page's assets from it
    rollupOptions: {
      input: {
        index: web('index.html'),
        embed: web('embed.html'),
        authors: web('authors.html'),
        element: web('element/attention-lab-element.js'),
      },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'element' ? 'attention-lab-element.js' : 'assets/[name]-[hash].js'),
      },
    },
  },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
});
