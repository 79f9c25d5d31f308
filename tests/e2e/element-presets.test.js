// <attention-lab preset="…">: a preset's settings in the element's language,
// its note, attributes over it, and an unknown preset named as the error.
import { formatNumber } from '../../web/model/format.js';
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { presetByKey, presetSettings } from '../../web/model/presets.js';
import { shot, useBrowserSuite } from './suite.js';

const suite = useBrowserSuite();
const program = JSON.parse(
  readFileSync(new URL('../reference/fixtures/programs/tutorial.json', import.meta.url), 'utf8'),
);

const html = `<!doctype html><meta charset="utf-8">
  <attention-lab id="en" preset="tutorial" steps="X output"></attention-lab>
  <attention-lab id="zh" preset="tutorial" lang="zh" steps="X output"></attention-lab>
  <attention-lab id="over" preset="multi-head" heads="3" steps="output" compact></attention-lab>
  <attention-lab id="bad" preset="nope"></attention-lab>
  <script type="module" src="attention-lab-element.js"></script>`;

test('preset elements show the program’s numbers and note in each language; attributes override; a bad key is named', async () => {
  const context = await suite.browser.newContext({ viewport: { width: 1200, height: 2400 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.route(`${suite.server.url}__presets.html`, (route) =>
    route.fulfill({ contentType: 'text/html', body: html }),
  );
  await page.goto(`${suite.server.url}__presets.html`);
  await page.waitForFunction(() => ['en', 'zh', 'over'].every((id) => document.getElementById(id).result));
  await page.waitForFunction(() => !document.getElementById('bad').shadowRoot.querySelector('.error').hidden);

  const shown = (id) =>
    page.evaluate((id) => {
      const element = document.getElementById(id);
      const root = element.shadowRoot;
      const output = root.querySelector('table[data-matrix="output"]:not(.sr-only) tbody td');
      const note = root.querySelector('.preset-note');
      return {
        tokens: element.result?.tokens,
        heads: element.result?.settings.numHeads,
        xShape: element.result?.tensors.X.shape,
        firstOutput: output?.textContent,
        note: note.hidden ? null : note.textContent,
        error: root.querySelector('.error').hidden ? null : root.querySelector('.error').textContent,
      };
    }, id);

  const printed = formatNumber(program.tensors.output.data[0], 4);
  const en = await shown('en');
  expect(en.tokens).toEqual([presetSettings(presetByKey.get('tutorial'), 'en').text.split(' ')]);
  expect(en.firstOutput).toBe(printed);
  expect(en.note).toContain('tests/reference/programs/tutorial.py');
  const zh = await shown('zh');
  expect(zh.tokens).toEqual([presetSettings(presetByKey.get('tutorial'), 'zh').text.split(' ')]); // the tutorial's own tokens
  expect(zh.firstOutput).toBe(printed);
  expect(zh.note).toContain('Understand Attention in an Intuitive Way');
  const over = await shown('over');
  expect(over.heads).toBe(3);
  expect(over.xShape).toEqual([2, 5, 6]); // the preset's torch.randn input stays
  expect(over.note).toContain('multi-head.py');
  const bad = await shown('bad');
  expect(bad.error).toContain('preset: unknown preset "nope" (known: tutorial, ');
  expect(bad.note).toBeNull();
  await shot(page, 'element-presets', { fullPage: true });

  // The language attribute picks the note again; a tutorial's preset keeps the tutorial's own tokens.
  await page.evaluate(() => document.getElementById('en').setAttribute('lang', 'zh'));
  await page.waitForFunction(() =>
    document.getElementById('en').shadowRoot.querySelector('.preset-note').textContent.includes('对应'),
  );
  expect((await shown('en')).tokens).toEqual(en.tokens);
  expect((await shown('en')).firstOutput).toBe(printed);
  expect(problems).toEqual([]);
  await context.close();
});
