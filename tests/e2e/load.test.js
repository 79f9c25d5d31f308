// The page's cold load: its <head> asks for the engine's .wasm (preload) and
// glue (modulepreload), the page compiles that one response as it streams
// (application/wasm), and the first result needs no lazy chunk: the Chinese
// strings, the exports and the PyTorch script load when they are used. The
// single file holds them all and works offline in both languages.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { SCHEMA } from '../../web/api/generated/schema.js';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';
import { PRESETS } from '../../web/model/presets.js';
import { waitForIdle } from './browser.js';
import { useBrowserSuite } from './suite.js';

const suite = useBrowserSuite();
const dist = fileURLToPath(new URL('../../dist/', import.meta.url));

// A chunk's name, then its 8-character hash (export-actions-…, a shared chunk of the start, is not export-…).
const LAZY = { zh: /\/assets\/zh-[\w-]{8}\.js$/, exports: /\/assets\/(export|pytorch-script)-[\w-]{8}\.js$/ };

/** A fresh page (no cache) that records its requests, how it compiled the wasm, and its problems. */
async function coldPage(url, { locale = 'en-US', offline = false } = {}) {
  const context = await suite.browser.newContext({ locale, offline, viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const seen = { requests: [], wasmTypes: [], problems: [] };
  page.on('request', (request) => seen.requests.push(request.url()));
  page.on('response', (response) => {
    if (response.url().endsWith('.wasm')) seen.wasmTypes.push(response.headers()['content-type']);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') seen.problems.push(message.text());
  });
  page.on('pageerror', (error) => seen.problems.push(error.message));
  await page.addInitScript(() => {
    window.compiledWith = [];
    for (const name of ['compileStreaming', 'compile', 'instantiateStreaming']) {
      const original = WebAssembly[name];
      WebAssembly[name] = function (...args) {
        window.compiledWith.push(name);
        return original.apply(this, args);
      };
    }
  });
  await page.goto(url);
  await waitForIdle(page);
  return { page, seen, close: () => context.close() };
}

const lazyRequests = (requests, pattern) => requests.filter((url) => pattern.test(url));

describe('cold load', () => {
  test.each(['index.html', 'embed.html'])(
    '%s preloads the engine (its .wasm and glue) and compiles it first',
    (name) => {
      const html = readFileSync(`${dist}${name}`, 'utf8');
      const wasm =
        /<link rel="preload" href="\.\/(assets\/attention-lab-wasm-[\w-]+\.wasm)" as="fetch" type="application\/wasm" crossorigin>/.exec(
          html,
        );
      const glue = /<link rel="modulepreload" href="\.\/(assets\/attention-lab-wasm-[\w-]+\.js)" crossorigin>/.exec(
        html,
      );
      // The small script that compiles it runs as soon as it arrives (async), under the page's CSP.
      const compile = /<script type="module" async src="\.\/(assets\/compile-engine-[\w-]+\.js)" crossorigin>/.exec(
        html,
      );
      expect(compile, name).not.toBeNull();
      expect(html.indexOf('Content-Security-Policy')).toBeLessThan(compile.index);
      expect(existsSync(`${dist}${compile[1]}`)).toBe(true);
      expect(wasm, name).not.toBeNull();
      expect(glue, name).not.toBeNull();
      expect(existsSync(`${dist}${wasm[1]}`)).toBe(true);
      expect(existsSync(`${dist}${glue[1]}`)).toBe(true);
    },
  );

  test('in English: the preloaded wasm compiled as it streams, no lazy chunk; the exports load when used', async () => {
    const { page, seen, close } = await coldPage(suite.server.url);
    const wasmRequests = seen.requests.filter((url) => url.endsWith('.wasm'));
    expect(wasmRequests).toHaveLength(1); // the preloaded response is the one compiled
    expect(seen.wasmTypes).toEqual(['application/wasm']);
    expect(await page.evaluate(() => window.compiledWith)).toEqual(['compileStreaming']);
    expect(lazyRequests(seen.requests, LAZY.zh)).toEqual([]);
    expect(lazyRequests(seen.requests, LAZY.exports)).toEqual([]);

    // The PyTorch script and the JSON download fetch their chunks when clicked.
    await page.click('#copy-pytorch');
    await page.waitForSelector('#pytorch-dialog[open]');
    expect(await page.inputValue('#pytorch-script')).toContain('import torch');
    await page.click('#pytorch-dialog form button');
    const download = page.waitForEvent('download');
    await page.click('#download-json');
    expect((await download).suggestedFilename()).toBe('attention-lab.json');
    expect(lazyRequests(seen.requests, LAZY.exports).length).toBeGreaterThan(0);
    expect(lazyRequests(seen.requests, LAZY.zh)).toEqual([]);

    // Chinese is fetched when chosen, and the page then speaks it.
    await page.selectOption('#language', 'zh');
    await page.waitForFunction((text) => document.getElementById('share').textContent === text, zh['share.button']);
    await waitForIdle(page);
    expect(lazyRequests(seen.requests, LAZY.zh)).toHaveLength(1);
    expect(await page.textContent('[data-i18n="controls.presets"]')).toBe(zh['controls.presets']);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    expect(seen.problems).toEqual([]);
    await close();
  });

  test('a browser in Chinese: the first result is already Chinese, with no key shown raw', async () => {
    const { page, seen, close } = await coldPage(suite.server.url, { locale: 'zh-CN' });
    const first = await page.evaluate((keys) => {
      const texts = [...document.querySelectorAll('body *')].map((el) => el.textContent.trim());
      return {
        share: document.getElementById('share').textContent,
        presets: [...document.querySelectorAll('#presets button')].map((b) => b.textContent),
        rawKeys: [...new Set(texts.filter((text) => keys.includes(text)))],
      };
    }, Object.keys(en));
    expect(first.share).toBe(zh['share.button']);
    expect(first.presets).toEqual(PRESETS.map((preset) => zh[`preset.${preset.key}`]));
    expect(first.rawKeys).toEqual([]);
    expect(lazyRequests(seen.requests, LAZY.zh)).toHaveLength(1);
    expect(seen.problems).toEqual([]);
    await close();
  });

  test('the single file, offline from file://, holds the lazy parts: Chinese and the PyTorch script', async () => {
    const { page, seen, close } = await coldPage(`file://${dist}attention-lab.html`, { offline: true });
    await page.selectOption('#language', 'zh');
    await page.waitForFunction((text) => document.getElementById('share').textContent === text, zh['share.button']);
    await waitForIdle(page);
    await page.click('#copy-pytorch');
    await page.waitForSelector('#pytorch-dialog[open]');
    expect(await page.inputValue('#pytorch-script')).toContain('import torch');
    expect(seen.requests.filter((url) => !/^(file|data|blob):/.test(url))).toEqual([]);
    expect(seen.problems).toEqual([]);
    await close();
  });

  test('the single file runs the trained model when served beside tiny/, and from file:// says why it cannot', async () => {
    const served = await coldPage(`${suite.server.url}attention-lab.html`);
    await served.page.selectOption('#control-model', 'tiny');
    await served.page.waitForFunction(
      (last) => window.attentionLab?.trained?.result?.checkpoint === last,
      SCHEMA.tinyModel.checkpoints.at(-1),
    );
    expect(served.seen.problems).toEqual([]);
    await served.close();

    const { page, close } = await coldPage(`file://${dist}attention-lab.html`, { offline: true });
    await page.selectOption('#language', 'zh');
    await waitForIdle(page);
    await page.selectOption('#control-model', 'tiny');
    const said = zh['error.tiny-needs-server'].split('（')[0];
    await page.waitForFunction((said) => document.body.textContent.includes(said), said);
    // The attention layer's sentence is kept for when the reader goes back.
    await page.selectOption('#control-model', 'attention');
    await waitForIdle(page);
    expect(await page.inputValue('#input-text')).not.toBe('');
    await close();
  });

  test('the single file opens a checkpoint when served beside checkpoint/, and from file:// says why it cannot', async () => {
    const llama = fileURLToPath(new URL('../reference/llama/checkpoints/llama-sharded/', import.meta.url));
    const files = ['config.json', 'model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors'].map(
      (name) => llama + name,
    );
    const served = await coldPage(`${suite.server.url}attention-lab.html`);
    await served.page.selectOption('#control-model', 'checkpoint');
    await served.page.setInputFiles('[data-checkpoint-view] input[type="file"]', files);
    await served.page.waitForSelector('[data-checkpoint="steps"]');
    expect(served.seen.problems).toEqual([]);
    await served.close();

    const { page, close } = await coldPage(`file://${dist}attention-lab.html`, { offline: true });
    await page.selectOption('#language', 'zh');
    await waitForIdle(page);
    await page.selectOption('#control-model', 'checkpoint');
    await page.setInputFiles('[data-checkpoint-view] input[type="file"]', files);
    const said = zh['error.checkpoint-needs-server'].split('（')[0];
    await page.waitForFunction((said) => document.body.textContent.includes(said), said);
    await close();
  });
});
