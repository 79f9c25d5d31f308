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
//   {setting: name}                       a setting of the run, as the engine reports it
//   {headNumber: h}                       "head 2": h + 1, with 0 <= h < H
//   {value: name, ...where}               a derived figure the test recomputes (a sum, a factor, a bound)
import { compactNumber, formatNumber } from './format.js';

/** A number quoted in a sentence: its value, the fact it states and the text it is written as. */
export const quote = (value, fact, text = String(value)) => ({ quote: true, value, fact, text });

/** A quoted whole number (a count, a size): written as is. */
export const whole = (value, fact) => quote(value, fact, String(value));

/** A quoted number written as the matrices write it (formatNumber, `decimals` places). */
export const shown = (value, decimals, fact) => quote(value, fact, formatNumber(value, decimals));

/** A quoted number written compactly, as sentences write settings and factors (compactNumber). */
export const compact = (value, fact) => quote(value, fact, compactNumber(value));

const isQuote = (x) => Boolean(x && x.quote === true);

/**
 * A translated sentence: t(key, params) with each quoted param written as its text.
 * options: {kind: 'text' (default) | 'notice' | 'result' | 'formula', claims: [claim]}.
 */
export function say(t, key, params = {}, { kind = 'text', claims = [] } = {}) {
  const plain = {};
  const quotes = [];
  for (const [name, value] of Object.entries(params)) {
    if (isQuote(value)) {
      plain[name] = value.text;
      quotes.push(value);
    } else plain[name] = value;
  }
  return { kind, text: t(key, plain), quotes, claims };
}

/** A line of math from a template literal whose quoted parts are collected: formula`q = ${shown(…)}`. */
export function formula(strings, ...parts) {
  const quotes = parts.filter(isQuote);
  const text = strings.reduce((out, s, k) => out + s + (k < parts.length ? textOf(parts[k]) : ''), '');
  return { kind: 'formula', text, quotes, claims: [] };
}

const textOf = (part) => (isQuote(part) ? part.text : String(part));

/** Sentences joined into one (a meaning and its notes read as one paragraph). */
export function joined(sentences, kind = sentences[0]?.kind ?? 'text') {
  return {
    kind,
    text: sentences.map((s) => s.text).join(' '),
    quotes: sentences.flatMap((s) => s.quotes),
    claims: sentences.flatMap((s) => s.claims),
  };
}

/** A sentence that quotes nothing and claims nothing (a sentence with no number in it). */
export const plainSentence = (text, kind = 'text') => ({ kind, text, quotes: [], claims: [] });
