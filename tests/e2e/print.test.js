// Printing the page in Chromium: no settings, toolbar or explanation; every
// column of every matrix inside the page (wide ones scaled to fit, never cut);
// the heatmap colours kept; one step per A4 page where it fits.
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
      // Steps that start a new page (every one but the first: one step per page).
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

      const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
      const pages = pdfPages(pdf);
      console.log(`print ${name}: ${pages} A4 pages`);
      expect(layout.newPages).toBe(layout.steps - 1);
      expect(pages).toBeGreaterThanOrEqual(layout.steps);
      expect(pages).toBeLessThanOrEqual(2 * layout.steps); // few steps longer than a page
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
