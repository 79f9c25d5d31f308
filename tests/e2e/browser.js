// Shared by the browser tests and the benchmark: serve dist/ with Vite's
// preview server on a free loopback port, and drive Debian's Chromium.
import { chromium } from 'playwright-core';
import { preview } from 'vite';
import { fileURLToPath } from 'node:url';

const configFile = fileURLToPath(new URL('../../web/vite.config.js', import.meta.url));

export async function startServer() {
  const server = await preview({ configFile, preview: { port: 0, strictPort: false, host: '127.0.0.1' } });
  const address = server.httpServer.address();
  return { url: `http://127.0.0.1:${address.port}/`, close: () => new Promise((r) => server.httpServer.close(r)) };
}

export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** A page that records console errors and page errors into `problems`. */
export async function openPage(browser, url, { viewport = { width: 1440, height: 1000 }, problems = [] } = {}) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console.${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    dialog.dismiss();
  });
  await page.goto(url);
  await waitForIdle(page);
  return page;
}

/** Waits until the page has rendered a result and no run is in flight. */
export async function waitForIdle(page) {
  await page.waitForFunction(() => window.attentionLab?.state.result && window.attentionLab.isIdle());
}
