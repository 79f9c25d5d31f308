// Printing the page in Chromium: a handout. Its head holds the sentence, the
// preset, the seed and every setting, in the page's language; no settings
// form, toolbar or explanation; the steps flow several to a page in two
// columns (no step starts a page of its own), every column of every matrix
// inside its column (wide ones scaled to fit, never cut); the heatmap colours
// kept; the default example on at most 6 A4 pages in English and Chinese.
import { afterEach, describe, expect, test } from 'vitest';
import { openPage, waitForIdle } from './browser.js';
import { shot, useBrowserSuite } from './suite.js';

const suite = useBrowserSuite();
let page;

afterEach(async () => {
  await page?.context().close();
  page = null;
});

// A4 (210 mm) less the stylesheet's 12 mm margins, in CSS pixels (96 per inch).
// The handout's limit for the default example (8 tokens, d_model 8, 2 heads): 19 pages before, one a step.
const MAX_PAGES = 6;
const CONTENT_WIDTH = Math.floor(((210 - 2 * 12) / 25.4) * 96);

/** Pages in a PDF that Chromium wrote: its page objects (/Type /Page, not /Pages). */
const pdfPages = (pdf) => pdf.toString('latin1').match(/\/Type\s*\/Page(?![s\w])/g)?.length ?? 0;

/**
 * Print media from now on. The page hears of it (matchMedia's change event,
 * where it fits wide matrices) at the next rendering step: wait two frames.
 */
async function emulatePrint() {
  await page.emulateMedia({ media: 'print' });
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await waitForIdle(page);
}

