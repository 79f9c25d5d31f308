// The page in Debian's Chromium, against the built dist/ (npm test builds it).
import { formatNumber } from '../../web/model/format.js';
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, test } from 'vitest';
import { DEFAULT_SETTINGS, PRESETS, presetByKey, presetSettings } from '../../web/model/presets.js';
import { configFromSettings } from '../../web/model/settings.js';
import { TABLE_LIMIT } from '../../web/view/common/matrix.js';
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

/** The numbers of a rendered table as text, row by row. */
const tableText = (matrix) =>
  page.$$eval(`table[data-matrix="${matrix}"]:not(.sr-only) tbody tr`, (rows) =>
    rows.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent)),
  );

/** The same numbers computed by the JS API: rows of one [rows, cols] slice. */
function apiText(tensor, offset, rows, cols, decimals = 4, rowStride = cols) {
  return Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => formatNumber(tensor.data[offset + i * rowStride + j], decimals)),
  );
}

async function typeInto(selector, text) {
  await page.fill(selector, text);
  await waitForIdle(page);
}

describe('the page', () => {
  test('shows the default example with every step; numbers equal the API', async () => {
    for (const step of [
      'X',
      'weights',
      'qkv',
      'split',
      'scores',
      'scaled',
      'mask',
      'masked',
      'attnweights',
      'scaling',
      'links',
      'dropped',
      'context',
      'concat',
      'wo',
      'output',
    ]) {
      expect(await page.locator(`#step-${step}`).count(), step).toBe(1);
    }
    const result = suite.lab.run(configFromSettings(DEFAULT_SETTINGS));
    const T = result.tensors;
    const [, H, S, Skv] = T.scores.shape;
    const D = T.Q.shape[2];
    expect(await tableText('X')).toEqual(apiText(T.X, 0, S, D));
    expect(await tableText('W_Q')).toEqual(apiText(T.W_Q, 0, D, D));
    expect(await tableText('Q')).toEqual(apiText(T.Q, 0, S, D));
    expect(await tableText('K_h')).toEqual(apiText(T.K, 0, Skv, D / H, 4, D));
    expect(await tableText('scores')).toEqual(apiText(T.scores, 0, S, Skv));
    expect(await tableText('weights')).toEqual(apiText(T.weights, 0, S, Skv));
    expect(await tableText('context')).toEqual(apiText(T.context, 0, S, D / H));
    expect(await tableText('output')).toEqual(apiText(T.output, 0, S, D));
    expect(await page.locator('#step-X .shape').textContent()).toContain('[B=1, S=8, D=8]');
    await shot(page, 'default');
  });

  test('typing a sentence updates the token chips and the matrices', async () => {
    await typeInto('#input-text', 'the quick brown fox');
    expect(await page.locator('#chips-text .chip > span').allTextContents()).toEqual(['the', 'quick', 'brown', 'fox']);
    const rowLabels = await page.$$eval('table[data-matrix="X"] tbody th', (ths) => ths.map((th) => th.textContent));
    expect(rowLabels).toEqual(['the', 'quick', 'brown', 'fox']);
    const expected = suite.lab.run(configFromSettings({ ...DEFAULT_SETTINGS, text: 'the quick brown fox' }));
    expect(await tableText('output')).toEqual(apiText(expected.tensors.output, 0, 4, 8));
  });

  test('presets switch in one click', async () => {
    for (const preset of PRESETS) {
      await page.click(`button[data-preset="${preset.key}"]`);
      await waitForIdle(page);
      const settings = presetSettings(preset, 'en');
      const expected = suite.lab.run(configFromSettings(settings));
      const [B, , S] = expected.tensors.scores.shape;
      const D = expected.tensors.Q.shape[2];
      expect(await page.inputValue('#input-text'), preset.key).toBe(settings.text ?? '');
      // nn.MultiheadAttention(512, 8): a heatmap, with its top-left corner as a table for screen readers.
      const [rows, cols] = S > TABLE_LIMIT || D > TABLE_LIMIT ? [Math.min(16, S), Math.min(16, D)] : [S, D];
      const output = await page.$$eval('table[data-matrix="output"] tbody tr', (trs) =>
        trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent)),
      );
      expect(output, preset.key).toEqual(apiText(expected.tensors.output, 0, rows, cols, 4, D));
      expect(await page.locator('#batch-tabs button').count()).toBe(B);
      // A random input's shape label is the drawn X's shape, not the previous preset's dModel.
      if (settings.input)
        expect(await page.textContent('#input-shape'), preset.key).toBe(`[${expected.tensors.X.shape.join(', ')}]`);
      expect(await page.locator(`button[data-preset="${preset.key}"]`).getAttribute('aria-pressed')).toBe('true');
      expect(await page.locator('#preset-note').textContent()).toContain(`tests/reference/programs/${preset.key}.py`);
    }
  });

  test('the tutorial preset prints what its program prints, in English and in Chinese', async () => {
    const program = JSON.parse(
      readFileSync(new URL('../reference/fixtures/programs/tutorial.json', import.meta.url), 'utf8'),
    );
    const printed = program.tensors.output.data[0]; // the first number of the program's "Output:"
    expect(program.printed).toContain(printed.toFixed(4));
    await page.click('button[data-preset="tutorial"]');
    await waitForIdle(page);
    expect((await tableText('W_Q'))[0]).toEqual(program.tensors.W_q.data.slice(0, 4).map((x) => formatNumber(x, 4)));
    expect((await tableText('output'))[0][0]).toBe(formatNumber(printed, 4));
    await page.locator('#presets').scrollIntoViewIfNeeded();
    await shot(page, 'preset-tutorial');

    // Chinese: the tutorial's preset keeps the tutorial's own tokens, and the numbers stay the program's.
    await page.selectOption('#language', 'zh');
    await waitForIdle(page);
    const zh = presetSettings(presetByKey.get('tutorial'), 'zh');
    expect(await page.inputValue('#input-text')).toBe(zh.text);
    expect((await tableText('output'))[0][0]).toBe(formatNumber(printed, 4));
    expect(await page.locator('#preset-note').textContent()).toContain('Understand Attention in an Intuitive Way');
    await shot(page, 'preset-tutorial-zh');
    await page.selectOption('#language', 'en');
    await waitForIdle(page);
    expect(await page.inputValue('#input-text')).toBe(presetSettings(presetByKey.get('tutorial'), 'en').text);

    // A changed setting leaves the preset: its note goes.
    await typeInto('#control-seed', '7');
    expect(await page.locator('#preset-note').isHidden()).toBe(true);
    expect(await page.locator('button[data-preset="tutorial"]').getAttribute('aria-pressed')).toBe('false');
  });

  test('changing heads gives per-head matrices with head tabs', async () => {
    await typeInto('#control-heads', '4');
    expect(await page.locator('#head-tabs button').count()).toBe(4);
    const expected = suite.lab.run(configFromSettings({ ...DEFAULT_SETTINGS, numHeads: 4 }));
    const [, H, S, Skv] = expected.tensors.scores.shape;
    expect(H).toBe(4);
    await page.click('#head-tabs button:nth-of-type(3)');
    await waitForIdle(page);
    expect(await page.locator('#step-scores h3').textContent()).toContain('head 3');
    expect(await tableText('scores')).toEqual(apiText(expected.tensors.scores, 2 * S * Skv, S, Skv));
    expect(await tableText('Q_h')).toEqual(apiText(expected.tensors.Q, 2 * 2, S, 2, 4, 8));
    // The page asked the engine for head 3 alone (every head of scores and weights, for the small multiples).
    expect(await tableText('scaled')).toEqual(apiText(expected.tensors.scaled, 2 * S * Skv, S, Skv));
    expect(await tableText('context')).toEqual(apiText(expected.tensors.context, 2 * S * 2, S, 2));
    const held = await page.evaluate(() =>
      Object.fromEntries(
        ['scaled', 'context', 'scores'].map((name) => {
          const { shape, head, batch } = window.attentionLab.controller.result.tensors[name];
          return [name, { shape, head, batch }];
        }),
      ),
    );
    expect(held).toEqual({
      scaled: { shape: [1, 1, S, Skv], head: 2, batch: 0 },
      context: { shape: [1, 1, S, 2], head: 2, batch: 0 },
      scores: { shape: [1, 4, S, Skv], batch: 0 },
    });
    await shot(page, 'multi-head');
  });

  test('a setting is shown where it has an effect: the additive hidden size with additive scores, the mask fill with a mask', async () => {
    const shown = (path) => page.isVisible(`[data-field="${path}"]`);
    // The tokenizer sits right below the sentence it splits, not among the model's settings.
    expect(await page.locator('#input-text-box + #tokenizer-place #control-tokenizer').count()).toBe(1);
    expect(await page.locator('#controls [data-field="tokenizer"]').count()).toBe(0);
    expect(await shown('additiveHidden')).toBe(false); // dot scores by default
    await page.selectOption('#control-score', 'additive');
    await waitForIdle(page);
    expect(await shown('additiveHidden')).toBe(true);
    // A bad value is said at its field, which stays in view.
    await page.fill('#control-additive-hidden', '0');
    await waitForIdle(page);
    expect(await page.isVisible('#error-additive-hidden')).toBe(true);
    await page.fill('#control-additive-hidden', '3');
    await waitForIdle(page);
    expect(await page.isVisible('#error-additive-hidden')).toBe(false);
    await page.selectOption('#control-mask', 'causal');
    await waitForIdle(page);
    expect(await shown('maskFill')).toBe(true);
    expect(await shown('maskConvention')).toBe(true);
    await page.selectOption('#control-mask', 'none');
    await waitForIdle(page);
    expect(await shown('maskFill')).toBe(false);
    expect(await shown('maskConvention')).toBe(false);
  });

  test('an invalid dModel shows its error at the field and keeps the last result', async () => {
    const before = await tableText('output');
    await typeInto('#control-d-model', '0');
    await expect.poll(() => page.locator('#error-d-model').isVisible()).toBe(true);
    expect(await page.locator('#error-d-model').textContent()).toContain('dModel (0) must be between 1 and 4096');
    expect(await tableText('output')).toEqual(before);
    await typeInto('#control-d-model', '6');
    await typeInto('#control-heads', '4');
    await expect
      .poll(() => page.locator('#error-heads').textContent())
      .toContain('dModel (6) must be divisible by numHeads (4)');
    expect(await page.inputValue('#control-d-model')).toBe('6'); // the input is kept
    expect(await page.inputValue('#input-text')).toBe(DEFAULT_SETTINGS.text);
    await typeInto('#control-heads', '2');
    await expect.poll(() => page.locator('#error-heads').isVisible()).toBe(false);
    await typeInto('#input-text', '');
    // An empty box is not sent, so the engine reports the sentence as missing (it said "text is empty" when the form sent "").
    await expect.poll(() => page.locator('#error-text').textContent()).toContain('text is required');
  });

  test('editing a weight changes Q and everything after it, and Reset puts it back', async () => {
    const xBefore = await tableText('X');
    const qBefore = await tableText('Q');
    await page.click('table[data-matrix="W_Q"] td[data-i="0"][data-j="0"]');
    await page.fill('table[data-matrix="W_Q"] input', '1.5');
    await page.press('table[data-matrix="W_Q"] input', 'Enter');
    await waitForIdle(page);
    expect(await page.locator('table[data-matrix="W_Q"] td[data-i="0"][data-j="0"]').textContent()).toBe('1.5000');
    expect(await page.locator('table[data-matrix="W_Q"] td.edited').count()).toBe(1);
    const config = configFromSettings(DEFAULT_SETTINGS);
    config.weights = { ...config.weights, edits: { W_Q: [[0, 0, 1.5]] } };
    const expected = suite.lab.run(config);
    expect(await tableText('X')).toEqual(xBefore);
    expect(await tableText('Q')).not.toEqual(qBefore);
    expect(await tableText('Q')).toEqual(apiText(expected.tensors.Q, 0, 8, 8));
    expect(await tableText('weights')).toEqual(apiText(expected.tensors.weights, 0, 8, 8));
    expect(await tableText('output')).toEqual(apiText(expected.tensors.output, 0, 8, 8));

    // An embedding edit changes that token's row wherever it appears ("the" twice).
    await page.click('table[data-matrix="X"] td[data-i="3"][data-j="1"]');
    await page.fill('table[data-matrix="X"] input', '2');
    await page.press('table[data-matrix="X"] input', 'Enter');
    await waitForIdle(page);
    const x = await tableText('X');
    expect(x[3][1]).toBe('2.0000');
    expect(x[6][1]).toBe('2.0000');

    await page.click('#reset-edits');
    await waitForIdle(page);
    expect(await tableText('Q')).toEqual(qBefore);
    expect(await tableText('X')).toEqual(xBefore);
    expect(await page.locator('td.edited').count()).toBe(0);
  });

  test('the mouse wheel over a weight scrolls the page; it changes the number only while it is edited', async () => {
    const cell = 'table[data-matrix="W_Q"]:not(.sr-only) td[data-i="0"][data-j="0"]';
    const before = await page.textContent(cell);
    await page.hover(cell);
    const y = await page.evaluate(() => scrollY);
    await page.mouse.wheel(0, 120);
    await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(y);
    await waitForIdle(page);
    expect(await page.textContent(cell)).toBe(before);
    expect(await page.locator('.reset-edits:visible, #reset-edits:visible').count()).toBe(0);
    // While edited, the wheel steps the typed value by 0.01.
    await page.click(cell);
    const input = page.locator(`${cell} input`);
    await input.fill('0.5');
    await page.mouse.wheel(0, -120);
    await expect.poll(() => input.inputValue()).toBe('0.51');
  });

  test('hover and focus explain scores, weights, sums and outputs', async () => {
    await page.hover('table[data-matrix="scores"] td[data-i="1"][data-j="2"]');
    await expect.poll(() => page.locator('#explain-body').textContent()).toContain('Σ =');
    expect(await page.locator('#explain-body').textContent()).toContain('score[sat,by]');
    expect(await page.locator('table[data-matrix="Q_h"] tr.hl').count()).toBe(1);
    expect(await page.locator('table[data-matrix="K_h"] tr.hl').count()).toBe(1);
    await page.hover('table[data-matrix="weights"] td[data-i="0"][data-j="0"]');
    expect(await page.locator('#explain-body').textContent()).toContain('Σ exp');
    // A keyboard user: the pointer rests on the sidebar, so the scroll that focus causes
    // does not hover a cell without an explanation (which now shows the hint over the focus's).
    await page.mouse.move(5, 500);
    await page.focus('table[data-matrix="context"] td[data-i="0"][data-j="0"]');
    expect(await page.locator('#explain-body').textContent()).toContain('context[He,d0]');
    await page.keyboard.press('ArrowRight');
    expect(await page.locator('#explain-body').textContent()).toContain('context[He,d1]');
    await page.hover('table[data-matrix="output"] td[data-i="0"][data-j="0"]');
    expect(await page.locator('#explain-body').textContent()).toContain('output[He,d0]');
  });

  test('a markup token stays text and runs nothing', async () => {
    const hostile = '<img src=x onerror=alert(1)> <script>alert(2)</script>';
    await typeInto('#input-text', hostile);
    const chips = await page.locator('#chips-text .chip > span').allTextContents();
    expect(chips).toEqual(['<img', 'src=x', 'onerror=alert(1)>', '<script>alert(2)</script>']);
    expect(await page.locator('#pipeline img, #chips-text img, #pipeline script').count()).toBe(0);
    const labels = await page.$$eval('table[data-matrix="X"] tbody th', (ths) => ths.map((th) => th.textContent));
    expect(labels).toContain('<script>alert(2)</script>');
    expect(problems.filter((p) => p.startsWith('dialog'))).toEqual([]);
  });

  test('the language switch translates the page and persists', async () => {
    await page.selectOption('#language', 'zh');
    await waitForIdle(page);
    expect(await page.locator('h1').textContent()).toBe('注意力实验室');
    expect(await page.locator('#step-attnweights h2').textContent()).toBe('注意力权重');
    expect(await page.locator('label[for="control-heads"]').textContent()).toBe('头数');
    await shot(page, 'chinese');
    await page.reload();
    await waitForIdle(page);
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
    expect(await page.locator('h1').textContent()).toBe('注意力实验室');
    await page.selectOption('#language', 'en');
  });

  test('engine errors and warnings are shown in the UI language, and said again when it changes', async () => {
    await page.selectOption('#language', 'zh');
    await waitForIdle(page);
    await typeInto('#control-d-model', '0');
    await expect.poll(() => page.locator('#error-d-model').textContent()).toBe('dModel（0）应在 1 到 4096 之间');
    await shot(page, 'error-zh');
    await page.selectOption('#language', 'en');
    await expect.poll(() => page.locator('#error-d-model').textContent()).toBe('dModel (0) must be between 1 and 4096');
    await page.selectOption('#language', 'zh');
    await typeInto('#control-d-model', '6');
    await typeInto('#control-heads', '4');
    await expect.poll(() => page.locator('#error-heads').textContent()).toBe('dModel（6）必须能被 numHeads（4）整除');
    await typeInto('#control-heads', '2');
    await typeInto('#control-d-model', '8');
    await expect.poll(() => page.locator('#error-heads').isVisible()).toBe(false);
    // A warning: scores that overflow give NaN rows, said in Chinese in the status line.
    await page.selectOption('#control-scale', 'custom');
    await typeInto('#control-scale + .custom-number', '-3e38');
    await expect.poll(() => page.locator('#status').textContent()).toContain('行是 NaN');
    // In the heads' small heatmaps a NaN weight is a transparent pixel: the theme's NaN colour shows behind it.
    const heads = await page.evaluate(() => {
      const { data } = window.attentionLab.controller.result.tensors.weights;
      const canvases = Array.from(document.querySelectorAll('#step-attnweights .head-multiple canvas'));
      const size = canvases[0].width * canvases[0].height; // 5 tokens: a pixel per weight
      return {
        nan: canvases.map((_, h) => Array.from(data.subarray(h * size, (h + 1) * size), Number.isNaN)),
        clear: canvases.map((canvas) =>
          Array.from(
            canvas
              .getContext('2d')
              .getImageData(0, 0, canvas.width, canvas.height)
              .data.filter((_, k) => k % 4 === 3),
            (alpha) => alpha === 0,
          ),
        ),
        background: getComputedStyle(canvases[0]).backgroundColor,
      };
    });
    expect(heads.nan.flat()).toContain(true);
    expect(heads.clear).toEqual(heads.nan);
    expect(heads.background).toBe('rgb(194, 24, 122)'); // --nan
    await shot(page, 'warning-zh');
    await page.selectOption('#control-scale', 'head-dim');
    await page.selectOption('#language', 'en');
    await waitForIdle(page);
  });

  test('a padded batch shows pad chips, a batch selector and blocked keys', async () => {
    await page.selectOption('#control-mask', 'padding');
    await typeInto('#input-text', 'the cat sat on the mat\na dog ran');
    expect(await page.locator('#chips-text .chip-row').count()).toBe(2);
    expect(await page.locator('#chips-text .chip.pad').count()).toBe(3);
    await page.click('#batch-tabs button:nth-of-type(2)');
    await waitForIdle(page);
    const rows = await page.$$eval('table[data-matrix="X"] tbody th', (ths) => ths.map((th) => th.textContent));
    expect(rows).toEqual(['a', 'dog', 'ran', '<pad>', '<pad>', '<pad>']);
    // The engine was asked for the second sentence alone.
    expect(await page.evaluate(() => window.attentionLab.controller.result.tensors.X.batch)).toBe(1);
    const mask = await tableText('mask');
    expect(mask[0]).toEqual(['0', '0', '0', '1', '1', '1']);
    expect(await page.locator('table[data-matrix="weights"] td.blocked').count()).toBe(18);
    const blocked = await page.locator('table[data-matrix="weights"] td.blocked').allTextContents();
    expect(new Set(blocked)).toEqual(new Set(['0.0000']));
    const masked = await page.locator('table[data-matrix="masked"] td.blocked').allTextContents();
    expect(new Set(masked)).toEqual(new Set(['−∞']));
  });

  test('a large input switches to canvas heatmaps and stays usable', async () => {
    const text = Array.from({ length: 96 }, (_, i) => `w${i}`).join(' ');
    await typeInto('#control-d-model', '64');
    await typeInto('#control-heads', '4');
    await typeInto('#input-text', text);
    expect(await page.locator('#step-scores .canvas-matrix canvas').count()).toBe(1);
    expect(await page.locator('#step-scores table.sr-only').count()).toBe(1);
    await page.locator('#step-scores .canvas-matrix canvas').hover({ position: { x: 1, y: 1 } });
    expect(await page.locator('#step-scores .canvas-tooltip').textContent()).toContain('w0');
    await page.locator('#step-scores').scrollIntoViewIfNeeded();
    await shot(page, 'large-heatmap');
  });

  test('the dark theme and decimals controls apply', async () => {
    await page.selectOption('#theme', 'dark');
    await page.selectOption('#decimals', '2');
    await waitForIdle(page);
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    expect(await page.locator('table[data-matrix="X"] td[data-i="0"][data-j="0"]').textContent()).toMatch(
      /^−?\d\.\d\d$/,
    );
    await page.selectOption('#theme', 'light');
    await page.selectOption('#decimals', '4');
  });

  test('on a phone the explanation floats only while it explains a number; Close hands the focus to its step', async () => {
    await page.context().close();
    page = await openPage(suite.browser, suite.server.url, { problems, viewport: { width: 390, height: 844 } });
    const panel = page.locator('aside.explain');
    expect(await panel.isVisible()).toBe(false); // the hint alone does not cover the settings
    const cell = 'table[data-matrix="scores"]:not(.sr-only) td[data-i="1"][data-j="0"]';
    await page.locator(cell).scrollIntoViewIfNeeded();
    await page.click(cell);
    await expect.poll(() => panel.isVisible()).toBe(true);
    expect(await page.textContent('#explain-body')).toMatch(/score/i);
    const box = await panel.boundingBox();
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await page.click('#explain-close');
    expect(await panel.isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement.closest('section')?.id)).toBe('step-scores');
  });

  test('no console errors anywhere above', () => {
    expect(problems).toEqual([]);
  });
});
