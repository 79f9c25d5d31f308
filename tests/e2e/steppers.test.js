// The two steppers on the page and in <attention-lab>, in English and Chinese:
// "KV cache, token by token" stepped through every decode step and "the online
// softmax" through every tile, by keyboard, their numbers checked against the
// PyTorch 1.13 stepper fixtures (tests/reference/fixtures/steppers) and their
// bit-identical counts against the engine's own figures (lab.decode, lab.flash).
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';
import explainStrings from '../../web/i18n/explain.js';
import { emptyEdits } from '../../web/model/edits.js';
import { encodeState } from '../../web/model/share.js';
import { attributesFromSettings, elementMarkup, settingsFromConfig } from '../../web/model/settings.js';
import { bytesText } from '../../web/model/stepper-runs.js';
import { kvHeadOf } from '../../web/model/variant-math.js';
import { openPage, waitForIdle } from './browser.js';
import { shot, useBrowserSuite } from './suite.js';

const suite = useBrowserSuite();

const fixture = (name) =>
  JSON.parse(readFileSync(new URL(`../reference/fixtures/steppers/${name}.json`, import.meta.url), 'utf8'));
const DECODE = fixture('decode-causal');
const FLASH = fixture('flash-causal-2x2');
// The page's strings and the explanations' own (explain/cells.js registers them).
const STRINGS = { en: { ...en, ...explainStrings.en }, zh: { ...zh, ...explainStrings.zh } };

/** A fixture number ("NaN", "-Infinity" as strings) as a JS number. */
const num = (v) => (typeof v === 'string' ? Number(v) : v);
/** A number as the page writes it (−, −∞, 1.2e-07) back to a JS number. */
const parse = (text) => {
  const t = text.trim().replace('−∞', '-Infinity').replace('∞', 'Infinity').replace(/−/g, '-');
  return Number(t);
};
// The page shows 4 decimals: a number is within half a unit of the 4th decimal (plus float32 noise).
const SHOWN = 0.5e-4 + 1e-6;

/** Worst |shown − PyTorch| so far, per stepper, printed at the end of each test. */
const worst = { decode: 0, flash: 0 };
function expectClose(kind, shown, expected, what) {
  expect(shown.length, what).toBe(expected.length);
  shown.forEach((v, k) => {
    const e = num(expected[k]);
    if (!Number.isFinite(e)) return expect(v, `${what}[${k}]`).toBe(e);
    const diff = Math.abs(v - e);
    worst[kind] = Math.max(worst[kind], diff);
    expect(diff, `${what}[${k}]: ${v} vs PyTorch ${e}`).toBeLessThanOrEqual(SHOWN);
  });
}

/** The numbers of matrix `name` in `scope` (a locator), row by row. */
const matrixRows = (scope, name) =>
  scope
    .locator(`table[data-matrix="${name}"]:not(.sr-only)`)
    .evaluate((table) =>
      Array.from(table.tBodies[0].rows, (row) => Array.from(row.querySelectorAll('td'), (td) => td.textContent)),
    )
    .then((rows) => rows.map((row) => row.map(parse)));

