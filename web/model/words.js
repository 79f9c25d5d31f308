// Words as data. A sentence the page shows is built from the result as
// {kind, text, quotes, claims}: its text in the reader's language, every
// number it quotes with the fact that number states (a tensor's cell, a
// count, a size, a setting), and the claims it makes without a number ("a
// weighted average": the weights of each row sum to 1). The view renders
// sentences; the claims test recomputes every quote and claim from the run's
// tensors, and fails on any number in a text that is not a quote.
//
// A fact is one of (the claims test knows each):
//   {cell: [tensor, ...index]}            the tensor's value at that index, as shown
//   {size: 'B' | 'H' | 'H_kv' | 'S' | 'S_kv' | 'D' | 'd_k'}
//   {count: name, ...where}               a count the test makes itself from the tensors
//   {setting: name, head?: h}             a setting of the run, as the engine reports it (entry h of a
//                                         setting given per head: sinkLogit's list)
//   {headNumber: h}                       "head 2": h + 1, with 0 <= h < H
//   {value: name, ...where}               a derived figure the test recomputes (a sum, a factor, a bound)
//   {value: op, of: [fact, …]}            arithmetic on facts (sum, product, difference, quotient, exp, …)
//   {index: n, of: size}                  a position or feature index n, 0 <= n < that size
//   {constant: n}                         a number of the formula itself (the 1 of 1/(1 − p), 1e-6)
//   {tokenId: [ids | contextIds, b, i]}   the id of a token
//   {stepper: [decode | flash, field, k]} entry k of a stepper's figure (lab.decode, lab.flash)
//
// Each sentence also keeps how it was built, so a checker can tell the
// numbers of its template (a translation's own "1/(1 − p)") from those it
// quotes: say() keeps {key, params}, formula`` its {strings, parts}, joined()
// its parts and terms() its items. A param or part may be a quote, a
// sentence (its text inserted, its quotes and claims taken in) or plain text.
import { compactNumber, formatNumber } from './format.js';

/** A number quoted in a sentence: its value, the fact it states and the text it is written as. */
export const quote = (value, fact, text = String(value)) => ({ quote: true, value, fact, text });

/** A quoted whole number (a count, a size): written as is. */
export const whole = (value, fact) => quote(value, fact, String(value));

/** A quoted number written as the matrices write it (formatNumber, `decimals` places). */
export const shown = (value, decimals, fact) => quote(value, fact, formatNumber(value, decimals));

/** A quoted number written compactly, as sentences write settings and factors (compactNumber). */
export const compact = (value, fact) => quote(value, fact, compactNumber(value));

/** A number of the formula itself: written as is ("1", "1e-6", "10000"). */
export const constant = (n, text = String(n)) => quote(n, { constant: n }, text);

const isQuote = (x) => Boolean(x && x.quote === true);
/** Whether x is a sentence (say, formula, joined, terms, plainSentence). */
export const isSentence = (x) =>
  Boolean(x && typeof x === 'object' && typeof x.kind === 'string' && Array.isArray(x.quotes));

// A param or part as text, with what it quotes and claims.
function piece(value, quotes, claims) {
  if (isQuote(value)) {
    quotes.push(value);
    return value.text;
  }
  if (isSentence(value)) {
    quotes.push(...value.quotes);
    claims.push(...value.claims);
    return value.text;
  }
  return String(value);
}

/**
 * A translated sentence: t(key, params) with each quoted param written as its text.
 * options: {kind: 'text' (default) | 'notice' | 'result' | 'formula', claims: [claim]}.
 */
export function say(t, key, params = {}, { kind = 'text', claims = [] } = {}) {
  const plain = {};
  const quotes = [];
  const all = [...claims];
  for (const [name, value] of Object.entries(params)) plain[name] = piece(value, quotes, all);
  return { kind, text: t(key, plain), quotes, claims: all, key, params };
}

/** A line of math from a template literal whose quoted parts are collected: formula`q = ${shown(…)}`. */
export function formula(strings, ...parts) {
  const quotes = [];
  const claims = [];
  const texts = parts.map((part) => piece(part, quotes, claims));
  const text = strings.reduce((out, s, k) => out + s + (k < parts.length ? texts[k] : ''), '');
  return { kind: 'formula', text, quotes, claims, strings: [...strings], parts };
}

/** The same sentence as another kind ('result': the bold line), with more claims; math: shown untranslated. */
export const restyled = (sentence, kind, { claims = [], math = false } = {}) => ({
  ...sentence,
  kind,
  claims: [...sentence.claims, ...claims],
  ...(math ? { math } : {}),
});

/**
 * A list of terms (each a sentence) read as one: {kind: 'terms', items, more, shown}. A page shows the
 * first `shown` items and then `more` ("… (12 more)"), a sentence or null; the data keeps every item.
 */
export function terms(items, { more = null, shown: count = items.length, claims = [] } = {}) {
  const all = more ? [...items, more] : items;
  return {
    kind: 'terms',
    text: all.map((item) => item.text).join('\n'),
    quotes: all.flatMap((item) => item.quotes),
    claims: [...claims, ...all.flatMap((item) => item.claims)],
    items,
    more,
    shown: count,
  };
}

/** Sentences joined into one (a meaning and its notes read as one paragraph), `separator` between them. */
export function joined(sentences, kind = sentences[0]?.kind ?? 'text', separator = ' ') {
  return {
    kind,
    text: sentences.map((s) => s.text).join(separator),
    quotes: sentences.flatMap((s) => s.quotes),
    claims: sentences.flatMap((s) => s.claims),
    parts: sentences,
    separator,
  };
}

/** A sentence that quotes nothing and claims nothing (a sentence with no number in it). */
export const plainSentence = (text, kind = 'text') => ({ kind, text, quotes: [], claims: [] });
