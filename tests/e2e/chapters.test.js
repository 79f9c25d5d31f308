// Chapters in Chromium: the default page is the plain path (the basics' steps,
// the closed chapters as bars); a bar's button opens its chapter, the
// overview's × closes it; the overview shows the chapters and where the
// reader is; ?chapters= remembers the open ones and a share link carries
// them; a preset opens the chapters its run uses; step by step goes through
// the open steps and the bars.
import { afterEach, describe, expect, test } from 'vitest';
import { openPage, waitForIdle } from './browser.js';
import { shot, useBrowserSuite } from './suite.js';

const suite = useBrowserSuite();
const problems = [];
let page;

afterEach(async () => {
  await page?.context().close();
  page = null;
});

const stepIds = () => page.$$eval('#pipeline > section.step', (sections) => sections.map((s) => s.id));
const barIds = () => page.$$eval('#pipeline > section.chapter-bar', (bars) => bars.map((s) => s.id));
/** The overview's groups: [chapter key (null: the closed ones), the boxes' targets or bars]. */
const overviewGroups = () =>
  page.$$eval('#overview .ov-chapter', (groups) =>
    groups.map((group) => [
      group.dataset.chapter ?? null,
      Array.from(group.querySelectorAll('a'), (a) => a.dataset.target ?? a.dataset.bar),
    ]),
  );
const query = () => page.evaluate(() => new URLSearchParams(location.search).get('chapters'));

const PLAIN_STEPS = [
  'step-X',
  'step-weights',
  'step-qkv',
  'step-scores',
  'step-scaled',
  'step-mask',
  'step-masked',
  'step-attnweights',
  'step-scaling',
  'step-links',
  'step-dropped',
  'step-context',
  'step-output',
];

describe('chapters', () => {
  test('the plain path; open multi-head from its bar, the overview and the share link follow; close it', async () => {
    page = await openPage(suite.browser, suite.server.url, { problems });
    // Before chapters the default example showed 19 steps; now the basics' 13, and 6 chapter bars.
    expect(await stepIds()).toEqual(PLAIN_STEPS);
    expect(await barIds()).toEqual([
      'chapter-heads',
      'chapter-heads-2',
      'chapter-heads-3',
      'chapter-variants',
      'chapter-inference',
      'chapter-trained',
    ]);
    // The bar says, from the run, what it holds here: 2 heads of 4 numbers (d_model 8), W_O after concat.
    expect(await page.textContent('#chapter-heads-3 .chapter-holds')).toBe(
      'This run splits Q, K and V into 2 heads of 4 numbers each, and joins them back into 8 numbers per token. 2 steps here: concat, W_O.',
    );
    expect(await overviewGroups()).toEqual([
      ['basics', PLAIN_STEPS],
      [null, ['chapter-heads', 'chapter-variants', 'chapter-inference', 'chapter-trained']],
    ]);
    expect(await page.$eval('#overview [aria-current="step"]', (a) => a.dataset.target)).toBe('step-X');
    expect(await page.$eval('#overview .ov-chapter.is-current', (g) => g.dataset.chapter)).toBe('basics');
    await shot(page, 'chapters-plain-path');

    // Open chapter 2 from its bar: its four steps at their places, the reader taken to the first.
    await page.click('#chapter-heads-2 .chapter-toggle');
    await waitForIdle(page);
    const opened = await stepIds();
    expect(opened).toHaveLength(17);
    for (const [step, after] of [
      ['step-split', 'step-qkv'],
      ['step-averaged', 'step-attnweights'],
      ['step-concat', 'step-context'],
      ['step-wo', 'step-concat'],
    ])
      expect(opened.indexOf(step), step).toBe(opened.indexOf(after) + 1);
    expect(await barIds()).toEqual(['chapter-variants', 'chapter-inference', 'chapter-trained']);
    expect(await query()).toBe('heads');
    const groups = await overviewGroups();
    expect(groups.map(([key]) => key)).toEqual(['basics', 'heads', null]);
    expect(groups[1][1]).toEqual(['step-split', 'step-averaged', 'step-concat', 'step-wo']);
    await expect.poll(() => page.$eval('#overview [aria-current="step"]', (a) => a.dataset.target)).toBe('step-split');
    expect(await page.$eval('#overview .ov-chapter.is-current', (g) => g.dataset.chapter)).toBe('heads');

    // The share link carries the open chapters; opened, it shows them.
    await page.click('#share');
    await page.waitForSelector('#share-dialog[open]');
    const link = await page.$eval('#share-dialog [data-share="link"]', (el) => el.value);
    const element = await page.$eval('#share-dialog [data-share="element"]', (el) => el.value);
    expect(new URL(link).searchParams.get('chapters')).toBe('heads');
    expect(element).toContain('chapters="basics heads"');
    const shared = await openPage(suite.browser, link, { problems });
    expect(await shared.$$eval('#pipeline > section.step', (s) => s.length)).toBe(17);
    await shared.context().close();
    await page.click('#share-dialog form button');

    // Closed from the overview (at the top of the page, where it names the chapters): the bars are back,
    // the address forgets it.
    await page.evaluate(() => scrollTo(0, 0));
    await expect.poll(() => page.$eval('#overview', (nav) => nav.classList.contains('condensed'))).toBe(false);
    await page.click('#overview .ov-chapter[data-chapter="heads"] .ov-close');
    await waitForIdle(page);
    expect(await stepIds()).toEqual(PLAIN_STEPS);
    expect(await query()).toBeNull();
    expect(problems).toEqual([]);
  });

  test('a preset opens the chapters its run uses; turning RoPE on opens the variants', async () => {
    page = await openPage(suite.browser, suite.server.url, { problems });
    await page.click('button[data-preset="llama"]');
    await waitForIdle(page);
    expect(await query()).toBe('heads,variants');
    expect(await stepIds()).toContain('step-rope');
    expect(await barIds()).toEqual(['chapter-inference', 'chapter-trained']);
    await page.close();
    page = await openPage(suite.browser, suite.server.url, { problems });
    await page.selectOption('#control-rope', 'rotate-half');
    await waitForIdle(page);
    expect(await query()).toBe('variants');
    expect(await stepIds()).toContain('step-rope');
    expect(problems).toEqual([]);
  });

  test('step by step goes through the open steps and the chapter bars, in Chinese too', async () => {
    page = await openPage(suite.browser, `${suite.server.url}?lang=zh`, { problems });
    await page.click('#steps-toggle');
    await page.waitForSelector('#stepper:not([hidden])');
    // 13 steps and 6 bars: 19 stops, as the default example had 19 steps before chapters.
    expect(await page.textContent('#stepper .step-counter')).toBe('第 1 步，共 19 步');
    for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowRight');
    expect(await page.$eval('#pipeline > .is-current', (el) => el.id)).toBe('chapter-heads');
    expect(await page.textContent('#stepper .narration')).toContain('本次运行把 Q、K、V 拆成 2 个头，每个头 4 个数');
    expect(await page.$eval('#overview [aria-current="step"]', (a) => a.dataset.bar)).toBe('chapter-heads');
    await shot(page, 'chapters-step-by-step-zh');
    expect(problems).toEqual([]);
  });
});
