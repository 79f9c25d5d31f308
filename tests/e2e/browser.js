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

/** Debian's Chromium and its flags, for chromium.launch and chromium.launchServer. */
export const BROWSER_OPTIONS = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    // A new window (every test's context) of this Chromium preloads its address bar's popup, a WebUI page
    // in a renderer of its own: about 1 CPU-second per context, 40 % of a page load's (measured, Chromium
    // 156). Headless, no one ever opens it.
    '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup',
  ],
};

/** A Chromium of this process's own (the benchmark); the browser tests share one (suite.js connectBrowser). */
export function launchBrowser() {
  return chromium.launch(BROWSER_OPTIONS);
}

/** A page that records console errors and page errors into `problems`. */
export async function openPage(browser, url, { viewport = { width: 1440, height: 1000 }, problems = [] } = {}) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`console.${message.type()}: ${message.text()}`);
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
  await page.waitForFunction(() => window.attentionLab?.controller.result && window.attentionLab.isIdle());
}

/** A download's bytes (read through Playwright: the browser may run in another process, connected to). */
export async function downloadBytes(download) {
  const chunks = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * Waits until the page's layout has settled around `selector`: its element's
 * top and the scroll position unchanged over `frames` animation frames in a
 * row (a render's late measuring and scroll corrections run in frames).
 */
export async function waitForStill(page, selector, frames = 5) {
  await page.evaluate(
    ([selector, frames]) =>
      new Promise((resolve) => {
        let last = null;
        let still = 0;
        const check = () => {
          const place = `${scrollY} ${document.querySelector(selector)?.getBoundingClientRect().top}`;
          still = place === last ? still + 1 : 0;
          last = place;
          if (still >= frames) resolve();
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    [selector, frames],
  );
}

/** Waits for two animation frames: what a frame's rendering update delivers (observers' callbacks) has run. */
export const nextFrames = (page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

const CONTENT_TYPES = {
  '.js': 'text/javascript',
  '.html': 'text/html',
  '.css': 'text/css',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

/**
 * A plain static server for `dir` under the URL folder `prefix` (like any
 * static host), plus extra in-memory pages: {'/test.html': '<html>…'}.
 */
export async function serveFolder(dir, prefix = '/', pages = {}) {
  const { createServer } = await import('node:http');
  const { readFileSync } = await import('node:fs');
  const { extname } = await import('node:path');
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    if (pages[path]) {
      response.setHeader('content-type', 'text/html');
      return response.end(pages[path]);
    }
    let file = path.startsWith(prefix) ? path.slice(prefix.length) : null;
    if (file === '' || file?.endsWith('/')) file += 'index.html';
    try {
      if (file === null || file.includes('..')) throw new Error('outside');
      const body = readFileSync(`${dir}/${file}`);
      response.setHeader('content-type', CONTENT_TYPES[extname(file)] ?? 'application/octet-stream');
      response.end(body);
    } catch {
      response.statusCode = 404;
      response.end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}${prefix}`,
    close: () => new Promise((r) => server.close(r)),
  };
}
