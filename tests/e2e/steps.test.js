// The contents of each step on the page: every number explains itself, the
// scaling section states the factor, formulas carry only the terms that
// exist, dropout shows what it zeroed, heads side by side, tiny numbers in
// scientific notation. Against the built dist/ in Debian's Chromium.
import { formatNumber } from '../../web/model/format.js';
import { beforeEach, describe, expect, test } from 'vitest';
import en from '../../web/i18n/en.js';
import { DEFAULT_SETTINGS } from '../../web/model/presets.js';
import { configFromSettings } from '../../web/model/settings.js';
import { stepsOf } from '../../web/view/steps/registry.js';
import { runContext } from '../../web/view/steps/run-context.js';
import { openPage, waitForIdle } from './browser.js';
import { shot, useBrowserSuite } from './suite.js';

const suite = useBrowserSuite();
let page;
const problems = [];

// Every step's numbers: the page with every chapter of steps open (it opens the basics only by default:
// chapters.test.js checks that).
beforeEach(async () => {
  await page?.context().close();
  page = await openPage(suite.browser, `${suite.server.url}?chapters=heads,variants,inference`, { problems });
});

const explanation = () => page.locator('#explain-body').textContent();

async function set(selector, value) {
  await page.fill(selector, value);
  await waitForIdle(page);
}
async function choose(selector, value) {
  await page.selectOption(selector, value);
  await waitForIdle(page);
}
async function check(selector, on) {
  await page.setChecked(selector, on);
  await waitForIdle(page);
}

/** The names of the matrices on the page (their rendered tables). */
const matrixNames = () =>
  page.$$eval('#pipeline table[data-matrix]:not(.sr-only)', (tables) => tables.map((t) => t.dataset.matrix));

/** The cell name an explanation of (i, j) of `name` opens with: name[row,col], or name[col] for a vector. */
async function cellName(name, i, j) {
  const table = `#pipeline table[data-matrix="${name}"]:not(.sr-only)`;
  const { row, col, rows } = await page.$eval(
    table,
    (t, [i, j]) => {
      const heads = t.tHead.rows[t.tHead.rows.length - 1].querySelectorAll('th');
      return {
        row: t.tBodies[0].rows[i].querySelector('th').textContent,
        col: heads[j].textContent,
        rows: t.tBodies[0].rows.length,
      };
    },
    [i, j],
  );
  return rows === 1 && row === name ? `${name}[${col}]` : `${name}[${row},${col}]`;
}

/** Hovers the last cell of every matrix, then a column header (a number's label without an explanation). */
async function everyMatrixExplains() {
  const names = await matrixNames();
  for (const name of names) {
    const table = `#pipeline table[data-matrix="${name}"]:not(.sr-only)`;
    const [i, j] = await page.$eval(table, (t) => {
      const rows = t.tBodies[0].rows;
      return [rows.length - 1, rows[rows.length - 1].querySelectorAll('td').length - 1];
    });
    await page.hover(`${table} td[data-i="${i}"][data-j="${j}"]`);
    const text = await explanation();
    expect(text.startsWith(await cellName(name, i, j)), `${name}: ${text}`).toBe(true);
    expect(text.length, name).toBeGreaterThan((await cellName(name, i, j)).length + 12); // more than the value
    await page.hover(`${table} thead tr:last-child th:last-child`);
    expect(await explanation(), `${name} header`).toBe(en['explain.hint']);
  }
  return names;
}

