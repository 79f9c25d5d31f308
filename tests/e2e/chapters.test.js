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
/** The overview's boxes in order: [the step or bar each goes to, its chapter (null: the next chapters), its number]. */
const overviewBoxes = () =>
  page.$$eval('#overview ol.ov-steps a', (links) =>
    links.map((a) => [
      a.dataset.target ?? a.dataset.bar,
      a.dataset.chapter ?? null,
      a.querySelector('.ov-number').textContent,
    ]),
  );
/** The overview's chapter row: [key, open, what it shows]. */
const chapterRow = () =>
  page.$$eval('#overview .ov-chapter', (items) =>
    items.map((item) => [
      item.dataset.chapter,
      item.dataset.open === 'true',
      item.querySelector('.ov-chapter-name, .ov-open').textContent,
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
    // The chapters none of whose steps applies are one section, the next chapters.
    expect(await barIds()).toEqual(['chapter-heads', 'chapter-heads-2', 'chapter-heads-3', 'chapters-next']);
    expect(await page.$$eval('#chapters-next .chapter-item', (items) => items.map((item) => item.id))).toEqual([
      'chapter-variants',
      'chapter-inference',
      'chapter-trained',
    ]);
    // The bar says, from the run, what it holds here: 2 heads of 4 numbers (d_model 8), W_O after concat.
    expect(await page.textContent('#chapter-heads-3 .chapter-holds')).toBe(
      'This run splits Q, K and V into 2 heads of 4 numbers each, and joins them back into 8 numbers per token. 2 steps here: concat, W_O.',
    );
    // The boxes in the pipeline's order, the steps numbered 1 to 13 left to right, each closed bar at its
    // place with its chapter's number, the next chapters last.
    const step = (id, n) => [id, 'basics', String(n)];
    const basics = PLAIN_STEPS.map((id, k) => step(id, k + 1));
    expect(await overviewBoxes()).toEqual([
      ...basics.slice(0, 3),
      ['chapter-heads', 'heads', '2'],
      ...basics.slice(3, 8),
      ['chapter-heads-2', 'heads', '2'],
      ...basics.slice(8, 12),
      ['chapter-heads-3', 'heads', '2'],
      basics[12],
      ['chapters-next', null, '+'],
    ]);
    // Each chapter once: the basics open, the others buttons that open them (with this run's step count).
    expect(await chapterRow()).toEqual([
      // The inference's two steps (the steppers) come after the output: they stand among the next chapters.
      ['basics', true, '1 The basics(open; the step being read is in it)'],
      ['heads', false, '2 Multi-head attention 4 steps(closed)'],
      ['variants', false, '3 Modern variants(closed)'],
      ['inference', false, '4 Inference: KV cache and online softmax 2 steps(closed)'],
      ['trained', false, '5 A trained model(closed)'],
    ]);
    expect(await page.$eval('#overview [aria-current="step"]', (a) => a.dataset.target)).toBe('step-X');
    expect(await page.$eval('#overview .ov-chapter[aria-current="true"]', (g) => g.dataset.chapter)).toBe('basics');
    await shot(page, 'chapters-plain-path');

    // Open chapter 2 from its bar: its four steps at their places, the reader taken to the first. Under the
    // sticky toolbar the overview is one line of boxes, as high before as after (the steps moved nothing).
    const condensedHeight = () =>
      page.$eval('#overview', (nav) =>
        nav.classList.contains('condensed') ? nav.getBoundingClientRect().height : null,
      );
    await page.$eval('#chapter-heads-2', (bar) => bar.scrollIntoView());
    await expect.poll(condensedHeight).not.toBeNull();
    const before = await condensedHeight();
    const box = await page.$eval('#overview ol.ov-steps a', (a) => a.getBoundingClientRect().height);
    expect(before).toBeLessThan(2 * box);
    await page.click('#chapter-heads-2 .chapter-toggle');
    await waitForIdle(page);
    expect(await condensedHeight()).toBe(before);
    const opened = await stepIds();
    expect(opened).toHaveLength(17);
    for (const [step, after] of [
      ['step-split', 'step-qkv'],
      ['step-averaged', 'step-attnweights'],
      ['step-concat', 'step-context'],
      ['step-wo', 'step-concat'],
    ])
      expect(opened.indexOf(step), step).toBe(opened.indexOf(after) + 1);
    expect(await barIds()).toEqual(['chapters-next']);
    expect(await query()).toBe('heads');
    // The boxes stay in the pipeline's order, numbered 1 to 17; the heads' four carry their chapter.
    const boxes = await overviewBoxes();
    expect(boxes.map(([id]) => id)).toEqual([...opened, 'chapters-next']);
    expect(boxes.slice(0, -1).map(([, , n]) => n)).toEqual(opened.map((id, k) => String(k + 1)));
    expect(boxes.filter(([, key]) => key === 'heads').map(([id]) => id)).toEqual([
      'step-split',
      'step-averaged',
      'step-concat',
      'step-wo',
    ]);
    expect((await chapterRow()).map(([key, open]) => [key, open])).toEqual([
      ['basics', true],
      ['heads', true],
      ['variants', false],
      ['inference', false],
      ['trained', false],
    ]);
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
    // The chapter row's button opens it again, its label saying what it shows first.
    const open = '#overview .ov-chapter[data-chapter="heads"] .ov-open';
    expect(await page.getAttribute(open, 'aria-label')).toBe('2 Multi-head attention 4 steps: Open chapter 2');
    await page.click(open);
    await waitForIdle(page);
    expect(await stepIds()).toHaveLength(17);
    expect(await query()).toBe('heads');
    expect(problems).toEqual([]);
  });

  test('a preset opens the chapters its run uses; turning RoPE on opens the variants', async () => {
    page = await openPage(suite.browser, suite.server.url, { problems });
    await page.click('button[data-preset="llama"]');
    await waitForIdle(page);
    expect(await query()).toBe('heads,variants');
    expect(await stepIds()).toContain('step-rope');
    expect(await barIds()).toEqual(['chapters-next']);
    expect(await page.$$eval('#chapters-next .chapter-item', (items) => items.map((item) => item.id))).toEqual([
      'chapter-inference',
      'chapter-trained',
    ]);
    await page.close();
    // Opened by the address with no step in this run, the variants stand among the next chapters, open:
    // the overview's row says so too (the block's button, which names the chapter, is not the block).
    page = await openPage(suite.browser, `${suite.server.url}?chapters=heads,variants`, { problems });
    expect(await chapterRow()).toContainEqual(['variants', true, expect.any(String)]);
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
    // 13 steps, 3 bars at their places and the next chapters as one: 17 stops (19 when each next chapter
    // was a stop of its own; 19 steps before chapters). The counter counts the steps, as their headings do.
    expect(await page.textContent('#stepper .step-counter')).toBe('第 1 步，共 13 步');
    for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowRight');
    expect(await page.$eval('#pipeline > .is-current', (el) => el.id)).toBe('chapter-heads');
    expect(await page.textContent('#stepper .step-counter')).toBe('第 2 章，在第 3 步之后（共 13 步）');
    expect(await page.textContent('#stepper .narration')).toContain('本次运行把 Q、K、V 拆成 2 个头，每个头 4 个数');
    expect(await page.$eval('#overview [aria-current="step"]', (a) => a.dataset.bar)).toBe('chapter-heads');
    await shot(page, 'chapters-step-by-step-zh');
    // The last stop: the next chapters, each with its button.
    await page.keyboard.press('End');
    expect(await page.$eval('#pipeline > .is-current', (el) => el.id)).toBe('chapters-next');
    expect(await page.textContent('#stepper .step-counter')).toBe('后续章节，在第 13 步之后（共 13 步）');
    expect(await page.$$eval('#chapters-next .chapter-toggle', (b) => b.map((x) => x.dataset.chapter))).toEqual([
      'variants',
      'inference',
      'trained',
    ]);
    expect(await page.textContent('#stepper .narration')).toContain(
      '后续章节，各用下面自己的按钮打开：现代变体、推理：KV 缓存与在线 softmax、一个训练好的模型。',
    );
    expect(problems).toEqual([]);
  });
});
