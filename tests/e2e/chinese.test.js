// The Chinese UI has no English left on screen: every visible text, every
// screen-reader caption and every label (aria-label, title, alt,
// placeholder) of the page, the element, the embed and the authors' page is
// Chinese, except code, tensor names, tokens and a few names Chinese
// tutorials leave in English. Text that is code or data is marked
// translate="no" (the HTML attribute for "do not translate this") or sits in
// <code>/<pre>/<textarea>.
import { describe, expect, test } from 'vitest';
import { SCHEMA } from '../../web/model/schema.js';
import { PRESETS } from '../../web/model/presets.js';
import { openPage, waitForIdle } from './browser.js';
import { useBrowserSuite } from './suite.js';

const suite = useBrowserSuite();

// Names Chinese attention tutorials write in English.
const ALLOWED = [
  'Attention Lab',
  'PyTorch',
  'NumPy',
  'JSON',
  'CSV',
  'LaTeX',
  'softmax',
  'Softmax',
  'tanh',
  'dropout',
  'Dropout',
  'The Annotated Transformer', // an article's title (before the word it contains)
  'Transformer',
  'Bahdanau',
  'Intl.Segmenter',
  'base64url',
  'iframe',
  'npy',
  'npz',
  'zip',
  'NaN',
  'Attention Is All You Need',
  '<pad>', // the padding token, as the tokenizer writes it
  'Jupyter Notebook', // the authors' recipes: products by their names (the longer first)
  'JupyterLab',
  'Jupyter',
  'Vue',
  'LlamaAttention', // classes of the programs the presets mirror (before the models' names they contain)
  'MistralAttention',
  'Hugging Face', // the models and makers the modern variants come from, and their terms
  'GPT-NeoX',
  'Llama',
  'Mistral',
  'Gemma',
  'OLMo',
  'Qwen',
  'Meta',
  'BLOOM',
  'StreamingLLM',
  'FlashAttention',
  'RMSNorm',
  'RoPE',
  'ALiBi',
  'softcap',
  'logit',
  'Xiao', // the papers' authors
  'Shazeer',
  'cos', // functions, as tanh
  'sin',
];

// Tensor names (scores, weights, …) are code: in text they sit in
// translate="no" elements; an attribute (aria-label, title) cannot mark a
// part of itself, so there they are allowed as whole words.
const TENSORS = [...SCHEMA.tensors, 'averagedWeights'];

/**
 * In the browser: the English words left in `root` (a document), through
 * shadow roots, with where they were found.
 */
function englishLeft({ allowed, tensors }) {
  const found = [];
  // The nearest translate attribute decides (translate="yes" inside "no" is prose again).
  const skip = (el) =>
    el.closest('[translate]')?.getAttribute('translate') === 'no' ||
    el.closest('code, pre, textarea, script, style, kbd, samp, var, math') ||
    (el.checkVisibility && !el.checkVisibility() && !el.closest('.sr-only'));
  // Identifiers (W_Q, d_k, dModel, torch.rand, causal+padding, 1e-9, QKᵀ) and single letters are not words.
  // Chinese characters and punctuation separate words as spaces do.
  const words = (text, names = []) => {
    // `code` spans (help texts mark code so, shown as <code> where markup is allowed) and calls are not words.
    let rest = text.replace(/`[^`]*`/g, ' ').replace(/[\w.]+\((?:[^()]|\([^()]*\))*\)/g, ' '); // torch.manual_seed(seed), clones(nn.Linear(D, D), 4)
    for (const name of allowed) rest = rest.split(name).join(' ');
    return rest
      .split(/[\s,;:()[\]{}<>“”"'‘’=·×÷→←…/|\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]+/)
      .filter((w) => /[A-Za-z]{2}/.test(w))
      .filter((w) => !/[_.+\-\d@#$]|[a-z][A-Z]|^[A-Z]+ᵀ?$/.test(w))
      .filter((w) => !names.includes(w));
  };
  const visit = (root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node = walker.currentNode; node; node = walker.nextNode()) {
      if (node.nodeType === Node.TEXT_NODE) {
        const el = node.parentElement;
        if (!el || skip(el)) continue;
        for (const w of words(node.data))
          found.push(`${w} — in <${el.localName} class="${el.className}">: ${node.data.trim().slice(0, 80)}`);
        continue;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) continue;
      if (node.shadowRoot) visit(node.shadowRoot);
      if (skip(node)) continue;
      for (const attribute of ['aria-label', 'title', 'alt', 'placeholder', 'aria-description']) {
        const value = node.getAttribute(attribute);
        if (value)
          for (const w of words(value, tensors))
            found.push(`${w} — ${attribute} of <${node.localName}>: ${value.slice(0, 80)}`);
      }
    }
  };
  visit(document);
  return [...new Set(found)];
}

async function expectNoEnglish(page) {
  expect(await page.evaluate(englishLeft, { allowed: ALLOWED, tensors: TENSORS })).toEqual([]);
}

describe('the Chinese UI', () => {
  test('the page, with every preset, in Chinese', async () => {
    const page = await openPage(suite.browser, `${suite.server.url}?lang=zh`);
    await page.selectOption('#language', 'zh');
    await waitForIdle(page);
    await expectNoEnglish(page);
    for (const preset of PRESETS) {
      await page.click(`#presets button[data-preset="${preset.key}"]`);
      await waitForIdle(page);
      await expectNoEnglish(page);
    }
    await page.context().close();
  });

  test('an error, and a hovered number, in Chinese', async () => {
    const page = await openPage(suite.browser, suite.server.url);
    await page.selectOption('#language', 'zh');
    await waitForIdle(page);
    await page.fill('#control-d-model', '7');
    await page.waitForSelector('.field-error:not([hidden])');
    await expectNoEnglish(page);
    await page.fill('#control-d-model', '8');
    await waitForIdle(page);
    for (const matrix of ['X', 'Q', 'scores', 'weights', 'context', 'output']) {
      await page.hover(`table[data-matrix="${matrix}"] td[data-i="0"][data-j="0"]`);
      await expectNoEnglish(page);
    }
    await page.context().close();
  });

  test('the embed (?lang=zh), a bad link, and the authors’ page in Chinese', async () => {
    const page = await (await suite.browser.newContext()).newPage();
    await page.goto(`${suite.server.url}embed.html?lang=zh#s=v7.abc`);
    await page.waitForFunction(() => document.getElementById('embedded').result);
    expect(await page.locator('#notice').textContent()).toContain('无法读取此链接');
    await expectNoEnglish(page);
    await page.goto(`${suite.server.url}authors.html?lang=zh`);
    await page.waitForSelector('#attribute-rows tr');
    // The examples compute when they scroll into view.
    for (const example of await page.locator('attention-lab').all()) {
      await example.scrollIntoViewIfNeeded();
      await page.waitForFunction((el) => el.result, await example.elementHandle());
    }
    await expectNoEnglish(page);
    await page.context().close();
  });
});
