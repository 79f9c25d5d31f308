// The Chinese UI has no English left on screen: every visible text, every
// screen-reader caption and every label (aria-label, title, alt,
// placeholder) of the page, the element, the embed and the authors' page is
// Chinese, except code, tensor names, tokens and a few names Chinese
// tutorials leave in English. Text that is code or data is marked
// translate="no" (the HTML attribute for "do not translate this") or sits in
// <code>/<pre>/<textarea>.
import { describe, expect, test } from 'vitest';
import { PRESETS } from '../../web/model/presets.js';
import { openPage, waitForIdle } from './browser.js';
import { useBrowserSuite } from './suite.js';
import { expectNoEnglish } from './english-left.js';

const suite = useBrowserSuite();

describe('the Chinese UI', () => {
  test('the page, with every preset, in Chinese', async () => {
    // ?lang=zh alone: a new context has no stored choice, and its Chromium speaks English.
    const page = await openPage(suite.browser, `${suite.server.url}?lang=zh`);
    expect(await page.inputValue('#language')).toBe('zh');
    await expectNoEnglish(page);
    for (const preset of PRESETS) {
      await page.click(`#presets button[data-preset="${preset.key}"]`);
      await waitForIdle(page);
      await expectNoEnglish(page);
    }
    // The menu rewrites the address's ?lang=, so a reload or a copied address keeps the reader's choice.
    await page.selectOption('#language', 'en');
    await expect.poll(() => new URL(page.url()).searchParams.get('lang')).toBe('en');
    await page.reload();
    await waitForIdle(page);
    expect(await page.inputValue('#language')).toBe('en');
    await page.context().close();
  });

  test('an error, and a hovered number, in Chinese', async () => {
    const page = await openPage(suite.browser, suite.server.url);
    await page.selectOption('#language', 'zh');
    await waitForIdle(page);
    await page.fill('#control-d-model', '7');
    await page.waitForSelector('.field-error:not([hidden])');
    await expectNoEnglish(page);
    await page.fill('#control-d-model', '8');
    await waitForIdle(page);
    for (const matrix of ['X', 'Q', 'scores', 'weights', 'context', 'output']) {
      await page.hover(`table[data-matrix="${matrix}"] td[data-i="0"][data-j="0"]`);
      await expectNoEnglish(page);
    }
    await page.context().close();
  });

  test('the embed (?lang=zh), a bad link, and the authors’ page in Chinese', async () => {
    const page = await (await suite.browser.newContext()).newPage();
    await page.goto(`${suite.server.url}embed.html?lang=zh#s=v7.abc`);
    await page.waitForFunction(() => document.getElementById('embedded').result);
    expect(await page.locator('#notice').textContent()).toContain('无法读取此链接');
    await expectNoEnglish(page);
    await page.goto(`${suite.server.url}authors.html?lang=zh`);
    await page.waitForSelector('#attribute-rows tr');
    // The examples compute when they scroll into view.
    for (const example of await page.locator('attention-lab').all()) {
      await example.scrollIntoViewIfNeeded();
      await page.waitForFunction((el) => el.result, await example.elementHandle());
    }
    await expectNoEnglish(page);
    await page.context().close();
  });
});
