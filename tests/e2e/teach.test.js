// The teaching frame in Chromium: the overview of the steps, following one
// token through every step, and step-by-step mode, in the page and in
// <attention-lab>, in English and Chinese.
import { formatNumber } from '../../web/model/format.js';
import { afterEach, describe, expect, test } from 'vitest';
import { configFromSettings } from '../../web/model/settings.js';
import { openPage, waitForIdle } from './browser.js';
import { shot, useBrowserSuite } from './suite.js';

const suite = useBrowserSuite();
const problems = [];
let page;

afterEach(async () => {
  await page?.context().close();
  page = null;
});

// Two sentences of five tokens, four heads: every size differs from the others.
const BATCH = 'the cat sat on mats\na dog ran to us';

// Every step of the default example: the multi-head and inference chapters open (the page opens the basics
// only; chapters.test.js covers that). The variants (none set) and the trained model stay closed: the next
// chapters, one section at the end, which step by step stops at too.
const EVERY_STEP = () => `${suite.server.url}?chapters=heads,inference`;
const END_BARS = ['chapters-next'];

async function open(url = EVERY_STEP(), viewport) {
  page = await openPage(suite.browser, url, { problems, viewport });
  return page;
}

async function typeInto(selector, text) {
  await page.fill(selector, text);
  await waitForIdle(page);
}

/** The shown steps' ids, and the overview's boxes: target, number, name, shape and its letters. */
const overview = () =>
  page.$$eval('#overview a[data-target]', (links) =>
    links.map((a) => ({
      target: a.dataset.target,
      number: a.querySelector('.ov-number').textContent,
      shape: a.querySelector('.ov-shape').hidden ? '' : a.querySelector('.ov-shape').textContent,
      title: a.title,
      label: a.getAttribute('aria-label'),
    })),
  );
const stepIds = () => page.$$eval('#pipeline > section.step', (sections) => sections.map((s) => s.id));
const currentBox = () => page.$eval('#overview', (nav) => nav.querySelector('[aria-current="step"]')?.dataset.target);

/** Whether a step's title is on screen, below the sticky toolbar. */
const inView = (id) =>
  page.$eval(`#${id} h2`, (h2) => {
    const top = h2.getBoundingClientRect().top;
    return top >= document.querySelector('.toolbar').getBoundingClientRect().bottom - 1 && top < innerHeight;
  });

/** Indices of the followed rows of a matrix (its visible table). */
const followedRows = (matrix, root = page) =>
  root.$$eval(`table[data-matrix="${matrix}"]:not(.sr-only) tbody tr.followed`, (rows) =>
    rows.map((tr) => tr.sectionRowIndex),
  );
const followedColumns = (matrix) =>
  page.$$eval(`table[data-matrix="${matrix}"]:not(.sr-only) thead th.followed-col`, (ths) =>
    ths.map((th) => th.cellIndex - 1),
  );
const followedCells = (matrix) =>
  page.$$eval(`table[data-matrix="${matrix}"]:not(.sr-only) td.followed-col`, (tds) => [
    ...new Set(tds.map((td) => td.dataset.j)),
  ]);