/** Under print media at the page's width: what is shown, and every matrix cell or scroll box that overflows. */
function printLayout() {
  return page.evaluate(() => {
    const shown = (selector) =>
      [...document.querySelectorAll(selector)].some(
        (el) => getComputedStyle(el).display !== 'none' && el.getClientRects().length,
      );
    const main = document.querySelector('main').getBoundingClientRect();
    const cells = [...document.querySelectorAll('#pipeline table.matrix:not(.sr-only) td[data-i]')];
    const cut = [];
    for (const td of cells) {
      const box = td.getBoundingClientRect();
      const figure = td.closest('.matrix-figure').getBoundingClientRect();
      const inside = (outer) => box.left >= outer.left - 0.5 && box.right <= outer.right + 0.5;
      if (!inside(main) || !inside(figure))
        cut.push(`${td.closest('[data-matrix]').dataset.matrix}[${td.dataset.i},${td.dataset.j}]`);
    }
    const clipped = [...document.querySelectorAll('#pipeline *')]
      .filter((el) => !el.closest('.sr-only') && el.getClientRects().length)
      .filter((el) => ['hidden', 'auto', 'scroll', 'clip'].includes(getComputedStyle(el).overflowX))
      .filter((el) => el.tagName !== 'TH' && el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.tagName}.${el.className}`);
    const colored = cells.filter((td) => getComputedStyle(td).backgroundColor !== 'rgba(0, 0, 0, 0)');
    return {
      chrome: ['.sidebar', '.toolbar', '.top', '.explain', '#stepper'].filter(shown),
      mainWidth: Math.round(main.width),
      cells: cells.length,
      cut,
      clipped,
      colored: colored.length,
      exact: getComputedStyle(cells[0]).printColorAdjust,
      steps: document.querySelectorAll('#pipeline > section.step').length,
      // Steps that start a new page of their own (none: they flow).
      newPages: [...document.querySelectorAll('#pipeline > section.step')].filter(
        (step) => getComputedStyle(step).breakBefore === 'page',
      ).length,
    };
  });
}

describe('print', () => {
  for (const [name, dModel] of [
    ['the default example', null],
    ['a wide config (d_model 16)', 16],
  ])
    test(`${name}: every column inside the page, colours kept, no page controls, a sane page count`, async () => {
      page = await openPage(suite.browser, suite.server.url, { viewport: { width: CONTENT_WIDTH, height: 1000 } });
      if (dModel) {
        await page.$eval('#settings-panel', (details) => (details.open = true)); // folded at this width
        await page.fill('#control-d-model', String(dModel));
        await waitForIdle(page);
      }
      await emulatePrint();
      const layout = await printLayout();
      console.log(`print ${name}: ${layout.cells} cells in ${layout.steps} steps, page content ${layout.mainWidth} px`);
      expect(layout.chrome).toEqual([]);
      expect(layout.mainWidth).toBeLessThanOrEqual(CONTENT_WIDTH);
      expect(layout.cells).toBeGreaterThan(dModel ? 16 * 16 : 64);
      expect(layout.cut).toEqual([]);
      expect(layout.clipped).toEqual([]);
      expect(layout.exact).toBe('exact');
      expect(layout.colored).toBeGreaterThan(layout.cells / 2);
      await shot(page, `print-${dModel ?? 'default'}`, { fullPage: true });

      const pdf = await page.pdf({ format: 'A4', preferCSSPageSize: true, printBackground: true });
      const pages = pdfPages(pdf);
      console.log(`print ${name}: ${pages} A4 pages`);
      expect(layout.newPages).toBe(0);
      expect(pages).toBeGreaterThanOrEqual(2);
      expect(pages).toBeLessThanOrEqual(dModel ? layout.steps : MAX_PAGES); // several steps a page
    });

  for (const lang of ['en', 'zh'])
    test(`${lang}: the handout's head holds the sentence, the preset, the seed and every setting; at most ${MAX_PAGES} pages`, async () => {
      page = await openPage(suite.browser, `${suite.server.url}?lang=${lang}`, {
        viewport: { width: CONTENT_WIDTH, height: 1000 },
      });
      const onScreen = await page.isVisible('#print-header');
      await emulatePrint();
      const head = await page.evaluate(() => {
        const box = document.querySelector('#print-header');
        const shownFields = [...document.querySelectorAll('.sidebar [data-field]')].filter((field) => !field.hidden);
        return {
          shown: box.checkVisibility(),
          top: box.getBoundingClientRect().top + scrollY,
          firstInPage: document.querySelector('main').firstElementChild === box,
          sentence: box.querySelector('.print-sentence').textContent,
          preset: box.querySelector('.print-preset').textContent,
          seed: box.querySelector('.print-seed').textContent,
          // The settings in the form (those used in this setup), by label as the form shows them (the
          // tokenizer's sits by the sentence: compared by field, not by place).
          listed: [...box.querySelectorAll('.print-settings > div')].map((item) => [
            item.dataset.field,
            item.querySelector('dt').textContent,
          ]),
          form: shownFields.map((field) => [field.dataset.field, field.querySelector('label').textContent.trim()]),
          seedValue: document.querySelector('#control-seed').value,
          text: document.querySelector('#input-text').value,
          lang: document.documentElement.lang,
        };
      });
      expect(onScreen).toBe(false); // on paper only
      expect(head.shown).toBe(true);
      expect(head.firstInPage).toBe(true);
      expect(head.top).toBeLessThan(100); // the first page's top
      expect(head.lang.startsWith(lang)).toBe(true);
      expect(head.text.length).toBeGreaterThan(5);
      expect(head.sentence).toContain(head.text);
      expect(head.seed).toContain(head.seedValue);
      expect(head.preset.length).toBeGreaterThan(head.preset.indexOf(':') + 2); // a name after its label
      expect(head.listed.length).toBeGreaterThan(15);
      const byField = (list) => [...list].sort(([a], [b]) => a.localeCompare(b));
      expect(byField(head.listed)).toEqual(byField(head.form));
      const pdf = await page.pdf({ format: 'A4', preferCSSPageSize: true, printBackground: true });
      const pages = pdfPages(pdf);
      console.log(`print ${lang}: the default example on ${pages} A4 pages`);
      expect(pages).toBeLessThanOrEqual(MAX_PAGES);
    });

  test('the dark theme prints light: a white page and the light palette on the heatmaps', async () => {
    page = await openPage(suite.browser, suite.server.url, { viewport: { width: CONTENT_WIDTH, height: 1000 } });
    await page.selectOption('#theme', 'dark');
    await waitForIdle(page);
    const look = () =>
      page.evaluate(() => ({
        background: getComputedStyle(document.body).backgroundColor,
        // The signed scale's cells carry hl-* (light) or hd-* (dark) classes.
        darkCells: document.querySelectorAll('#pipeline td[class*="hd-"]').length,
        lightCells: document.querySelectorAll('#pipeline td[class*="hl-"]').length,
      }));
    const screen = await look();
    expect(screen.darkCells).toBeGreaterThan(0); // the screen is dark
    await emulatePrint();
    const paper = await look();
    expect(paper.background).toBe('rgb(255, 255, 255)');
    expect(paper.darkCells).toBe(0);
    expect(paper.lightCells).toBe(screen.darkCells);
    await page.emulateMedia({ media: 'screen' });
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await waitForIdle(page);
    expect((await look()).darkCells).toBe(screen.darkCells); // back to dark after printing
  });

  test('step by step prints every step, not only the current one', async () => {
    page = await openPage(suite.browser, suite.server.url, { viewport: { width: CONTENT_WIDTH, height: 1000 } });
    await page.click('#steps-toggle');
    await emulatePrint();
    const shown = await page.$$eval(
      '#pipeline > section.step',
      (steps) => steps.filter((s) => s.getClientRects().length).length,
    );
    expect(shown).toBe(await page.$$eval('#pipeline > section.step', (steps) => steps.length));
    expect(shown).toBeGreaterThan(5);
  });
});
