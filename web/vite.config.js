import { defineConfig } from 'vite';

// The page lives in web/page; it imports the engine from web/api.
export default defineConfig({
  root: new URL('./page', import.meta.url).pathname,
  base: './', // relative URLs: dist/ works from any folder of any static host
  build: {
    outDir: new URL('../dist', import.meta.url).pathname,
    emptyOutDir: true,
    target: 'es2022',
    minify: process.env.NO_MINIFY ? false : 'oxc',
  },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
});
