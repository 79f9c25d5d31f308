// The checkpoint mode in Debian's Chromium: on the page (the Model setting
// switches to it, in English and Chinese) and in <attention-lab
// model="checkpoint">, the repository's two-shard Llama
// (tests/reference/llama/checkpoints/llama-sharded) opened through the file
// input; ids typed (that folder has no tokenizer) or, with a tokenizer.json
// written beside its files, text; layer 2 head 2 picked; a shown weight is
// PyTorch's (tests/reference/llama/fixtures/llama-sharded.json) to the shown
// decimals. A config.json alone is an error at the file input, an id out of
// range one at the ids box, in the reader's language (a11y.test.js runs axe
// over the open view).
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { formatNumber } from '../../web/model/format.js';
import { shot, useBrowserSuite } from './suite.js';

const suite = useBrowserSuite();
vi.setConfig({ testTimeout: 60_000 });
const DIR = fileURLToPath(new URL('../reference/llama/checkpoints/llama-sharded/', import.meta.url));
const FILES = ['config.json', 'model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors'];
const torch = JSON.parse(
  readFileSync(new URL('../reference/llama/fixtures/llama-sharded.json', import.meta.url), 'utf8'),
).runs[0];

/** PyTorch's weights[head][i][j] of layer `layer` (a [heads, T, T] tensor). */
function torchWeight(layer, head, i, j) {
  const { shape, data } = torch.layers[layer].weights;
  return data[(head * shape[1] + i) * shape[2] + j];
}

/** A folder with llama-sharded's files and a tokenizer.json whose vocab maps a word to each of its 48 ids. */
function folderWithTokenizer() {
  const dir = mkdtempSync(`${tmpdir()}/ckview-`);
  for (const file of FILES) copyFileSync(DIR + file, `${dir}/${file}`);
  // Byte-level BPE with no merges: each id is one byte token, so the text "!\"#" reads ids 0 1 2.
  const vocab = Object.fromEntries(Array.from({ length: 48 }, (_, id) => [String.fromCharCode(33 + id), id]));
  writeFileSync(
    `${dir}/tokenizer.json`,
    JSON.stringify({
      model: { type: 'BPE', vocab, merges: [] },
      pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, use_regex: false },
      decoder: { type: 'ByteLevel' },
      normalizer: null,
      added_tokens: [],
    }),
  );
  return dir;
}

const idle = (root) =>
  root.waitForFunction(
    () => !document.querySelector('[data-checkpoint-view][aria-busy]') && window.attentionLab?.isIdle(),
  );

/** The shown weights cell (query i, key j) of the picked head, in `root` (a page or a shadow root handle). */
const weightCell = (i, j) => `[data-checkpoint-step="weights"] td[data-i="${i}"][data-j="${j}"]`;

async function openPage(lang) {
  const context = await suite.browser.newContext({
    viewport: { width: 1400, height: 900 },
    locale: lang === 'zh' ? 'zh-CN' : 'en-US',
  });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  await page.goto(`${suite.server.url}?lang=${lang}`);
  await page.waitForFunction(() => window.attentionLab?.isIdle() && document.querySelector('#controls select'));
  await page.selectOption('#control-model', 'checkpoint');
  await page.waitForSelector('[data-checkpoint-view] input[type="file"]');
  return { page, problems };
}

