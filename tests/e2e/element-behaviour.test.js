// <attention-lab> in authors' sites: the language of the nearest lang
// attribute (BCP 47 tags, followed live), theme="auto" following the reader's
// colour scheme, heatmap and head colours from custom properties (text on
// every cell at least 4.5:1), the head attribute, and unknown steps named.
import { execFileSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { shot, useBrowserSuite } from './suite.js';

const suite = useBrowserSuite();

/** A page whose HTML is `body` plus the element's script, served beside the built element; problems collected. */
async function elementPage(name, body, { colorScheme = 'light', viewport = { width: 1200, height: 1600 } } = {}) {
  const context = await suite.browser.newContext({ viewport, colorScheme });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  const html = `<!doctype html>${body}<script type="module" src="attention-lab-element.js"></script>`;
  await page.route(`${suite.server.url}${name}`, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  await page.goto(`${suite.server.url}${name}`);
  return { page, problems };
}

const ready = (page, ids) => page.waitForFunction((ids) => ids.every((id) => document.getElementById(id)?.result), ids);

/** The first step title, the error (null if hidden) and the language of the element `id`. */
const shown = (page, id) =>
  page.evaluate((id) => {
    const root = document.getElementById(id).shadowRoot;
    const error = root.querySelector('.error');
    return { title: root.querySelector('h2')?.textContent, error: error.hidden ? null : error.textContent };
  }, id);

const SCORES_EN = 'Raw scores QKᵀ';
const SCORES_ZH = '原始分数 QKᵀ';

test('lang follows the nearest lang attribute and <html lang>, takes BCP 47 tags, and follows changes', async () => {
  const small = 'text="a b c" d-model="4" heads="1" steps="scores"';
  const { page, problems } = await elementPage(
    '__lang.html',
    `<html lang="zh-CN"><meta charset="utf-8">
    <attention-lab id="page" ${small}></attention-lab>
    <div id="box" lang="en-US"><attention-lab id="inner" ${small}></attention-lab></div>
    <attention-lab id="hans" lang="zh-Hans" ${small}></attention-lab>
    <attention-lab id="tw" lang="zh-TW" ${small}></attention-lab>
    <attention-lab id="us" lang="en-US" ${small}></attention-lab>`,
  );
  await ready(page, ['page', 'inner', 'hans', 'tw', 'us']);
  expect((await shown(page, 'page')).title).toBe(SCORES_ZH); // <html lang="zh-CN">
  expect((await shown(page, 'inner')).title).toBe(SCORES_EN); // the nearer <div lang="en-US">
  expect((await shown(page, 'hans')).title).toBe(SCORES_ZH);
  expect((await shown(page, 'tw')).title).toBe(SCORES_ZH);
  expect((await shown(page, 'us')).title).toBe(SCORES_EN);
  await shot(page, 'element-lang-zh-CN');
  // Inside another component's shadow root, the page's <html lang="zh-CN"> still reaches it.
  await page.evaluate((attributes) => {
    const host = document.body.appendChild(document.createElement('div'));
    host.attachShadow({ mode: 'open' }).innerHTML = `<attention-lab ${attributes}></attention-lab>`;
    host.id = 'component';
  }, small);
  await page.waitForFunction(
    (title) =>
      document.getElementById('component').shadowRoot.querySelector('attention-lab').shadowRoot.querySelector('h2')
        ?.textContent === title,
    SCORES_ZH,
  );

  // <html lang> changes (a site's language switch): the element without its own lang follows.
  await page.evaluate(() => (document.documentElement.lang = 'en'));
  await page.waitForFunction(
    (title) => document.getElementById('page').shadowRoot.querySelector('h2').textContent === title,
    SCORES_EN,
  );
  expect((await shown(page, 'hans')).title).toBe(SCORES_ZH); // its own lang wins
  // The nearest lang ancestor changes.
  await page.evaluate(() => document.getElementById('box').setAttribute('lang', 'zh'));
  await page.waitForFunction(
    (title) => document.getElementById('inner').shadowRoot.querySelector('h2').textContent === title,
    SCORES_ZH,
  );
  // Its own lang attribute changes.
  await page.evaluate(() => document.getElementById('tw').setAttribute('lang', 'en-GB'));
  await page.waitForFunction(
    (title) => document.getElementById('tw').shadowRoot.querySelector('h2').textContent === title,
    SCORES_EN,
  );
  expect(problems).toEqual([]);
  await page.context().close();
});

// The background and the signed heatmap classes of each element (hl-: light scale, hd-: dark).
const themeOf = (page, ids) =>
  page.evaluate(
    (ids) =>
      ids.map((id) => {
        const element = document.getElementById(id);
        const cells = [...element.shadowRoot.querySelectorAll('table[data-matrix="scores"]:not(.sr-only) td')];
        const scales = new Set(cells.flatMap((td) => [...td.classList].filter((c) => /^h[ld]-/.test(c))));
        const background = getComputedStyle(element).backgroundColor;
        return { background, scales: [...new Set([...scales].map((c) => c.slice(0, 2)))].sort() };
      }),
    ids,
  );

test('theme="auto" (the default) on a page that follows the reader (color-scheme: light dark) follows prefers-color-scheme live; light and dark force it', async () => {
  const small = 'text="a b c d" d-model="4" heads="2" steps="scores"';
  const { page, problems } = await elementPage(
    '__theme.html',
    `<html lang="en"><meta charset="utf-8"><meta name="color-scheme" content="light dark">
    <attention-lab id="auto" ${small}></attention-lab>
    <attention-lab id="light" theme="light" ${small}></attention-lab>
    <attention-lab id="dark" theme="dark" ${small}></attention-lab>`,
    { colorScheme: 'dark' },
  );
  await ready(page, ['auto', 'light', 'dark']);
  const dark = { background: 'rgb(30, 32, 36)', scales: ['hd'] };
  const light = { background: 'rgb(255, 255, 255)', scales: ['hl'] };
  expect(await page.evaluate(() => document.getElementById('auto').theme)).toBe('auto');
  expect(await themeOf(page, ['auto', 'light', 'dark'])).toEqual([dark, light, dark]);
  await shot(page, 'element-auto-dark');
  // The reader switches to light: auto follows at once, without a reload.
  await page.emulateMedia({ colorScheme: 'light' });
  await page.waitForFunction(() => document.getElementById('auto').shadowRoot.querySelector('td[class*="hl-"]'));
  expect(await themeOf(page, ['auto', 'light', 'dark'])).toEqual([light, light, dark]);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(() => document.getElementById('auto').shadowRoot.querySelector('td[class*="hd-"]'));
  expect(await themeOf(page, ['auto'])).toEqual([dark]);
  expect(problems).toEqual([]);
  await page.context().close();
});

test('a see-through --attention-lab-background leaves the heatmaps the theme’s zero, not black', async () => {
  const { page, problems } = await elementPage(
    '__clear.html',
    `<html lang="en"><meta charset="utf-8">
    <style>#clear { --attention-lab-background: transparent; }</style>
    <attention-lab id="clear" theme="light" text="the cat sat" d-model="4" heads="1" steps="scores"></attention-lab>`,
  );
  await ready(page, ['clear']);
  const classes = await page.evaluate(() =>
    [...document.getElementById('clear').shadowRoot.querySelectorAll('table[data-matrix="scores"] td')].flatMap((td) =>
      [...td.classList].filter((c) => /^h[ldps]-/.test(c)),
    ),
  );
  expect(classes.length).toBeGreaterThan(0);
  // The built-in light scale's classes (hl-…), not a custom palette's (hs-palette-…) with a black centre.
  expect(classes.every((c) => c.startsWith('hl-'))).toBe(true);
  expect(problems).toEqual([]);
  await page.context().close();
});

test('heatmap and head colours come from custom properties; text on every cell stays at least 4.5:1', async () => {
  const { page, problems } = await elementPage(
    '__palette.html',
    `<html lang="en"><meta charset="utf-8">
    <style>
      #custom {
        --attention-lab-negative: #7b3294;
        --attention-lab-positive: #008837;
        --attention-lab-zero: #fafafa;
        --attention-lab-probability-low: #ffffff;
        --attention-lab-probability-high: oklch(45% 0.2 25);
        --attention-lab-head-1: rgb(228, 26, 28);
        --attention-lab-head-2: #377eb8;
      }
    </style>
    <attention-lab id="plain" text="the cat sat on the mat" d-model="4" heads="2" steps="qkv scores weights"></attention-lab>
    <attention-lab id="custom" text="the cat sat on the mat" d-model="4" heads="2" steps="qkv scores weights"></attention-lab>`,
  );
  await ready(page, ['plain', 'custom']);
  await shot(page, 'element-custom-palette', { fullPage: true });
  const facts = await page.evaluate(() => {
    const rgb = (text) =>
      text
        .match(/\d+(\.\d+)?/g)
        .slice(0, 3)
        .map(Number);
    const luminance = (c) =>
      c
        .map((v) => v / 255)
        .map((s) => (s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4))
        .reduce((sum, s, i) => sum + s * [0.2126, 0.7152, 0.0722][i], 0);
    const contrast = (a, b) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (hi + 0.05) / (lo + 0.05);
    };
    return ['plain', 'custom'].map((id) => {
      const element = document.getElementById(id);
      const root = element.shadowRoot;
      // The numbers of a heatmap: the cells coloured by a scale's class (hl-, hd-, hp-, hs-…).
      const cells = (matrix) =>
        [...root.querySelectorAll(`table[data-matrix="${matrix}"]:not(.sr-only) td`)].filter((td) =>
          [...td.classList].some((c) => /^h[ldps]-/.test(c)),
        );
      const scores = element.result.tensors.scores;
      // The cell of the largest |score| of head 1 ends the scale: the positive or the negative colour.
      let extreme = 0;
      for (let k = 1; k < 36; k++) if (Math.abs(scores.data[k]) > Math.abs(scores.data[extreme])) extreme = k;
      const extremeCell = cells('scores')[extreme];
      const worst = Math.min(
        ...[...cells('scores'), ...cells('weights')].map((td) => {
          const style = getComputedStyle(td);
          return contrast(rgb(style.color), rgb(style.backgroundColor));
        }),
      );
      const weights = element.result.tensors.weights.data;
      const largest = Math.max(...weights);
      const canvas = root.querySelector('section[data-step="weights"] .head-multiple canvas');
      const pixels = Array.from(canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data);
      const tab = root.querySelector('.tabs.heads [role="tab"]');
      return {
        extremeSign: Math.sign(scores.data[extreme]),
        extremeBackground: getComputedStyle(extremeCell).backgroundColor,
        worst,
        pixels,
        headOneWeights: Array.from(weights.subarray(0, 36)),
        largest,
        bandColor: getComputedStyle(root.querySelector('table[data-matrix="Q"] td.hb-0') ?? extremeCell).boxShadow,
        tabHeadColor: tab ? getComputedStyle(tab).getPropertyValue('--head-color') : null,
        probabilityLegend: root.querySelector('figure[data-matrix="weights"] .legend-bar')?.style.background,
      };
    });
  });
  const [plain, custom] = facts;
  console.log(
    `worst text contrast on a heatmap cell: default ${plain.worst.toFixed(2)}:1, custom ${custom.worst.toFixed(2)}:1`,
  );
  expect(plain.worst).toBeGreaterThanOrEqual(4.5);
  expect(custom.worst).toBeGreaterThanOrEqual(4.5);
  // The scale's end is the custom colour (#008837 / #7b3294), not the built-in one.
  expect(custom.extremeBackground).toBe(custom.extremeSign > 0 ? 'rgb(0, 136, 55)' : 'rgb(123, 50, 148)');
  expect(plain.extremeBackground).toBe(plain.extremeSign > 0 ? 'rgb(217, 115, 13)' : 'rgb(33, 102, 172)');
  // Head 1's small heatmap: its custom colour mixed into the custom zero by weight / the largest weight.
  const expected = custom.headOneWeights.flatMap((w) => [
    ...[228, 26, 28].map((c, i) => Math.round([250, 250, 250][i] + (c - [250, 250, 250][i]) * (w / custom.largest))),
    255,
  ]);
  expect(custom.pixels).toEqual(expected);
  expect(custom.bandColor).toContain('rgb(228, 26, 28)');
  expect(plain.bandColor).toContain('rgb(0, 114, 178)');
  expect(custom.pixels).not.toEqual(plain.pixels);
  // The probability scale: white to the oklch colour (two stops) instead of viridis.
  expect(custom.probabilityLegend).toMatch(/^linear-gradient\(90deg, rgb\(255, 255, 255\), rgb\(\d+, \d+, \d+\)\)$/);
  expect(plain.probabilityLegend).toContain('rgb(68, 1, 84)');
  expect(problems).toEqual([]);
  await page.context().close();
});

test('head picks the head shown (from 1, as the tabs count); one the setup lacks is an inline error in the reader’s language', async () => {
  const { page, problems } = await elementPage(
    '__head.html',
    `<html lang="en"><meta charset="utf-8">
    <attention-lab id="a" text="a b c" d-model="8" heads="4" head="3" steps="split scores"></attention-lab>
    <attention-lab id="zh" lang="zh-CN" text="a b c" d-model="8" heads="2" head="5" steps="scores"></attention-lab>`,
  );
  await ready(page, ['a']);
  const selected = () =>
    page.evaluate(() => {
      const root = document.getElementById('a').shadowRoot;
      const tabs = [...root.querySelectorAll('.tabs.heads [role="tab"]')];
      return tabs.findIndex((tab) => tab.getAttribute('aria-selected') === 'true') + 1;
    });
  expect(await selected()).toBe(3);
  expect(await page.evaluate(() => document.getElementById('a').head)).toBe(3);
  // The scores shown are head 3's (index 2): the first number equals the result's.
  const first = await page.evaluate(() => {
    const el = document.getElementById('a');
    const { data } = el.result.tensors.scores;
    const table = el.shadowRoot.querySelector('table[data-matrix="scores"]:not(.sr-only)');
    return [table.tBodies[0].rows[0].querySelector('td').textContent, data[2 * 9]];
  });
  expect(Number(first[0].replace('−', '-'))).toBeCloseTo(first[1], 4);
  // A reader picks head 4; el.head says so; setting it goes back.
  await page.locator('#a .tabs.heads [role="tab"]').nth(3).click();
  expect(await selected()).toBe(4);
  expect(await page.evaluate(() => document.getElementById('a').head)).toBe(4);
  await page.evaluate(() => (document.getElementById('a').head = 3));
  expect(await selected()).toBe(3);
  await page.evaluate(() => (document.getElementById('a').head = 2));
  expect(await page.evaluate(() => document.getElementById('a').getAttribute('head'))).toBe('2');
  expect(await selected()).toBe(2);
  // Out of range: an inline error naming head; the last result stays.
  const errors = [];
  await page.exposeFunction('recordError', (detail) => errors.push(detail));
  await page.evaluate(() =>
    document.getElementById('a').addEventListener('attention-error', (e) => window.recordError(e.detail)),
  );
  for (const bad of ['5', '0', 'two']) {
    await page.evaluate((bad) => document.getElementById('a').setAttribute('head', bad), bad);
    expect((await shown(page, 'a')).error).toBe(
      `head: head must be a whole number from 1 to 4 (the number of heads), got ${bad}`,
    );
    expect(
      await page.evaluate(() => document.getElementById('a').shadowRoot.querySelectorAll('table').length),
    ).toBeGreaterThan(0);
  }
  expect(errors.map((e) => e.code)).toEqual(['head-out-of-range', 'head-out-of-range', 'head-out-of-range']);
  await page.evaluate(() => document.getElementById('a').setAttribute('heads', '8'));
  await page.evaluate(() => document.getElementById('a').setAttribute('head', '5'));
  await page.waitForFunction(() => document.getElementById('a').result.settings.numHeads === 8);
  await page.waitForFunction(() => document.getElementById('a').shadowRoot.querySelector('.error').hidden);
  expect(await selected()).toBe(5);
  // In Chinese.
  await page.waitForFunction(() => !document.getElementById('zh').shadowRoot.querySelector('.error').hidden);
  expect((await shown(page, 'zh')).error).toBe('head: head 应为 1 到 2（头的个数）之间的整数，实际为 5');
  expect(problems).toEqual([]);
  await page.context().close();
});

test('unknown steps are an inline error naming steps and listing the valid names, in English and Chinese', async () => {
  const { page, problems } = await elementPage(
    '__steps.html',
    `<html lang="en"><meta charset="utf-8">
    <attention-lab id="en" text="a b c" steps="attention"></attention-lab>
    <attention-lab id="zh" lang="zh" text="a b c" steps="scores attention softmax"></attention-lab>
    <attention-lab id="ok" text="a b c" steps="scores"></attention-lab>`,
  );
  await ready(page, ['ok']);
  await page.waitForFunction(() =>
    ['en', 'zh'].every((id) => !document.getElementById(id).shadowRoot.querySelector('.error').hidden),
  );
  const valid =
    'X, X_context, projections, qkv, split, qk-norm, rope, mla-latent, mla-rope, mla-paths, scores, scaled, ' +
    'softcap, alibi, mask, masked, weights, diffmaps, diffweights, averaged, scaling, links, dropped, context, ' +
    'diffnorm, concat, gate, W_O, output, kv-cache, flash, mla-cache';
  expect((await shown(page, 'en')).error).toBe(`steps: unknown step "attention" (the steps are: ${valid})`);
  expect((await shown(page, 'zh')).error).toBe(`steps: 未知的步骤 "attention", "softmax"（可用的步骤：${valid}）`);
  await shot(page, 'element-unknown-steps');
  // Fixed: the steps render and the error goes.
  await page.evaluate(() => document.getElementById('en').setAttribute('steps', 'scores weights'));
  await ready(page, ['en']);
  await page.waitForFunction(() => document.getElementById('en').shadowRoot.querySelector('.error').hidden);
  expect(
    await page.evaluate(() =>
      [...document.getElementById('en').shadowRoot.querySelectorAll('section.step')].map((s) => s.dataset.step),
    ),
  ).toEqual(['scores', 'weights']);
  // A view-only change to a bad list on a shown element: the error, the last steps still there.
  await page.evaluate(() => document.getElementById('ok').setAttribute('steps', 'scores attention'));
  await page.waitForFunction(() => !document.getElementById('ok').shadowRoot.querySelector('.error').hidden);
  expect(
    await page.evaluate(() => document.getElementById('ok').shadowRoot.querySelectorAll('section.step').length),
  ).toBe(1);
  expect(problems).toEqual([]);
  await page.context().close();
});

test('the built element imports in plain Node (server-side rendering, as a VitePress build does) and defines nothing', () => {
  const built = new URL('../../dist/attention-lab-element.js', import.meta.url).href;
  const script = `
    const before = new Set(Object.getOwnPropertyNames(globalThis));
    await import(${JSON.stringify(built)});
    const added = Object.getOwnPropertyNames(globalThis).filter((name) => !before.has(name));
    console.log(JSON.stringify({ added, customElements: typeof customElements, HTMLElement: typeof HTMLElement }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(JSON.parse(out)).toEqual({ added: [], customElements: 'undefined', HTMLElement: 'undefined' });
});
