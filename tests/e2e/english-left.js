// The check of the Chinese UI: the English words left on a page, through
// shadow roots, except code, tensor names, tokens and a few names Chinese
// tutorials leave in English (chinese.test.js, trained.test.js).
import { expect } from 'vitest';
import { SCHEMA } from '../../web/model/schema.js';

// Names Chinese attention tutorials write in English.
export const ALLOWED = [
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
  'Bahdanau',
  'Intl.Segmenter',
  'base64url',
  'iframe',
  'npy',
  'npz',
  'zip',
  'NaN',
  'Attention Is All You Need',
  'Understand Attention in an Intuitive Way', // the tutorials' own titles (they are in English in the tutorials)
  'Multi-Head Attention Written by Hand in Python', // (before the title it contains)
  'Multi-Head Attention',
  'Transformer Study Notes 2: Self-Attention',
  'Diff Transformer', // the model differential attention comes from (before the word it contains)
  'Transformer', // (after the titles that contain it)
  'Once upon a time there', // the tutorials' sentences: their tokens are data, kept in every language
  'this is an example sentence',
  '<pad>', // the padding token, as the tokenizer writes it
  'Jupyter Notebook', // the authors' recipes: products by their names (the longer first)
  'JupyterLab',
  'Jupyter',
  'Vue',
  'Docusaurus Faster',
  'Docusaurus',
  'Astro',
  'Material',
  'Hexo',
  'rspack',
  'webpack',
  'Lightning CSS',
  'LlamaAttention', // classes of the programs the presets mirror (before the models' names they contain)
  'MistralAttention',
  'DeepSeek', // the maker of multi-head latent attention (model.py's names below are code)
  'MLA',
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

export async function expectNoEnglish(page) {
  expect(await page.evaluate(englishLeft, { allowed: ALLOWED, tensors: TENSORS })).toEqual([]);
}
