// Figures from the page's download menus and from el.exportFigure: the SVG's
// cells hold the run's numbers at the page's decimals, its caption the run's
// settings; the PNG at 2× is twice the SVG's width and height, and a cell's
// pixel there is the colour the SVG fills that cell with. In English and Chinese.
import { describe, expect, test } from 'vitest';
import { formatNumber } from '../../web/model/format.js';
import { downloadBytes, openPage } from './browser.js';
import { useBrowserSuite } from './suite.js';

const suite = useBrowserSuite();

/**
 * In the browser: the SVG's size, cell (i, j)'s fill, and the PNG's size and pixel at that cell's centre
 * (the SVG laid out in the page to find it, times the scale).
 */
const measure = (page, svg, png, [i, j], scale) =>
  page.evaluate(
    async ({ svg, png, i, j, scale }) => {
      const box = document.createElement('div');
      box.innerHTML = svg;
      document.body.append(box);
      const root = box.querySelector('svg');
      const rect = root.querySelector(`rect[data-i="${i}"][data-j="${j}"]`);
      const outer = root.getBoundingClientRect();
      const cell = rect.getBoundingClientRect();
      const x = Math.floor((cell.left - outer.left + cell.width / 2) * scale);
      const y = Math.floor((cell.top - outer.top + cell.height / 4) * scale); // above the number's text
      box.remove();
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d');
      ctx.drawImage(bitmap, 0, 0);
      const [r, g, b] = ctx.getImageData(x, y, 1, 1).data;
      const hex = `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
      return {
        svgSize: [Number(root.getAttribute('width')), Number(root.getAttribute('height'))],
        pngSize: [bitmap.width, bitmap.height],
        fill: rect.getAttribute('fill'),
        pixel: hex,
      };
    },
    { svg, png: png.toString('base64'), i, j, scale },
  );

/** The <text data-i data-j> numbers of an SVG, by "i,j". */
const cellTexts = (svg) =>
  new Map(
    [...svg.matchAll(/<text data-i="(\d+)" data-j="(\d+)"[^>]*>([^<]*)<\/text>/g)].map(([, i, j, t]) => [
      `${i},${j}`,
      t,
    ]),
  );

describe('the page', () => {
  test.each(['en', 'zh'])('downloads a matrix as SVG and PNG 2× from its menu (%s)', async (lang) => {
    const page = await openPage(suite.browser, `${suite.server.url}?lang=${lang}`);
    // The run the page shows (its default sentence is in the page's language).
    const expected = await page.evaluate(() => {
      const { sizes, settings, tensors } = window.attentionLab.controller.result;
      return { sizes, settings, tensors: { weights: { data: Array.from(tensors.weights.data) } } };
    });
    const { S, S_kv: Skv } = expected.sizes;
    const menu = page.locator('figure[data-matrix="weights"] .export-menu');
    await menu.scrollIntoViewIfNeeded();
    const [svgDownload] = await Promise.all([
      page.waitForEvent('download'),
      menu.locator('[data-figure="svg"]').click(),
    ]);
    expect(svgDownload.suggestedFilename()).toBe('weights.svg');
    const svg = (await downloadBytes(svgDownload)).toString('utf8');
    const texts = cellTexts(svg);
    expect(texts.size).toBe(S * Skv);
    // Head 1 of sentence 1, at the page's 4 decimals.
    for (let i = 0; i < S; i++)
      for (let j = 0; j < Skv; j++)
        expect(texts.get(`${i},${j}`)).toBe(formatNumber(expected.tensors.weights.data[i * Skv + j], 4));
    const { settings } = expected;
    const words = lang === 'zh' ? ['头数', '随机种子'] : ['heads', 'seed'];
    expect(svg).toContain(`${words[0]} = ${settings.numHeads}`);
    expect(svg).toContain(`${words[1]} = ${settings.seed}`);
    expect(svg).toContain(`d_model = ${settings.dModel}`);
    const [pngDownload] = await Promise.all([
      page.waitForEvent('download'),
      menu.locator('[data-figure="png"][data-scale="2"]').click(),
    ]);
    expect(pngDownload.suggestedFilename()).toBe('weights@2x.png');
    const got = await measure(page, svg, await downloadBytes(pngDownload), [S - 1, 0], 2);
    expect(got.pngSize).toEqual(got.svgSize.map((n) => n * 2));
    expect(got.pixel).toBe(got.fill);
    await page.context().close();
  });
});

test('the links diagram and a head grid download from their menus; a PNG 4× is four times the SVG', async () => {
  const page = await openPage(suite.browser, suite.server.url);
  const { H, S } = await page.evaluate(() => window.attentionLab.controller.result.sizes);
  const download = async (selector) => {
    const button = page.locator(selector);
    await button.scrollIntoViewIfNeeded();
    const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
    return { name: file.suggestedFilename(), bytes: await downloadBytes(file) };
  };
  const links = await download('.figure-menu[data-figure-of="links"] [data-figure="svg"]');
  expect(links.name).toBe('links.svg');
  const lines = [...links.bytes.toString('utf8').matchAll(/<line /g)].length;
  expect(lines).toBeGreaterThan(0);
  expect(lines).toBeLessThanOrEqual(H * S * S);
  const heads = await download('.figure-menu[data-figure-of="heads:weights"] [data-figure="svg"]');
  expect(heads.name).toBe('heads-weights.svg');
  const svg = heads.bytes.toString('utf8');
  expect([...svg.matchAll(/<rect data-h=/g)].length).toBe(H * S * S);
  const png = await download('.figure-menu[data-figure-of="heads:weights"] [data-figure="png"][data-scale="4"]');
  expect(png.name).toBe('heads-weights@4x.png');
  const got = await measure(page, svg, png.bytes, [0, 0], 4); // head 1's first block
  expect(got.pngSize).toEqual(got.svgSize.map((n) => n * 4));
  expect(got.pixel).toBe(got.fill);
  await page.context().close();
});

describe('the element', () => {
  test('el.exportFigure gives the SVG and PNG 2× of a matrix, the links and a head grid; el.figureNames lists them', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1200, height: 1600 } });
    const page = await context.newPage();
    const html = `<!doctype html><meta charset="utf-8"><attention-lab id="el" text="我 爱 我 的 猫" heads="2" d-model="8" mask="causal" seed="5" lang="zh"></attention-lab><script type="module" src="attention-lab-element.js"></script>`;
    await page.route(`${suite.server.url}__figures.html`, (route) =>
      route.fulfill({ contentType: 'text/html', body: html }),
    );
    await page.goto(`${suite.server.url}__figures.html`);
    await page.waitForFunction(() => document.getElementById('el').result);
    const names = await page.evaluate(() => document.getElementById('el').figureNames);
    expect(names).toEqual(expect.arrayContaining(['X', 'weights', 'output', 'links', 'heads:weights', 'heads:scores']));
    const exported = (name, options) =>
      page.evaluate(
        async ({ name, options }) => {
          const blob = await document.getElementById('el').exportFigure(name, options);
          return { type: blob.type, bytes: Array.from(new Uint8Array(await blob.arrayBuffer())) };
        },
        { name, options },
      );
    const svgBlob = await exported('weights', { format: 'svg' });
    expect(svgBlob.type).toBe('image/svg+xml');
    const svg = Buffer.from(svgBlob.bytes).toString('utf8');
    const result = suite.lab.run({ text: '我 爱 我 的 猫', numHeads: 2, dModel: 8, mask: 'causal', seed: 5 });
    const texts = cellTexts(svg);
    expect(texts.size).toBe(25);
    for (let k = 0; k < 25; k++)
      expect(texts.get(`${Math.floor(k / 5)},${k % 5}`)).toBe(formatNumber(result.tensors.weights.data[k], 4));
    expect(svg).toContain('头数 = 2，掩码 = causal，随机种子 = 5');
    expect(svg).toContain('>我</text>');
    const png = await exported('weights', { format: 'png', scale: 2 });
    expect(png.type).toBe('image/png');
    const got = await measure(page, svg, Buffer.from(png.bytes), [4, 1], 2);
    expect(got.pngSize).toEqual(got.svgSize.map((n) => n * 2));
    expect(got.pixel).toBe(got.fill);
    for (const name of ['links', 'heads:weights'])
      expect((await exported(name, { format: 'svg' })).bytes.length).toBeGreaterThan(1000);
    const problem = await page.evaluate(() =>
      document
        .getElementById('el')
        .exportFigure('nope')
        .catch((error) => `${error.name}: ${error.message}`),
    );
    expect(problem).toMatch(/^RangeError: no figure "nope" is shown; the figures shown: X, .*weights/);
    await context.close();
  });

  test('with exportable, each matrix has its menu in the element too: its SVG download holds the shown numbers', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1200, height: 1600 }, acceptDownloads: true });
    const page = await context.newPage();
    const html = `<!doctype html><meta charset="utf-8"><attention-lab id="plain" text="a b c" steps="weights"></attention-lab><attention-lab id="el" exportable text="the cat sat" heads="1" d-model="4" seed="3" steps="weights"></attention-lab><script type="module" src="attention-lab-element.js"></script>`;
    await page.route(`${suite.server.url}__exportable.html`, (route) =>
      route.fulfill({ contentType: 'text/html', body: html }),
    );
    await page.goto(`${suite.server.url}__exportable.html`);
    await page.waitForFunction(() => ['plain', 'el'].every((id) => document.getElementById(id).result));
    // Without the attribute, no menu (as before); with it, the weights' menu.
    expect(await page.locator('#plain figure[data-matrix="weights"] .export-menu').count()).toBe(0);
    const menu = page.locator('#el figure[data-matrix="weights"] .export-menu');
    await menu.scrollIntoViewIfNeeded();
    const [download] = await Promise.all([page.waitForEvent('download'), menu.locator('[data-figure="svg"]').click()]);
    expect(download.suggestedFilename()).toBe('weights.svg');
    const texts = cellTexts((await downloadBytes(download)).toString('utf8'));
    const result = suite.lab.run({ text: 'the cat sat', numHeads: 1, dModel: 4, seed: 3 });
    expect(texts.size).toBe(9);
    for (let k = 0; k < 9; k++)
      expect(texts.get(`${Math.floor(k / 3)},${k % 3}`)).toBe(formatNumber(result.tensors.weights.data[k], 4));
    await context.close();
  });
});
