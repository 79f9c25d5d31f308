// For tutorial authors: <attention-lab> elements, the iframe, share links,
// hostile fragments, exports, and the single file from file:// offline.
import { formatNumber } from '../../web/model/format.js';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { emptyEdits } from '../../web/model/edits.js';
import { DEFAULT_SETTINGS } from '../../web/model/presets.js';
import { configFromSettings } from '../../web/model/settings.js';
import { torchPrint } from '../../web/model/torch-print.js';
import { encodeState } from '../../web/model/share.js';
import { ORIGIN_PLACEHOLDER, SET_MESSAGE } from '../../web/model/embed-messages.js';
import { iframeSnippet } from '../../web/page/share-ui.js';
import { downloadBytes, openPage, serveFolder, waitForIdle } from './browser.js';
import { shot, useBrowserSuite } from './suite.js';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const suite = useBrowserSuite();
const problems = [];

const row = (tensor, offset, cols, decimals = 4) =>
  Array.from({ length: cols }, (_, j) => formatNumber(tensor.data[offset + j], decimals));

/** A page at `path` on the test server whose HTML is `html` (same origin as the built site). */
async function pageWithHtml(path, html) {
  const context = await suite.browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    d.dismiss();
  });
  await page.route(`${suite.server.url}${path}`, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  await page.goto(`${suite.server.url}${path}`);
  return page;
}

// First data row of a matrix inside an element's shadow root.
const shadowRow = (page, id, matrix) =>
  page.evaluate(
    ([id, matrix]) => {
      const table = document
        .getElementById(id)
        .shadowRoot.querySelector(`table[data-matrix="${matrix}"]:not(.sr-only)`);
      return Array.from(table.tBodies[0].rows[0].querySelectorAll('td'), (td) => td.textContent);
    },
    [id, matrix],
  );

