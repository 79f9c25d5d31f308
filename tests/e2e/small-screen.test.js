// A phone (390 × 844, touch): the sentence and the result come first (the
// settings folded), every target at least 24 × 24 px (WCAG 2.5.8, or spaced
// as its exception allows), and the UI says "tap", not "hover", in English and Chinese.
import { afterEach, describe, expect, test } from 'vitest';
import { waitForIdle } from './browser.js';
import { shot, useBrowserSuite } from './suite.js';

const suite = useBrowserSuite();
let context;
let page;

afterEach(async () => {
  await context?.close();
  context = null;
});

async function openPhone(query = '') {
  context = await suite.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${suite.server.url}${query}`);
  await waitForIdle(page);
  return problems;
}

/** Visible interactive elements smaller than 24 × 24 px whose 24 px circle reaches another target. */
const smallTargets = async () => {
  // Measured at the top of the page: scrolled elsewhere, the sticky toolbar would sit beside whatever
  // content is under it at that moment (a place that depends on timing), not where the layout puts it.
  await page.evaluate(
    () =>
      new Promise((done) => {
        scrollTo({ top: 0, behavior: 'instant' });
        requestAnimationFrame(() => requestAnimationFrame(done));
      }),
  );
  return page.evaluate(() => {
    const targets = [
      ...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex], [role="button"]'),
    ]
      .filter((el) => !el.closest('.sr-only, [hidden], dialog:not([open])') && el.getClientRects().length)
      .filter((el) => getComputedStyle(el).visibility !== 'hidden' && !el.matches('.skip-link:not(:focus)'))
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && box.height > 0)
      // Not one under the sticky toolbar where the page happens to be scrolled (no finger reaches it there):
      // a target whose centre, inside the screen, shows another element.
      .filter(({ el, box }) => {
        const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
        if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return true;
        const hit = document.elementFromPoint(x, y);
        return !hit || el.contains(hit) || hit.contains(el);
      });
    const name = (el, box) =>
      `${el.tagName}#${el.id}.${el.className?.baseVal ?? el.className} "${el.textContent.trim().slice(0, 12)}" ` +
      `${Math.round(box.width)}×${Math.round(box.height)} at ${Math.round(box.left)},${Math.round(box.top)}`;
    const center = (box) => [box.left + box.width / 2, box.top + box.height / 2];
    // The distance from a point to a box (0 inside it).
    const reach = ([x, y], box) =>
      Math.hypot(Math.max(box.left - x, 0, x - box.right), Math.max(box.top - y, 0, y - box.bottom));
    const small = targets.filter(({ box }) => box.width < 24 - 0.01 || box.height < 24 - 0.01);
    return {
      count: targets.length,
      smallest: Math.min(...targets.map(({ box }) => Math.min(box.width, box.height))),
      failing: small
        .map(({ el, box }) => ({
          el,
          box,
          near: targets.find(
            (other) =>
              other.el !== el &&
              !other.el.contains(el) &&
              !el.contains(other.el) &&
              (reach(center(box), other.box) < 12 ||
                (small.some((s) => s.el === other.el) &&
                  Math.hypot(...center(box).map((c, k) => c - center(other.box)[k])) < 24)),
          ),
        }))
        .filter(({ near }) => near)
        .map(({ el, box, near }) => `${name(el, box)} near ${name(near.el, near.box)}`),
    };
  });
};

