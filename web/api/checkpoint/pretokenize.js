// Pre-tokenization of a byte-level BPE tokenizer.json: the text cut into
// words before BPE merges within each. Two layouts exist in real checkpoints:
//   GPT-2:          ByteLevel {use_regex: true}: GPT2_PATTERN cuts the text;
//   Llama 3, Qwen2: Sequence [Split {Regex, behavior "Isolated"}, ByteLevel {use_regex: false}].
// Their patterns are written for Oniguruma (the regex engine of Hugging Face
// tokenizers); translatePattern makes a JavaScript RegExp that matches the
// same strings: (?i:...) groups, which Node 20's RegExp lacks, become
// character classes, and \s / \S become Unicode's White_Space (Oniguruma's
// \s; JavaScript's \s also takes U+FEFF and misses U+0085).
import { toByteLevel } from './byte-level.js';

/** GPT-2's pattern (its encoder.py and the ByteLevel pre-tokenizer with use_regex true). */
export const GPT2_PATTERN = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

/** A pattern the translation cannot carry over; `reason` says which construct. */
export class PatternError extends Error {}

// Characters that fold to an ASCII letter under Unicode simple case folding
// besides its upper and lower case (CaseFolding.txt, status C): Oniguruma's
// (?i:'s) also matches "'ſ". The test checks this table against RegExp's own
// /iu folding for every code point.
export const EXTRA_FOLDS = { s: '\u017f', k: '\u212a' }; // ſ LONG S, K KELVIN SIGN

/** "s" -> "[sSſ]": every character `char` matches case-insensitively; other characters as they are. */
function caseClass(char) {
  const variants = new Set([char, char.toLowerCase(), char.toUpperCase()]);
  for (const extra of EXTRA_FOLDS[char.toLowerCase()] ?? '') variants.add(extra);
  const single = [...variants].filter((v) => [...v].length === 1); // "ß".toUpperCase() is "SS": not one character
  return single.length > 1 ? `[${single.join('')}]` : escapeLiteral(char);
}

/** A literal string as a RegExp source (u flag). */
export const escapeLiteral = (text) => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

const WHITE = { s: '\\p{White_Space}', S: '\\P{White_Space}' };

/** The escape at source[i] (a backslash) and where it ends: \p{L} whole, \s as White_Space. */
function readEscape(source, i) {
  const next = source[i + 1];
  if (next === undefined) throw new PatternError('a pattern cannot end with a backslash');
  if (next in WHITE) return [WHITE[next], i + 2];
  if ((next === 'p' || next === 'P') && source[i + 2] === '{') {
    const close = source.indexOf('}', i);
    if (close < 0) throw new PatternError(`\\${next}{ is not closed`);
    return [source.slice(i, close + 1), close + 1];
  }
  return [source.slice(i, i + 2), i + 2];
}

/** The character class opening at source[i] ("[") with its escapes translated, and where it ends. */
function readClass(source, i) {
  let out = '[';
  let j = i + 1;
  if (source[j] === '^') out += source[j++];
  if (source[j] === ']') out += `\\${source[j++]}`; // a leading ] is a literal in Oniguruma
  while (j < source.length && source[j] !== ']') {
    if (source[j] === '[') throw new PatternError('nested character classes');
    if (source[j] === '\\') {
      const [text, end] = readEscape(source, j);
      out += text;
      j = end;
    } else {
      out += source[j++];
    }
  }
  if (j >= source.length) throw new PatternError('a character class is not closed');
  return [`${out}]`, j + 1];
}

/** The (?i:...) group opening at source[i]: alternatives of literals, each letter a class of its cases. */
function readCaseless(source, i) {
  let out = '(?:';
  let j = i + 4;
  while (j < source.length && source[j] !== ')') {
    const char = source[j];
    if (char === '(' || char === '[') throw new PatternError(`(?i: with a group or a class inside`);
    if (char === '\\') {
      const [text, end] = readEscape(source, j);
      out += text;
      j = end;
    } else if (char === '|' || '*+?{}.^$'.includes(char)) {
      out += char;
      j += 1;
    } else {
      const whole = String.fromCodePoint(source.codePointAt(j));
      out += caseClass(whole);
      j += whole.length;
    }
  }
  if (j >= source.length) throw new PatternError('a (?i: group is not closed');
  return [`${out})`, j + 1];
}

/**
 * An Oniguruma pattern of a tokenizer.json as a JavaScript RegExp source for
 * the u flag: "(?i:'s|'t)" -> "(?:'[sSſ]|'[tT])", "\\s+(?!\\S)" ->
 * "\\p{White_Space}+(?!\\P{White_Space})". Throws a PatternError for a
 * construct it does not translate (a class or group inside (?i:), other
 * inline flags, nested classes).
 */
export function translatePattern(source) {
  let out = '';
  for (let i = 0; i < source.length;) {
    const char = source[i];
    let text;
    if (char === '\\') [text, i] = readEscape(source, i);
    else if (char === '[') [text, i] = readClass(source, i);
    else if (source.startsWith('(?i:', i)) [text, i] = readCaseless(source, i);
    else if (source.startsWith('(?', i) && !/^\(\?(?:[:=!]|<[=!])/.test(source.slice(i, i + 4)))
      throw new PatternError(`the inline group ${source.slice(i, i + 4)}`);
    else [text, i] = [char, i + 1];
    out += text;
  }
  return out;
}

/** A translated pattern as a global Unicode RegExp; a PatternError if JavaScript rejects it. */
export function compilePattern(source) {
  const translated = translatePattern(source);
  try {
    return new RegExp(translated, 'gu');
  } catch (error) {
    throw new PatternError(error.message);
  }
}

/**
 * `text` cut by `regex` (global) with behavior "Isolated": each match is a
 * piece, and so is each stretch between matches. Empty pieces are dropped.
 */
export function splitIsolated(text, regex) {
  const pieces = [];
  let at = 0;
  for (const match of text.matchAll(regex)) {
    if (match[0] === '') continue; // an empty match cuts nothing
    if (match.index > at) pieces.push(text.slice(at, match.index));
    pieces.push(match[0]);
    at = match.index + match[0].length;
  }
  if (at < text.length) pieces.push(text.slice(at));
  return pieces;
}

let gpt2Regex;

/**
 * The ByteLevel step: on each piece, a space in front when add_prefix_space
 * is set and the piece does not start with one (Hugging Face does this per
 * piece, not once per text), the GPT-2 cut when use_regex is set, then each
 * word's UTF-8 bytes as byte-level characters.
 */
export function byteLevelStep({ addPrefixSpace, useRegex }) {
  return (pieces) => {
    const words = [];
    for (let piece of pieces) {
      if (addPrefixSpace && !piece.startsWith(' ')) piece = ` ${piece}`;
      if (!useRegex) words.push(piece);
      else words.push(...splitIsolated(piece, (gpt2Regex ??= compilePattern(GPT2_PATTERN))));
    }
    return words.filter((word) => word !== '').map(toByteLevel);
  };
}

/** A Split step with behavior "Isolated": each piece cut by the compiled pattern. */
export const splitStep = (regex) => (pieces) => pieces.flatMap((piece) => splitIsolated(piece, regex));