/** Steps the KV-cache stepper in `step` (a locator) through every step by keyboard, checking each against DECODE. */
async function checkDecode(step, lang, headIndex, api) {
  const t = STRINGS[lang];
  const { S, H, H_kv: Hkv, headDim: dk } = DECODE.expected.sizes;
  const g = kvHeadOf(headIndex, H, Hkv);
  const slider = step.locator('.stepper-slider');
  await slider.focus();
  await slider.press('Home');
  for (let s = 0; s < S; s++) {
    const said = t['kv.said']
      .replace('{n}', s + 1)
      .replace('{count}', S)
      .replace('{t}', s)
      .replace('{token}', DECODE.expected.tokens[s]);
    await expect.poll(() => step.locator('.stepper-said').textContent()).toBe(said);
    // Every step's numbers are checked in Node (tests/js/steppers-*.test.js); here, the first and the last.
    if (s > 0 && s < S - 1) {
      await slider.press('ArrowRight');
      continue;
    }
    // The cache: t + 1 rows of k and v, the last one appended now.
    const keys = await matrixRows(step, 'kv-K');
    const values = await matrixRows(step, 'kv-V');
    expect(keys).toHaveLength(s + 1);
    const cacheRow = (tensor, j) => tensor.data.slice((j * Hkv + g) * dk, (j * Hkv + g + 1) * dk);
    for (let j = 0; j <= s; j++) {
      expectClose('decode', keys[j], cacheRow(DECODE.expected.newKeys, j), `K_cache step ${s} row ${j}`);
      expectClose('decode', values[j], cacheRow(DECODE.expected.newValues, j), `V_cache step ${s} row ${j}`);
    }
    const rowOf = (tensor) => tensor.data.slice((s * H + headIndex) * S, (s * H + headIndex) * S + s + 1);
    expectClose('decode', (await matrixRows(step, 'kv-scores'))[0], rowOf(DECODE.expected.scores), `scores ${s}`);
    expectClose('decode', (await matrixRows(step, 'kv-weights'))[0], rowOf(DECODE.expected.weights), `weights ${s}`);
    expectClose('decode', (await matrixRows(step, 'kv-full'))[0], rowOf(DECODE.expected.fullWeights), `full ${s}`);
    // is_causal=True on one query: key 0 only (head 0 in the fixture and on the page).
    const oneQuery = DECODE.expected.isCausalOneQuery.data.slice(s * S, s * S + s + 1);
    expectClose('decode', (await matrixRows(step, 'kv-causal'))[0], oneQuery, `is_causal ${s}`);
    // Its words: at the first step the one key is kept and the row is right; later key 0 takes all the weight.
    const trap = await step.locator('.kv-trap p').first().textContent();
    if (s === 0) expect(trap).toContain(t['kv.trap.why.first'].split('`')[0]);
    else expect(trap).toBe(t['kv.trap.why'].replace('{n}', String(s + 1)).replace(/`/g, ''));
    // The cache's bytes at length s + 1 for MHA, GQA, MQA.
    for (const layout of ['mha', 'gqa', 'mqa'])
      expect(await step.locator(`tr[data-layout="${layout}"] td.num`).nth(1).textContent()).toBe(
        bytesText(DECODE.expected.cacheBytes[layout][s]),
      );
    if (s < S - 1) await slider.press('ArrowRight');
  }
  // The engine's own count of bit-identical rows, said as it gives it.
  const count = t['kv.identicalCount'].replace('{n}', api.identicalRows).replace('{count}', api.rows);
  expect(await step.locator('.stepper-verdict').textContent()).toContain(count);
  // The Previous and Next buttons work by keyboard too.
  await step.locator('.stepper-prev').focus();
  await step.locator('.stepper-prev').press('Enter');
  await expect.poll(() => slider.inputValue()).toBe(String(S - 2));
  await expect
    .poll(() => step.locator('.stepper-prev').evaluate((b) => b === b.getRootNode().activeElement))
    .toBe(true);
  await step.locator('.stepper-next').focus();
  await step.locator('.stepper-next').press('Enter');
  await expect.poll(() => slider.inputValue()).toBe(String(S - 1));
}

/** Steps the online-softmax stepper in `step` through every tile by keyboard, checking each against FLASH. */
async function checkFlash(step, lang, api) {
  const t = STRINGS[lang];
  const { tiles, runningMax, runningSum, rescale, partialOutput, output } = FLASH.expected;
  const { tileQueries, tileKeys } = FLASH.options;
  expect(await step.locator('input[data-tile="queries"]').inputValue()).toBe(String(tileQueries));
  expect(await step.locator('input[data-tile="keys"]').inputValue()).toBe(String(tileKeys));
  const dk = partialOutput.shape[2];
  const slider = step.locator('.stepper-slider');
  await slider.focus();
  await slider.press('Home');
  // The numbers of the first and the last computed tile (Node checks every tile's).
  const firstTile = tiles.findIndex((tile) => !tile.skipped);
  const lastTile = tiles.findLastIndex((tile) => !tile.skipped);
  for (let k = 0; k < tiles.length; k++) {
    const tile = tiles[k];
    const key = tile.skipped ? 'flash.saidSkipped' : 'flash.said';
    const said = t[key]
      .replace('{n}', k + 1)
      .replace('{count}', tiles.length + 1)
      .replace('{q0}', tile.queryStart)
      .replace('{q1}', tile.queryEnd - 1)
      .replace('{k0}', tile.keyStart)
      .replace('{k1}', tile.keyEnd - 1);
    await expect.poll(() => step.locator('.stepper-said').textContent()).toBe(said);
    const outlined = await step.locator('table[data-matrix="flash-logits"]:not(.sr-only) td.tile-now').count();
    expect(outlined, `tile ${k} outlined`).toBe((tile.queryEnd - tile.queryStart) * (tile.keyEnd - tile.keyStart));
    if (tile.skipped) {
      expect(await step.locator('.flash-skipped').count()).toBe(1);
    } else if (k === firstTile || k === lastTile) {
      const rows = tile.queryEnd - tile.queryStart;
      const stats = await matrixRows(step, 'flash-stats');
      const at = (tensor, r) => tensor.data[k * tileQueries + r];
      for (let r = 0; r < rows; r++) {
        // columns: m_old, m, α, ℓ
        expectClose(
          'flash',
          [stats[r][1], stats[r][2], stats[r][3]],
          [at(runningMax, r), at(rescale, r), at(runningSum, r)],
          `tile ${k} row ${r} m α ℓ`,
        );
      }
      const partial = await matrixRows(step, 'flash-partial');
      for (let r = 0; r < rows; r++) {
        const expected = partialOutput.data.slice((k * tileQueries + r) * dk, (k * tileQueries + r + 1) * dk);
        expectClose('flash', partial[r], expected, `tile ${k} row ${r} O`);
      }
    }
    await slider.press('ArrowRight');
  }
  // The end: O / ℓ against PyTorch's, and the engine's own difference and bit-identical count.
  await expect.poll(() => step.locator('.stepper-said').textContent()).toContain(String(tiles.length + 1));
  const shown = (await matrixRows(step, 'flash-output')).flat();
  expectClose('flash', shown, output.data, 'O / ℓ');
  const summary = await step.locator('.flash-summary').textContent();
  expect(summary).toContain(`${api.identical}`);
  expect(summary).toContain(`${api.total}`);
  expect(api.identical).toBeLessThanOrEqual(api.total);
  expect(api.maxAbsDifference).toBeLessThan(1e-5);
  const why = t[api.identical === api.total ? 'flash.whyAll' : 'flash.why'];
  expect(await step.locator('.stepper-content').textContent()).toContain(why.slice(0, 30));
  // The tile sizes: another size gives other tiles (3 queries × 4 keys).
  await step.locator('input[data-tile="queries"]').fill('3');
  await step.locator('input[data-tile="queries"]').press('Enter');
  await step.locator('input[data-tile="keys"]').fill('4');
  await step.locator('input[data-tile="keys"]').press('Tab');
  await expect.poll(() => slider.getAttribute('max')).toBe(String(2 * 2)); // 2 × 2 tiles, then the division
}

// The steppers are the inference chapter's steps: opened (the page opens the basics only).
const pageUrl = async (config) =>
  `${suite.server.url}?chapters=inference#${await encodeState({ settings: settingsFromConfig(config), edits: emptyEdits() })}`;

async function pageStep(page, id) {
  const step = page.locator(`#step-${id}`);
  await step.scrollIntoViewIfNeeded();
  await expect.poll(() => step.locator('.stepper-control').isVisible(), { timeout: 20000 }).toBe(true);
  await waitForIdle(page);
  return step;
}

for (const lang of ['en', 'zh']) {
  test(`the page steps through the KV cache and the online softmax (${lang})`, async () => {
    const problems = [];
    const api = {
      decode: suite.lab.decode(DECODE.config, DECODE.options),
      flash: suite.lab.flash(FLASH.config, FLASH.options),
    };
    let page = await openPage(suite.browser, await pageUrl(DECODE.config), { problems });
    if (lang === 'zh') {
      await page.selectOption('#language', 'zh');
      await waitForIdle(page);
    }
    // Head 2 of 4: its own KV head (no GQA here), its own rows.
    await page.locator('#head-tabs [role="tab"]').nth(1).click();
    await waitForIdle(page);
    const decodeStep = await pageStep(page, 'kvcache');
    expect(await decodeStep.locator('h2').textContent()).toBe(STRINGS[lang]['step.kvcache.title']);
    await checkDecode(decodeStep, lang, 1, api.decode);
    // The explanation of a weight of this step, on hover.
    await decodeStep.locator('table[data-matrix="kv-causal"]:not(.sr-only) td[data-j="0"]').hover();
    await expect
      .poll(() => page.locator('#explain-body').textContent())
      .toContain(STRINGS[lang]['explain.kv.causalKept'].slice(0, 12));
    await page.context().close();

    page = await openPage(suite.browser, await pageUrl(FLASH.config), { problems });
    if (lang === 'zh') {
      await page.selectOption('#language', 'zh');
      await waitForIdle(page);
    }
    await page.locator('#head-tabs [role="tab"]').nth(FLASH.options.head).click();
    await waitForIdle(page);
    const flashStep = await pageStep(page, 'flash');
    expect(await flashStep.locator('h2').textContent()).toBe(STRINGS[lang]['step.flash.title']);
    await checkFlash(flashStep, lang, api.flash);
    await shot(page, `steppers-flash-${lang}`);
    await page.context().close();
    // The engine's own figures against PyTorch's, at full precision (the page shows 4 decimals).
    const engineWorst = (ours, theirs) =>
      Math.max(...Array.from(ours, (v, k) => (Number.isFinite(v) ? Math.abs(v - num(theirs[k])) : 0)));
    const decodeWorst = engineWorst(api.decode.weights, DECODE.expected.weights.data);
    const flashWorst = engineWorst(api.flash.output, FLASH.expected.output.data);
    expect(decodeWorst).toBeLessThan(1e-6);
    expect(flashWorst).toBeLessThan(1e-6);
    console.log(
      `steppers: engine vs PyTorch, decode weights ${decodeWorst.toExponential(2)}, flash O/ℓ ${flashWorst.toExponential(2)}`,
    );
    console.log(
      `steppers (page, ${lang}): worst |shown − PyTorch| decode ${worst.decode.toExponential(2)}, flash ${worst.flash.toExponential(2)}; ` +
        `engine: ${api.decode.identicalRows}/${api.decode.rows} decode rows and ${api.flash.identical}/${api.flash.total} flash entries bit-identical, max diff ${api.flash.maxAbsDifference}`,
    );
    expect(problems).toEqual([]);
  });

  test(`<attention-lab> steps through the KV cache and the online softmax (${lang})`, async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    const markup = (id, config, extra) =>
      elementMarkup([
        ['id', id],
        ['lang', lang],
        ...attributesFromSettings(settingsFromConfig(config)),
        ...Object.entries(extra),
      ]);
    const html = `<!doctype html><meta charset="utf-8">${markup('decode', DECODE.config, { steps: 'kv-cache', head: '2' })}
      ${markup('flash', FLASH.config, { steps: 'flash', head: String(FLASH.options.head + 1) })}
      <script type="module" src="attention-lab-element.js"></script>`;
    await page.route(`${suite.server.url}__steppers.html`, (route) =>
      route.fulfill({ contentType: 'text/html', body: html }),
    );
    await page.goto(`${suite.server.url}__steppers.html`);
    const api = {
      decode: suite.lab.decode(DECODE.config, DECODE.options),
      flash: suite.lab.flash(FLASH.config, FLASH.options),
    };
    const decodeStep = page.locator('#decode #step-kvcache');
    await decodeStep.scrollIntoViewIfNeeded();
    await expect.poll(() => decodeStep.locator('.stepper-control').isVisible(), { timeout: 20000 }).toBe(true);
    expect(await page.locator('#decode section.step').count()).toBe(1); // steps="kv-cache": that step only
    await checkDecode(decodeStep, lang, 1, api.decode);
    const flashStep = page.locator('#flash #step-flash');
    await flashStep.scrollIntoViewIfNeeded();
    await expect.poll(() => flashStep.locator('.stepper-control').isVisible(), { timeout: 20000 }).toBe(true);
    await checkFlash(flashStep, lang, api.flash);
    console.log(
      `steppers (element, ${lang}): worst |shown − PyTorch| decode ${worst.decode.toExponential(2)}, flash ${worst.flash.toExponential(2)}`,
    );
    await context.close();
    expect(problems).toEqual([]);
  });
}

test('a stepper off screen never draws the last result’s figures with a new one (another S)', async () => {
  const problems = [];
  const page = await openPage(suite.browser, await pageUrl(FLASH.config), { problems });
  // The flash step's figures for this sentence (S tokens), then the step scrolled far away.
  const flashStep = await pageStep(page, 'flash');
  // The logits grid's rows: one per query, S of them.
  const logitRows = () => flashStep.locator('table[data-matrix="flash-logits"]:not(.sr-only) tbody tr').count();
  const sizeS = () => page.evaluate(() => window.attentionLab.controller.result.sizes.S);
  const before = await sizeS();
  expect(await logitRows()).toBe(before);
  // Its stepper sees it leave (an IntersectionObserver, 400 px margin): one of ours on the same element, with
  // the same margin, reports it out of range in the same rendering update, so the stepper knows by then.
  await page.evaluate(
    () =>
      new Promise((resolve) => {
        scrollTo(0, 0);
        const observer = new IntersectionObserver(
          (entries) => {
            if (entries.some((entry) => entry.isIntersecting)) return;
            observer.disconnect();
            resolve();
          },
          { rootMargin: '400px' },
        );
        observer.observe(document.querySelector('#step-flash [data-stepper="flash"]'));
      }),
  );
  // Two more tokens while the step is off screen: its panel gets the new result before its new figures.
  await page.fill('#input-text', `${await page.inputValue('#input-text')} and more`);
  await waitForIdle(page);
  expect(problems).toEqual([]);
  // Until it comes near, it keeps the last sentence's figures, drawn with the sentence they belong to.
  expect(await logitRows()).toBe(before);
  // Back in view: the new sentence's tiles.
  await pageStep(page, 'flash');
  expect(await sizeS()).toBe(before + 2);
  await expect.poll(logitRows).toBe(before + 2);
  expect(problems).toEqual([]);
  await page.context().close();
});
