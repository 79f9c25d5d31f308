import { defineConfig } from 'vitest/config';

// Browser tests: Playwright drives Debian's Chromium against the built dist/.
// One Chromium and one preview server for the whole run (tests/e2e/global-setup.js);
// two files run side by side, each in its own contexts: a page load waits on its
// requests, its engine and its slices more than it computes (measured: about 0.7 of
// a core per loading page), so two keep a 2-core machine busy.
export default defineConfig({
  root: new URL('..', import.meta.url).pathname,
  test: {
    include: ['tests/e2e/**/*.test.js'],
    globalSetup: ['tests/e2e/global-setup.js'],
    environment: 'node',
    testTimeout: 90_000,
    hookTimeout: 90_000,
    fileParallelism: true,
    maxWorkers: 2,
  },
});
