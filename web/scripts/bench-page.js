// The page's figure for npm run bench: median time from a committed weight
// edit (Enter in a W_Q cell) to the recomputed, re-rendered and laid-out
// pipeline of the default example, in headless Chromium.
import { launchBrowser, openPage, startServer, waitForIdle } from '../../tests/e2e/browser.js';

/** Runs `measure(browser, url)` against a preview server of dist/ and Chromium, both closed after it. */
async function withBrowser(measure) {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    return await measure(browser, server.url);
  } finally {
    await browser.close();
    await server.close();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchPageEdit({ edits = 40 } = {}) {
  return withBrowser(async (browser, url) => {
    const page = await openPage(browser, url);
    const times = [];
    const parts = [];
    for (let k = 0; k < edits; k++) {
      const ms = await page.evaluate(
        async (value) => {
          const td = document.querySelector('table[data-matrix="W_Q"] td[data-i="0"][data-j="0"]');
          const rendered = new Promise((resolve) =>
            document.addEventListener('attention-rendered', resolve, { once: true }),
          );
          td.click(); // starts editing: an input in the cell
          const input = td.querySelector('input');
          input.value = String(value);
          // From the committed edit to the laid-out page: recompute, re-render, style and layout.
          const t0 = performance.now();
          input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
          const { detail } = await rendered;
          void document.body.offsetHeight; // force style + layout now, inside the measurement
          return [performance.now() - t0, detail.computeMs, detail.renderMs];
        },
        0.1 + k / 100,
      );
      times.push(ms[0]);
      parts.push(ms);
      await waitForIdle(page);
    }
    times.sort((a, b) => a - b);
    return {
      median: median(times),
      p90: times[Math.ceil(times.length * 0.9) - 1],
      min: times[0],
      max: times.at(-1),
      edits,
      computeMedian: median(parts.map((p) => p[1])),
      renderMedian: median(parts.map((p) => p[2])),
    };
  });
}

/**
 * 512 tokens, dModel 768, 12 heads: `keystrokes` keystrokes (each adds a word), the median time of one
 * to the laid-out page, and the longest main-thread task over all of them (the engine runs in the worker).
 */
export async function benchLargeKeystroke({ keystrokes = 5 } = {}) {
  return withBrowser(async (browser, url) => {
    const page = await openPage(browser, url);
    await page.fill('#control-d-model', '768');
    await page.fill('#control-heads', '12');
    await waitForIdle(page);
    await page.fill('#input-text', Array.from({ length: 512 }, (_, i) => `w${i}`).join(' '));
    await waitForIdle(page);
    const runs = [];
    for (let k = 0; k < keystrokes; k++) {
      await page.evaluate(() => {
        window.longestTask = 0;
        window.longTasks = 0; // tasks over 50 ms: the only ones the browser reports
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) {
            window.longestTask = Math.max(window.longestTask, entry.duration);
            window.longTasks += 1;
          }
        }).observe({ type: 'longtask' });
      });
      const [total, computeMs, renderMs] = await page.evaluate(
        async (word) => {
          const box = document.getElementById('input-text');
          const t0 = performance.now();
          box.value += ` ${word}`;
          box.dispatchEvent(new Event('input'));
          const { detail } = await new Promise((resolve) =>
            document.addEventListener('attention-rendered', resolve, { once: true }),
          );
          void document.body.offsetHeight;
          return [performance.now() - t0, detail.computeMs, detail.renderMs];
        },
        `w${512 + k}`,
      );
      // The longest task counts everything the keystroke caused: the steps built later in slices too.
      await waitForIdle(page);
      await page.waitForTimeout(500); // the last heatmaps' drawing
      const { longestTask, longTasks } = await page.evaluate(() => ({
        longestTask: window.longestTask,
        longTasks: window.longTasks,
      }));
      runs.push({ total, computeMs, renderMs, longestTask, longTasks });
    }
    const medianOf = (key) => median(runs.map((r) => r[key]));
    return {
      keystrokes,
      total: medianOf('total'),
      computeMs: medianOf('computeMs'),
      renderMs: medianOf('renderMs'),
      longestTask: Math.max(...runs.map((r) => r.longestTask)),
      longTasks: runs.reduce((sum, r) => sum + r.longTasks, 0),
    };
  });
}

/**
 * Cold loads of the built page (dist/index.html from the preview server), each
 * in a fresh browser context (an empty HTTP cache): milliseconds from the
 * navigation's start to the first `attention-rendered` event.
 */
export async function benchColdLoad({ loads = 10 } = {}) {
  return withBrowser(async (browser, url) => {
    const times = [];
    for (let k = 0; k < loads; k++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
      try {
        const page = await context.newPage();
        // Before any of the page's own scripts; performance.now() counts from the navigation's start.
        await page.addInitScript(() => {
          window.firstResultMs = new Promise((resolve) =>
            document.addEventListener('attention-rendered', () => resolve(performance.now()), { once: true }),
          );
        });
        await page.goto(url);
        times.push(await page.evaluate(() => window.firstResultMs));
      } finally {
        await context.close();
      }
    }
    times.sort((a, b) => a - b);
    return { median: median(times), min: times[0], max: times.at(-1), loads };
  });
}