describe('overview', () => {
  test('a numbered box per shown step, with its real shape and the letters', async () => {
    await open();
    await typeInto('#control-heads', '4');
    await typeInto('#input-text', BATCH);
    const boxes = await overview();
    const ids = await stepIds();
    // In the pipeline's order, numbered 1, 2, 3… as the steps are.
    expect(boxes.map((b) => b.target)).toEqual(ids);
    expect(boxes.map((b) => b.number)).toEqual(ids.map((_, k) => String(k + 1)));
    const shapeOf = Object.fromEntries(boxes.map((b) => [b.target, b.shape]));
    expect(shapeOf).toMatchObject({
      'step-X': '[2, 5, 8]',
      'step-weights': '[8, 8]',
      'step-qkv': '[2, 5, 8]',
      'step-split': '[2, 4, 5, 2]',
      'step-scores': '[2, 4, 5, 5]',
      'step-scaled': '[2, 4, 5, 5]',
      'step-mask': '[2, 5, 5]',
      'step-masked': '[2, 4, 5, 5]',
      'step-attnweights': '[2, 4, 5, 5]',
      'step-dropped': '[2, 4, 5, 5]',
      'step-context': '[2, 4, 5, 2]',
      'step-concat': '[2, 5, 8]',
      'step-wo': '[8, 8]',
      'step-output': '[2, 5, 8]',
      'step-links': '',
    });
    const scores = boxes.find((b) => b.target === 'step-scores');
    expect(scores.title).toContain('[B, H, S, S_kv]');
    // Its name starts with what the box shows (number, short name, sizes), then says it in full.
    expect(scores.label).toBe(
      `Step ${ids.indexOf('step-scores') + 1} scores [2, 4, 5, 5] — Raw scores QKᵀ, shape [B=2, H=4, S=5, S_kv=5]`,
    );
    // The step titles carry the same numbers.
    const numbers = await page.$$eval('#pipeline > section.step h2', (titles) =>
      titles.map((h2) => getComputedStyle(h2, '::before').content),
    );
    expect(numbers).toEqual(ids.map((_, k) => `"${k + 1}"`));
    // No inline style attribute (CSP): the per-head colour is set through the CSSOM.
    expect(await page.locator('#overview [style]').count()).toBe(await page.locator('#overview a.per-head').count());
  });

  test('clicking a box scrolls to its step; the mark follows clicks and scrolling', async () => {
    await open();
    expect(await currentBox()).toBe('step-X');
    await page.click('#overview a[data-target="step-attnweights"]');
    await expect.poll(() => inView('step-attnweights')).toBe(true);
    await expect.poll(currentBox).toBe('step-attnweights');
    expect(await page.evaluate(() => location.hash)).toBe(''); // a step is not a state: the URL keeps the setup
    // Scrolling by hand moves the mark.
    await page.evaluate(() => {
      const top = document.getElementById('step-context').getBoundingClientRect().top;
      scrollBy(0, top - document.querySelector('.toolbar').getBoundingClientRect().height - 40);
    });
    await expect.poll(currentBox).toBe('step-context');
    await page.evaluate(() => scrollTo(0, 0));
    await expect.poll(currentBox).toBe('step-X');
    // By keyboard: Enter on a box.
    await page.focus('#overview a[data-target="step-output"]');
    await page.keyboard.press('Enter');
    await expect.poll(() => inView('step-output')).toBe(true);
    await expect.poll(currentBox).toBe('step-output');
    expect(await page.evaluate(() => document.activeElement.closest('section')?.id)).toBe('step-output');
    expect(problems).toEqual([]);
  });

  test('no step moves under the reader: after a jump, scrolling by hand, and a re-render', async () => {
    await open();
    // Four frames: content-visibility picks the steps near the viewport after one
    // frame's layout and lays them out in the next; a wrong placeholder shows then.
    const frames = () =>
      page.evaluate(async () => {
        for (let k = 0; k < 4; k++) await new Promise((resolve) => requestAnimationFrame(resolve));
      });
    // Puts step `id` just under the toolbar by hand, then lets the page lay out
    // what came near the viewport: where the step was put and where it is then.
    const putUnderToolbar = async (id) => {
      const put = await page.$eval(`#${id}`, (step) => {
        scrollBy(0, step.getBoundingClientRect().top - document.querySelector('.toolbar').offsetHeight - 40);
        return step.getBoundingClientRect().top;
      });
      await frames();
      return { put, settled: await page.$eval(`#${id}`, (step) => step.getBoundingClientRect().top) };
    };
    const expectStays = async (id) => {
      const { put, settled } = await putUnderToolbar(id);
      expect(Math.abs(settled - put), `${id} moved from ${put} to ${settled}`).toBeLessThan(2);
      await expect.poll(currentBox).toBe(id);
    };
    // A jump past steps never shown, then straight on by hand past more of them, and back up one step at a time.
    await page.click('#overview a[data-target="step-attnweights"]');
    const ids = await stepIds();
    await expectStays('step-context');
    await expectStays('step-concat');
    for (const id of ids.slice(0, ids.indexOf('step-context')).reverse()) await expectStays(id);
    // A re-render (another head) while reading a late step: the new steps above it keep their heights.
    await expectStays('step-context');
    const before = await page.$eval('#step-context', (step) => step.getBoundingClientRect().top);
    await page.click('#head-tabs button:nth-of-type(2)');
    await waitForIdle(page);
    await frames();
    const after = await page.$eval('#step-context', (step) => step.getBoundingClientRect().top);
    expect(Math.abs(after - before), `step-context moved from ${before} to ${after}`).toBeLessThan(2);
    await expect.poll(currentBox).toBe('step-context');
    expect(problems).toEqual([]);
  });

  test('a link to a step (#step-…) opens at that step with the default setup', async () => {
    await open(`${EVERY_STEP()}#step-concat`);
    await expect.poll(() => inView('step-concat')).toBe(true);
    expect(await page.locator('#link-notice').isHidden()).toBe(true);
    expect(await page.inputValue('#input-text')).toBe('He sat by the bank of the river');
  });

  test('wraps at 390 px and marks the current box in the dark theme', async () => {
    await open(EVERY_STEP(), { width: 390, height: 844 });
    await page.selectOption('#theme', 'dark');
    await page.locator('#overview').scrollIntoViewIfNeeded();
    await expect.poll(() => page.$eval('#overview', (nav) => nav.classList.contains('condensed'))).toBe(false);
    const widths = await page.$eval('#overview', (nav) => ({
      nav: nav.getBoundingClientRect().right,
      boxes: Math.max(...Array.from(nav.querySelectorAll('a'), (a) => a.getBoundingClientRect().right)),
      rows: new Set(Array.from(nav.querySelectorAll('li'), (li) => Math.round(li.getBoundingClientRect().top))).size,
    }));
    expect(widths.boxes).toBeLessThanOrEqual(390);
    expect(widths.rows).toBeGreaterThan(2);
    const current = await page.$eval('#overview [aria-current="step"]', (a) => [
      getComputedStyle(a).backgroundColor,
      getComputedStyle(a).color,
    ]);
    expect(current).toEqual(['rgb(124, 180, 255)', 'rgb(30, 32, 36)']); // --accent behind --bg text
    await shot(page, 'teach-overview-390-dark');
  });

  test('a step scrolled into view by the browser (scrollIntoView, a fragment) starts below the sticky toolbar', async () => {
    await open();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => page.$eval('#overview', (nav) => nav.classList.contains('condensed'))).toBe(true);
    const gap = await page.evaluate(() => {
      document.getElementById('step-scores').scrollIntoView({ block: 'start' });
      const title = document.querySelector('#step-scores h2').getBoundingClientRect().top;
      return title - document.querySelector('.toolbar').getBoundingClientRect().bottom;
    });
    expect(gap).toBeGreaterThanOrEqual(0);
  });

  test('condenses after a jump far down the page (from below the viewport to above it at once), on a phone', async () => {
    // A short phone screen: the settings are folded, so the toolbar starts within 600 px.
    await open(EVERY_STEP(), { width: 390, height: 480 });
    const condensed = () => page.$eval('#overview', (nav) => nav.classList.contains('condensed'));
    expect(await condensed()).toBe(false);
    // The toolbar's place in the flow goes from below the viewport to above it in one scroll.
    const at = await page.$eval('.toolbar', (bar) => bar.getBoundingClientRect().top);
    expect(at).toBeGreaterThan(480);
    await page.evaluate((y) => window.scrollTo(0, y), at + 2000);
    await expect.poll(condensed).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(condensed).toBe(false);
  });
});

