import { defineConfig } from 'vitest/config';

// Browser tests: Playwright drives Debian's Chromium against the built dist/.
// One Chromium and one preview server for the whole run (tests/e2e/global-setup.js);
// the files run one after another (two cores: pages in parallel time out).
export default defineConfig({
  root: new URL('..', import.meta.url).pathname,
  test: {
    include: ['tests/e2e/**/*.test.js'],
    globalSetup: ['tests/e2e/global-setup.js'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
