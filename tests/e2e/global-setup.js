// Once per browser-test run (vitest globalSetup): one preview server for
// dist/ and one Chromium, shared by every test file. Each file connects to
// the browser (suite.js connectBrowser) and opens its own contexts, so no
// test sees another's pages, cookies or storage; starting Chromium and the
// server once instead of per file saves a few seconds a file.
import { chromium } from 'playwright-core';
import { BROWSER_OPTIONS, startServer } from './browser.js';

/** @param {import('vitest/node').TestProject} project */
export default async function setup(project) {
  const server = await startServer();
  let browser;
  try {
    browser = await chromium.launchServer(BROWSER_OPTIONS);
  } catch (error) {
    await server.close();
    throw error;
  }
  project.provide('browserWSEndpoint', browser.wsEndpoint());
  project.provide('previewUrl', server.url);
  return async () => {
    await browser.close();
    await server.close();
  };
}