describe('follow one token', () => {
  test('lights its row in every step and its column where it is a key', async () => {
    await open();
    await page.selectOption('#follow select', '1'); // "sat"
    await waitForIdle(page);
    for (const matrix of ['X', 'Q', 'K', 'V', 'Q_h', 'K_h', 'scores', 'mask', 'weights', 'context', 'output'])
      // (dropout is off here: its step is one line, without a matrix)
      expect(await followedRows(matrix), matrix).toEqual([1]);
    expect(await followedRows('W_Q')).toEqual([]);
    expect(await followedColumns('weights')).toEqual([1]);
    expect(await followedCells('weights')).toEqual(['1']);
    expect(await followedColumns('Q')).toEqual([]);
    expect(await page.$eval('table[data-matrix="X"] tr.followed th', (th) => th.textContent)).toBe('sat');
    // The other rows are dimmed (a veil of the background, their numbers in the text colour), the followed row is not.
    const veil = (selector) => page.$eval(selector, (el) => getComputedStyle(el).backgroundImage);
    expect(await veil('table[data-matrix="output"] tr[data-row="1"] td')).toBe('none');
    expect(await veil('table[data-matrix="output"] tr[data-row="0"] td')).toContain('linear-gradient');
    // One followed token: the links view focuses it too.
    expect(await page.locator('svg.links text.token.focus').textContent()).toBe('sat');
    await page.locator('#step-attnweights').scrollIntoViewIfNeeded();
    await shot(page, 'teach-follow');
  });

  test('survives an edit, a head tab and the links view; a row label picks; Esc clears', async () => {
    await open();
    await page.click('table[data-matrix="output"] tbody tr[data-row="2"] th'); // "by"
    await waitForIdle(page);
    expect(await page.inputValue('#follow select')).toBe('2');
    expect(await followedRows('weights')).toEqual([2]);
    // An edit runs the engine again.
    await page.click('table[data-matrix="W_Q"] td[data-i="0"][data-j="0"]');
    await page.fill('table[data-matrix="W_Q"] input', '1.5');
    await page.press('table[data-matrix="W_Q"] input', 'Enter');
    await waitForIdle(page);
    expect(await page.locator('table[data-matrix="W_Q"] td.edited').count()).toBe(1);
    expect(await followedRows('weights')).toEqual([2]);
    expect(await followedRows('output')).toEqual([2]);
    // Another head.
    await page.click('#head-tabs button:nth-of-type(2)');
    expect(await page.locator('#step-scores h3').textContent()).toContain('head 2');
    expect(await followedRows('scores')).toEqual([2]);
    expect(await followedColumns('scores')).toEqual([2]);
    // Hovering a number still shows its own highlight, distinct from the followed row.
    await page.hover('table[data-matrix="scores"] td[data-i="0"][data-j="3"]');
    expect(await page.locator('table[data-matrix="Q_h"] tr.hl').count()).toBe(1);
    expect(await followedRows('Q_h')).toEqual([2]);
    const [hl, followed] = await page.$$eval('table[data-matrix="Q_h"] tbody tr', (rows) =>
      [rows[0], rows[2]].map((tr) => getComputedStyle(tr.cells[1]).boxShadow),
    );
    expect(hl).not.toBe(followed);
    // A token clicked in the links view is the followed token.
    await page.click('svg.links text.token >> nth=4');
    expect(await page.inputValue('#follow select')).toBe('4');
    expect(await followedRows('X')).toEqual([4]);
    // Esc clears it everywhere.
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');
    expect(await page.inputValue('#follow select')).toBe('');
    expect(await page.locator('#pipeline tr.followed, #pipeline .followed-col').count()).toBe(0);
    expect(await page.locator('svg.links text.token.focus').count()).toBe(0);
    // The clear button does too.
    await page.selectOption('#follow select', '0');
    await page.click('.follow-clear');
    expect(await page.locator('#pipeline tr.followed').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  test('the control lists the shown sentence; a shorter sentence drops a token past its end', async () => {
    await open();
    await typeInto('#input-text', BATCH);
    const options = () => page.$$eval('#follow option', (os) => os.map((o) => o.textContent));
    expect(await options()).toEqual(['— none —', '1 · the', '2 · cat', '3 · sat', '4 · on', '5 · mats']);
    await page.click('#batch-tabs button:nth-of-type(2)');
    expect(await options()).toEqual(['— none —', '1 · a', '2 · dog', '3 · ran', '4 · to', '5 · us']);
    await page.selectOption('#follow select', '4');
    await typeInto('#input-text', 'a b c\nd e f');
    expect(await page.inputValue('#follow select')).toBe('');
  });

  test('in a large (canvas) matrix: the accessible corner table and a band on the canvas', async () => {
    await open();
    await typeInto('#control-d-model', '16');
    await typeInto('#input-text', Array.from({ length: 80 }, (_, i) => `w${i}`).join(' '));
    await page.selectOption('#follow select', '3');
    await waitForIdle(page);
    expect(await page.locator('#step-scores .canvas-matrix canvas').count()).toBe(1);
    expect(await followedRows('scores')).toEqual([]); // no visible table
    const corner = await page.$eval('#step-scores table.sr-only', (table) => ({
      rows: Array.from(table.tBodies[0].rows)
        .filter((tr) => tr.classList.contains('followed'))
        .map((tr) => [tr.sectionRowIndex, tr.getAttribute('aria-current')]),
      column: Array.from(table.tHead.rows[0].cells).findIndex((th) => th.classList.contains('followed-col')) - 1,
    }));
    expect(corner).toEqual({ rows: [[3, 'true']], column: 3 });
    await page.locator('#step-scores .canvas-matrix canvas').scrollIntoViewIfNeeded();
    await expect.poll(() => page.locator('#step-scores .follow-band.row').evaluate((b) => b.style.top)).not.toBe('');
    const band = await page.$eval('#step-scores', (step) => {
      const canvas = step.querySelector('.canvas-matrix canvas').getBoundingClientRect();
      const row = step.querySelector('.follow-band.row').getBoundingClientRect();
      return { at: (row.top - canvas.top) / (canvas.height / 80), width: row.width - canvas.width };
    });
    expect(band.at).toBeCloseTo(3, 5);
    expect(Math.abs(band.width)).toBeLessThan(1);
    await shot(page, 'teach-follow-canvas');
  });
});

describe('step by step', () => {
  const counter = () => page.locator('#stepper .step-counter').textContent();
  const narration = () => page.locator('#stepper .narration').textContent();
  const shownSteps = () =>
    page.$$eval('#pipeline > section.step', (sections) =>
      sections.filter((s) => getComputedStyle(s).display !== 'none').map((s) => s.id),
    );

  test('keys and buttons move through the steps, with counter and narration', async () => {
    await open();
    await typeInto('#input-text', 'the cat sat on mats');
    const ids = await stepIds();
    expect(await page.$$eval('#pipeline > section.chapter-bar', (bars) => bars.map((b) => b.id))).toEqual(END_BARS);
    const count = ids.length; // the counter counts the steps: the next chapters' bar is no step
    await page.click('#steps-toggle');
    expect(await page.getAttribute('#steps-toggle', 'aria-pressed')).toBe('true');
    expect(await counter()).toBe(`Step 1 of ${count}`);
    expect(await shownSteps()).toEqual(['step-X']);
    expect(await narration()).toContain('Each of the 5 tokens looks up its row in the embedding table');
    expect(await narration()).toContain('5 rows of 8 numbers');
    await page.keyboard.press('ArrowRight');
    expect(await counter()).toBe(`Step 2 of ${count}`);
    expect(await shownSteps()).toEqual([ids[1]]);
    await page.keyboard.press('PageDown');
    await page.keyboard.press('PageDown');
    expect(await counter()).toBe(`Step 4 of ${count}`);
    await page.keyboard.press('ArrowLeft');
    expect(await counter()).toBe(`Step 3 of ${count}`);
    await page.keyboard.press('End');
    expect(await counter()).toBe(`Next chapters, after step ${count} of ${count}`);
    expect(await page.$eval('#pipeline > .is-current', (el) => el.id)).toBe(END_BARS.at(-1)); // the next chapters
    await page.keyboard.press('ArrowLeft');
    expect(await shownSteps()).toEqual(['step-flash']); // the steppers come after the output
    await page.keyboard.press('End');
    expect(await page.locator('#stepper .step-next').isDisabled()).toBe(true);
    await page.keyboard.press('Home');
    expect(await counter()).toBe(`Step 1 of ${count}`);
    expect(await page.locator('#stepper .step-prev').isDisabled()).toBe(true);
    await page.click('#stepper .step-next');
    await page.click('#stepper .step-next');
    expect(await counter()).toBe(`Step 3 of ${count}`);
    await page.click('#stepper .step-prev');
    expect(await counter()).toBe(`Step 2 of ${count}`);
    // The overview marks the shown step, and its boxes go to a step.
    expect(await currentBox()).toBe(ids[1]);
    await page.click('#overview a[data-target="step-attnweights"]');
    expect(await shownSteps()).toEqual(['step-attnweights']);
    expect(await counter()).toBe(`Step ${ids.indexOf('step-attnweights') + 1} of ${count}`);
    // The narration quotes the result: the first token's strongest key and its weight.
    const result = suite.lab.run(configFromSettings({ text: 'the cat sat on mats' }));
    const row = Array.from(result.tensors.weights.data.subarray(0, 5));
    const best = row.indexOf(Math.max(...row));
    expect(await narration()).toContain(
      `“the” gives its largest weight, ${formatNumber(row[best], 4)}, to “${result.tokens[0][best]}”`,
    );
    // Projection size: the step's title is larger than in the scrolling view.
    expect(await page.$eval('#step-attnweights h2', (h2) => parseFloat(getComputedStyle(h2).fontSize))).toBeGreaterThan(
      24,
    );
    await shot(page, 'teach-steps');
  });

  test('arrow keys typed into a field or a number being edited do not move', async () => {
    await open();
    await page.click('#steps-toggle');
    await page.keyboard.press('ArrowRight'); // 2: the projection weights
    expect(await counter()).toMatch(/^Step 2 of/);
    await page.focus('#input-text');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('End');
    expect(await counter()).toMatch(/^Step 2 of/);
    await page.focus('#control-heads');
    await page.keyboard.press('ArrowLeft');
    expect(await counter()).toMatch(/^Step 2 of/);
    await page.focus('#follow select');
    await page.keyboard.press('ArrowRight');
    expect(await counter()).toMatch(/^Step 2 of/);
    // Editing a weight: the arrows move the caret; the edit applies and the step stays.
    await page.click('table[data-matrix="W_Q"] td[data-i="0"][data-j="0"]');
    await page.keyboard.type('0.25');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    expect(await counter()).toMatch(/^Step 2 of/);
    await page.keyboard.press('Enter');
    await waitForIdle(page);
    expect(await page.locator('table[data-matrix="W_Q"] td[data-i="0"][data-j="0"]').textContent()).toBe('0.2500');
    expect(await counter()).toMatch(/^Step 2 of/);
    // Arrow keys between the cells of a matrix move the focused cell, not the step.
    await page.focus('table[data-matrix="W_K"] td[data-i="0"][data-j="0"]');
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement.dataset.j)).toBe('1');
    expect(await counter()).toMatch(/^Step 2 of/);
    expect(problems).toEqual([]);
  });

  test('entering starts at the step being read; leaving returns to the step shown', async () => {
    await open();
    await page.click('#overview a[data-target="step-scaled"]');
    await expect.poll(currentBox).toBe('step-scaled');
    await page.click('#steps-toggle');
    expect(await shownSteps()).toEqual(['step-scaled']);
    await page.keyboard.press('ArrowRight');
    expect(await shownSteps()).toEqual(['step-mask']);
    // A re-run (another head) keeps the step.
    await page.click('#head-tabs button:nth-of-type(2)');
    expect(await shownSteps()).toEqual(['step-mask']);
    await page.keyboard.press('Escape');
    expect(await page.getAttribute('#steps-toggle', 'aria-pressed')).toBe('false');
    expect((await shownSteps()).length).toBeGreaterThan(10);
    await expect.poll(() => inView('step-mask')).toBe(true);
    await expect.poll(currentBox).toBe('step-mask');
  });

  test('in Chinese', async () => {
    await open();
    await page.selectOption('#language', 'zh');
    await waitForIdle(page);
    await typeInto('#input-text', 'the cat sat on mats');
    await page.click('#steps-toggle');
    const count = (await stepIds()).length; // the steps: the next chapters' bar is none
    expect(await page.locator('#steps-toggle').textContent()).toBe('逐步讲解');
    expect(await counter()).toBe(`第 1 步，共 ${count} 步`);
    expect(await narration()).toContain('5 个词元各自在词嵌入表中查出一行');
    await page.keyboard.press('End');
    expect(await counter()).toBe(`后续章节，在第 ${count} 步之后（共 ${count} 步）`);
    expect(await page.locator('#stepper .step-prev').textContent()).toContain('上一步');
    expect(await page.$eval('#overview', (nav) => nav.getAttribute('aria-label'))).toBe(
      '流程总览：按顺序列出各步骤及其形状',
    );
    // Back past the next chapters (one stop) and the two steppers (KV cache, online softmax) to the output.
    for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowLeft');
    expect(await counter()).toBe(`第 ${count - 2} 步，共 ${count} 步`);
    await page.selectOption('#follow select', '2');
    await waitForIdle(page);
    expect(await narration()).toContain('5 个词元各有一行 8 个数');
    await shot(page, 'teach-steps-zh');
    await page.selectOption('#language', 'en');
  });
});

describe('<attention-lab>', () => {
  async function elementPage(html) {
    const context = await suite.browser.newContext({ viewport: { width: 1200, height: 900 } });
    page = await context.newPage();
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    const path = '__teach.html';
    await page.route(`${suite.server.url}${path}`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><meta charset="utf-8">${html}<script type="module" src="attention-lab-element.js"></script>`,
      }),
    );
    await page.goto(`${suite.server.url}${path}`);
    await page.waitForFunction(() => [...document.querySelectorAll('attention-lab')].every((el) => el.result));
    return page;
  }
  const inShadow = (id, fn, arg) =>
    page.evaluate(
      ([id, fn, arg]) =>
        new Function('root', 'arg', `return (${fn})(root, arg)`)(document.getElementById(id).shadowRoot, arg),
      [id, fn.toString(), arg],
    );

  test('overview, follow and step by step (mode="steps", a view option) in English and Chinese', async () => {
    await elementPage(`
      <attention-lab id="a" text="the cat sat on mats" heads="4" steps="X qkv scores weights output"></attention-lab>
      <attention-lab id="b" text="我 爱 猫" d-model="4" heads="2" mode="steps" lang="zh" theme="dark"></attention-lab>`);
    // a: only its five steps in the overview, numbered 1-5, with shapes.
    const boxes = await inShadow('a', (root) =>
      Array.from(root.querySelectorAll('.overview a'), (a) => [
        a.querySelector('.ov-number').textContent,
        a.querySelector('.ov-name').textContent,
        a.querySelector('.ov-shape').textContent,
      ]),
    );
    expect(boxes).toEqual([
      ['1', 'X', '[1, 5, 8]'],
      ['2', 'Q K V', '[1, 5, 8]'],
      ['3', 'scores', '[1, 4, 5, 5]'],
      ['4', 'weights', '[1, 4, 5, 5]'],
      ['5', 'output', '[1, 5, 8]'],
    ]);
    // Following: the element's own select; rows and the key column light up.
    await page.locator('#a .follow-token select').selectOption('3');
    const lit = () =>
      inShadow('a', (root) => ({
        X: Array.from(root.querySelectorAll('table[data-matrix="X"] tr.followed'), (tr) => tr.dataset.row),
        Q: Array.from(root.querySelectorAll('table[data-matrix="Q"] tr.followed'), (tr) => tr.dataset.row),
        weights: Array.from(root.querySelectorAll('table[data-matrix="weights"] tr.followed'), (tr) => tr.dataset.row),
        column: Array.from(
          root.querySelectorAll('table[data-matrix="weights"] thead th.followed-col'),
          (th) => th.textContent,
        ),
        output: Array.from(root.querySelectorAll('table[data-matrix="output"] tr.followed'), (tr) => tr.dataset.row),
      }));
    await expect.poll(lit).toEqual({ X: ['3'], Q: ['3'], weights: ['3'], column: ['on'], output: ['3'] });
    // An attribute change runs the engine again; a head tab re-renders: the token stays followed.
    await page.evaluate(() => document.getElementById('a').setAttribute('seed', '5'));
    await page.waitForFunction(() => document.getElementById('a').result.settings.seed === 5);
    await page.locator('#a .tabs.heads button >> nth=2').click();
    expect(await lit()).toEqual({ X: ['3'], Q: ['3'], weights: ['3'], column: ['on'], output: ['3'] });
    await page.locator('#a table[data-matrix="X"] td[data-i="0"][data-j="0"]').focus();
    await page.keyboard.press('Escape');
    expect((await lit()).X).toEqual([]);
    // Clicking a row label follows that token.
    await page.locator('#a table[data-matrix="output"] tbody tr[data-row="1"] th').click();
    expect((await lit()).output).toEqual(['1']);

    // b: step by step in Chinese; the arrows work once the reader is in the element.
    const state = () =>
      inShadow('b', (root) => ({
        counter: root.querySelector('.step-counter').textContent,
        shown: Array.from(root.querySelectorAll('section.step'))
          .filter((s) => getComputedStyle(s).display !== 'none')
          .map((s) => s.id.replace('step-', '')),
        narration: root.querySelector('.narration').textContent,
        exit: root.querySelector('.step-exit').hidden,
      }));
    const count = await inShadow('b', (root) => root.querySelectorAll('section.step').length);
    expect(await state()).toMatchObject({ counter: `第 1 步，共 ${count} 步`, shown: ['X'], exit: true });
    expect((await state()).narration).toContain('3 个词元各自在词嵌入表中查出一行，于是句子变成 3 行、每行 4 个数');
    await page.locator('#b .step-next').click();
    expect((await state()).counter).toBe(`第 2 步，共 ${count} 步`);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect((await state()).counter).toBe(`第 4 步，共 ${count} 步`);
    await page.keyboard.press('End');
    expect(await state()).toMatchObject({ counter: `第 ${count} 步，共 ${count} 步`, shown: ['flash'] });
    // The focus stays inside the element when Next becomes disabled, so Home still works.
    await page.keyboard.press('Home');
    expect((await state()).counter).toBe(`第 1 步，共 ${count} 步`);
    // Keys pressed in element a (not in steps mode) do not move b.
    await page.locator('#a table[data-matrix="X"] td[data-i="0"][data-j="0"]').focus();
    await page.keyboard.press('End');
    expect((await state()).counter).toBe(`第 1 步，共 ${count} 步`);
    // The mode is a typed property reflecting the attribute; back to scrolling shows every step.
    expect(await page.evaluate(() => document.getElementById('b').mode)).toBe('steps');
    await page.evaluate(() => {
      document.getElementById('b').mode = 'scroll';
    });
    await expect.poll(async () => (await state()).shown.length).toBe(count);
    expect(await inShadow('b', (root) => root.querySelector('.stepper').hidden)).toBe(true);
    // Back to steps: it starts at the step being read (the overview's mark), once the mark has settled after the
    // return to scrolling (it follows the page's scroll position, which the re-laid-out steps still move).
    const mark = () => inShadow('b', (root) => root.querySelector('.overview [aria-current="step"]').dataset.target);
    let read = await mark();
    await expect
      .poll(async () => {
        const before = read;
        await page.waitForTimeout(300);
        read = await mark();
        return read === before;
      })
      .toBe(true);
    await page.evaluate(() => {
      document.getElementById('b').mode = 'steps';
    });
    await expect.poll(async () => (await state()).shown).toEqual([read.replace('step-', '')]);
    await shot(page, 'teach-elements', { fullPage: true });
    expect(problems).toEqual([]);
  });

  test("the authors' table lists the mode option", async () => {
    const context = await suite.browser.newContext();
    page = await context.newPage();
    await page.goto(`${suite.server.url}authors.html`);
    await page.waitForSelector('#attribute-rows tr');
    const row = await page.$$eval('#attribute-rows tr', (rows) =>
      rows.map((r) => Array.from(r.cells, (c) => c.textContent.trim())).find((cells) => cells[0] === 'mode'),
    );
    expect(row).toEqual(['mode', '—', 'enum: scroll | steps', 'scroll', expect.stringContaining('one step at a time')]);
  });
});

test('no console errors anywhere above', () => {
  expect(problems).toEqual([]);
});
