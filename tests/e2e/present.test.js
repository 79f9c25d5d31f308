// Presentation mode and the text size: ?present shows the steps one at a time
// as slides, driven by the keys: every slide of the default example (2 heads)
// on one screen at 1280 × 720 and 1920 × 1080, in English and Chinese, with
// numbers of at least 2.5 % of the screen's height, the links diagram at their
// size, no blank panel; the explanation over the text column, never over a
// figure. The text-size menu scales the numbers and is remembered. At 200%
// zoom the floating explanation covers little of the view and closes.
import { afterEach, describe, expect, test } from 'vitest';
import { openPage, waitForIdle, nextFrames } from './browser.js';
import { shot, useBrowserSuite } from './suite.js';

const suite = useBrowserSuite();
let page;

afterEach(async () => {
  await page?.context().close();
  page = null;
});

// A stop: a step, or (the plain path) a closed chapter's bar or the next chapters.
const STOPS = '#pipeline > section.step, #pipeline > section.chapter-bar';
const currentStep = () => page.$eval('#pipeline > section.is-current', (s) => s.id);
const numberSize = () =>
  page.$eval('#pipeline table.matrix:not(.sr-only) td[data-i]', (td) => parseFloat(getComputedStyle(td).fontSize));

/**
 * The slide on the screen: its step and figure page, the numbers' size (px),
 * the links diagram's tokens' size (px: the font in its drawing's units times
 * its scale), what of the step or the stepper lies outside the screen, and the
 * widest blank strip of the screen under the toolbar (in % of its width: a
 * strip no text, number, drawing or control of the slide touches).
 */
function slide() {
  return page.evaluate(() => {
    const step = document.querySelector('#pipeline > section.is-current');
    const visible = (el) =>
      el.getClientRects().length > 0 && !el.closest('.sr-only, details:not([open]) > :not(summary)');
    const cell = [...step.querySelectorAll('table.matrix td[data-i]')].find(visible);
    const links = [...step.querySelectorAll('svg.links')].find(visible);
    const linksText = links?.querySelector('text');
    const outside = [];
    for (const el of [...step.querySelectorAll('*'), ...document.querySelectorAll('#stepper *, #present-page')]) {
      if (!visible(el)) continue;
      const box = el.getBoundingClientRect();
      if (box.width && box.height && (box.left < -1 || box.right > innerWidth + 1 || box.bottom > innerHeight + 1))
        outside.push(`${step.id} ${el.tagName}.${el.getAttribute('class') ?? ''}`);
    }
    const top = document.querySelector('.toolbar').getBoundingClientRect().bottom;
    const leaves = 'td, th, p, h2, h3, span, li, label, button, input, canvas, svg';
    const boxes = [...document.querySelectorAll('main *')]
      .filter((el) => el.matches(leaves) && visible(el) && !el.closest('.toolbar'))
      .flatMap((el) => [...el.getClientRects()])
      .filter((box) => box.bottom > top && box.top < innerHeight);
    let blank = 0;
    let run = 0;
    for (let k = 0; k < 100; k++) {
      const [left, right] = [(k * innerWidth) / 100, ((k + 1) * innerWidth) / 100];
      run = boxes.some((box) => box.right > left && box.left < right) ? 0 : run + 1;
      blank = Math.max(blank, run);
    }
    return {
      id: step.id,
      part: document.querySelector('#present-page').textContent,
      number: cell ? parseFloat(getComputedStyle(cell).fontSize) : null,
      links: linksText
        ? (parseFloat(getComputedStyle(linksText).fontSize) * links.getBoundingClientRect().width) /
          links.viewBox.baseVal.width
        : null,
      outside,
      blank,
      scrolled: document.documentElement.scrollHeight > innerHeight + 1,
    };
  });
}

