// How the page re-renders: a change that keeps the shapes updates the
// matrices in place (the same elements, new numbers, the focus kept); a large
// result (512 tokens × dModel 768 × 12 heads) is built in slices, the steps
// near the viewport first. Structure only: durations are the benchmark's.
import { formatNumber } from '../../web/model/format.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_SETTINGS } from '../../web/model/presets.js';
import { configFromSettings } from '../../web/model/settings.js';
import { nextFrames, openPage, waitForIdle, waitForStill } from './browser.js';
import { shot, useBrowserSuite } from './suite.js';

const suite = useBrowserSuite();
let page;
const problems = [];

/** A rendered table's numbers, row by row. */
const tableText = (matrix) =>
  page.$$eval(`table[data-matrix="${matrix}"]:not(.sr-only) tbody tr`, (rows) =>
    rows.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent)),
  );

/** The API's numbers of one [rows, cols] slice at `offset`, as the page writes them. */
const apiText = (tensor, offset, rows, cols) =>
  Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => formatNumber(tensor.data[offset + i * cols + j], 4)),
  );

describe('a re-render that keeps the shapes', () => {
  beforeAll(async () => {
    page = await openPage(suite.browser, suite.server.url, { problems });
  });
  afterAll(() => page.context().close());

  test('an edit updates the tables in place: the same elements show the new numbers', async () => {
    await page.evaluate(() => {
      window.kept = ['W_Q', 'scores', 'weights', 'output'].map((name) =>
        document.querySelector(`table[data-matrix="${name}"]`),
      );
      window.keptStep = document.getElementById('step-output');
    });
    await page.click('table[data-matrix="W_Q"] td[data-i="0"][data-j="1"]');
    await page.keyboard.type('0.75');
    await page.keyboard.press('Enter');
    await waitForIdle(page);
    const same = await page.evaluate(() => [
      ...window.kept.map(
        (table, k) =>
          table.isConnected &&
          table === document.querySelector(`table[data-matrix="${['W_Q', 'scores', 'weights', 'output'][k]}"]`),
      ),
      window.keptStep === document.getElementById('step-output'),
    ]);
    expect(same).toEqual([true, true, true, true, true]);
    // The numbers are the engine's for the edited weight.
    const config = configFromSettings(DEFAULT_SETTINGS);
    config.weights = { edits: { W_Q: [[0, 1, 0.75]] } };
    const expected = suite.lab.run(config);
    const [, , S, Skv] = expected.tensors.scores.shape;
    const D = expected.tensors.Q.shape[2];
    expect(await tableText('output')).toEqual(apiText(expected.tensors.output, 0, S, D));
    expect(await tableText('scores')).toEqual(apiText(expected.tensors.scores, 0, S, Skv));
    const edited = page.locator('table[data-matrix="W_Q"] td[data-i="0"][data-j="1"]');
    expect(await edited.textContent()).toBe('0.7500');
    expect(await edited.getAttribute('class')).toContain('edited');
    // What a fresh render gives every cell: coordinates, a colour class, and one tab stop per table.
    const cells = await page.$$eval('table[data-matrix="scores"] tbody td', (tds) =>
      tds.map((td) => [td.dataset.i, td.dataset.j, /\bh[pld]-\d+\b/.test(td.className)]),
    );
    expect(cells.length).toBe(S * Skv);
    expect(cells.every(([i, j, coloured]) => i !== undefined && j !== undefined && coloured)).toBe(true);
    expect(await page.locator('table[data-matrix="scores"] td[tabindex="0"]').count()).toBe(1);
    expect(problems).toEqual([]);
  });

  test("an edit keeps the steps' headers, charts and tabs, and redraws the small multiples and links in place", async () => {
    const parts = () =>
      [
        ...document.querySelectorAll('#pipeline > section.step > header'),
        ...document.querySelectorAll('#pipeline .head-multiples'),
        document.querySelector('#pipeline svg.links'),
        document.querySelector('#pipeline .chart-figure[data-chart="variance"]'),
        ...document.querySelectorAll('#head-tabs button'),
        ...document.querySelectorAll('#chips-text .chip'),
      ].filter(Boolean);
    await page.evaluate((source) => {
      window.keptParts = new Function(`return (${source})()`)();
    }, parts.toString());
    // The small multiples are canvases: their pixels, as PNG data URLs.
    const pixels = (selector) =>
      Array.from(document.querySelectorAll(`${selector} canvas`), (canvas) => canvas.toDataURL());
    const before = await page.evaluate(pixels, '#step-scores .head-multiples');
    await page.click('table[data-matrix="W_Q"] td[data-i="1"][data-j="0"]');
    await page.keyboard.type('2.5');
    await page.keyboard.press('Enter');
    await waitForIdle(page);
    const { kept, count, inPlace } = await page.evaluate((source) => {
      const now = new Function(`return (${source})()`)();
      const multiples = ['#step-scores .head-multiples', '#step-attnweights .head-multiples'];
      const html = (root) => [
        ...[...multiples, 'svg.links', '#step-scores > header'].map(
          (selector) => root.querySelector(selector).outerHTML,
        ),
        ...multiples.map((selector) =>
          Array.from(root.querySelectorAll(`${selector} canvas`), (canvas) => canvas.toDataURL()).join(),
        ),
      ];
      const inPlace = html(document);
      // A fresh render of the same result, from an empty pipeline, draws the same.
      document.getElementById('pipeline').replaceChildren();
      window.attentionLab.controller.render();
      const fresh = html(document);
      return {
        kept: now.length === window.keptParts.length && now.every((node, k) => node === window.keptParts[k]),
        count: now.length,
        inPlace: inPlace.map((text, k) => text === fresh[k]),
      };
    }, parts.toString());
    expect(count).toBeGreaterThan(20);
    expect(kept).toBe(true);
    expect(inPlace).toEqual([true, true, true, true, true, true]);
    // The scores changed with W_Q: their small heatmaps were redrawn.
    const after = await page.evaluate(pixels, '#step-scores .head-multiples');
    expect(after.length).toBe(before.length);
    expect(after).not.toEqual(before);
    expect(problems).toEqual([]);
  });

  test('a focused cell keeps the focus through the re-render its own edit causes', async () => {
    const cell = 'table[data-matrix="W_K"] td[data-i="1"][data-j="2"]';
    await page.focus('table[data-matrix="W_K"] td[data-i="0"][data-j="0"]'); // the tab stop; the arrows move on
    for (const key of ['ArrowDown', 'ArrowRight', 'ArrowRight']) await page.keyboard.press(key);
    expect(await page.evaluate((selector) => document.activeElement === document.querySelector(selector), cell)).toBe(
      true,
    );
    const before = await page.locator(cell).textContent();
    await page.keyboard.press('Alt+ArrowUp'); // +0.1: an edit, then a run and a render
    await waitForIdle(page);
    expect(await page.locator(cell).textContent()).not.toBe(before);
    expect(await page.evaluate((selector) => document.activeElement === document.querySelector(selector), cell)).toBe(
      true,
    );
    // The arrows still move from it.
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => [document.activeElement.dataset.i, document.activeElement.dataset.j])).toEqual([
      '1',
      '3',
    ]);
  });

  test('a head tab keeps the per-head tables and shows that head', async () => {
    const scores = await page.evaluateHandle(() => document.querySelector('table[data-matrix="scores"]'));
    await page.click('#head-tabs button:nth-of-type(2)');
    await waitForIdle(page);
    expect(await page.evaluate((table) => table.isConnected, scores)).toBe(true);
    const result = await page.evaluate(() => {
      const { tensors } = window.attentionLab.controller.result;
      return { data: Array.from(tensors.scores.data), shape: tensors.scores.shape };
    });
    const [, , S, Skv] = result.shape;
    expect(await tableText('scores')).toEqual(apiText({ data: result.data }, S * Skv, S, Skv));
    expect(await page.locator('#step-scores h3').first().textContent()).toContain('2');
  });
});

