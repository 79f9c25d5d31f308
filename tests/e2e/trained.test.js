// The "Trained model" mode in Debian's Chromium: on the page (the model
// control switches to it) and in <attention-lab model="tiny">. The heads are
// named by scores measured on the spot; the second copy's accuracy is the
// training report's (tests/reference/tiny/report.json, written by PyTorch);
// the checkpoint slider goes from no induction head (step 0) to one (11000);
// Chinese; a text over 256 bytes is an inline error naming the field, the
// text kept; the view is a chunk of its own, fetched only in this mode.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import trainedStrings from '../../web/i18n/en-trained.js';
import { emptyEdits } from '../../web/model/edits.js';
import { INDUCTION_THRESHOLD, TWICE_SENTENCES } from '../../web/model/tiny.js';
import { encodeState } from '../../web/model/share.js';
import { shot, useBrowserSuite } from './suite.js';
import { expectNoEnglish } from './english-left.js';

const suite = useBrowserSuite();
const report = JSON.parse(readFileSync(new URL('../reference/tiny/report.json', import.meta.url), 'utf8'));
const stepReport = (step) => (step === 11000 ? report.final : report.curve.find((c) => c.step === step));
// The default sentences (model/tiny.js TWICE_SENTENCES), typed twice as the report measured them.
const [EN, ZH] = [TWICE_SENTENCES.en, TWICE_SENTENCES.zh];
const argmax = (row) => row.indexOf(Math.max(...row));

