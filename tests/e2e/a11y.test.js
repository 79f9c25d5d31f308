// axe-core in Chromium over every page we ship: the main page, embed.html,
// authors.html and a page of <attention-lab> elements (presets, compact, the
// step-by-step mode, editable), the main page with a checkpoint open, in light and dark, English and Chinese (each page
// in both languages and both themes, paired: English light, Chinese dark), after
// every section has been scrolled into view and rendered. axe looks into the
// elements' shadow roots. Any violation fails, named with its nodes.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, test, vi } from 'vitest';
import { waitForIdle } from './browser.js';
import { shot, useBrowserSuite } from './suite.js';

const suite = useBrowserSuite();
// Eleven elements on the authors' page, each running on load, on a shared 2-core machine.
vi.setConfig({ testTimeout: 150_000 });
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const elementsPage = (lang, theme) => `<!doctype html><html lang="${lang === 'zh' ? 'zh-CN' : 'en'}">
  <head><meta charset="utf-8"><title>Attention Lab elements</title></head>
  <body><main><h1>Attention Lab elements</h1>
  <attention-lab preset="tutorial" lang="${lang}" theme="${theme}"></attention-lab>
  <attention-lab preset="multi-head" lang="${lang}" theme="${theme}" steps="scores weights output" compact></attention-lab>
  <attention-lab text="The cat sat on the mat" heads="2" mask="causal" lang="${lang}" theme="${theme}" mode="steps"></attention-lab>
  <attention-lab text="a b c" lang="${lang}" theme="${theme}" editable steps="X weights qkv scores"></attention-lab>
  <attention-lab text="a b c d e" heads="4" kv-heads="2" qk-norm rope="rotate-half" alibi softcap="5" mask="causal" window="2" sink-tokens="1" sink-logit="0" lang="${lang}" theme="${theme}" steps="qkv split qk-norm rope softcap alibi mask weights"></attention-lab>
  </main><script type="module" src="attention-lab-element.js"></script></body></html>`;

/** Every shadow root's and the document's steps are built: no job pending, no busy step. */
const settled = () => {
  const roots = [document, ...[...document.querySelectorAll('attention-lab')].map((e) => e.shadowRoot)];
  return roots.every(
    (root) =>
      root &&
      !root.querySelector('[data-building], [aria-busy="true"]') &&
      !root.querySelector('.loading:not([hidden])'),
  );
};

/** Brings every element and step into view (content-visibility and slices render near the viewport) and waits until all is built. */
async function renderEverything(page, isMainPage) {
  // Every element, which loads its engine only when it nears the viewport.
  for (const element of await page.locator('attention-lab').all()) {
    await element.scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (e) => e.result && !e.shadowRoot.querySelector('[data-building], [aria-busy="true"]'),
      await element.elementHandle(),
    );
  }
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y <= height; y += 700) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    if (isMainPage) await waitForIdle(page);
    await page.waitForFunction(settled);
  }
  if (isMainPage) {
    // Every step shown (none in a trained or checkpoint mode), wherever the scroll above stepped over it.
    const shown = (s) => s.filter((e) => e.getClientRects().length > 0).map((e) => e.id);
    for (const id of await page.$$eval('section.step', shown)) {
      await page.locator(`#${id}`).scrollIntoViewIfNeeded();
      await page.waitForFunction(settled);
    }
  }
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

async function runAxe(page) {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const results = await window.axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.flat().join(' >> ')) }));
  });
}

