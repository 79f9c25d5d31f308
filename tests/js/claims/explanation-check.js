// The claims checker: does a sentence of the page (model/words.js) say only
// what the run shows? Shared by the explanation and the narration claims
// tests. checkSentence(sentence, run) -> [problem], run = {result, config,
// lang, decimals = 4, steppers?: {decode, flash}} (lab.run's result, the
// config it ran, the page's language, lab.decode/lab.flash's figures).
// Every fact and claim is worked out here, from result.tensors and
// result.settings, by this file's own code: never by the view's helpers.
//   - every number token in the text is a quote (numbers inside identifiers
//     such as d3, x2, θ1, q_3, a cell's [indices], token labels and the
//     numbers of a translation's own template, "1/(1 − p)", are not numbers
//     it states);
//   - every quote's text is how its fact's true value is written
//     (formatNumber with the run's decimals, compactNumber, or an integer as is);
//   - every claim holds.
// `stats` counts what was checked and keeps the worst difference between a
// quote's value and its fact's true value, and the worst of a claim.
import { compactNumber, formatNumber } from '../../../web/model/format.js';
import { loadLanguage, translator } from '../../../web/i18n/index.js';
import { claimProblem } from './explanation-rules.js';
import { factValue } from './explanation-facts.js';

await loadLanguage('zh');

export const stats = {
  sentences: 0,
  quotes: 0,
  claims: 0,
  worstQuote: { diff: 0, where: '' },
  worstClaim: { diff: 0, where: '' },
};

export function resetStats() {
  Object.assign(stats, { sentences: 0, quotes: 0, claims: 0 });
  stats.worstQuote = { diff: 0, where: '' };
  stats.worstClaim = { diff: 0, where: '' };
}

const isQuote = (x) => Boolean(x && x.quote === true);
const isSentence = (x) => Boolean(x && typeof x === 'object' && typeof x.kind === 'string' && Array.isArray(x.quotes));

// A number the text states: digits (with a fraction and an exponent), ∞, NaN, not part of an
// identifier (d3, x2, θ1, q_3, m0) nor already masked (§ a quote, # a template's own number).
const NUMBER = /(?<![A-Za-z_\p{Script=Greek}ℓ\d.#§])\d+(?:\.\d+)?(?:e[+-]?\d+)?|∞|NaN/gu;
// A cell's indices: name[…] (also after a closing parenthesis: torch.rand(D, D)[0,1]).
const INDICES = /([\p{L}_)])\[[^\]]*\]/gu;

/** The number tokens of a masked text that no quote covers. */
export const numberTokens = (text) => [...text.replace(INDICES, '$1[]').matchAll(NUMBER)].map((m) => m[0]);

/** Token labels of the run (a label may hold digits: it states no number). */
function labelsOf(run) {
  const { result } = run;
  return [...new Set([...(result.tokens ?? []).flat(), ...(result.contextTokens ?? []).flat()])]
    .filter((label) => /\d/.test(label))
    .sort((a, b) => b.length - a.length);
}

/** A plain piece of text with the run's token labels masked. */
function plainText(text, run) {
  let out = String(text);
  for (const label of labelsOf(run)) out = out.split(label).join('ℓ');
  return out;
}

/**
 * A param or part with what it quotes masked: a quote is §, a sentence its own masked text. A translated
 * sentence's param that is a bare number states it unquoted; a formula's is read as text (an index).
 */
function maskedPiece(value, run, problems, param = false) {
  if (isQuote(value)) return '§';
  if (isSentence(value)) return maskedText(value, run, problems);
  if (param && typeof value === 'number') problems.push(`a number given as plain text: ${value}`);
  return plainText(value, run);
}