/** The page, its requests recorded (to see which chunks it fetched) and its problems collected. */
async function openTrainedPage({ lang = 'en', viewport = { width: 1440, height: 1000 }, hash = '' } = {}) {
  const context = await suite.browser.newContext({ viewport, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
  const page = await context.newPage();
  const problems = [];
  const requests = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(`${suite.server.url}${hash}`);
  await page.waitForFunction(() => window.attentionLab?.isIdle() && document.querySelector('#controls select'));
  if (lang === 'zh') {
    await page.selectOption('#language', 'zh');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN' && window.attentionLab.isIdle());
  }
  return { page, problems, requests };
}

/** Waits until the trained view shows a result of `step` and nothing runs. */
const trainedIdle = (page, step = null) =>
  page.waitForFunction(
    (step) => {
      const lab = window.attentionLab;
      const result = lab?.trained?.result;
      return result && lab.isIdle() && (step === null || result.checkpoint === step);
    },
    step,
    { timeout: 30_000 },
  );

async function chooseTiny(page) {
  // On a narrow screen the settings are folded away under their summary.
  if (!(await page.isVisible('#control-model'))) await page.click('#settings-panel > summary');
  await page.selectOption('#control-model', 'tiny');
  await trainedIdle(page, 11000);
}

/** The heads grid as {name: {kind, text}}. */
const headsOf = (root) =>
  root.$$eval('[data-trained="heads"] [data-head]', (buttons) =>
    Object.fromEntries(buttons.map((b) => [b.dataset.head, { kind: b.dataset.kind ?? null, text: b.textContent }])),
  );

const accuracyOf = async (root) => (await root.$('.trained-accuracy')).textContent();

/** Moves the checkpoint slider with the keyboard (Home: the first step, End: the last). */
async function slide(page, key, step) {
  await page.focus('.trained-slider input[type="range"]');
  await page.keyboard.press(key);
  await trainedIdle(page, step);
}

describe('the page in the trained model’s mode', () => {
  let page;
  let problems;
  let requests;
  beforeAll(async () => {
    ({ page, problems, requests } = await openTrainedPage());
  });

  test('the trained view, its English strings and the model’s wasm are fetched only when the mode is chosen', async () => {
    const trainedChunk = (url) => /\/assets\/trained-[\w-]+\.js$/.test(url);
    // The model's forward is a wasm of its own (dist/tiny/), with its glue; the engine's wasm has none of it.
    const modelWasm = (url) => url.endsWith('/tiny/attention-lab-tiny.wasm');
    const modelGlue = (url) => /\/assets\/attention-lab-tiny-[\w-]+\.js$/.test(url);
    expect(requests.filter(trainedChunk)).toEqual([]);
    expect(requests.filter(modelWasm)).toEqual([]);
    expect(requests.filter(modelGlue)).toEqual([]);
    const manifest = JSON.parse(readFileSync(new URL('../../dist/.vite/manifest.json', import.meta.url), 'utf8'));
    const staticallyLoaded = new Set();
    const visit = (key) => {
      if (staticallyLoaded.has(key)) return;
      staticallyLoaded.add(key);
      for (const next of manifest[key].imports ?? []) visit(next);
    };
    visit('index.html');
    expect([...staticallyLoaded].filter((key) => key.includes('view/trained'))).toEqual([]);
    // The view's English strings come with its chunk (i18n/en-trained.js), not in the page's.
    const text = (key) => readFileSync(new URL(`../../dist/${manifest[key].file}`, import.meta.url), 'utf8');
    const typeItTwice = trainedStrings['trained.twice.button'];
    expect([...staticallyLoaded].filter((key) => text(key).includes(typeItTwice))).toEqual([]);
    expect(text('view/trained/trained-view.js')).toContain(typeItTwice);
    // Imported when first shown, by the view's host (view/host/host.js), in a chunk the page loads at once.
    const importers = [...staticallyLoaded].filter((key) =>
      manifest[key].dynamicImports?.includes('view/trained/trained-view.js'),
    );
    expect(importers.length).toBe(1);
    await chooseTiny(page);
    expect(requests.filter(trainedChunk).length).toBe(1);
    expect(requests.filter(modelWasm).length).toBe(1);
    expect(requests.filter(modelGlue).length).toBe(1);
  });

  test('the heads are named by the scores measured on the default sentence typed twice', async () => {
    expect(await page.inputValue('.trained-text-row textarea')).toBe(EN + EN);
    const heads = await headsOf(page);
    expect(Object.keys(heads)).toHaveLength(8);
    const result = await page.evaluate(() => window.attentionLab.trained.result);
    const { previousToken, induction } = result.headScores;
    // The heads with the highest scores on this text: layer 1's previous-token head, layer 2's induction head.
    const [p, q] = [argmax(previousToken[0]), argmax(induction[1])];
    const [PREVIOUS, INDUCTION] = [`L1H${p + 1}`, `L2H${q + 1}`];
    expect(heads[PREVIOUS].kind).toBe('previous-token');
    expect(heads[PREVIOUS].text).toContain('previous-token head');
    expect(heads[PREVIOUS].text).toContain(`previous ${previousToken[0][p].toFixed(2)}`);
    expect(heads[INDUCTION].kind).toBe('induction');
    expect(heads[INDUCTION].text).toContain('induction head');
    expect(heads[INDUCTION].text).toContain(`induction ${induction[1][q].toFixed(2)}`);
    // Every head named induction scores at least the threshold, and only in layer 2.
    const named = Object.entries(heads).filter(([, h]) => h.kind === 'induction');
    expect(named.map(([name]) => name)).toEqual(
      induction[1].flatMap((v, h) => (v >= INDUCTION_THRESHOLD ? [`L2H${h + 1}`] : [])),
    );
    // How the scores are computed is said under the grid.
    expect(await page.textContent('[data-trained="heads"] .note')).toContain('weights[i, t(i)]');
    // The second copy: the training report's count (PyTorch), at least 80% right.
    const { correct, total } = report.final.sentences.en;
    expect(correct / total).toBeGreaterThanOrEqual(0.8);
    expect(await accuracyOf(page)).toContain(`${correct}/${total}`);
    expect(result.secondCopy).toMatchObject({ correct, total });
    const marks = await page.$$eval('[data-trained="twice"] [data-mark]', (chips) => chips.map((c) => c.dataset.mark));
    expect(marks.filter((m) => m === 'right')).toHaveLength(correct);
    expect(marks).toHaveLength(total);
    // The stripe is outlined on the best induction head's heatmap; the composition names both heads.
    expect(await page.locator(`[data-head="${INDUCTION}"] .trained-stripe path`).count()).toBe(1);
    expect(await page.locator('.trained-stripe path').count()).toBe(1);
    const composition = await page.textContent('[data-trained="composition"]');
    expect(composition).toContain(PREVIOUS);
    expect(composition).toContain(INDUCTION);
    expect(await page.locator('.trained-next tbody tr').count()).toBe(5);
    await shot(page, 'trained-en', { fullPage: true });
    expect(problems).toEqual([]);
  });

  test('the checkpoint slider: no induction head at step 0, one at 11000; the curve marks the step', async () => {
    await slide(page, 'Home', 0);
    let heads = await headsOf(page);
    expect(Object.values(heads).filter((h) => h.kind)).toEqual([]);
    const first = stepReport(0).sentences.en;
    expect(await accuracyOf(page)).toContain(`${first.correct}/${first.total}`);
    expect(await page.textContent('.trained-curves')).toContain('step 0');
    // The weights file of the step (the build names it with a hash; the download keeps its name).
    expect(await page.getAttribute('.trained-download', 'download')).toBe('step-0000.safetensors');
    expect(await page.getAttribute('.trained-download', 'href')).toMatch(/step-0000[\w-]*\.safetensors$/);
    await slide(page, 'End', 11000);
    heads = await headsOf(page);
    expect(Object.values(heads).filter((h) => h.kind === 'induction').length).toBeGreaterThanOrEqual(1);
    // The share link carries the mode, the step and the text.
    const settings = await page.evaluate(() => window.attentionLab.state.settings);
    expect(settings).toMatchObject({ model: 'tiny', checkpoint: 11000 });
  });

  test('keyboard: a byte of the second copy picked with the arrows moves the composition and the next bytes', async () => {
    const before = await page.textContent('.trained-next caption');
    await page.focus('[data-trained="twice"] .trained-byte[tabindex="0"]');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((text) => document.querySelector('.trained-next caption').textContent !== text, before);
    const focused = await page.evaluate(() => document.activeElement.dataset.i);
    expect(await page.textContent('.trained-next caption')).toContain(`byte ${focused}`);
  });

  test('typed twice with a space between: the repeat after the space is found, marked and counted', async () => {
    const { text, correct, total } = report.final.sentences['en-space'];
    await page.fill('.trained-text-row textarea', text);
    await trainedIdle(page);
    const result = await page.evaluate(() => window.attentionLab.trained.result);
    expect(result.secondCopy).toMatchObject({ correct, total });
    expect(await accuracyOf(page)).toContain(`${correct}/${total}`);
    const marks = await page.$$eval('[data-trained="twice"] [data-mark]', (chips) => chips.map((c) => c.dataset.mark));
    expect(marks).toHaveLength(total);
    // The bytes of the second copy (after the space) are marked as such, the space is not.
    const copy = await page.$$eval('[data-trained="twice"] .second-copy', (chips) =>
      chips.map((c) => Number(c.dataset.i)),
    );
    const half = (text.length - 1) / 2;
    expect(copy).toEqual(Array.from({ length: half }, (_, k) => half + 1 + k));
    expect(await page.textContent('[data-trained="twice"] .note')).toContain(`The second copy is ${half} bytes`);
  });

  test('a text over 256 bytes: an inline error naming the field, the text kept; a fit one clears it', async () => {
    const long = 'x'.repeat(300);
    await page.fill('.trained-text-row textarea', long);
    await page.waitForSelector('.trained-error:not([hidden])');
    const error = await page.textContent('.trained-error:not([hidden])');
    // It names its field once ("Text is 300 bytes", not "Text: text is 300 bytes").
    expect(error).toMatch(/^Text is 300 bytes of UTF-8; the tiny model reads at most 256/);
    expect(await page.inputValue('.trained-text-row textarea')).toBe(long);
    expect(await page.getAttribute('.trained-text-row textarea', 'aria-invalid')).not.toBeNull();
    await page.click('.trained-twice-button'); // cut to 128 bytes and typed twice
    await trainedIdle(page);
    expect(await page.inputValue('.trained-text-row textarea')).toBe('x'.repeat(256));
    expect(await page.locator('.trained-error:not([hidden])').count()).toBe(0);
  });

  test('back to the attention layer: its sentence and pipeline return', async () => {
    await page.selectOption('#control-model', 'attention');
    await page.waitForFunction(() => window.attentionLab.isIdle() && document.querySelector('#trained').hidden);
    expect(await page.isVisible('#pipeline')).toBe(true);
    expect(await page.inputValue('#input-text')).not.toBe('');
  });
});

describe('the trained model in Chinese and on a phone', () => {
  test('Chinese: the default Chinese sentence, the heads named, errors in Chinese, no English left', async () => {
    const { page, problems } = await openTrainedPage({ lang: 'zh' });
    await chooseTiny(page);
    expect(await page.inputValue('.trained-text-row textarea')).toBe(ZH + ZH);
    const heads = await headsOf(page);
    const { previousToken, induction } = await page.evaluate(() => window.attentionLab.trained.result.headScores);
    expect(heads[`L2H${argmax(induction[1]) + 1}`].text).toContain('归纳头');
    expect(heads[`L1H${argmax(previousToken[0]) + 1}`].text).toContain('前一词元头');
    const { correct, total } = report.final.sentences.zh;
    expect(await accuracyOf(page)).toContain(`${correct}/${total}`);
    await expectNoEnglish(page);
    await shot(page, 'trained-zh', { fullPage: true });
    await page.fill('.trained-text-row textarea', '注意力'.repeat(29)); // 261 bytes
    await page.waitForSelector('.trained-error:not([hidden])');
    expect(await page.textContent('.trained-error:not([hidden])')).toMatch(/^文本有 261 个 UTF-8 字节/);
    expect(await page.inputValue('.trained-text-row textarea')).toBe('注意力'.repeat(29));
    await expectNoEnglish(page);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  test('the model’s wasm cannot be fetched: said at the slider in Chinese, the text kept', async () => {
    const { page, problems } = await openTrainedPage({ lang: 'zh' });
    await page.route('**/tiny/attention-lab-tiny.wasm', (route) => route.abort());
    await page.selectOption('#control-model', 'tiny');
    const error = page.locator(
      '.trained-slider ~ .trained-error:not([hidden]), [id$="-checkpoint-error"]:not([hidden])',
    );
    await error.waitFor();
    expect(await error.textContent()).toMatch(
      /^训练步数：无法从 \S+\/tiny\/attention-lab-tiny\.wasm 读取小模型的 wasm：/,
    );
    expect(await page.getAttribute('.trained-slider input[type="range"]', 'aria-invalid')).not.toBeNull();
    expect(await page.inputValue('.trained-text-row textarea')).toBe(ZH + ZH);
    // The browser's own line about the failed request is the only console error.
    expect(problems.filter((p) => !p.includes('net::ERR_FAILED'))).toEqual([]);
    await page.context().close();
  });

  test('a link opens the mode at its step and text; on a 390 px phone the grid fits', async () => {
    const { page } = await openTrainedPage({ viewport: { width: 390, height: 844 } });
    await chooseTiny(page);
    await slide(page, 'Home', 0);
    await page.fill('.trained-text-row textarea', 'abcabc');
    await trainedIdle(page);
    const settings = await page.evaluate(() => window.attentionLab.state.settings);
    const hash = `#${await encodeState({ settings, edits: emptyEdits() })}`;
    const opened = await openTrainedPage({ viewport: { width: 390, height: 844 }, hash });
    await trainedIdle(opened.page, 0);
    expect(await opened.page.inputValue('.trained-text-row textarea')).toBe('abcabc');
    const overflow = await opened.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(opened.page, 'trained-phone', { fullPage: true });
    await page.context().close();
    await opened.page.context().close();
  });
});

describe('<attention-lab model="tiny">', () => {
  test('shows the same view at its checkpoint and text, in its language, lazily', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1100, height: 1400 } });
    const page = await context.newPage();
    const problems = [];
    const requests = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('request', (request) => requests.push(request.url()));
    const body = `<!doctype html><meta charset="utf-8">
      <attention-lab id="tiny" model="tiny" checkpoint="1500" text="${EN}${EN}"></attention-lab>
      <attention-lab id="zh" lang="zh" model="tiny"></attention-lab>
      <attention-lab id="long" model="tiny" text="${'y'.repeat(257)}"></attention-lab>
      <attention-lab id="switched" text="a b c"></attention-lab>
      <script type="module" src="attention-lab-element.js"></script>`;
    await page.route(`${suite.server.url}__tiny.html`, (route) => route.fulfill({ contentType: 'text/html', body }));
    await page.goto(`${suite.server.url}__tiny.html`);
    await page.waitForFunction(() => ['tiny', 'zh'].every((id) => document.getElementById(id).result), null, {
      timeout: 30_000,
    });
    const tiny = await page.$('#tiny');
    const result = await tiny.evaluate((el) => ({
      checkpoint: el.result.checkpoint,
      secondCopy: el.result.secondCopy,
    }));
    expect(result.checkpoint).toBe(1500);
    const { correct, total } = stepReport(1500).sentences.en;
    expect(result.secondCopy).toMatchObject({ correct, total });
    const root = await tiny.evaluateHandle((el) => el.shadowRoot);
    expect(Object.keys(await headsOf(root))).toHaveLength(8);
    expect(await (await root.$('.trained-accuracy')).textContent()).toContain(`${correct}/${total}`);
    // None of the attention layer's parts is rendered (hidden attributes that CSS overrides would not count),
    // also on an element switched to the tiny model after an attention run.
    const renderedAttentionParts = (el) =>
      ['.bar', '.overview', '.stepper', '.pipeline', '.explain-body', '.preset-note']
        .filter((selector) => el.shadowRoot.querySelector(selector).getClientRects().length > 0)
        .join(' ');
    expect(await tiny.evaluate(renderedAttentionParts)).toBe('');
    const switched = await page.$('#switched');
    await page.waitForFunction(() => document.getElementById('switched').result?.tensors);
    expect(await switched.evaluate(renderedAttentionParts)).not.toBe('');
    await switched.evaluate((el) => el.setAttribute('model', 'tiny'));
    await page.waitForFunction(() => document.getElementById('switched').result?.model === 'tiny');
    expect(await switched.evaluate(renderedAttentionParts)).toBe('');
    // Chinese: the Chinese sentence typed twice by default, the labels in Chinese.
    const zhRoot = await (await page.$('#zh')).evaluateHandle((el) => el.shadowRoot);
    expect(await (await zhRoot.$('textarea')).inputValue()).toBe(ZH + ZH);
    expect(await (await zhRoot.$('[data-kind="induction"]')).textContent()).toContain('归纳头');
    // Too long: an inline error naming the text, the text kept in the box.
    await page.waitForFunction(() =>
      document.getElementById('long').shadowRoot.querySelector('.trained-error:not([hidden])'),
    );
    const long = await page.evaluate(() => {
      const root = document.getElementById('long').shadowRoot;
      return { error: root.querySelector('.trained-error').textContent, text: root.querySelector('textarea').value };
    });
    expect(long.error).toMatch(/^Text is 257 bytes of UTF-8; .*256/);
    expect(long.text).toBe('y'.repeat(257));
    expect(requests.filter((url) => /\/assets\/trained-[\w-]+\.js$/.test(url)).length).toBe(1);
    await shot(page, 'trained-element', { fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });
});
