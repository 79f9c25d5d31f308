import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: new URL('..', import.meta.url).pathname,
  test: {
    include: ['tests/js/**/*.test.js'],
    environment: 'node',
    testTimeout: 120_000,
  },
});
