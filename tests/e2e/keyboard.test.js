// Keyboard only (no mouse): the skip links, the overview's jumps, a matrix as
// one tab stop, editing a weight, the head tabs (WAI-ARIA tabs), an
// explanation, and the share dialog, each asserting where the focus lands.
import { beforeEach, describe, expect, test } from 'vitest';
import { openPage, waitForIdle } from './browser.js';
import { shot, useBrowserSuite } from './suite.js';

const suite = useBrowserSuite();
let page;

beforeEach(async () => {
  await page?.context().close();
  page = await openPage(suite.browser, suite.server.url);
});

/** What has the focus: tag, id, text, role, label, and its matrix cell (if any). */
const focused = () =>
  page.evaluate(() => {
    const el = document.activeElement;
    const table = el.closest('table[data-matrix]');
    return {
      tag: el.tagName.toLowerCase(),
      id: el.id,
      text: el.textContent.trim(),
      role: el.getAttribute('role'),
      label: el.getAttribute('aria-label'),
      matrix: table?.dataset.matrix ?? null,
      cell: el.dataset.i === undefined ? null : [Number(el.dataset.i), Number(el.dataset.j)],
      step: el.closest('section.step')?.id ?? null,
      dialog: el.closest('dialog')?.id ?? null,
      target: el.dataset.target ?? null, // an overview box's step
    };
  });

/** Presses `key` until `done(focused)` holds; returns how many presses it took (fails after `limit`). */
async function pressUntil(key, done, limit = 30) {
  for (let n = 1; n <= limit; n++) {
    await page.keyboard.press(key);
    if (done(await focused())) return n;
  }
  throw new Error(`${key} × ${limit} did not get there; focus is on ${JSON.stringify(await focused())}`);
}

/** The skip link to the steps, then Tab to the overview box of `stepId` and Enter: the focus on that step's title. */
async function jumpToStep(stepId) {
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  // The focus is on the overview's current box (step 1) now.
  const boxTabs = (await focused()).target === stepId ? 0 : await pressUntil('Tab', (f) => f.target === stepId, 20);
  await page.keyboard.press('Enter');
  return boxTabs;
}