describe('presentation mode', () => {
  for (const lang of ['en', 'zh'])
    for (const [width, height] of [
      [1280, 720],
      [1920, 1080],
    ])
      test(`${lang} ${width}×${height}: every slide on the screen, numbers ≥ 2.5 % of its height, no blank panel`, async () => {
        page = await openPage(suite.browser, `${suite.server.url}?lang=${lang}&present`, {
          viewport: { width, height },
        });
        expect(await page.getAttribute('#present-toggle', 'aria-pressed')).toBe('true');
        expect(await page.isVisible('.sidebar')).toBe(false);
        expect(await page.isVisible('header.top')).toBe(false);
        expect(await page.$$eval('#head-tabs button', (b) => b.length)).toBe(2); // the default: 2 heads
        // The plain path, as a class first sees it: the basics' steps and the closed chapters' bars.
        const steps = await page.$$eval(STOPS, (s) => s.map((x) => x.id));
        expect(steps.filter((id) => id.startsWith('chapter')).length).toBeGreaterThan(0);
        // → through every slide: a step's figure pages, then the next step, to the end.
        const seen = [];
        for (;;) {
          await nextFrames(page);
          const now = await slide();
          if (seen.length && now.id === seen.at(-1).id && now.part === seen.at(-1).part) break;
          seen.push(now);
          await page.keyboard.press('ArrowRight');
        }
        const numbers = seen.filter((s) => s.number).map((s) => s.number);
        const links = seen.find((s) => s.links);
        const paged = seen.filter((s) => s.part);
        console.log(
          `present ${lang} ${width}×${height}: ${seen.length} slides for ${steps.length} steps (${paged.length} figure pages);` +
            ` numbers ${Math.min(...numbers).toFixed(1)} px = ${((100 * Math.min(...numbers)) / height).toFixed(2)} %` +
            ` of the height; links ${links.links.toFixed(1)} px; widest blank strip ${Math.max(...seen.map((s) => s.blank))} %`,
        );
        expect([...new Set(seen.map((s) => s.id))]).toEqual(steps);
        expect(numbers.length).toBeGreaterThan(steps.length / 2);
        for (const number of numbers) expect(number / height).toBeGreaterThanOrEqual(0.025);
        expect(links.links / numbers[0]).toBeCloseTo(1, 1);
        expect(seen.flatMap((s) => s.outside)).toEqual([]);
        expect(seen.filter((s) => s.scrolled).map((s) => s.id)).toEqual([]);
        expect(seen.filter((s) => s.blank >= 15).map((s) => `${s.id} ${s.blank}%`)).toEqual([]);
        // A step too tall for the screen is paged (the default's three 8×8 weights at least), and ← goes back
        // through the pages: the step before opens on its last one.
        expect(paged.length).toBeGreaterThanOrEqual(2);
        const [first] = paged;
        const beforeFirst = seen[seen.indexOf(first) - 1];
        await page.keyboard.press('Home');
        await nextFrames(page);
        expect((await slide()).id).toBe(steps[0]);
        while ((await currentStep()) !== first.id) await page.keyboard.press('ArrowRight');
        await page.keyboard.press('ArrowLeft');
        await nextFrames(page);
        expect(await slide()).toMatchObject({ id: beforeFirst.id, part: beforeFirst.part });

        // The explanation, once a number is picked: over the text column, inside the screen, not over the figure.
        await page.keyboard.press('End'); // the next chapters; the last step with numbers is before them
        await nextFrames(page);
        while (!(await page.$('#pipeline > section.step.is-current table.matrix')))
          await page.keyboard.press('ArrowLeft');
        await nextFrames(page);
        const shown = '#pipeline section.step.is-current table.matrix:not(.sr-only) td[data-i]:visible';
        await page.locator(shown).first().click();
        await expect.poll(() => page.isVisible('aside.explain')).toBe(true);
        const [figure, explain] = await Promise.all([
          page.locator(shown).first().locator('xpath=ancestor::table').boundingBox(),
          page.locator('aside.explain').boundingBox(),
        ]);
        expect(explain.width).toBeGreaterThan(200);
        expect(explain.x + explain.width).toBeLessThanOrEqual(figure.x);
        expect(explain.y + explain.height).toBeLessThanOrEqual(height);
        await shot(page, `present-${lang}-${width}`);
        await page.keyboard.press('Escape'); // the followed token, if the click chose one
        await page.keyboard.press('Escape');
        await expect.poll(() => page.getAttribute('#present-toggle', 'aria-pressed')).toBe('false');
        expect(await page.isVisible('.sidebar')).toBe(true);
        expect(await page.getAttribute('#steps-toggle', 'aria-pressed')).toBe('false');
      });

  test('the Present button enters and leaves it', async () => {
    page = await openPage(suite.browser, suite.server.url, { viewport: { width: 1920, height: 1080 } });
    await page.click('#present-toggle');
    expect(await page.getAttribute('#steps-toggle', 'aria-pressed')).toBe('true');
    expect(await page.isVisible('.present-keys')).toBe(true);
    expect(await page.isVisible('.step-keys')).toBe(false); // the keys said once
    await shot(page, 'present-1920');
    await page.click('#present-toggle');
    expect(await page.getAttribute('#steps-toggle', 'aria-pressed')).toBe('false');
    expect(await page.isVisible('header.top')).toBe(true);
  });
});

describe('text size', () => {
  test('scales the numbers through one factor and is remembered', async () => {
    page = await openPage(suite.browser, suite.server.url);
    expect(await numberSize()).toBeCloseTo(12.5, 1);
    await page.selectOption('#text-size', '1.5');
    expect(await numberSize()).toBeCloseTo(18.75, 1);
    await page.reload();
    await waitForIdle(page);
    expect(await page.inputValue('#text-size')).toBe('1.5');
    expect(await numberSize()).toBeCloseTo(18.75, 1);
  });
});

describe('200% zoom (1400 × 900 seen as 700 × 450)', () => {
  test('the explanation covers little of the view and closes', async () => {
    page = await openPage(suite.browser, suite.server.url, { viewport: { width: 700, height: 450 } });
    await page.locator('#step-scores table.matrix:not(.sr-only) td[data-i]').first().click();
    await expect.poll(() => page.isVisible('aside.explain')).toBe(true);
    const box = await page.locator('aside.explain').boundingBox();
    const share = (box.width * box.height) / (700 * 450);
    console.log(`at 200% the explanation covers ${(100 * share).toFixed(1)}% of the view (20.6% before)`);
    expect(share).toBeLessThan(0.15);
    await page.click('#explain-close');
    expect(await page.isVisible('aside.explain')).toBe(false);
  });
});