describe('a phone, 390 × 844 with touch', () => {
  for (const lang of ['en', 'zh'])
    test(`${lang}: the sentence, then the result within the first screens; settings folded; says tap`, async () => {
      const problems = await openPhone(`?lang=${lang}`);
      expect(await page.inputValue('#language')).toBe(lang); // ?lang= alone chooses it
      // The language menu is on the first screen, within its width, without scrolling the header's row.
      const menu = await page.locator('#language').boundingBox();
      expect(menu.x).toBeGreaterThanOrEqual(0);
      expect(menu.x + menu.width).toBeLessThanOrEqual(390);
      expect(menu.y + menu.height).toBeLessThanOrEqual(844);
      expect(await page.evaluate(() => matchMedia('(hover: none) and (pointer: coarse)').matches)).toBe(true);
      const place = await page.evaluate(() => ({
        sentence: document.getElementById('input-text').getBoundingClientRect().top,
        matrix: document.querySelector('#pipeline table.matrix:not(.sr-only)').getBoundingClientRect().top,
        settingsOpen: document.getElementById('settings-panel').open,
        controlsShown: document.getElementById('controls').checkVisibility(),
      }));
      console.log(
        `${lang}: sentence at ${Math.round(place.sentence)} px, first matrix at ${Math.round(place.matrix)} px`,
      );
      expect(place.settingsOpen).toBe(false);
      expect(place.controlsShown).toBe(false);
      expect(place.sentence).toBeLessThan(844 / 3);
      expect(place.matrix).toBeLessThan(2 * 844); // before: 2,822 px (1,760 px without touch)
      // The settings open from their summary (aria-expanded comes with <details>).
      await page.tap('#settings-panel > summary');
      expect(await page.isVisible('#control-seed')).toBe(true);

      // "Tap", never "hover": the hint, the scores' meaning.
      const text = await page.evaluate(() => document.body.innerText);
      const hover = lang === 'zh' ? /悬停/ : /\bhover/i;
      const tap = lang === 'zh' ? /轻点/ : /\btap\b/i;
      expect(text).not.toMatch(hover);
      expect(await page.textContent('#step-scores .meaning')).toMatch(tap);
      await page.tap('table[data-matrix="scores"]:not(.sr-only) td[data-i="1"][data-j="0"]');
      await expect.poll(() => page.isVisible('aside.explain')).toBe(true);
      const box = await page.locator('aside.explain').boundingBox();
      console.log(
        `${lang}: the explanation covers ${((100 * box.width * box.height) / (390 * 844)).toFixed(1)}% of the phone`,
      );
      expect(box.width * box.height).toBeLessThan(0.35 * 390 * 844);
      await shot(page, `phone-${lang}`);
      await page.tap('#explain-close');
      expect(await page.isVisible('aside.explain')).toBe(false);
      expect(problems).toEqual([]);
    });

  test('nothing sticks out sideways at 390 px: a wide matrix scrolls in its figure, the links diagram scales', async () => {
    // A 390 px window without touch too (a narrow desktop window), whose layout differs from the phone's.
    for (const touch of [true, false]) {
      context = await suite.browser.newContext({
        viewport: { width: 390, height: 844 },
        hasTouch: touch,
        isMobile: touch,
      });
      page = await context.newPage();
      await page.goto(`${suite.server.url}?lang=zh`);
      await waitForIdle(page);
      const wide = [];
      for (const id of await page.$$eval('section.step', (steps) => steps.map((s) => s.id))) {
        await page.locator(`#${id}`).scrollIntoViewIfNeeded();
        await waitForIdle(page);
        // Elements past the right edge that no box of theirs clips (a scroll box, the folded settings row).
        const sticking = await page.$$eval(`#${id} *`, (elements) =>
          elements
            .filter((e) => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest('[hidden]'))
            .filter((e) => {
              for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
                if (getComputedStyle(a).overflowX !== 'visible') return false;
              return true;
            })
            .map(
              (e) =>
                `${e.tagName.toLowerCase()}.${e.getAttribute('class')} to ${Math.round(e.getBoundingClientRect().right)} px`,
            ),
        );
        if (sticking.length) wide.push(`${touch ? 'touch' : 'window'} ${id}: ${sticking[0]}`);
      }
      expect(wide).toEqual([]);
      await context.close();
      context = null;
    }
  });

  test('every target is at least 24 × 24 px, or spaced as WCAG 2.5.8 allows', async () => {
    await openPhone();
    await page.tap('#settings-panel > summary');
    const targets = await smallTargets();
    console.log(`${targets.count} targets, the smallest side ${targets.smallest.toFixed(1)} px`);
    expect(targets.count).toBeGreaterThan(100);
    expect(targets.failing).toEqual([]);
  });
});
