// The share round trip in the browser: the page, the link, the iframe snippet
// and the element snippet all show identical numbers. Node checks every preset
// × {no edit, a weight edit, an embedding edit} × dModel ∈ {4, 8, 16} through
// the same model code (tests/js/share-roundtrip.test.js); this opens the real
// pages for one case of each kind: an embedding edit, a weight edit with RoPE
// and 8 heads (shared from the page in Chinese: every snippet speaks it), and a
// random input.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { presetByKey } from '../../web/model/presets.js';
import { waitForIdle } from './browser.js';
import { useBrowserSuite } from './suite.js';

const suite = useBrowserSuite();

const SAMPLES = [
  ['tutorial', 'embedding', 8, 'en'],
  ['llama', 'weight', 16, 'zh'],
  ['annotated', 'none', null, 'en'], // a random input keeps its own D
];
const EDITS = {
  none: null,
  weight: { matrix: 'W_Q', i: 1, j: 2, typed: '0.3141' },
  embedding: { matrix: 'X', i: 1, j: 2, typed: '-2.71' },
};

/** A context that records console errors and page errors of all its pages into `problems`. */
async function newContext(problems) {
  const context = await suite.browser.newContext({ viewport: { width: 1440, height: 1000 } });
  context.on('page', (page) => {
    page.on('console', (m) => m.type() === 'error' && problems.push(`console.error: ${m.text()}`));
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('dialog', (d) => {
      problems.push(`dialog: ${d.message()}`);
      d.dismiss();
    });
  });
  return context;
}

/** A new page of `context` at `path` on the test server (same origin as the built site) whose HTML is `html`. */
async function pageWithHtml(context, path, html) {
  const page = await context.newPage();
  await page.route(`${suite.server.url}${path}`, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  await page.goto(`${suite.server.url}${path}`);
  return page;
}

const snippetPage = (snippet) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>${snippet}</body></html>`;

// Each tensor's first sentence (the page's result holds the shown sentence only; an element's, all of them).
const tensorsOf = ([selector, names]) => {
  const result = selector === 'page' ? window.attentionLab.controller.result : document.querySelector(selector).result;
  const firstSentence = ({ shape, data, batch }) => {
    if (batch !== undefined || shape.length < 3) return { shape, data: Array.from(data) };
    const size = data.length / shape[0];
    return { shape: [1, ...shape.slice(1)], data: Array.from(data.subarray(0, size)) };
  };
  return Object.fromEntries(names.map((name) => [name, firstSentence(result.tensors[name])]));
};

/** On the main page: the preset, dModel and the edit through the UI; then Share. Returns {snippets, shown}. */
async function setUpAndShare(page, preset, edit, dModel, names, lang) {
  await page.selectOption('#language', lang);
  await waitForIdle(page);
  await page.click(`button[data-preset="${preset.key}"]`);
  await waitForIdle(page);
  await page.fill('#control-d-model', String(dModel));
  await waitForIdle(page);
  expect(await page.evaluate(() => window.attentionLab.controller.result.settings.dModel)).toBe(dModel);
  if (edit) {
    const table = `table[data-matrix="${edit.matrix}"]:not(.sr-only)`;
    await page.click(`${table} td[data-i="${edit.i}"][data-j="${edit.j}"]`);
    await page.fill(`${table} td input`, edit.typed);
    await page.press(`${table} td input`, 'Enter');
    await waitForIdle(page);
  }
  await page.click('#share');
  await page.waitForSelector('#share-dialog[open]');
  const snippets = await page.evaluate(() =>
    Object.fromEntries(
      ['link', 'iframe', 'element'].map((key) => [
        key,
        document.querySelector(`#share-dialog [data-share="${key}"]`).value,
      ]),
    ),
  );
  await page.click('#share-dialog form button'); // Close
  await page.waitForSelector('#share-dialog:not([open])', { state: 'attached' });
  // The reader of the link has not chosen a language: the link's own ?lang= decides.
  await page.evaluate(() => localStorage.removeItem('attention-lab.lang'));
  return { snippets, shown: await page.evaluate(tensorsOf, ['page', names]) };
}