describe('a large result', () => {
  beforeAll(async () => {
    page = await openPage(suite.browser, suite.server.url, { problems });
    await page.fill('#control-d-model', '768');
    await page.fill('#control-heads', '12');
    await waitForIdle(page);
    await page.fill('#input-text', Array.from({ length: 512 }, (_, i) => `w${i}`).join(' '));
    await waitForIdle(page);
  }, 120_000);
  afterAll(() => page.context().close());

  test('a keystroke shows the steps in view first and builds the rest in later tasks', async () => {
    await page.evaluate(() => scrollTo(0, 0));
    const atEvent = await page.evaluate(async () => {
      const box = document.getElementById('input-text');
      box.value += ' w512';
      box.dispatchEvent(new Event('input'));
      await new Promise((resolve) => document.addEventListener('attention-rendered', resolve, { once: true }));
      const steps = Array.from(document.querySelectorAll('#pipeline > section.step'));
      return {
        building: steps.filter((s) => 'building' in s.dataset).map((s) => s.id),
        firstHasCanvas: Boolean(document.querySelector('#step-X canvas')),
      };
    });
    // When the page says it is rendered, the first step is there and the far ones are still to come.
    expect(atEvent.firstHasCanvas).toBe(true);
    expect(atEvent.building).not.toContain('step-X');
    expect(atEvent.building).toContain('step-output');
    await waitForIdle(page);
    // Then everything is built: 513 tokens in the links view, 513 rows of statistics, 12 heads of small multiples.
    expect(await page.locator('#pipeline > section.step[data-building]').count()).toBe(0);
    expect(await page.locator('#step-links text.token:not(.key)').count()).toBe(513);
    expect(await page.$eval('#step-scaling > table.stats', (table) => table.tBodies[0].rows.length)).toBe(513);
    // Every head's small heatmap drawn: each of its pixels opaque (no NaN here).
    expect(
      await page.$$eval('#step-attnweights .head-multiple canvas', (canvases) =>
        canvases.map((canvas) =>
          canvas
            .getContext('2d')
            .getImageData(0, 0, canvas.width, canvas.height)
            .data.every((byte, k) => k % 4 !== 3 || byte === 255),
        ),
      ),
    ).toEqual(Array(12).fill(true));
    expect(await page.locator('#step-output canvas').count()).toBe(1);
    // Find in page reaches the end: the last token's label is text in the document.
    expect(await page.evaluate(() => document.getElementById('step-links').textContent.includes('w512'))).toBe(true);
    expect(problems).toEqual([]);
  }, 120_000);

  test('a jump to a step still being built lands on it', async () => {
    await page.evaluate(() => scrollTo(0, 0));
    await page.evaluate(async () => {
      const box = document.getElementById('input-text');
      box.value = box.value.replace(/ w512$/, '');
      box.dispatchEvent(new Event('input'));
      await new Promise((resolve) => document.addEventListener('attention-rendered', resolve, { once: true }));
    });
    expect(await page.locator('#step-output[data-building]').count()).toBe(1);
    // Until it is built, the step's old numbers are said busy and dimmed.
    expect(await page.locator('#step-output').getAttribute('aria-busy')).toBe('true');
    await page.click('#overview a[data-target="step-output"]');
    await waitForIdle(page);
    // The steps above it built and measured: the scroll corrections that keep it in place are done.
    await waitForStill(page, '#step-output');
    const place = await page.evaluate(() => ({
      top: document.getElementById('step-output').getBoundingClientRect().top,
      toolbar: document.querySelector('.toolbar').getBoundingClientRect().height,
    }));
    expect(place.top).toBeGreaterThanOrEqual(place.toolbar - 2);
    expect(place.top).toBeLessThan(place.toolbar + 60);
    await shot(page, 'render-large-jump');
  }, 120_000);

  test("a keystroke's heatmaps, their unchanged rows copied from the last drawing, equal heatmaps coloured anew", async () => {
    const heatmaps = () =>
      page.$$eval('#pipeline .canvas-matrix canvas', (canvases) =>
        canvases.map((canvas) => {
          const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
          // Every pixel drawn (opaque), and a digest of them all.
          let digest = 0;
          for (let k = 0; k < data.length; k++) digest = (Math.imul(digest, 31) + data[k]) | 0;
          return [
            canvas.closest('figure').dataset.matrix,
            data.every((byte, k) => k % 4 !== 3 || byte === 255),
            digest,
          ];
        }),
      );
    await page.evaluate(async () => {
      const box = document.getElementById('input-text');
      box.value += ' w512';
      box.dispatchEvent(new Event('input'));
      await new Promise((resolve) => document.addEventListener('attention-rendered', resolve, { once: true }));
    });
    // Every band is a slice of the page's build queue (in idle time for those far from view): idle, all are drawn.
    await waitForIdle(page);
    await nextFrames(page);
    const copied = await heatmaps();
    expect(copied.map(([name]) => name)).toEqual(expect.arrayContaining(['X', 'W_Q', 'Q', 'weights', 'output']));
    expect(copied.every(([, opaque]) => opaque)).toBe(true);
    // The dark theme and back: every heatmap coloured anew (the last drawings are on another scale).
    for (const theme of ['dark', 'light']) {
      await page.selectOption('#theme', theme);
      await waitForIdle(page);
    }
    await nextFrames(page);
    expect(await heatmaps()).toEqual(copied);
  }, 180_000);
});