// A translated sentence: its template's own numbers are #, its params masked.
function maskedSay(sentence, run, problems) {
  const t = translator(run.lang ?? 'en');
  const params = sentence.params ?? {};
  const plain = Object.fromEntries(
    Object.entries(params).map(([name, v]) => [name, isQuote(v) || isSentence(v) ? v.text : v]),
  );
  if (t(sentence.key, plain) !== sentence.text)
    problems.push(`text is not the ${run.lang} translation of ${sentence.key}`);
  const marked = t(sentence.key, Object.fromEntries(Object.keys(params).map((name) => [name, `⟦${name}⟧`])));
  const pieces = marked.split(/⟦(\w+)⟧/);
  const used = new Set(pieces.filter((_, k) => k % 2 === 1));
  for (const [name, value] of Object.entries(params))
    if (isQuote(value) && !used.has(name))
      problems.push(`quote ${name} = "${value.text}" is not in the text of ${sentence.key}`);
  return pieces
    .map((piece, k) => (k % 2 === 0 ? piece.replace(NUMBER, '#') : maskedPiece(params[piece], run, problems, true)))
    .join('');
}

/** The text of a sentence with every quote masked, to find the numbers it states without quoting them. */
function maskedText(sentence, run, problems) {
  if (sentence.kind === 'terms')
    return [...sentence.items, ...(sentence.more ? [sentence.more] : [])]
      .map((item) => maskedText(item, run, problems))
      .join('\n');
  if (sentence.parts && !sentence.strings)
    return sentence.parts.map((part) => maskedText(part, run, problems)).join(sentence.separator ?? ' ');
  if (sentence.key) return maskedSay(sentence, run, problems);
  if (sentence.strings)
    return sentence.strings
      .map((s, k) => s + (k < sentence.parts.length ? maskedPiece(sentence.parts[k], run, problems) : ''))
      .join('');
  return sentence.text;
}

/** The ways a true value may be written. */
function writings(value, decimals) {
  const out = [formatNumber(value, decimals), compactNumber(value)];
  if (Number.isInteger(value)) out.push(String(value));
  if (Number.isFinite(value) && value !== 0) out.push(value.toExponential(2));
  return out;
}

const describe = (fact) =>
  JSON.stringify(fact, (k, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v)).slice(0, 160);

function checkQuote(quote, run) {
  stats.quotes++;
  let truth;
  try {
    truth = factValue(quote.fact, run);
  } catch (error) {
    return [`"${quote.text}": ${error.message} (${describe(quote.fact)})`];
  }
  const problems = [];
  const decimals = run.decimals ?? 4;
  if (!writings(truth, decimals).includes(quote.text))
    problems.push(`"${quote.text}" should read ${formatNumber(truth, decimals)} (${describe(quote.fact)})`);
  const diff = Math.abs(quote.value - truth);
  if (Number.isFinite(diff) && diff > stats.worstQuote.diff) stats.worstQuote = { diff, where: describe(quote.fact) };
  if (!Number.isFinite(diff) && !Object.is(quote.value, truth) && !(Number.isNaN(quote.value) && Number.isNaN(truth)))
    problems.push(`"${quote.text}" quotes ${quote.value}, the fact is ${truth}`);
  return problems;
}

function checkClaim(claim, run) {
  stats.claims++;
  try {
    const { problem, diff = 0 } = claimProblem(claim, run);
    if (diff > stats.worstClaim.diff) stats.worstClaim = { diff, where: describe(claim) };
    return problem ? [`claim ${describe(claim)}: ${problem}`] : [];
  } catch (error) {
    return [`claim ${describe(claim)}: ${error.message}`];
  }
}

/** The problems of one sentence (its text, quotes and claims), each naming the sentence. */
export function checkSentence(sentence, run) {
  stats.sentences++;
  const problems = [];
  const masked = maskedText(sentence, run, problems);
  for (const token of numberTokens(masked)) problems.push(`unquoted number ${token}`);
  for (const quote of sentence.quotes) problems.push(...checkQuote(quote, run));
  for (const claim of sentence.claims) problems.push(...checkClaim(claim, run));
  const text = sentence.text.length > 120 ? `${sentence.text.slice(0, 120)}…` : sentence.text;
  return problems.map((problem) => `${problem} — in “${text}”`);
}