describe('the page in the checkpoint mode', () => {
  for (const lang of ['en', 'zh'])
    test(`${lang}: open the shards, type ids, pick layer 2 head 2: a weight is PyTorch’s`, async () => {
      const { page, problems } = await openPage(lang);
      const input = '[data-checkpoint-view] input[type="file"]';
      // A config.json alone: the error at the file input, in the page's language; nothing is open.
      await page.setInputFiles(input, [DIR + FILES[0]]);
      const error = page.locator('[data-checkpoint-view] .checkpoint-open .field-error');
      await error.waitFor();
      const message = await error.textContent();
      expect(message).toMatch(lang === 'zh' ? /没有权重/ : /no weights/);
      expect(await page.getAttribute(input, 'aria-invalid')).not.toBeNull();
      expect(await page.getAttribute(input, 'aria-describedby')).toContain(await error.getAttribute('id'));

      await page.setInputFiles(
        input,
        FILES.map((f) => DIR + f),
      );
      await page.waitForSelector('[data-checkpoint="steps"]');
      expect(await error.isHidden()).toBe(true);
      const summary = await page.textContent('.checkpoint-summary');
      expect(summary).toMatch(lang === 'zh' ? /Llama：2 层，2 个头/ : /^Llama: 2 layers, 2 heads/);
      // No tokenizer.json: the ids box. The fixture's ids, then an id out of range (the text kept).
      await page.fill('[data-checkpoint-input="ids"]', torch.ids.join(' '));
      await page.waitForFunction((n) => window.attentionLab.checkpoint.result?.ids.length === n, torch.ids.length);
      await page.selectOption('[id$="-layer"]', '1');
      await page.selectOption('[id$="-head"]', '1');
      await page.selectOption('[id$="-query"]', '7');
      await idle(page);
      const heading = await page.textContent('[data-checkpoint="steps"] h2');
      expect(heading).toBe(lang === 'zh' ? '第 2 层第 2 个头，一步一步' : 'Layer 2, head 2, step by step');
      for (const [i, j] of [
        [7, 3],
        [9, 0],
      ])
        expect(await page.textContent(weightCell(i, j))).toBe(formatNumber(torchWeight(1, 1, i, j), 4));
      // The followed token's row is outlined; its sentence names it.
      expect(await page.getAttribute(weightCell(7, 0), 'class')).toContain('followed-row');
      expect(await page.textContent('[data-checkpoint-step="weights"] .checkpoint-sentence')).toContain(
        lang === 'zh' ? '词元 7（43）' : 'token 7 (43)',
      );
      await shot(page, `checkpoint-page-${lang}`, { fullPage: true });

      await page.fill('[data-checkpoint-input="ids"]', `${torch.ids.join(' ')} 48`);
      const inputError = page.locator('[data-checkpoint-view] .checkpoint-input .field-error');
      await inputError.waitFor();
      expect(await inputError.textContent()).toMatch(lang === 'zh' ? /^词元编号：/ : /^Token ids: /);
      expect(await inputError.textContent()).toContain('ids[10]');
      expect(await page.inputValue('[data-checkpoint-input="ids"]')).toBe(`${torch.ids.join(' ')} 48`);

      // As many tokens as a head has numbers (8): Q, K, V and the head outputs are [8, 8] too, yet their
      // columns are the head's numbers, not keys, so none of their cells is hatched as masked.
      await page.fill('[data-checkpoint-input="ids"]', torch.ids.slice(0, 8).join(' '));
      await page.waitForFunction(() => window.attentionLab.checkpoint.result?.ids.length === 8);
      await idle(page);
      for (const key of ['Q', 'K', 'V', 'headOutputs']) {
        const step = `[data-checkpoint-step="${key}"]`;
        expect(await page.locator(`${step} td.blocked`).count()).toBe(0);
        expect(await page.locator(`${step} .legend-chip.blocked`).count()).toBe(0);
        expect(await page.textContent(`${step} thead tr:last-child th:last-child`)).toBe('7');
      }
      // The scores are computed above the diagonal too; only the weights (after the mask) are hatched as masked.
      expect(await page.locator('[data-checkpoint-step="scores"] td.blocked').count()).toBe(0);
      expect(await page.locator('[data-checkpoint-step="weights"] td.blocked').count()).toBe(28);

      expect(problems).toEqual([]);
      await page.context().close();
    });
});