const PAGES = [
  { name: 'index', path: (lang) => `index.html?lang=${lang}`, main: true },
  {
    // Head 2's tab selected (its number on the head's colour), a token followed (the other rows dimmed).
    name: 'index, head 2, following a token',
    path: () => 'index.html',
    main: true,
    pairings: [1],
    async setup(page) {
      await page.click('#head-tab-1');
      await waitForIdle(page);
      await page.locator('#follow select').selectOption({ index: 2 });
      await waitForIdle(page);
    },
  },
  {
    // Every modern variant on through the form: the GQA grouping, RoPE's figures, ALiBi's slopes, the window's marks.
    name: 'index, every variant on',
    path: () => 'index.html',
    main: true,
    pairings: [0],
    async setup(page) {
      const fields = { heads: '4', 'kv-heads': '2', window: '3', 'sink-tokens': '1', 'sink-logit': '0', softcap: '5' };
      await page.selectOption('#control-mask', 'causal');
      for (const [name, value] of Object.entries(fields)) await page.fill(`#control-${name}`, value);
      await page.selectOption('#control-rope', 'rotate-half');
      await page.setChecked('#control-qk-norm', true);
      await page.setChecked('#control-alibi', true);
      await waitForIdle(page);
    },
  },
  {
    // The checkpoint mode with the repository's two-shard Llama open: its controls, heads grid and the head's steps.
    name: 'index, a checkpoint open',
    path: () => 'index.html',
    main: true,
    async setup(page) {
      const dir = fileURLToPath(new URL('../reference/llama/checkpoints/llama-sharded/', import.meta.url));
      await page.selectOption('#control-model', 'checkpoint');
      const files = ['config.json', 'model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors'];
      await page.setInputFiles(
        '[data-checkpoint-view] input[type="file"]',
        files.map((file) => dir + file),
      );
      await page.waitForSelector('[data-checkpoint="steps"]');
      await waitForIdle(page);
    },
  },
  { name: 'embed', path: (lang, theme) => `embed.html?lang=${lang}&theme=${theme}` },
  {
    name: 'authors',
    path: (lang) => `authors.html?lang=${lang}`,
    // The page builds its tables and gallery once its language has loaded, after the load event.
    setup: (page) => page.waitForSelector('#gallery attention-lab'),
  },
  { name: 'elements', path: () => '__elements.html', elements: true },
];

// Each page in English and light and in Chinese and dark: both languages and both themes are checked on every
// page (contrast depends on the theme, lang attributes and text on the language); the main page's two set-ups
// take one pairing each.
const PAIRINGS = [
  { lang: 'en', theme: 'light' },
  { lang: 'zh', theme: 'dark' },
];
const CASES = PAGES.flatMap((p) =>
  p.pairings ? p.pairings.map((k) => ({ ...p, ...PAIRINGS[k] })) : PAIRINGS.map((pairing) => ({ ...p, ...pairing })),
);

test.each(CASES)(
  '$name in $lang, $theme: no axe violations',
  async ({ name, path, main, elements, setup, lang, theme }) => {
    const context = await suite.browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: theme });
    await context.addInitScript(
      ([lang, theme]) => {
        localStorage.setItem('attention-lab.lang', lang);
        localStorage.setItem('attention-lab.theme', theme);
      },
      [lang, theme],
    );
    const page = await context.newPage();
    if (elements)
      await page.route(`${suite.server.url}__elements.html`, (route) =>
        route.fulfill({ contentType: 'text/html', body: elementsPage(lang, theme) }),
      );
    await page.goto(suite.server.url + path(lang, theme));
    if (main) await waitForIdle(page);
    await setup?.(page);
    await renderEverything(page, main);
    const violations = await runAxe(page);
    const count = violations.reduce((n, v) => n + v.nodes.length, 0);
    const report = violations.map((v) => `${v.id} ×${v.nodes.length}: ${v.nodes.slice(0, 8).join(' | ')}`);
    console.log(
      `axe ${name} ${lang} ${theme}: ${count} failing nodes${report.length ? `\n  ${report.join('\n  ')}` : ''}`,
    );
    if (theme === 'dark' || lang === 'zh') await shot(page, `a11y-${name.replace(/\W+/g, '-')}-${lang}-${theme}`);
    await context.close();
    expect(report).toEqual([]);
  },
);
