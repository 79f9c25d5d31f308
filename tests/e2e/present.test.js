// Presentation mode and the text size: ?present opens the steps one at a time
// in large type, the explanation beside the step (not over it), driven by the
// keys; the text-size menu scales the numbers and is remembered. At 200% zoom
// the floating explanation covers little of the view and closes.
import { afterEach, describe, expect, test } from 'vitest';
import { openPage, waitForIdle } from './browser.js';
import { shot, useBrowserSuite } from './suite.js';

const suite = useBrowserSuite();
let page;

afterEach(async () => {
  await page?.context().close();
  page = null;
});

const currentStep = () => page.$eval('#pipeline > section.step.is-current', (s) => s.id);
const numberSize = () =>
  page.$eval('#pipeline table.matrix:not(.sr-only) td[data-i]', (td) => parseFloat(getComputedStyle(td).fontSize));

describe('presentation mode', () => {
  for (const lang of ['en', 'zh'])
    test(`${lang}: ?present shows one step in large type with the explanation beside it; keys move; Escape leaves`, async () => {
      page = await openPage(suite.browser, suite.server.url, { viewport: { width: 1280, height: 720 } });
      await page.selectOption('#language', lang); // remembered: the language of the presentation
      // Every step's chapter open but the variants (none is on): the first stops are steps, not chapter bars.
      await page.goto(`${suite.server.url}?present&chapters=heads,inference`);
      await waitForIdle(page);
      expect(await page.getAttribute('#present-toggle', 'aria-pressed')).toBe('true');
      expect(await page.isVisible('.sidebar')).toBe(false);
      expect(await page.isVisible('header.top')).toBe(false);
      expect(await page.$$eval('#pipeline > section.step', (s) => s.filter((x) => x.checkVisibility()).length)).toBe(1);
      expect(await numberSize()).toBeGreaterThanOrEqual(18); // 12.5 px when not presenting
      const first = await currentStep();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press(' ');
      await page.keyboard.press('PageDown');
      const fourth = await currentStep();
      expect(fourth).not.toBe(first);
      await page.keyboard.press('PageUp');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      expect(await currentStep()).toBe(first);
      await page.keyboard.press('End');
      // The last stop is the next chapters (the variants, the trained model); the last step is the one before.
      expect(await page.$eval('#pipeline > .is-current', (s) => s.id)).toBe('chapters-next');
      await page.keyboard.press('ArrowLeft');
      // The explanation beside the step: a column, not over it.
      const cell = page.locator('#pipeline section.step.is-current table.matrix:not(.sr-only) td[data-i]').first();
      await cell.click();
      const [step, explain] = await Promise.all([
        page.locator('#pipeline section.step.is-current').boundingBox(),
        page.locator('aside.explain').boundingBox(),
      ]);
      expect(explain.width).toBeGreaterThan(200);
      expect(explain.x).toBeGreaterThanOrEqual(step.x + step.width - 1);
      await shot(page, `present-${lang}-1280`);
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
