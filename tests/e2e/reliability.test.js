// Nothing breaks the page: the shipped Content-Security-Policy holds with no
// violation, a failed engine worker falls back to the main thread, tokens
// named like built-in properties edit like any other, out-of-range decimals
// are clamped, and a decompression-bomb link is refused quickly.
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { waitForIdle } from './browser.js';
import { useBrowserSuite } from './suite.js';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const suite = useBrowserSuite();

/** A fresh page that records CSP violations, console errors and page errors. */
async function watchedPage(url, { before } = {}) {
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => ['error', 'warning'].includes(m.type()) && problems.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.addInitScript(() => {
    window.violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  await before?.(page);
  await page.goto(url);
  return { page, problems, close: () => context.close() };
}

// The class and computed background of a heatmap number cell, in the page or inside an element.
const heatmapCell = (page) =>
  page.evaluate(() => {
    const roots = [document, ...Array.from(document.querySelectorAll('attention-lab'), (el) => el.shadowRoot)];
    for (const root of roots) {
      const td = root?.querySelector('table.matrix:not(.sr-only) td[class*="h"]');
      if (td) return { className: td.className, background: getComputedStyle(td).backgroundColor };
    }
    return null;
  });

describe('the shipped Content-Security-Policy', () => {
  test.each(['index.html', 'embed.html', 'authors.html', 'attention-lab.html'])(
    '%s works under it with no violation, colours included',
    async (name) => {
      const url = name === 'attention-lab.html' ? `file://${dist}${name}` : `${suite.server.url}${name}`;
      const { page, problems, close } = await watchedPage(url);
      const policy = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
      expect(policy).toContain('script-src');
      expect(policy).not.toContain('unsafe-inline');
      // The authors' page builds its gallery once its language has loaded, after the load event.
      if (name === 'authors.html') await page.locator('attention-lab').first().scrollIntoViewIfNeeded();
      await page.waitForFunction(() => {
        const el = document.querySelector('attention-lab');
        return window.attentionLab?.controller.result || el?.result;
      });
      const cell = await heatmapCell(page);
      expect(cell?.className).toMatch(/\bh[lpd]-\d+/);
      expect(cell.background).not.toBe('rgba(0, 0, 0, 0)');
      expect(await page.evaluate(() => window.violations)).toEqual([]);
      expect(problems).toEqual([]);
      await close();
    },
  );
});

describe("a Content-Security-Policy without 'wasm-unsafe-eval'", () => {
  // The strict policy of a site that forgot it: the browser refuses to compile the engine.
  const POLICY = "default-src 'self'; script-src 'self'; style-src 'self'";
  const SAYS = {
    en: ["add 'wasm-unsafe-eval' to its script-src", "(not 'unsafe-eval',"],
    zh: ["script-src 中加入 'wasm-unsafe-eval'", "不要加入 'unsafe-eval'"],
  };

  test.each(Object.keys(SAYS))('the element says what to allow, in its language (%s)', async (lang) => {
    const path = `__csp-${lang}.html`;
    const html = `<!doctype html><html lang="${lang}"><meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="${POLICY}">
      <attention-lab id="lab" text="a b c" d-model="4" heads="1"></attention-lab>
      <script type="module" src="attention-lab-element.js"></script>`;
    const { page, close } = await watchedPage(`${suite.server.url}${path}`, {
      before: async (page) => {
        await page.route(`${suite.server.url}${path}`, (route) =>
          route.fulfill({ contentType: 'text/html', body: html }),
        );
        await page.addInitScript(() =>
          document.addEventListener('attention-error', (e) => (window.lastError = e.detail)),
        );
      },
    });
    await page.waitForFunction(() => document.getElementById('lab')?.shadowRoot.querySelector('.error:not([hidden])'));
    const text = await page.evaluate(
      () => document.getElementById('lab').shadowRoot.querySelector('.error').textContent,
    );
    for (const words of SAYS[lang]) expect(text).toContain(words);
    expect(text).not.toContain('Refused'); // not the browser's own text
    expect(await page.evaluate(() => window.lastError.code)).toBe('engine-blocked-by-csp');
    // The browser did refuse it (the test is of the policy, not of a failed fetch).
    expect(await page.evaluate(() => window.violations.some((v) => v.startsWith('script-src')))).toBe(true);
    await close();
  });
});

describe('the engine worker', () => {
  // 300 tokens at dModel 64 is above the main-thread limit: it goes to the worker.
  const large = Array.from({ length: 300 }, (_, i) => `w${i}`).join(' ');

  test.each([
    ['a worker script that is missing', (route) => route.fulfill({ status: 404, body: 'not found' })],
    [
      'a worker script that throws',
      (route) => route.fulfill({ contentType: 'text/javascript', body: "throw new Error('boom');" }),
    ],
  ])('%s: the run falls back to the main thread and the page shows the result', async (_, handler) => {
    const { page, close } = await watchedPage(suite.server.url, {
      before: (p) => p.route(/engine-worker-.*\.js$/, handler),
    });
    await waitForIdle(page);
    await page.fill('#control-d-model', '64');
    await page.fill('#input-text', large);
    await page.waitForFunction(() => window.attentionLab.controller.result?.tokens[0].length === 300, null, {
      timeout: 30_000,
    });
    await waitForIdle(page);
    expect(await page.textContent('#status')).not.toContain('Computing');
    expect(await page.evaluate(() => window.attentionLab.controller.result.settings.dModel)).toBe(64);
    await close();
  });
});

describe('hostile input on the page', () => {
  test('tokens named __proto__, constructor and toString edit like any other, and nothing global changes', async () => {
    const { page, problems, close } = await watchedPage(suite.server.url);
    await waitForIdle(page);
    await page.fill('#input-text', '__proto__ constructor toString');
    await waitForIdle(page);
    for (const [row, value] of [
      [0, '1.5'],
      [1, '2.5'],
      [2, '3.5'],
    ]) {
      await page.click(`table[data-matrix="X"]:not(.sr-only) td[data-i="${row}"][data-j="0"]`);
      await page.keyboard.type(value);
      await page.keyboard.press('Enter');
      await waitForIdle(page);
    }
    const X = await page.evaluate(() => Array.from(window.attentionLab.controller.result.tensors.X.data));
    const D = 8;
    expect([X[0], X[D], X[2 * D]]).toEqual([1.5, 2.5, 3.5]);
    expect(
      await page.evaluate(
        () =>
          ({}).constructor === Object &&
          typeof {}.toString === 'function' &&
          Object.getPrototypeOf({}) === Object.prototype,
      ),
    ).toBe(true);
    expect(await page.locator('table[data-matrix="X"]:not(.sr-only) td.edited').count()).toBe(3);
    expect(problems).toEqual([]);
    await close();
  });

  test('an empty custom scale is an error at the field, not a silent default', async () => {
    const { page, close } = await watchedPage(suite.server.url);
    await waitForIdle(page);
    const before = await page.evaluate(() => window.attentionLab.controller.result.scaleFactor);
    await page.selectOption('#control-scale', 'custom');
    expect(await page.textContent('#error-scale')).toBe('Type a number.');
    expect(await page.isVisible('#error-scale')).toBe(true);
    expect(await page.evaluate(() => window.attentionLab.controller.result.scaleFactor)).toBe(before);
    await page.fill('#control-scale + .custom-number', '0.25');
    await waitForIdle(page);
    expect(await page.evaluate(() => window.attentionLab.controller.result.scaleFactor)).toBe(0.25);
    expect(await page.isVisible('#error-scale')).toBe(false);
    await close();
  });

  test('decimals out of range are clamped: a stored 1000 and <attention-lab decimals="1000"> both render', async () => {
    const { page, problems, close } = await watchedPage(suite.server.url, {
      before: (p) => p.addInitScript(() => localStorage.setItem('attention-lab.decimals', '1000')),
    });
    await waitForIdle(page);
    const first = await page.textContent('table[data-matrix="X"]:not(.sr-only) td[data-i="0"][data-j="0"]');
    expect(first.split('.')[1]).toHaveLength(8);
    await page.route(`${suite.server.url}__decimals.html`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><attention-lab id="a" decimals="1000" steps="output"></attention-lab><script type="module" src="attention-lab-element.js"></script>',
      }),
    );
    await page.goto(`${suite.server.url}__decimals.html`);
    await page.waitForFunction(() => document.getElementById('a').result);
    const cell = await page.evaluate(
      () => document.getElementById('a').shadowRoot.querySelector('table.matrix td[data-i]').textContent,
    );
    expect(cell.split('.')[1]).toHaveLength(8);
    expect(await page.evaluate(() => document.getElementById('a').decimals)).toBe(8);
    expect(problems).toEqual([]);
    await close();
  });

  // That it stops inflating at the cap is checked in Node (tests/js/share-export.test.js); here, the page's answer.
  test('a decompression-bomb link is refused, with the default example shown', async () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ s: { text: 'a '.repeat(30_000_000) } }));
    const compressed = new Uint8Array(
      await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer(),
    );
    const fragment = `s=v2.${Buffer.from(compressed).toString('base64url')}`;
    expect(fragment.length).toBeLessThan(200_000);
    const { page, close } = await watchedPage(`${suite.server.url}#${fragment}`);
    await page.waitForFunction(() => !document.getElementById('link-notice').hidden);
    expect(await page.textContent('#link-notice')).toContain('too long');
    await waitForIdle(page);
    expect(await page.inputValue('#input-text')).toBe('He sat by the bank of the river');
    await close();
  });
});
