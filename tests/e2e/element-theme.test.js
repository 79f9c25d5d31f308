// <attention-lab theme="auto"> in an author's site: it follows the site's own
// light/dark switch (color-scheme.js SITE_SIGNALS, on <html> and <body>)
// before the reader's prefers-color-scheme, live, with a <body> that was not
// there yet when it connected; and every canvas it drew is drawn again in the
// new palette when the theme changes (at runtime, or the site switching).
import { expect, test } from 'vitest';
import { shot, useBrowserSuite } from './suite.js';

const suite = useBrowserSuite();

/** A page whose HTML is `html`, served beside the built element; problems collected. */
async function themePage(name, html, { colorScheme = 'dark', viewport = { width: 1200, height: 1400 } } = {}) {
  const context = await suite.browser.newContext({ viewport, colorScheme });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  await page.route(`${suite.server.url}${name}`, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  await page.goto(`${suite.server.url}${name}`);
  return { page, problems };
}

const ready = (page, ids) => page.waitForFunction((ids) => ids.every((id) => document.getElementById(id)?.result), ids);

// The element's background (its CSS colours) and the scales of its heatmap cells (hl-: light, hd-: dark).
const DARK = { background: 'rgb(30, 32, 36)', scales: ['hd'] };
const LIGHT = { background: 'rgb(255, 255, 255)', scales: ['hl'] };

/** Waits until element `id` shows `scheme` (DARK or LIGHT), then returns what it shows. */
async function shows(page, id, scheme) {
  const read = (id) => {
    const element = document.getElementById(id);
    const cells = [...element.shadowRoot.querySelectorAll('table[data-matrix="scores"]:not(.sr-only) td')];
    const scales = new Set(cells.flatMap((td) => [...td.classList].filter((c) => /^h[ld]-/.test(c))));
    return {
      background: getComputedStyle(element).backgroundColor,
      scales: [...new Set([...scales].map((c) => c.slice(0, 2)))].sort(),
    };
  };
  await page
    .waitForFunction(
      ([read, id, want]) => JSON.stringify(eval(read)(id)) === want,
      [`(${read})`, id, JSON.stringify(scheme)],
    )
    .catch(() => {}); // the assertion below says what it showed instead
  return page.evaluate(([read, id]) => eval(read)(id), [`(${read})`, id]);
}

const SMALL = 'text="a b c d" d-model="4" heads="2" steps="scores"';

test('theme="auto" follows the site (html and body signals, in order) over the OS, live', async () => {
  // The reader's OS is dark; the site says light (Docusaurus's data-theme): the element is light.
  const { page, problems } = await themePage(
    '__site-theme.html',
    `<!doctype html><html lang="en" data-theme="light"><meta charset="utf-8">
    <body><attention-lab id="auto" ${SMALL}></attention-lab>
    <attention-lab id="forced" theme="dark" ${SMALL}></attention-lab>
    <script type="module" src="attention-lab-element.js"></script></body>`,
  );
  await ready(page, ['auto', 'forced']);
  expect(await shows(page, 'auto', LIGHT)).toEqual(LIGHT);
  expect(await shows(page, 'forced', DARK)).toEqual(DARK);
  await shot(page, 'element-site-light-os-dark');
  const html = (script) => page.evaluate(script);
  // The site's switch: data-theme="dark".
  await html(() => (document.documentElement.dataset.theme = 'dark'));
  expect(await shows(page, 'auto', DARK)).toEqual(DARK);
  // No data-theme: a Tailwind-style class on <html> says light.
  await html(() => {
    delete document.documentElement.dataset.theme;
    document.documentElement.className = 'light';
  });
  expect(await shows(page, 'auto', LIGHT)).toEqual(LIGHT);
  // The computed color-scheme of <html> comes first: exactly "dark" wins over the class.
  await html(() => (document.documentElement.style.colorScheme = 'dark'));
  expect(await shows(page, 'auto', DARK)).toEqual(DARK);
  // "light dark" decides nothing: the class decides again.
  await html(() => (document.documentElement.style.colorScheme = 'light dark'));
  expect(await shows(page, 'auto', LIGHT)).toEqual(LIGHT);
  // Nothing on <html>: MkDocs Material's <body data-md-color-scheme="default"> says light over the dark OS.
  await html(() => {
    document.documentElement.removeAttribute('class');
    document.documentElement.removeAttribute('style');
    document.body.dataset.mdColorScheme = 'default';
  });
  expect(await shows(page, 'auto', LIGHT)).toEqual(LIGHT);
  await html(() => (document.body.dataset.mdColorScheme = 'slate'));
  expect(await shows(page, 'auto', DARK)).toEqual(DARK);
  // A class on <body> comes before MkDocs' attribute.
  await html(() => document.body.classList.add('light'));
  expect(await shows(page, 'auto', LIGHT)).toEqual(LIGHT);
  // No signal at all: as the browser paints the page. A plain page is white on the dark OS too: light.
  await html(() => {
    document.body.removeAttribute('class');
    delete document.body.dataset.mdColorScheme;
  });
  expect(await shows(page, 'auto', LIGHT)).toEqual(LIGHT);
  // A page that lets the browser follow the reader (color-scheme: light dark): the OS, followed live.
  await html(() => (document.documentElement.style.colorScheme = 'light dark'));
  expect(await shows(page, 'auto', DARK)).toEqual(DARK);
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await shows(page, 'auto', LIGHT)).toEqual(LIGHT);
  // A page that paints its own dark background (its CSS may follow the OS): dark over the light OS.
  await html(() => (document.body.style.background = 'rgb(17, 17, 17)'));
  expect(await shows(page, 'auto', DARK)).toEqual(DARK);
  expect(await shows(page, 'forced', DARK)).toEqual(DARK);
  expect(problems).toEqual([]);
  await page.context().close();
});

