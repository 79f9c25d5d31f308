import { defineConfig } from 'vite';

const page = (name) => new URL(`./page/${name}`, import.meta.url).pathname;

// The site: the page, the iframe target, the authors' docs, and the element
// as a stable, hash-free file (attention-lab-element.js) for script tags.
export default defineConfig({
  root: new URL('./page', import.meta.url).pathname,
  base: './', // relative URLs: dist/ works from any folder of any static host
  build: {
    outDir: new URL('../dist', import.meta.url).pathname,
    emptyOutDir: true,
    target: 'es2022',
    minify: process.env.NO_MINIFY ? false : 'oxc',
    manifest: true, // dist/.vite/manifest.json: npm run bench sums the main page's assets from it
    rollupOptions: {
      input: {
        index: page('index.html'),
        embed: page('embed.html'),
        authors: page('authors.html'),
        element: new URL('./element/attention-lab-element.js', import.meta.url).pathname,
      },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'element' ? 'attention-lab-element.js' : 'assets/[name]-[hash].js'),
      },
    },
  },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
});