describe('every number explains itself', () => {
  test('hover: every matrix of a multi-head, biased, masked, dropout run; a label shows the hint', async () => {
    await set('#control-heads', '2');
    await check('#control-qkv-bias', true);
    await choose('#control-mask', 'causal');
    await choose('#control-positional', 'sinusoidal');
    await set('#control-dropout', '0.2');
    const names = await everyMatrixExplains();
    // The matrices on the page are the figures the step registry declares for this run, no more, no fewer.
    const settings = { numHeads: 2, 'weights.qkvBias': true, mask: 'causal', 'embedding.positional': 'sinusoidal' };
    const run = runContext(suite.lab.run(configFromSettings({ ...DEFAULT_SETTINGS, ...settings, 'dropout.p': 0.2 })));
    const declared = stepsOf(run).flatMap((step) => step.figures(run).map((figure) => figure.name));
    expect(names.filter((name) => !/^(kv|flash)-/.test(name)).sort()).toEqual(declared.sort());
    for (const name of ['X', 'W_Q', 'b_Q', 'Q', 'Q_h', 'scores', 'scaled', 'mask', 'masked', 'weights'])
      expect(names).toContain(name);
    for (const name of ['averagedWeights', 'keep', 'dropped', 'context', 'concat', 'W_O', 'b_O', 'output'])
      expect(names).toContain(name);

    // What some of them say.
    await page.hover('table[data-matrix="W_Q"] td[data-i="1"][data-j="2"]');
    expect(await explanation()).toContain('q_proj.weight[2,1]');
    await page.hover('table[data-matrix="X"] td[data-i="2"][data-j="3"]');
    expect(await explanation()).toContain('PE[2,3] = cos(');
    await page.hover('table[data-matrix="mask"] td[data-i="1"][data-j="4"]');
    expect(await explanation()).toContain('j > i');
    await page.hover('table[data-matrix="Q"] td[data-i="0"][data-j="5"]');
    expect(await explanation()).toContain('+ b_Q[d5]');
    await page.hover('table[data-matrix="concat"] td[data-i="0"][data-j="5"]');
    expect(await explanation()).toContain('Head 2');

    // A number without an explanation (the scaling statistics) replaces the last one by the hint.
    await page.hover('table[data-matrix="output"] td[data-i="0"][data-j="0"]');
    expect(await explanation()).toContain('output[He,d0]');
    await page.hover('#step-scaling > table.stats tbody td');
    expect(await explanation()).toBe(en['explain.hint']);
    await shot(page, 'steps-explained');
  });

  test('hover: cross-attention with a context sentence (X_context)', async () => {
    await page.click('button[data-preset="cross"]');
    await waitForIdle(page);
    expect(await everyMatrixExplains()).toContain('X_context');
  });

  test('keyboard focus explains the focused number; arrows move it', async () => {
    await page.mouse.move(5, 500); // the pointer rests on the sidebar
    for (const name of await matrixNames()) {
      await page.focus(`#pipeline table[data-matrix="${name}"]:not(.sr-only) td[data-i="0"][data-j="0"]`);
      const text = await explanation();
      expect(text.startsWith(await cellName(name, 0, 0)), `${name}: ${text}`).toBe(true);
    }
    await page.focus('table[data-matrix="scores"] td[data-i="0"][data-j="0"]');
    await page.keyboard.press('ArrowDown');
    expect((await explanation()).startsWith(await cellName('scores', 1, 0))).toBe(true);
  });
});

describe('the scaling section', () => {
  test('states the factor of every scale, and shows the two charts', async () => {
    const factor = () => page.locator('#step-scaling .scale-factor').textContent();
    expect(await factor()).toContain('÷√4 = ×0.5');
    await choose('#control-scale', 'd-model');
    expect(await factor()).toContain('÷√8 = ×0.3536');
    await choose('#control-scale', 'none');
    expect(await factor()).toContain('none: × 1');
    expect(await page.locator('#step-scaled .meaning').textContent()).toContain('No scaling');
    await page.selectOption('#control-scale', 'custom');
    await set('[data-field="scale"] input.custom-number', '0.3');
    expect(await factor()).toContain('× 0.3 (custom)');
    expect(await page.locator('#step-scaled .formula').textContent()).toContain('s = 0.3');
    expect(await page.locator('#step-scaled .meaning').textContent()).not.toContain('√d_k');

    await page.locator('#step-scaling').scrollIntoViewIfNeeded();
    await page.waitForSelector('#step-scaling figure[data-chart="variance"] svg');
    for (const chart of ['variance', 'saturation']) {
      const figure = page.locator(`#step-scaling figure[data-chart="${chart}"]`);
      expect(await figure.locator('svg title').count(), chart).toBe(1);
      expect(await figure.locator('svg').getAttribute('role')).toBe('img');
      expect(await figure.locator('details table tbody tr').count(), chart).toBeGreaterThan(4);
    }
    // d_k = 4 is marked; ten measured variances, d_k = 1 … 512.
    expect(await page.locator('figure[data-chart="variance"] .chart-mark text').textContent()).toBe('d_k = 4');
    expect(await page.locator('figure[data-chart="variance"] .chart-measured circle').count()).toBe(10);
  });
});

