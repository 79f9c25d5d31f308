// Per test file: the run's shared preview server and Chromium (started once
// by global-setup.js), and the engine (for expected numbers). A file's
// contexts are its own: they close when its tests are done.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';

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

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

/**
 * Screenshots on demand, for a person to look at: with SHOTS=1 in the
 * environment, saves `target` (a page or a locator) as
 * tests/e2e/screenshots/<name>.png; otherwise does nothing (no test compares
 * them).   SHOTS=1 npx vitest run --config web/vitest.e2e.config.js
 */
export async function shot(target, name, options = {}) {
  if (!process.env.SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await target.screenshot({ path: `${SHOTS}${name}.png`, ...options });
}