describe('<attention-lab> and embed.html', () => {
  test('two elements with different attributes and one iframe on one page', async () => {
    const fragment = await encodeState({
      settings: { ...DEFAULT_SETTINGS, text: 'I love my cat', numHeads: 1, dModel: 4 },
      edits: emptyEdits(),
    });
    const page = await pageWithHtml(
      '__two-elements.html',
      `<!doctype html><meta charset="utf-8">
      <script>window.heights = []; window.changes = {}; addEventListener('message', (e) => { if (e.data?.type === 'attention-lab:height') heights.push(e.data.height); });
        document.addEventListener('attention-change', (e) => { changes[e.target.id] = (changes[e.target.id] ?? 0) + 1; });</script>
      <attention-lab id="a" text="the cat sat" d-model="4" heads="1" seed="7" steps="scores weights" lang="zh"></attention-lab>
      <attention-lab id="b" text="a b c d" heads="2" mask="causal" theme="dark" decimals="2" compact></attention-lab>
      <iframe id="frame" src="embed.html?origin=${new URL(suite.server.url).origin}#${fragment}" style="width:100%;height:300px"></iframe>
      <div style="height:6000px"></div>
      <attention-lab id="far" text="far below the fold"></attention-lab>
      <script type="module" src="attention-lab-element.js"></script>`,
    );
    await page.waitForFunction(() => window.changes.a && window.changes.b);
    // a: only the two requested steps, in Chinese, numbers equal to the API.
    const steps = await page.evaluate(() =>
      Array.from(document.getElementById('a').shadowRoot.querySelectorAll('section.step'), (s) => s.dataset.step),
    );
    expect(steps).toEqual(['scores', 'weights']);
    expect(await page.evaluate(() => document.getElementById('a').shadowRoot.querySelector('h2').textContent)).toBe(
      '原始分数 QKᵀ',
    );
    const expectedA = suite.lab.run({
      ...configFromSettings({ ...DEFAULT_SETTINGS, text: 'the cat sat', dModel: 4, numHeads: 1, seed: 7 }),
    });
    expect(await shadowRow(page, 'a', 'weights')).toEqual(row(expectedA.tensors.weights, 0, 3));
    // b: causal, dark, 2 decimals; its event detail is the result.
    const expectedB = suite.lab.run(configFromSettings({ ...DEFAULT_SETTINGS, text: 'a b c d', mask: 'causal' }));
    expect(await shadowRow(page, 'b', 'output')).toEqual(row(expectedB.tensors.output, 0, 8, 2));
    expect(await page.evaluate(() => getComputedStyle(document.getElementById('b')).backgroundColor)).toBe(
      'rgb(30, 32, 36)',
    );
    expect(await page.evaluate(() => document.getElementById('b').result.tensors.mask.data[1])).toBe(1);
    await shot(page, 'elements');
    // Lazy: the far element has not computed; one engine module for the page.
    expect(await page.evaluate(() => document.getElementById('far').result)).toBeNull();
    // The engine is its glue (.js) and its .wasm: each fetched once for the page.
    const wasmLoads = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((r) => new URL(r.name).pathname)
        .filter((p) => p.includes('attention-lab-wasm')),
    );
    expect(wasmLoads.filter((p) => p.endsWith('.js'))).toHaveLength(1);
    expect(wasmLoads.filter((p) => p.endsWith('.wasm'))).toHaveLength(1);
    await page.evaluate(() => document.getElementById('far').scrollIntoView());
    await page.waitForFunction(() => document.getElementById('far').result !== null);
    // The iframe renders its fragment's setup and reports its height.
    const frame = page.frame({ url: /embed\.html/ });
    await frame.waitForFunction(() => document.getElementById('embedded').result !== null);
    const expectedFrame = suite.lab.run(
      configFromSettings({ ...DEFAULT_SETTINGS, text: 'I love my cat', numHeads: 1, dModel: 4 }),
    );
    const frameRow = await frame.evaluate(() =>
      Array.from(
        document
          .getElementById('embedded')
          .shadowRoot.querySelector('table[data-matrix="output"]')
          .tBodies[0].rows[0].querySelectorAll('td'),
        (td) => td.textContent,
      ),
    );
    expect(frameRow).toEqual(row(expectedFrame.tensors.output, 0, 4));
    await page.waitForFunction(() => window.heights.length > 0 && window.heights.at(-1) > 300);
    await page.context().close();
  });

  test('attributes and properties stay in sync; changes recompute; bad attributes show inline', async () => {
    const page = await pageWithHtml(
      '__attributes.html',
      `<!doctype html><meta charset="utf-8">
      <attention-lab id="a" text="one two three" d-model="4" heads="1"></attention-lab>
      <script type="module" src="attention-lab-element.js"></script>`,
    );
    await page.waitForFunction(() => document.getElementById('a').result);
    const changed = page.evaluate(
      () =>
        new Promise((resolve) =>
          document
            .getElementById('a')
            .addEventListener('attention-change', (e) => resolve(e.detail.tensors.scores.shape), { once: true }),
        ),
    );
    await page.evaluate(() => {
      document.getElementById('a').heads = 2;
    });
    expect(await changed).toEqual([1, 2, 3, 3]);
    expect(await page.evaluate(() => document.getElementById('a').getAttribute('heads'))).toBe('2');
    await page.evaluate(() => document.getElementById('a').setAttribute('mask', 'causal'));
    await page.waitForFunction(() => document.getElementById('a').result.tensors.mask.data[1] === 1);
    expect(await page.evaluate(() => document.getElementById('a').mask)).toBe('causal');
    await page.evaluate(() => {
      document.getElementById('a').editable = true;
    });
    expect(await page.evaluate(() => document.getElementById('a').hasAttribute('editable'))).toBe(true);

    for (const [name, value, message] of [
      ['d-model', '5', 'heads: dModel (5) must be divisible by numHeads (2)'],
      ['mask', 'sideways', 'mask: mask must be one of'],
      ['config', '{oops', 'config: the config attribute is not valid JSON'],
    ]) {
      await page.evaluate(([n, v]) => document.getElementById('a').setAttribute(n, v), [name, value]);
      await page.waitForFunction(() => !document.getElementById('a').shadowRoot.querySelector('.error').hidden);
      expect(
        await page.evaluate(() => document.getElementById('a').shadowRoot.querySelector('.error').textContent),
      ).toContain(message);
      // The last valid result stays rendered: never a blank box.
      expect(
        await page.evaluate(() => document.getElementById('a').shadowRoot.querySelectorAll('table.matrix').length),
      ).toBeGreaterThan(0);
      await page.evaluate((n) => document.getElementById('a').removeAttribute(n), name);
      await page.waitForFunction(() => document.getElementById('a').shadowRoot.querySelector('.error').hidden);
    }
    await page.context().close();
  });

  test('an element with lang="zh" shows engine errors in Chinese, and its event carries the code', async () => {
    const page = await pageWithHtml(
      '__zh-errors.html',
      `<!doctype html><meta charset="utf-8">
      <attention-lab id="a" text="我爱NLP和AI" heads="2" lang="zh"></attention-lab>
      <script type="module" src="attention-lab-element.js"></script>`,
    );
    await page.waitForFunction(() => document.getElementById('a').result);
    expect(await page.evaluate(() => document.getElementById('a').result.tokens)).toEqual([
      ['我', '爱', 'NLP', '和', 'AI'],
    ]);
    await page.evaluate(() => {
      window.lastError = null;
      document.getElementById('a').addEventListener('attention-error', (e) => {
        window.lastError = e.detail;
      });
    });
    for (const [name, value, message, code] of [
      ['d-model', '5', 'heads: dModel（5）必须能被 numHeads（2）整除', 'not-divisible'],
      [
        'mask',
        'sideways',
        'mask: mask 应为 "none", "causal", "padding", "causal+padding" 之一，实际为 "sideways"',
        'not-one-of',
      ],
      ['additive-hidden', '0', 'additive-hidden: additiveHidden（0）应在 1 到 1024 之间', 'out-of-range'],
      ['config', '{oops', 'config: config 属性不是有效的 JSON', 'config-attribute-json'],
    ]) {
      await page.evaluate(([n, v]) => document.getElementById('a').setAttribute(n, v), [name, value]);
      await page.waitForFunction(() => !document.getElementById('a').shadowRoot.querySelector('.error').hidden);
      expect(
        await page.evaluate(() => document.getElementById('a').shadowRoot.querySelector('.error').textContent),
      ).toContain(message);
      expect(await page.evaluate(() => window.lastError.code)).toBe(code);
      await page.evaluate((n) => document.getElementById('a').removeAttribute(n), name);
      await page.waitForFunction(() => document.getElementById('a').shadowRoot.querySelector('.error').hidden);
    }
    // Pre-split tokens instead of the text: a token with a space is named, in Chinese.
    await page.evaluate(() => {
      document.getElementById('a').removeAttribute('text');
      document.getElementById('a').setAttribute('tokens', '[["我", "爱 你"]]');
    });
    await page.waitForFunction(() => !document.getElementById('a').shadowRoot.querySelector('.error').hidden);
    expect(
      await page.evaluate(() => document.getElementById('a').shadowRoot.querySelector('.error').textContent),
    ).toContain('tokens: tokens[0][1]（"爱 你"）含有空白字符');
    expect(await page.evaluate(() => window.lastError.code)).toBe('token-whitespace');
    await page.evaluate(() => document.getElementById('a').setAttribute('tokens', '[["我", "爱", "你"]]'));
    await page.waitForFunction(() => document.getElementById('a').shadowRoot.querySelector('.error').hidden);
    expect(await page.evaluate(() => document.getElementById('a').result.tokens)).toEqual([['我', '爱', '你']]);
    // Switching the element to English says the next error in the engine's words.
    await page.evaluate(() => {
      document.getElementById('a').setAttribute('lang', 'en');
      document.getElementById('a').setAttribute('d-model', '5');
    });
    await page.waitForFunction(() => !document.getElementById('a').shadowRoot.querySelector('.error').hidden);
    expect(
      await page.evaluate(() => document.getElementById('a').shadowRoot.querySelector('.error').textContent),
    ).toContain('heads: dModel (5) must be divisible by numHeads (2)');
    await page.context().close();
  });

  test('embed.html?lang=zh shows its notice and the element in Chinese', async () => {
    const page = await (await suite.browser.newContext()).newPage();
    await page.goto(`${suite.server.url}embed.html?lang=zh#s=v2.QUJDRA`);
    await page.waitForFunction(() => document.getElementById('embedded').result);
    expect(await page.locator('#notice').textContent()).toContain('无法读取');
    expect(await page.evaluate(() => document.getElementById('embedded').getAttribute('lang'))).toBe('zh');
    await page.context().close();
  });

  test('embed.html takes lang and every view option (steps, theme, head, compact, decimals, editable) from its query', async () => {
    const fragment = await encodeState({
      settings: { ...DEFAULT_SETTINGS, text: 'I love my cat', numHeads: 2, dModel: 4 },
      edits: emptyEdits(),
    });
    for (const [lang, title, heading] of [
      ['en-US', 'Attention Lab (embedded)', 'Raw scores QKᵀ'],
      ['zh-CN', 'Attention Lab（嵌入）', '原始分数 QKᵀ'],
    ]) {
      const page = await (await suite.browser.newContext({ viewport: { width: 640, height: 640 } })).newPage();
      await page.goto(
        `${suite.server.url}embed.html?lang=${lang}&steps=scores%20weights&theme=dark&head=2&compact&decimals=2&editable=false#${fragment}`,
      );
      await page.waitForFunction(() => document.getElementById('embedded').result);
      const shown = await page.evaluate(() => {
        const element = document.getElementById('embedded');
        const root = element.shadowRoot;
        const tabs = [...root.querySelectorAll('.tabs.heads [role="tab"]')];
        return {
          title: document.title,
          heading: root.querySelector('h2').textContent,
          steps: [...root.querySelectorAll('section.step')].map((s) => s.dataset.step),
          head: tabs.findIndex((tab) => tab.getAttribute('aria-selected') === 'true') + 1,
          compact: element.hasAttribute('compact'),
          editable: element.hasAttribute('editable'), // embed.html sets it; ?editable=false clears it
          firstNumber: root.querySelector('section.step td[data-i]').textContent.trim(),
          background: getComputedStyle(element).backgroundColor,
          tokens: element.result.tokens[0],
        };
      });
      expect(shown).toEqual({
        title,
        heading,
        steps: ['scores', 'weights'],
        head: 2,
        compact: true,
        editable: false,
        firstNumber: expect.stringMatching(/^[−-]?\d+\.\d\d$/), // two decimals
        background: 'rgb(30, 32, 36)',
        tokens: ['I', 'love', 'my', 'cat'],
      });
      await shot(page, `embed-params-${lang}`, { fullPage: true });
      await page.context().close();
    }
  });

  test('embed.html posts its height only to the origin its parent gave, and only the height', async () => {
    const embedOrigin = new URL(suite.server.url).origin;
    const frame = (id, query) =>
      `<iframe id="${id}" src="${suite.server.url}embed.html${query}" style="width:640px;height:640px;border:0"></iframe>`;
    const listener = `<script>window.messages = []; addEventListener('message', (e) => messages.push({ origin: e.origin, data: e.data }));</script>`;
    // Two parents on another origin than the embed (another port): one names itself, one names a third origin.
    // The server reads its pages at each request: they are written once its origin is known.
    const pages = {};
    const parents = await serveFolder(dist, '/nothing/', pages);
    const parentOrigin = new URL(parents.url).origin;
    expect(parentOrigin).not.toBe(embedOrigin);
    pages['/named.html'] =
      `<!doctype html>${listener}${frame('named', `?origin=${parentOrigin}&steps=scores&compact`)}`;
    pages['/other.html'] =
      `<!doctype html>${listener}${frame('other', '?origin=https://blog.example&steps=scores&compact')}${frame('none', '?steps=scores&compact')}`;
    const context = await suite.browser.newContext({ viewport: { width: 800, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${parentOrigin}/named.html`);
    await page.waitForFunction(() => window.messages.length > 0);
    const messages = await page.evaluate(() => window.messages);
    for (const message of messages) {
      expect(message.origin).toBe(embedOrigin);
      expect(Object.keys(message.data).sort()).toEqual(['height', 'type']); // nothing of the setup
      expect(message.data.type).toBe('attention-lab:height');
    }
    expect(messages.at(-1).data.height).toBeGreaterThan(100);

    // Another origin named, or none: the parent hears nothing, even after both frames rendered and laid out.
    // Once a frame's layout has been seen by its ResizeObserver (two frames later), the frame posts a
    // barrier: messages from one window arrive in order, so a height it posted would arrive before it.
    await page.goto(`${parentOrigin}/other.html`);
    for (const id of ['other', 'none']) {
      const frame = page.frame({ url: (url) => url.href.includes(id === 'other' ? 'blog.example' : '?steps') });
      await frame.waitForFunction(() => document.getElementById('embedded').result);
      await frame.evaluate(async (id) => {
        await document.fonts.ready;
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        parent.postMessage({ type: 'test:barrier', id }, '*');
      }, id);
    }
    await page.waitForFunction(() => window.messages.filter((m) => m.data?.type === 'test:barrier').length === 2);
    expect(await page.evaluate(() => window.messages.filter((m) => m.data?.type !== 'test:barrier'))).toEqual([]);
    await context.close();
    await parents.close();
  });

  test('the Share snippet on another origin: two frames sized each to its own height; the parent sets theme, lang and steps, no one else', async () => {
    const embedOrigin = new URL(suite.server.url).origin;
    const fragment = await encodeState({
      settings: { ...DEFAULT_SETTINGS, text: 'the cat sat', numHeads: 2, dModel: 4 },
      edits: emptyEdits(),
    });
    // The parent and a third origin (another port each); their pages are written once the origins are known.
    const pages = {};
    const parents = await serveFolder(dist, '/nothing/', pages);
    const parentOrigin = new URL(parents.url).origin;
    const others = await serveFolder(dist, '/nothing/', { '/other.html': '<!doctype html><title>other</title>' });
    const otherOrigin = new URL(others.url).origin;
    expect(new Set([embedOrigin, parentOrigin, otherOrigin]).size).toBe(3);
    // The Share dialog's snippet, twice (a short frame and a tall one), the placeholder replaced as the
    // dialog says; a frame without ?origin=; a frame of the third origin.
    const snippet = (query) =>
      iframeSnippet(`${suite.server.url}embed.html${query}#${fragment}`, embedOrigin).replaceAll(
        ORIGIN_PLACEHOLDER,
        parentOrigin,
      );
    pages['/two.html'] = `<!doctype html><meta charset="utf-8"><body style="margin:0">
      ${snippet('?steps=scores&compact')}
      ${snippet('?lang=en')}
      <iframe id="none" src="${suite.server.url}embed.html?steps=scores&compact#${fragment}" style="width:100%;height:200px"></iframe>
      <iframe id="other" src="${otherOrigin}/other.html"></iframe>`;
    const context = await suite.browser.newContext({ viewport: { width: 900, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${parentOrigin}/two.html`);
    const [short, tall] = [0, 1].map((k) => page.locator('iframe.attention-lab-frame').nth(k));
    const frameOf = async (locator) => (await locator.elementHandle()).contentFrame();
    const [shortFrame, tallFrame] = [await frameOf(short), await frameOf(tall)];
    const noneFrame = await frameOf(page.locator('#none'));
    const otherFrame = await frameOf(page.locator('#other'));
    // Three frames load side by side (a minute at most, on a busy machine). An element runs once it is near
    // the screen: each frame is scrolled to first, as the tall frame, grown, can push the last one far below.
    for (const [iframe, frame] of [
      [short, shortFrame],
      [tall, tallFrame],
      [page.locator('#none'), noneFrame],
    ]) {
      await iframe.scrollIntoViewIfNeeded();
      await frame.waitForFunction(() => document.getElementById('embedded').result, null, { timeout: 60_000 });
    }
    await page.evaluate(() => scrollTo(0, 0));

    // Each frame's height reaches its own iframe (the listener matches e.source), both from the embed's origin.
    const ownHeight = (frame) =>
      frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    for (const [iframe, frame] of [
      [short, shortFrame],
      [tall, tallFrame],
    ])
      await expect
        .poll(async () => (await iframe.evaluate((el) => el.style.height)) === `${await ownHeight(frame)}px`)
        .toBe(true);
    const heights = [await ownHeight(shortFrame), await ownHeight(tallFrame)];
    expect(heights[1]).toBeGreaterThan(heights[0] * 2); // every step against the scores alone, compact
    expect(await page.locator('#none').evaluate((el) => el.style.height)).toBe('200px');

    // What a frame shows: its theme attribute, background, first step title and steps.
    const shows = (frame) =>
      frame.evaluate(() => {
        const element = document.getElementById('embedded');
        return {
          theme: element.getAttribute('theme'),
          background: getComputedStyle(element).backgroundColor,
          title: element.shadowRoot.querySelector('h2')?.textContent,
          steps: [...element.shadowRoot.querySelectorAll('section.step')].map((step) => step.dataset.step),
        };
      });
    const before = await shows(shortFrame);
    expect(before).toEqual({
      theme: null,
      background: 'rgb(255, 255, 255)',
      title: 'Raw scores QKᵀ',
      steps: ['scores'],
    });
    // Messages it must ignore, each seen by the frame (a listener of the test's own, after the embed's).
    const heard = (frame) =>
      frame.evaluate(() => {
        window.heard = 0;
        addEventListener('message', () => window.heard++);
      });
    await heard(shortFrame);
    await heard(noneFrame);
    const set = { type: SET_MESSAGE, theme: 'dark', lang: 'zh', steps: 'scores weights' };
    // From the third origin (a sibling frame), to the short frame: ignored.
    await otherFrame.evaluate((set) => parent.frames[0].postMessage(set, '*'), set);
    await shortFrame.waitForFunction(() => window.heard === 1);
    // From the parent, to the frame without ?origin=: ignored.
    await page.evaluate((set) => document.getElementById('none').contentWindow.postMessage(set, '*'), set);
    await noneFrame.waitForFunction(() => window.heard === 1);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await shows(shortFrame)).toEqual(before);
    expect((await shows(noneFrame)).theme).toBeNull();

    // From the parent, at the embed's origin, to the short frame: applied without a reload.
    await shortFrame.evaluate(() => (window.sameDocument = true));
    await page.evaluate(
      ([set, origin]) => document.querySelector('iframe.attention-lab-frame').contentWindow.postMessage(set, origin),
      [set, embedOrigin],
    );
    const after = { theme: 'dark', background: 'rgb(30, 32, 36)', title: '原始分数 QKᵀ', steps: ['scores', 'weights'] };
    await expect.poll(() => shows(shortFrame)).toEqual(after);
    expect(await shortFrame.evaluate(() => [window.sameDocument, document.documentElement.lang])).toEqual([
      true,
      'zh-CN',
    ]);
    // The other frame is untouched; the short one's new height reaches its iframe.
    expect((await shows(tallFrame)).theme).toBeNull();
    await expect
      .poll(async () => (await short.evaluate((el) => el.style.height)) === `${await ownHeight(shortFrame)}px`)
      .toBe(true);
    expect(await ownHeight(shortFrame)).toBeGreaterThan(heights[0]);
    await shot(page, 'embed-two-frames-set', { fullPage: true });
    await context.close();
    await parents.close();
    await others.close();
  });

  test('embed.html says in the reader’s language that an origin it cannot use sends nothing', async () => {
    for (const [lang, text] of [
      ['en', 'The origin parameter ("javascript:alert(1)") is not an origin'],
      ['zh', 'origin 参数（"javascript:alert(1)"）不是'],
    ]) {
      const page = await (await suite.browser.newContext()).newPage();
      await page.goto(`${suite.server.url}embed.html?lang=${lang}&origin=javascript:alert(1)`);
      await page.waitForFunction(() => document.getElementById('embedded').result);
      expect(await page.locator('#notice').textContent()).toContain(text);
      await page.context().close();
    }
  });

  test('embed.html in a 640 px frame: compact and steps make it much shorter than every step at full size', async () => {
    const page = await (await suite.browser.newContext({ viewport: { width: 640, height: 640 } })).newPage();
    const heights = {};
    for (const query of [
      '',
      '?compact',
      '?steps=scores%20weights%20output',
      '?steps=scores%20weights%20output&compact',
    ]) {
      await page.goto(`${suite.server.url}embed.html${query}`);
      await page.waitForFunction(() => document.getElementById('embedded').result);
      // Off-screen steps stand in at a placeholder height until step-sizes.js has measured them, in idle
      // time after the first result (each then carries its measured contain-intrinsic-size): the page's
      // height is its own once every step has been.
      await page.waitForFunction(() => {
        const steps = [...document.getElementById('embedded').shadowRoot.querySelectorAll('section.step')];
        return steps.length > 0 && steps.every((step) => step.style.containIntrinsicHeight);
      });
      heights[query || '(none)'] = await page.evaluate(() =>
        Math.ceil(document.documentElement.getBoundingClientRect().height),
      );
    }
    console.log('embed.html heights at 640 px wide:', JSON.stringify(heights));
    expect(heights['?compact']).toBeLessThan(heights['(none)']);
    expect(heights['?steps=scores%20weights%20output&compact']).toBeLessThan(heights['(none)'] / 4);
    await page.context().close();
  });

  test("a reader's edit in an element adds to the edits of its config attribute", async () => {
    const page = await pageWithHtml(
      '__config-edits.html',
      `<!doctype html><meta charset="utf-8">
      <attention-lab id="a" text="a b c" d-model="4" heads="1" editable config='{"weights":{"edits":{"W_Q":[[0,0,5]]}}}'></attention-lab>
      <script type="module" src="attention-lab-element.js"></script>`,
    );
    await page.waitForFunction(() => document.getElementById('a').result);
    expect(await page.evaluate(() => document.getElementById('a').result.tensors.W_Q.data[0])).toBe(5);
    await page.click('#a table[data-matrix="W_Q"] td[data-i="0"][data-j="1"]');
    await page.fill('#a table[data-matrix="W_Q"] input', '7');
    await page.press('#a table[data-matrix="W_Q"] input', 'Enter');
    await page.waitForFunction(() => document.getElementById('a').result.tensors.W_Q.data[1] === 7);
    expect(await page.evaluate(() => document.getElementById('a').result.tensors.W_Q.data[0])).toBe(5);
    await page.context().close();
  });
});

describe('share links', () => {
  test('the link restores the exact state, edited weights and embeddings included', async () => {
    const page = await openPage(suite.browser, suite.server.url, { problems });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.fill('#control-heads', '4');
    await page.selectOption('#control-mask', 'causal');
    await waitForIdle(page);
    await page.click('table[data-matrix="W_Q"] td[data-i="1"][data-j="2"]');
    await page.fill('table[data-matrix="W_Q"] input', '-0.75');
    await page.press('table[data-matrix="W_Q"] input', 'Enter');
    await waitForIdle(page);
    await page.click('table[data-matrix="X"] td[data-i="0"][data-j="0"]');
    await page.fill('table[data-matrix="X"] input', '4');
    await page.press('table[data-matrix="X"] input', 'Enter');
    await waitForIdle(page);
    const output = await page.$$eval('table[data-matrix="output"] tbody tr', (rows) => rows.map((r) => r.textContent));
    await page.click('#share');
    await page.waitForFunction(() => document.querySelector('[data-share="link"]').value !== '');
    const link = await page.inputValue('[data-share="link"]');
    expect(link).toMatch(/#s=v2\./);
    // The page shows the plain path: the iframe's element opens the basics only too (its default: all).
    expect(await page.inputValue('[data-share="iframe"]')).toContain(
      `embed.html?chapters=basics&origin=${ORIGIN_PLACEHOLDER}#s=v2.`,
    );
    const element = await page.inputValue('[data-share="element"]');
    expect(element).toContain('<attention-lab text="He sat by the bank of the river" heads="4" mask="causal"');
    // Edits travel sparse in the config attribute: [row, col, value] for a weight, [token, d, value] for an embedding.
    expect(element).toContain('config="{&quot;weights&quot;:{&quot;edits&quot;:{&quot;W_Q&quot;:[[1,2,-0.75]]}}');
    expect(element).toContain('&quot;embedding&quot;:{&quot;edits&quot;:[[&quot;He&quot;,0,4]]}');
    await page.click('button[data-copy="link"]');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    const again = await openPage(suite.browser, link, { problems });
    await waitForIdle(again);
    expect(await again.inputValue('#control-heads')).toBe('4');
    expect(await again.locator('table[data-matrix="W_Q"] td[data-i="1"][data-j="2"]').textContent()).toBe('−0.7500');
    expect(await again.locator('table[data-matrix="X"] td[data-i="0"][data-j="0"]').textContent()).toBe('4.0000');
    expect(await again.locator('td.edited').count()).toBe(2);
    expect(
      await again.$$eval('table[data-matrix="output"] tbody tr', (rows) => rows.map((r) => r.textContent)),
    ).toEqual(output);
    await page.context().close();
    await again.context().close();
  });

  test.each([
    ['script in the fragment', '#s=v2.<script>alert(1)</script>', 'not base64url'],
    ['markup', '#<img src=x onerror=alert(1)>', 'does not hold an Attention Lab state'],
    ['garbage', '#s=v2.QUJDRA', 'damaged'],
    ['a future version', '#s=v7.abc', 'version "v7"'],
  ])('a hostile fragment (%s) gives a clear message and the default example', async (_, fragment, reason) => {
    for (const target of ['', 'embed.html']) {
      const page = await (await suite.browser.newContext()).newPage();
      page.on('dialog', (d) => {
        problems.push(`dialog: ${d.message()}`);
        d.dismiss();
      });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      await page.goto(`${suite.server.url}${target}${fragment}`);
      if (target === '') {
        await waitForIdle(page);
        expect(await page.locator('#link-notice').textContent()).toContain(reason);
        expect(await page.inputValue('#input-text')).toBe(DEFAULT_SETTINGS.text);
        expect(await page.locator('table[data-matrix="output"] tbody tr').count()).toBe(8);
      } else {
        await page.waitForFunction(() => document.getElementById('embedded').result);
        expect(await page.locator('#notice').textContent()).toContain(reason);
      }
      expect(await page.locator('body img').count()).toBe(0);
      await page.context().close();
    }
    expect(problems.filter((p) => p.startsWith('dialog') || p.startsWith('pageerror'))).toEqual([]);
  });
});

describe('exports', () => {
  test('each matrix copies as CSV, JSON, LaTeX, NumPy and PyTorch print; all tensors download as JSON and .npz; Copy as PyTorch', async () => {
    const page = await openPage(suite.browser, suite.server.url, { problems });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const expected = suite.lab.run(configFromSettings(DEFAULT_SETTINGS));
    // The formats load on the first copy: wait for the clipboard to be written.
    const copy = async (format) => {
      await page.evaluate(() => navigator.clipboard.writeText(''));
      await page.click(`figure[data-matrix="W_Q"] button[data-export="${format}"]`);
      // Polled from here: waitForFunction would take the async predicate's promise itself as truthy.
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), { timeout: 10_000 }).not.toBe('');
      return page.evaluate(() => navigator.clipboard.readText());
    };
    const csv = await copy('csv');
    expect(csv.split('\n')[0]).toBe(',d0,d1,d2,d3,d4,d5,d6,d7');
    expect(Number(csv.split('\n')[1].split(',')[1])).toBeCloseTo(expected.tensors.W_Q.data[0], 7);
    const json = JSON.parse(await copy('json'));
    expect(json.shape).toEqual([8, 8]);
    expect(json.data[0][0]).toBe(Number(json.data[0][0].toString()));
    expect(Math.fround(json.data[7][7])).toBe(expected.tensors.W_Q.data[63]);
    expect(await copy('latex')).toMatch(/^\\begin\{bmatrix\}\n {2}-?\d\.\d{4} & /);
    expect(await copy('numpy')).toMatch(/^W_Q = np\.array\(\[\n/);
    // torch's print of W_Q [8, 8]: fixed notation, rows of 8 numbers (torch-print.test.js checks the writer on torch)
    const printed = torchPrint([8, 8], expected.tensors.W_Q.data);
    expect(await copy('torch')).toBe(printed);
    // …and shown, to lay beside a tutorial's output
    expect(await page.inputValue('#torch-print')).toBe(printed);
    expect(await page.locator('#torch-print-dialog .torch-print-name').textContent()).toBe('W_Q');
    expect(await page.locator('#status').textContent()).toBe('Copied W_Q as PyTorch print.');
    await page.click('#torch-print-dialog form button');

    const [jsonDownload] = await Promise.all([page.waitForEvent('download'), page.click('#download-json')]);
    const all = JSON.parse((await downloadBytes(jsonDownload)).toString('utf8'));
    expect(Object.keys(all.tensors)).toEqual(Object.keys(expected.tensors));
    expect(all.tensors.output.data.map(Math.fround)).toEqual(Array.from(expected.tensors.output.data));
    const [npyDownload] = await Promise.all([page.waitForEvent('download'), page.click('#download-npy')]);
    expect(npyDownload.suggestedFilename()).toBe('attention-lab.npz');
    const zip = await downloadBytes(npyDownload);
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    expect(zip.includes(Buffer.from('weights.npy'))).toBe(true);

    await page.click('#copy-pytorch');
    await page.waitForSelector('#pytorch-dialog[open]'); // the script's writer loads on the first click
    const script = await page.inputValue('#pytorch-script');
    expect(script).toContain('torch.manual_seed(0)');
    expect(script).toContain('q_proj = nn.Linear(D, D, bias=False)');
    await page.context().close();
  });
});

describe('static hosting', () => {
  test('dist/ works from a subfolder of a plain static host', async () => {
    const host = await serveFolder(dist, '/courses/attention/lab/');
    const page = await openPage(suite.browser, host.url, { problems });
    const expected = suite.lab.run(configFromSettings(DEFAULT_SETTINGS));
    const output = await page.$$eval('table[data-matrix="output"] tbody tr:first-child td', (tds) =>
      tds.map((td) => td.textContent),
    );
    expect(output).toEqual(row(expected.tensors.output, 0, 8));
    await page.goto(`${host.url}authors.html`);
    await page.locator('div#gallery attention-lab').first().scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector('attention-lab')?.result);
    await page.context().close();
    await host.close();
  });
});

describe('offline', () => {
  test('dist/attention-lab.html works from file:// with every network request blocked', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1200, height: 900 }, offline: true });
    const requests = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      requests.push(url);
      return url.startsWith('file://') || url.startsWith('data:') || url.startsWith('blob:')
        ? route.continue()
        : route.abort();
    });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`file://${dist}attention-lab.html`);
    await waitForIdle(page);
    const expected = suite.lab.run(configFromSettings(DEFAULT_SETTINGS));
    const output = await page.$$eval('table[data-matrix="output"] tbody tr:first-child td', (tds) =>
      tds.map((td) => td.textContent),
    );
    expect(output).toEqual(row(expected.tensors.output, 0, 8));
    // A big input still works (on the main thread: file:// pages get no worker).
    await page.fill('#input-text', Array.from({ length: 80 }, (_, i) => `t${i}`).join(' '));
    await waitForIdle(page);
    expect(await page.locator('#step-scores .canvas-matrix canvas').count()).toBe(1);
    expect(
      requests.filter((u) => !u.startsWith('file://') && !u.startsWith('data:') && !u.startsWith('blob:')),
    ).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('no console errors or dialogs in any test above', () => {
    expect(problems).toEqual([]);
  });
});