test('connected before <body> exists (the script in <head>), it follows the body’s signals once parsed', async () => {
  // The classic build runs in <head> and an element is connected there, before <body> is parsed.
  const { page, problems } = await themePage(
    '__head-theme.html',
    `<!doctype html><html lang="en"><head><meta charset="utf-8">
    <script src="attention-lab-element.standalone.js"></script>
    <script>
      const early = document.createElement('attention-lab');
      early.id = 'early';
      for (const [name, value] of [['text', 'a b c d'], ['d-model', '4'], ['heads', '2'], ['steps', 'scores']])
        early.setAttribute(name, value);
      document.head.append(early);
      window.bodyAtConnect = document.body;
    </script></head>
    <body data-md-color-scheme="slate"><p>MkDocs Material, dark</p></body></html>`,
    { colorScheme: 'light' },
  );
  expect(await page.evaluate(() => window.bodyAtConnect)).toBeNull();
  // In <head> it is not rendered, but its CSS colour scheme already follows the body parsed after it.
  const scheme = () => page.evaluate(() => getComputedStyle(document.getElementById('early')).colorScheme);
  await page.waitForFunction(() => getComputedStyle(document.getElementById('early')).colorScheme === 'dark');
  await page.evaluate(() => (document.body.dataset.mdColorScheme = 'default'));
  await page.waitForFunction(() => getComputedStyle(document.getElementById('early')).colorScheme === 'light');
  expect(await scheme()).toBe('light');
  // Moved into <body>, it renders in the site's scheme.
  await page.evaluate(() => (document.body.dataset.mdColorScheme = 'slate'));
  await page.evaluate(() => document.body.append(document.getElementById('early')));
  await ready(page, ['early']);
  expect(await shows(page, 'early', DARK)).toEqual(DARK);
  expect(problems).toEqual([]);
  await page.context().close();
});

/**
 * Every canvas in element `id`'s shadow root (the trained and checkpoint views' too): its size and a
 * hash of its pixels, in document order.
 */
const canvasPixels = (page, id) =>
  page.evaluate((id) => {
    const canvases = [...document.getElementById(id).shadowRoot.querySelectorAll('canvas')];
    return canvases.map((canvas) => {
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let hash = 2166136261;
      for (const byte of data) hash = Math.imul(hash ^ byte, 16777619) >>> 0;
      return `${canvas.width}×${canvas.height}:${hash}`;
    });
  }, id);