describe('formulas show only the terms that exist', () => {
  test('no b_Q without a Q bias, no W_O without the output projection', async () => {
    const formula = (step) => page.locator(`#step-${step} .formula`).textContent();
    expect(await formula('qkv')).not.toContain('bQ');
    await check('#control-qkv-bias', true);
    expect(await formula('qkv')).toContain('bQ');
    await check('#control-qkv-bias', false);
    expect(await formula('qkv')).not.toContain('bQ');
    expect(await formula('output')).toContain('WO');
    await check('#control-out-proj', false);
    expect(await formula('output')).toBe('output = concat');
    expect(await page.locator('#step-wo').count()).toBe(0);
    // The mask as the mask step shows it: masked_fill(M, −∞), no "+ M".
    await choose('#control-mask', 'causal');
    expect(await formula('attnweights')).toContain('masked_fill(M, −∞)');
    expect(await formula('attnweights')).not.toContain('+ M');
  });
});

describe('dropout', () => {
  test('p = 0.2: the zero count equals the zeros of the tensor, and zeroed cells look different', async () => {
    await set('#control-dropout', '0.2');
    const result = suite.lab.run(configFromSettings({ ...DEFAULT_SETTINGS, 'dropout.p': '0.2' }));
    const [, , S, Skv] = result.tensors.dropped.shape;
    const head0 = result.tensors.dropped.data.subarray(0, S * Skv);
    const zeros = head0.filter((v) => v === 0).length;
    expect(zeros).toBeGreaterThan(0);
    const summary = await page.locator('#step-dropped .dropout-summary').textContent();
    expect(summary).toContain(`${zeros} of ${S * Skv} weights zeroed`);
    expect(summary).toContain('1/(1 − p) = 1.25');
    const zeroCells = page.locator('table[data-matrix="dropped"] td.dropped-zero');
    expect(await zeroCells.count()).toBe(zeros);
    expect(await zeroCells.first().getAttribute('aria-label')).toContain('zeroed by dropout');
    expect(await page.locator('table[data-matrix="keep"] td.mask-on').count()).toBe(zeros);
    for (const theme of ['light', 'dark']) {
      await choose('#theme', theme);
      const look = (selector) =>
        page.$eval(selector, (td) => {
          const style = getComputedStyle(td);
          return `${style.backgroundImage} ${style.backgroundColor} ${style.outlineStyle}`;
        });
      const zero = await look('table[data-matrix="dropped"] td.dropped-zero');
      const small = await look('table[data-matrix="dropped"] td:not(.dropped-zero):not(.blocked)');
      expect(zero, theme).toContain('linear-gradient');
      expect(zero, theme).not.toBe(small);
    }
    await shot(page.locator('#step-dropped'), 'steps-dropout-dark');
    await choose('#theme', 'light');
    await set('#control-dropout', '0');
    expect(await page.locator('#step-dropped .meaning').textContent()).toContain('Dropout is off');
    expect(await page.locator('#step-dropped table').count()).toBe(0);
  });
});

