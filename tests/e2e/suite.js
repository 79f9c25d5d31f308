// Per test file: the run's shared preview server and Chromium (started once
// by global-setup.js), and the engine (for expected numbers). A file's
// contexts are its own: they close when its tests are done.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';

/** Where the tests save the screenshots they take (ignored by git), with its trailing slash. */
export const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(SHOTS, { recursive: true });

/** The run's Chromium (global-setup.js), connected to; close() closes this connection's contexts only. */
export function connectBrowser() {
  return chromium.connect(inject('browserWSEndpoint'));
}

export function useBrowserSuite() {
  const suite = { server: { url: inject('previewUrl') }, browser: null, lab: null };
  beforeAll(async () => {
    suite.browser = await connectBrowser();
    suite.lab = await loadAttentionLab();
  });
  afterAll(async () => {
    await suite.browser?.close();
  });
  return suite;
}