describe('<attention-lab model="checkpoint">', () => {
  let dir;
  beforeAll(() => {
    dir = folderWithTokenizer();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('the same view: with a tokenizer.json, text is tokenized live into the ids PyTorch ran', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1100, height: 1200 } });
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    const body = `<!doctype html><meta charset="utf-8"><title>checkpoint</title>
      <attention-lab id="ck" model="checkpoint" lang="zh"></attention-lab>
      <script type="module" src="attention-lab-element.js"></script>`;
    await page.route(`${suite.server.url}__checkpoint.html`, (route) =>
      route.fulfill({ contentType: 'text/html', body }),
    );
    await page.goto(`${suite.server.url}__checkpoint.html`);
    const el = await page.$('#ck');
    const root = await el.evaluateHandle((e) => e.shadowRoot);
    const input = await root.waitForSelector('input[type="file"]');
    expect(await el.evaluate((e) => e.shadowRoot.querySelector('.pipeline').getClientRects().length)).toBe(0);
    await input.setInputFiles([...FILES, 'tokenizer.json'].map((f) => `${dir}/${f}`));
    const text = await root.waitForSelector('[data-checkpoint-input="text"]');
    // The fixture's ids as the text of their one-byte tokens.
    await text.fill(torch.ids.map((id) => String.fromCharCode(33 + id)).join(''));
    await page.waitForFunction((ids) => document.getElementById('ck').result?.ids.join() === ids, torch.ids.join());
    expect(await root.$$eval('.checkpoint-chip', (chips) => chips.length)).toBe(torch.ids.length);
    await (await root.$('[data-head="L2H2"]')).click();
    await root.waitForSelector('[data-head="L2H2"][aria-pressed="true"]');
    const cell = await root.$(weightCell(9, 3));
    expect(await cell.textContent()).toBe(formatNumber(torchWeight(1, 1, 9, 3), 4));
    expect(await (await root.$('[data-checkpoint="steps"] h2')).textContent()).toBe('第 2 层第 2 个头，一步一步');
    expect(await root.$$eval('.checkpoint-next tbody tr', (rows) => rows.length)).toBe(5);
    await shot(page, 'checkpoint-element-zh', { fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('every family on the page', () => {
  test('a GPT-2 (keys under "transformer.", tied head) and a Qwen2 (bfloat16, q/k/v biases): shown weights are PyTorch’s', async () => {
    const { page, problems } = await openPage('en');
    const input = '[data-checkpoint-view] input[type="file"]';
    // The Q and V formulas show the projection's bias exactly when the checkpoint has one.
    const formulas = {
      'f32-transformer': ['q_i = x̂ · W_Q + b → Q', 'v_j = x̂ · W_V + b → V'],
      'qwen2-bf16': ['q_i = RoPE(x̂ · W_Qᵀ + b) → Q', 'v_j = x̂ · W_Vᵀ + b → V'],
      'llama-f32': ['q_i = RoPE(x̂ · W_Qᵀ) → Q', 'v_j = x̂ · W_Vᵀ → V'],
    };
    const summaries = { 'f32-transformer': 'GPT-2:', 'qwen2-bf16': 'Qwen2:', 'llama-f32': 'Llama:' };
    for (const [family, name] of [
      ['gpt2', 'f32-transformer'],
      ['llama', 'qwen2-bf16'],
      ['llama', 'llama-f32'],
    ]) {
      const dir = fileURLToPath(new URL(`../reference/${family}/checkpoints/${name}/`, import.meta.url));
      const { runs } = JSON.parse(
        readFileSync(new URL(`../reference/${family}/fixtures/${name}.json`, import.meta.url), 'utf8'),
      );
      const [run] = runs;
      await page.setInputFiles(
        input,
        ['config.json', 'model.safetensors'].map((f) => dir + f),
      );
      await page.waitForFunction(
        (wanted) => document.querySelector('.checkpoint-summary')?.textContent.startsWith(wanted),
        summaries[name],
      );
      await page.fill('[data-checkpoint-input="ids"]', run.ids.join(' '));
      const T = run.ids.length;
      await page.waitForFunction((ids) => window.attentionLab.checkpoint.result?.ids.join() === ids, run.ids.join());
      // The last layer's last head, following the last token (the default).
      const layers = run.layers.length;
      const [heads] = run.layers[layers - 1].weights.shape;
      await page.selectOption('[id$="-layer"]', String(layers - 1));
      await page.selectOption('[id$="-head"]', String(heads - 1));
      await idle(page);
      const { shape, data } = run.layers[layers - 1].weights;
      for (const j of [0, T - 1])
        expect(await page.textContent(weightCell(T - 1, j)), `${name} weights[${T - 1}, ${j}]`).toBe(
          formatNumber(data[((heads - 1) * shape[1] + T - 1) * shape[2] + j], 4),
        );
      expect(await page.textContent('[data-checkpoint-step="Q"] .checkpoint-formula')).toBe(formulas[name][0]);
      expect(await page.textContent('[data-checkpoint-step="V"] .checkpoint-formula')).toBe(formulas[name][1]);
    }
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('every family in an element', () => {
  test('<attention-lab model="checkpoint">: a GPT-2 and a Qwen2 show PyTorch’s weights', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1100, height: 1200 } });
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    const body = `<!doctype html><meta charset="utf-8"><title>checkpoint</title>
      <attention-lab id="ck" model="checkpoint" lang="en"></attention-lab>
      <script type="module" src="attention-lab-element.js"></script>`;
    await page.route(`${suite.server.url}__families.html`, (route) =>
      route.fulfill({ contentType: 'text/html', body }),
    );
    await page.goto(`${suite.server.url}__families.html`);
    const el = await page.$('#ck');
    const root = await el.evaluateHandle((e) => e.shadowRoot);
    const input = await root.waitForSelector('input[type="file"]', { state: 'attached' });
    for (const [family, name] of [
      ['gpt2', 'f32'],
      ['llama', 'qwen2-f32'],
    ]) {
      const dir = fileURLToPath(new URL(`../reference/${family}/checkpoints/${name}/`, import.meta.url));
      const [run] = JSON.parse(
        readFileSync(new URL(`../reference/${family}/fixtures/${name}.json`, import.meta.url), 'utf8'),
      ).runs.slice(-1);
      await input.setInputFiles(['config.json', 'model.safetensors'].map((f) => dir + f));
      await page.waitForFunction(
        (wanted) =>
          document.getElementById('ck').shadowRoot.querySelector('.checkpoint-summary')?.textContent.startsWith(wanted),
        family === 'gpt2' ? 'GPT-2:' : 'Qwen2:',
      );
      const ids = await root.waitForSelector('[data-checkpoint-input="ids"]');
      await ids.fill(run.ids.join(' '));
      await page.waitForFunction((want) => document.getElementById('ck').result?.ids.join() === want, run.ids.join());
      // Layer 1, head 1 (the defaults), following the last token.
      const T = run.ids.length;
      const { shape, data } = run.layers[0].weights;
      await page.waitForFunction(() => !document.getElementById('ck').shadowRoot.querySelector('[aria-busy]'));
      for (const j of [0, T - 1]) {
        const cell = await root.$(weightCell(T - 1, j));
        expect(await cell.textContent(), `${name} weights[${T - 1}, ${j}]`).toBe(
          formatNumber(data[(T - 1) * shape[2] + j], 4),
        );
      }
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});