describe('multi-head', () => {
  test('small multiples for every head; a click selects the head; averaged weights; concat bands', async () => {
    await set('#control-heads', '4');
    for (const step of ['scores', 'attnweights'])
      expect(await page.locator(`#step-${step} .head-multiple`).count(), step).toBe(4);
    await page.click('#step-attnweights .head-multiple:nth-of-type(3)');
    await waitForIdle(page);
    expect(await page.locator('#head-tabs button[aria-selected="true"]').textContent()).toBe('3');
    expect(await page.locator('#step-scores h3').last().textContent()).toContain('head 3');
    expect(await page.locator('#step-split h3').first().textContent()).toBe('Q_h: head 3 = Q columns d4…d5');
    expect(
      await page.$$eval('table[data-matrix="concat"] tr.column-groups th', (ths) => ths.map((th) => th.textContent)),
    ).toEqual(['head 1', 'head 2', 'head 3', 'head 4']);

    // The averaged weights are the mean of the heads' weights.
    const result = suite.lab.run(configFromSettings({ ...DEFAULT_SETTINGS, numHeads: '4' }));
    const [, H, S, Skv] = result.tensors.weights.shape;
    const shown = await page.$$eval('table[data-matrix="averagedWeights"] tbody td', (tds) =>
      tds.map((td) => Number(td.textContent)),
    );
    expect(shown).toHaveLength(S * Skv);
    let worst = 0;
    for (let k = 0; k < S * Skv; k++) {
      let mean = 0;
      for (let h = 0; h < H; h++) mean += result.tensors.weights.data[h * S * Skv + k] / H;
      worst = Math.max(worst, Math.abs(shown[k] - mean));
    }
    expect(worst).toBeLessThanOrEqual(0.5e-4 + 1e-7); // 4 decimals on the page

    // Each head's small heatmap: one pixel per weight (5 tokens: no pooling), the head's colour
    // mixed into the background by the weight over the largest weight of all heads.
    const largest = Math.max(...result.tensors.weights.data);
    const headColors = [
      [0x00, 0x72, 0xb2],
      [0xe6, 0x9f, 0x00],
      [0x00, 0x9e, 0x73],
      [0xcc, 0x79, 0xa7],
    ];
    const expected = headColors.map((color, h) =>
      Array.from(result.tensors.weights.data.subarray(h * S * Skv, (h + 1) * S * Skv)).flatMap((w) => [
        ...color.map((c) => Math.round(255 + (c - 255) * (w / largest))),
        255,
      ]),
    );
    const drawn = await page.$$eval('#step-attnweights .head-multiple canvas', (canvases) =>
      canvases.map((canvas) =>
        Array.from(canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data),
      ),
    );
    expect(drawn).toEqual(expected);
    expect(
      await page.$$eval('#step-attnweights .head-multiple', (buttons) =>
        buttons.map((button) => [button.getAttribute('aria-label'), button.getAttribute('aria-pressed')]),
      ),
    ).toEqual([1, 2, 3, 4].map((h) => [`Show head ${h} (weights)`, String(h === 3)]));

    // Links: all heads, or the selected one.
    const colours = () =>
      page.$$eval('#step-links svg.links line', (lines) => new Set(lines.map((l) => getComputedStyle(l).stroke)).size);
    expect(await colours()).toBe(4);
    await page.click('#step-links .toggle button[data-all-heads="false"]');
    await waitForIdle(page);
    expect(await colours()).toBe(1);

    // One head: none of that.
    await set('#control-heads', '1');
    expect(await page.locator('.head-multiple').count()).toBe(0);
    expect(await page.locator('#step-averaged').count()).toBe(0);
    expect(await page.locator('#step-links .toggle').count()).toBe(0);
  });
});

describe('tiny numbers', () => {
  test('a weight below 5e-5 is shown in scientific notation, as PyTorch prints it', async () => {
    await page.selectOption('#control-scale', 'custom');
    await set('[data-field="scale"] input.custom-number', '10');
    const result = suite.lab.run(configFromSettings({ ...DEFAULT_SETTINGS, scale: '10' }));
    const [, , S, Skv] = result.tensors.weights.shape;
    const k = Array.from(result.tensors.weights.data.subarray(0, S * Skv)).findIndex((v) => v > 0 && v < 5e-5);
    expect(k).toBeGreaterThanOrEqual(0);
    const [i, j] = [Math.floor(k / Skv), k % Skv];
    const text = await page.locator(`table[data-matrix="weights"] td[data-i="${i}"][data-j="${j}"]`).textContent();
    expect(text).toBe(formatNumber(result.tensors.weights.data[k], 4));
    expect(text).toMatch(/^\d\.\d{4}e-\d\d$/);
  });

  test('no console errors anywhere above', () => {
    expect(problems).toEqual([]);
  });
});