describe('keyboard only', () => {
  test('the skip links: to the calculation (the first matrix next) and to the steps (a box jumps to its title)', async () => {
    await page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ tag: 'a', text: 'Skip to the calculation' });
    await page.keyboard.press('Enter');
    expect((await focused()).id).toBe('pipeline');
    const toFirstMatrix = await pressUntil('Tab', (f) => f.matrix !== null);
    expect(await focused()).toMatchObject({ matrix: 'X', cell: [0, 0] });
    // A matrix is one tab stop (its copy buttons one more): Tab goes matrix to matrix.
    const toNextMatrix = await pressUntil('Tab', (f) => f.matrix !== null && f.matrix !== 'X');
    expect((await focused()).matrix).toBe('W_Q');
    expect(toNextMatrix).toBeLessThanOrEqual(2);

    console.log(`Tab presses: skip link → first matrix: Tab, Enter, then ${toFirstMatrix} Tab`);
    expect(toFirstMatrix).toBeLessThanOrEqual(2);
  });

  test('the overview: the skip link to the steps, a box, Enter: the focus on its title, the matrix a Tab or two on', async () => {
    const boxTabs = await jumpToStep('step-scores');
    expect(await focused()).toMatchObject({ tag: 'h2', step: 'step-scores' });
    const toScores = await pressUntil('Tab', (f) => f.matrix === 'scores');
    console.log(`Tab presses to the scores: Tab Tab Enter, ${boxTabs} Tab to its box, Enter, ${toScores} Tab`);
    expect(boxTabs + toScores).toBeLessThanOrEqual(10);
  });

  test('editing a weight keeps the focus on its cell (typing + Enter, and the Alt+arrow nudge)', async () => {
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await pressUntil('Tab', (f) => f.matrix === 'W_Q');
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toMatchObject({ matrix: 'W_Q', cell: [0, 1] });
    await page.keyboard.type('0.5');
    expect((await focused()).tag).toBe('input');
    await page.keyboard.press('Enter');
    await waitForIdle(page);
    expect(await focused()).toMatchObject({ tag: 'td', matrix: 'W_Q', cell: [0, 1], text: '0.5000' });
    await page.keyboard.press('Alt+ArrowUp');
    await waitForIdle(page);
    expect(await focused()).toMatchObject({ tag: 'td', matrix: 'W_Q', cell: [0, 1], text: '0.6000' });
    // F2 edits too; Escape leaves the number as it was, the focus on it.
    await page.keyboard.press('F2');
    expect((await focused()).tag).toBe('input');
    await page.keyboard.press('Escape');
    expect(await focused()).toMatchObject({ tag: 'td', matrix: 'W_Q', cell: [0, 1], text: '0.6000' });
    // The arrows still move from here after the runs.
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toMatchObject({ matrix: 'W_Q', cell: [1, 1] });
  });

  test('head tabs follow the WAI-ARIA tabs pattern and keep the focus on the chosen head', async () => {
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await pressUntil('Shift+Tab', (f) => f.role === 'tab');
    const tabs = () =>
      page.$$eval('#head-tabs [role="tab"]', (list) =>
        list.map((tab) => ({
          name: tab.getAttribute('aria-label'),
          selected: tab.getAttribute('aria-selected'),
          tabIndex: tab.tabIndex,
          controls: tab.getAttribute('aria-controls'),
        })),
      );
    expect(await focused()).toMatchObject({ role: 'tab', label: 'Head 1' });
    expect(await tabs()).toEqual([
      { name: 'Head 1', selected: 'true', tabIndex: 0, controls: 'pipeline' },
      { name: 'Head 2', selected: 'false', tabIndex: -1, controls: 'pipeline' },
    ]);
    expect(await page.$eval('#head-tabs', (list) => list.getAttribute('aria-label'))).toBe('Head');
    expect(
      await page.$eval('#pipeline', (panel) => [panel.getAttribute('role'), panel.getAttribute('aria-labelledby')]),
    ).toEqual(['tabpanel', await page.$eval('#head-tabs [aria-selected="true"]', (tab) => tab.id)]);
    const firstScore = () => page.$eval('table[data-matrix="scores"]:not(.sr-only) tbody td', (td) => td.textContent);
    const headOne = await firstScore();
    await page.keyboard.press('ArrowRight');
    await waitForIdle(page);
    expect(await focused()).toMatchObject({ role: 'tab', label: 'Head 2' });
    expect((await tabs()).map((t) => [t.selected, t.tabIndex])).toEqual([
      ['false', -1],
      ['true', 0],
    ]);
    expect(await firstScore()).not.toBe(headOne);
    await page.keyboard.press('ArrowRight'); // wraps round
    await waitForIdle(page);
    expect(await focused()).toMatchObject({ label: 'Head 1' });
    await page.keyboard.press('End');
    await waitForIdle(page);
    expect(await focused()).toMatchObject({ label: 'Head 2' });
    await page.keyboard.press('Home');
    await waitForIdle(page);
    expect(await focused()).toMatchObject({ label: 'Head 1' });
    expect(await firstScore()).toBe(headOne);
    // Tab leaves the tab list (one stop).
    await page.keyboard.press('Tab');
    expect((await focused()).role).not.toBe('tab');
    await shot(page, 'keyboard-tabs');

    // In Chinese: 注意力头 1.
    await pressUntil('Shift+Tab', (f) => f.id === 'language', 100); // back past the sidebar's 30 presets
    await page.keyboard.press('ArrowDown'); // the select's next language: 中文
    await waitForIdle(page);
    expect((await tabs()).map((t) => t.name)).toEqual(['注意力头 1', '注意力头 2']);
  });

  test('an explanation opens on the focused number and follows the arrow keys; the focus stays on the number', async () => {
    await jumpToStep('step-scores');
    await pressUntil('Tab', (f) => f.matrix === 'scores');
    const explanation = () => page.$eval('#explain-body', (body) => body.textContent);
    const first = await explanation();
    expect(first).not.toContain('Hover'); // not the hint
    expect(await focused()).toMatchObject({ matrix: 'scores', cell: [0, 0] });
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toMatchObject({ matrix: 'scores', cell: [0, 1] });
    await expect.poll(explanation).not.toBe(first);
    await shot(page, 'keyboard-explain');
  });

  test('share: the focus moves into the dialog, Escape closes it, the focus returns to the button', async () => {
    await pressUntil('Tab', (f) => f.id === 'share');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('share-dialog').open);
    expect((await focused()).dialog).toBe('share-dialog');
    await page.keyboard.press('Escape');
    expect(await page.$eval('#share-dialog', (d) => d.open)).toBe(false);
    expect((await focused()).id).toBe('share');
    // And by its Close button.
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('share-dialog').open);
    await pressUntil('Tab', (f) => f.dialog === 'share-dialog' && f.tag === 'button' && !f.text.includes('Copy'));
    await page.keyboard.press('Enter');
    expect(await page.$eval('#share-dialog', (d) => d.open)).toBe(false);
    expect((await focused()).id).toBe('share');
  });
});
