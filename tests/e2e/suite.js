// Per test file: the preview server, Chromium and the engine (for expected
// numbers), started before the tests and stopped after them.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { launchBrowser, startServer } from './browser.js';

/** Where the tests save the screenshots they take (ignored by git), with its trailing slash. */
export const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(SHOTS, { recursive: true });

export function useBrowserSuite() {
  const suite = { server: null, browser: null, lab: null };
  beforeAll(async () => {
    suite.server = await startServer();
    suite.browser = await launchBrowser();
    suite.lab = await loadAttentionLab();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  return suite;
}