/** Waits (up to 5 s) until the canvases of `id` are `hashes` (canvasPixels); returns them. */
async function waitForCanvases(page, id, hashes) {
  const deadline = Date.now() + 5000;
  let now = await canvasPixels(page, id);
  while (JSON.stringify(now) !== JSON.stringify(hashes) && Date.now() < deadline) {
    await page.waitForTimeout(100);
    now = await canvasPixels(page, id);
  }
  return now;
}

/** Waits (up to 5 s) until the canvases of `id` show what those of `reference` show; returns both. */
async function sameCanvases(page, id, reference) {
  await page
    .waitForFunction(
      ([id, reference]) => {
        const hashes = (id) =>
          [...document.getElementById(id).shadowRoot.querySelectorAll('canvas')].map((canvas) => {
            const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
            let hash = 2166136261;
            for (const byte of data) hash = Math.imul(hash ^ byte, 16777619) >>> 0;
            return `${canvas.width}×${canvas.height}:${hash}`;
          });
        return JSON.stringify(hashes(id)) === JSON.stringify(hashes(reference));
      },
      [id, reference],
      { timeout: 5000 },
    )
    .catch(() => {}); // the assertion says which differ
  return [await canvasPixels(page, id), await canvasPixels(page, reference)];
}

test('every canvas is drawn again in the new palette when the theme changes (el.theme, the site switching)', async () => {
  // 70 tokens: past the tables' 64, so X, Q, K, V, the scores and the weights are canvas heatmaps, and
  // two heads give the heads' small heatmaps; every chapter open (the element's default): the steppers too.
  const text = Array.from({ length: 70 }, (_, i) => `t${i}`).join(' ');
  const big = `text="${text}" d-model="8" heads="2"`;
  const { page, problems } = await themePage(
    '__canvas-theme.html',
    `<!doctype html><html lang="en" data-theme="light"><meta charset="utf-8">
    <body style="margin:0; display:grid; grid-template-columns:1fr 1fr; align-items:start">
    <attention-lab id="switch" theme="light" ${big}></attention-lab>
    <attention-lab id="dark" theme="dark" ${big}></attention-lab>
    <script type="module" src="attention-lab-element.js"></script></body>`,
    { viewport: { width: 1200, height: 20000 } },
  );
  await ready(page, ['switch', 'dark']);
  // Both drawn (the same canvases, all of them drawn); the dark one's differ from the light one's but for
  // those whose scale is the same in both themes (the mask, the probabilities' heatmaps).
  const drawn = (id) =>
    page.waitForFunction(
      (id) =>
        [...document.getElementById(id).shadowRoot.querySelectorAll('canvas')].every((canvas) =>
          canvas
            .getContext('2d')
            .getImageData(0, 0, canvas.width, canvas.height)
            .data.some((byte) => byte !== 0),
        ),
      id,
    );
  await drawn('switch');
  await drawn('dark');
  const light = await canvasPixels(page, 'switch');
  const dark = await canvasPixels(page, 'dark');
  expect(light.length).toBeGreaterThanOrEqual(20);
  expect(dark.map((hash) => hash.split(':')[0])).toEqual(light.map((hash) => hash.split(':')[0]));
  const differing = light.filter((hash, k) => hash !== dark[k]);
  expect(differing.length).toBeGreaterThanOrEqual(15);
  // The heads' small heatmaps (24 × 24, pooled): the grid of scores and of weights, 2 heads each.
  expect(differing.filter((hash) => hash.startsWith('24×24:'))).toHaveLength(4);
  await shot(page, 'element-canvas-themes-before');

  // At runtime: el.theme = 'dark'; every canvas now shows the dark element's pixels.
  await page.evaluate(() => (document.getElementById('switch').theme = 'dark'));
  expect((await sameCanvases(page, 'switch', 'dark'))[0]).toEqual(dark);
  await shot(page, 'element-canvas-themes-after');
  // theme="auto" on a light site: light again; the site switches to dark: dark.
  await page.evaluate(() => (document.getElementById('switch').theme = 'auto'));
  expect(await waitForCanvases(page, 'switch', light)).toEqual(light);
  await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
  expect((await sameCanvases(page, 'switch', 'dark'))[0]).toEqual(dark);
  expect(problems).toEqual([]);
  await page.context().close();
});