// One context per case; every link and snippet opens in a new page.
for (const [key, editKind, chosenDModel, lang] of SAMPLES) {
  const preset = presetByKey.get(key);
  const dModel = chosenDModel ?? preset.settings.dModel;
  describe(`share round trip (${preset.key}): page = link = iframe = element`, () => {
    const problems = [];
    let context;
    let main;
    beforeAll(async () => {
      context = await newContext(problems);
      main = await context.newPage();
      await main.goto(suite.server.url);
      await waitForIdle(main);
    });
    afterAll(() => context?.close());

    test(`${preset.key}, ${editKind === 'none' ? 'no edit' : `${editKind} edit`}, dModel ${dModel}, ${lang}`, async () => {
      const problemsBefore = problems.length;
      const edit = EDITS[editKind];
      const names = ['output', edit?.matrix ?? 'W_Q'];
      const { snippets, shown } = await setUpAndShare(main, preset, edit, dModel, names, lang);
      // Every snippet carries the page's language, English (the default) left to the reader.
      // And the page's open chapters: the link as the page's ?chapters= (none: the plain path), the iframe as
      // the element's chapters, which name the basics too (an element opens every chapter by default).
      const pageChapters = await main.evaluate(() => new URLSearchParams(location.search).get('chapters'));
      const link = new URL(snippets.link);
      const iframe = new URL(snippets.iframe.match(/src="([^"]+)"/)[1]);
      expect(link.hash).toMatch(/^#s=/);
      expect(iframe.pathname).toMatch(/embed\.html$/);
      expect(iframe.hash).toBe(link.hash);
      for (const url of [link, iframe]) expect(url.searchParams.get('lang')).toBe(lang === 'en' ? null : lang);
      expect(link.searchParams.get('chapters')).toBe(pageChapters);
      expect(iframe.searchParams.get('chapters')).toBe(['basics', ...(pageChapters ? [pageChapters] : [])].join(','));
      if (lang !== 'en') expect(snippets.element).toContain(`lang="${lang}"`);
      // The edit is visible: the edited cell holds the typed value as float32 (X: sentence 1 comes first).
      if (edit) {
        const tensor = shown[edit.matrix];
        expect(tensor.data[edit.i * tensor.shape.at(-1) + edit.j]).toBe(Math.fround(Number(edit.typed)));
      }

      // (a) The link in a new page; (b) and (c) a same-origin page holding the
      // iframe snippet and the element snippet. The two pages load side by side.
      const fromLink = async () => {
        const linked = await context.newPage();
        await linked.goto(snippets.link);
        await waitForIdle(linked);
        expect(await linked.locator('#link-notice').isHidden()).toBe(true);
        expect(await linked.inputValue('#language')).toBe(lang);
        expect(await linked.evaluate(tensorsOf, ['page', names])).toEqual(shown);
        await linked.close();
      };
      const fromSnippets = async () => {
        const embedding = await pageWithHtml(
          context,
          '__roundtrip.html',
          snippetPage(`${snippets.iframe}\n${snippets.element}`),
        );
        const frame = await (await embedding.waitForSelector('iframe')).contentFrame();
        await frame.waitForFunction(() => document.getElementById('embedded')?.result);
        expect(await frame.locator('#notice').isHidden()).toBe(true);
        expect(await frame.evaluate(tensorsOf, ['#embedded', names])).toEqual(shown);
        await embedding.waitForFunction(() => document.querySelector('attention-lab')?.result);
        expect(
          await embedding.evaluate(
            () => document.querySelector('attention-lab').shadowRoot.querySelector('.error').hidden,
          ),
        ).toBe(true);
        expect(await embedding.evaluate(tensorsOf, ['attention-lab', names])).toEqual(shown);
        await embedding.close();
      };
      await Promise.all([fromLink(), fromSnippets()]);

      expect(problems.slice(problemsBefore)).toEqual([]);
    });
  });
}
