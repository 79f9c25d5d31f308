// The claims checker: every number a sentence of the page quotes, and every
// claim it makes, recomputed from the run's tensors by this file's own code
// (never by the view's helpers), plus two rules on the text itself: a number
// written in it is a quote or stated by a claim, and an equation in it holds.
// checkSentence(sentence, run) -> [problem, …]; run: {result, b, h, decimals, decoded?}.
import { readTensor, sizesOf } from './tensors.js';
import { CLAIMS } from './narration-rules.js';
import { FACTS } from './narration-facts.js';
import { equationProblems } from './equations.js';

// A number as written on the page: 12, 0.3536, −1e9, 1.0494e-07.
const NUMBER = /(?<![\w.])[−-]?\d+(?:\.\d+)?(?:e[-+]?\d+)?/g;

/** "−1e9" -> -1e9, "−∞" -> -Infinity, "NaN" -> NaN: a number as the page writes it. */
export function parseShown(text) {
  const plain = text.replace(/−/g, '-').trim();
  if (plain === '-∞') return -Infinity;
  if (plain === '∞') return Infinity;
  return Number(plain);
}

/** The text with its quoted tokens (“…”, "…") taken out: a token's text is the user's, not a claim. */
const withoutTokens = (text) => text.replace(/“[^”]*”/g, '“”').replace(/"[^"]*"/g, '""');

/**
 * Whether the number at [start, end) of `text` is notation, not a claim: part of a name or a formula
 * (d_k, x2, 3D, 1/√D, 2^(…), 1 − p, (1−p)).
 */
function isNotation(text, start, end) {
  const before = text[start - 1] ?? ' ';
  const after = text[end] ?? ' ';
  if (/[\p{L}_/√^]/u.test(before) || /[\p{L}_/√^]/u.test(after)) return true;
  // A version of a program (PyTorch 1.13) names the program, not the run.
  if (/(?:PyTorch|torch) $/.test(text.slice(Math.max(0, start - 8), start))) return true;
  // A number in a formula with a letter: 1 − p, (1 − p), 2·i, 0 ≤ i − j, d_k − 1, 1 − λ.
  const operator = '[−\\-+·×≤<>]';
  return (
    new RegExp(`^\\s?${operator}\\s?[a-zA-Zθλ]`).test(text.slice(end, end + 4)) ||
    new RegExp(`[a-zA-Zθλ_]\\s?${operator}\\s?$`).test(text.slice(Math.max(0, start - 4), start))
  );
}

/** The numbers of a sentence's text that no quote and no claim accounts for. */
function unaccountedNumbers(sentence) {
  // A quote's own text (a number, or a list such as "1 1 2 2") is accounted for as a whole.
  const quoteTexts = sentence.quotes.map((q) => q.text).sort((a, b) => b.length - a.length);
  const text = quoteTexts.reduce((rest, quoted) => rest.split(quoted).join(' ⟨q⟩ '), withoutTokens(sentence.text));
  const quoted = new Set();
  const stated = new Set(sentence.claims.flatMap((c) => c.states ?? []));
  const loose = [];
  for (const match of text.matchAll(NUMBER)) {
    const token = match[0].replace(/^[−-]/, '');
    if (isNotation(text, match.index, match.index + match[0].length)) continue;
    if (!quoted.has(token) && !stated.has(token)) loose.push(match[0]);
  }
  return loose;
}

/** Every problem of one sentence against its run, each naming the sentence. */
export function checkSentence(sentence, run) {
  const sizes = sizesOf(run.result);
  const context = { ...run, sizes, tensor: (name) => readTensor(run.result, name) };
  const problems = [];
  for (const number of unaccountedNumbers(sentence))
    problems.push(`says ${number}, which no quote or claim accounts for`);
  for (const quote of sentence.quotes) {
    const kind = Object.keys(quote.fact).find((k) => k in FACTS);
    if (!kind) problems.push(`quotes ${quote.text} with an unknown fact ${JSON.stringify(quote.fact)}`);
    else {
      const problem = FACTS[kind](quote, context);
      if (problem) problems.push(`quotes ${quote.text} as ${JSON.stringify(quote.fact)}: ${problem}`);
    }
  }
  for (const claim of sentence.claims) {
    const kind = Object.keys(claim).find((k) => k in CLAIMS);
    if (!kind) problems.push(`makes an unknown claim ${JSON.stringify(claim)}`);
    else {
      const problem = CLAIMS[kind](claim, context);
      if (problem) problems.push(`claims ${JSON.stringify(claim)}: ${problem}`);
    }
  }
  problems.push(...equationProblems(sentence.text, sizes, run.result));
  return problems.map((problem) => `${problem} — in “${sentence.text}”`);
}
