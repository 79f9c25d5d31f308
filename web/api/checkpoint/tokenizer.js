// A byte-level BPE tokenizer read from a Hugging Face tokenizer.json, as GPT-2,
// Llama 3 and Qwen2 ship it; one implementation for the page, the element
// and the CLI.
//
//   const tokenizer = loadTokenizer(jsonText);
//   tokenizer.encode('Hello world')   // {ids: [15496, 995], tokens: ['Hello', ' world'], pieces}
//   tokenizer.decode([15496, 995])    // 'Hello world'
//
// What it reads (anything else is an AttentionConfigError naming the field,
// e.g. "tokenizer.json.model.type"):
//   model         type "BPE", vocab {token: id}, merges as "a b" strings or
//                 [a, b] pairs, byte_fallback false, no dropout, no subword
//                 prefix or suffix, ignore_merges honoured;
//   normalizer    null or NFC (also inside a Sequence);
//   pre_tokenizer ByteLevel (add_prefix_space, use_regex), or a Sequence of
//                 Split (Regex or String pattern, behavior "Isolated") steps
//                 ending with ByteLevel;
//   decoder       null or ByteLevel;
//   added_tokens  matched literally in the raw text before anything else
//                 (longest first; lstrip, rstrip, single_word honoured), as
//                 Hugging Face does, each one token whatever its content.
// post_processor: encode(text) adds nothing: no BOS, as Hugging Face's
// encode(text, add_special_tokens=False). encode(text, {addSpecialTokens:
// true}) applies a TemplateProcessing's "single" template (Llama 3's
// <|begin_of_text|> in front); GPT-2's and Qwen2's ByteLevel post-processor
// adds no token.
// Known difference: an added token with normalized true is matched in the
// raw text, not in the NFC text (the two differ only if NFC changes the
// token's own characters).
import { AttentionConfigError } from '../errors.js';
import { BytePairModel } from './bpe.js';
import { fromByteLevel, readableBytes } from './byte-level.js';
import { PatternError, byteLevelStep, compilePattern, escapeLiteral, splitStep } from './pretokenize.js';

const ROOT = 'tokenizer.json';
const utf8 = new TextEncoder();

/** The JSON type word of a value, as the engine's errors say it ("an array"). */
function typeWord(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return (
    { string: 'a string', number: 'a number', boolean: 'a boolean', object: 'an object' }[typeof value] ?? typeof value
  );
}

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
// A value as JSON (undefined as itself): the params of an error are JSON and names, no English words.
const shown = (value) => (value === undefined ? 'undefined' : JSON.stringify(value));

function wrongType(field, expected, value) {
  return AttentionConfigError.of(field, 'wrong-type', { field, expected, got: typeWord(value) });
}

function unsupported(field, value, supported) {
  return AttentionConfigError.of(field, 'tokenizer-unsupported', { field, got: shown(value), supported });
}

/** `holder[key]` at `field`, an object; a missing one is tokenizer-missing. */
function objectAt(holder, key, field) {
  const value = holder[key];
  if (value === undefined) throw AttentionConfigError.of(field, 'tokenizer-missing', { field });
  if (!isObject(value)) throw wrongType(field, 'an object', value);
  return value;
}

/** model.vocab as a Map token -> id, each id a whole number from 0. */
function readVocab(model) {
  const field = `${ROOT}.model.vocab`;
  const vocab = new Map();
  for (const [token, id] of Object.entries(objectAt(model, 'vocab', field))) {
    if (!Number.isInteger(id) || id < 0)
      throw AttentionConfigError.of(`${field}[${JSON.stringify(token)}]`, 'not-whole', {
        field: `${field}[${JSON.stringify(token)}]`,
        got: shown(id),
      });
    vocab.set(token, id);
  }
  return vocab;
}

/** model.merges as [left, right] pairs; both forms of the wild: "a b" and ["a", "b"]. */
function readMerges(model, vocab) {
  const list = model.merges;
  if (list === undefined)
    throw AttentionConfigError.of(`${ROOT}.model.merges`, 'tokenizer-missing', { field: `${ROOT}.model.merges` });
  if (!Array.isArray(list)) throw wrongType(`${ROOT}.model.merges`, 'an array', list);
  return list.map((merge, i) => {
    const field = `${ROOT}.model.merges[${i}]`;
    // "a b": exactly one space (a byte-level token has none: a space is "Ġ").
    const pair = typeof merge === 'string' ? merge.split(' ') : merge;
    if (!Array.isArray(pair) || pair.length !== 2 || !pair.every((part) => typeof part === 'string' && part !== ''))
      throw AttentionConfigError.of(field, 'tokenizer-bad-merge', { field, got: shown(merge) });
    for (const token of [...pair, pair[0] + pair[1]])
      if (!vocab.has(token)) throw AttentionConfigError.of(field, 'tokenizer-merge-unknown', { field, token });
    return pair;
  });
}

const MODEL_SUPPORTED = {
  byte_fallback: [false, null, undefined],
  dropout: [null, undefined],
  continuing_subword_prefix: [null, undefined, ''],
  end_of_word_suffix: [null, undefined, ''],
};

function readModel(json) {
  const model = objectAt(json, 'model', `${ROOT}.model`);
  if (model.type === undefined)
    throw AttentionConfigError.of(`${ROOT}.model.type`, 'tokenizer-missing', { field: `${ROOT}.model.type` });
  if (model.type !== 'BPE') throw unsupported(`${ROOT}.model.type`, model.type, '"BPE"');
  for (const [key, allowed] of Object.entries(MODEL_SUPPORTED))
    if (!allowed.includes(model[key]))
      throw unsupported(
        `${ROOT}.model.${key}`,
        model[key],
        allowed
          .filter((v) => v !== undefined)
          .map(shown)
          .join(' | '),
      );
  const vocab = readVocab(model);
  const merges = readMerges(model, vocab);
  const unk = model.unk_token ?? null;
  if (unk !== null && !vocab.has(unk))
    throw AttentionConfigError.of(`${ROOT}.model.unk_token`, 'tokenizer-merge-unknown', {
      field: `${ROOT}.model.unk_token`,
      token: String(unk),
    });
  return { vocab, merges, ignoreMerges: model.ignore_merges === true, unkId: unk === null ? null : vocab.get(unk) };
}

/** The normalizer as a function of text: null and NFC (alone or in a Sequence) only. */
function readNormalizer(json) {
  const field = `${ROOT}.normalizer`;
  const spec = json.normalizer ?? null;
  if (spec === null) return (text) => text;
  if (!isObject(spec)) throw wrongType(field, 'an object', spec);
  const steps = spec.type === 'Sequence' ? (spec.normalizers ?? []) : [spec];
  const prefix = spec.type === 'Sequence' ? `${field}.normalizers` : null;
  steps.forEach((step, i) => {
    if (step?.type !== 'NFC')
      throw unsupported(prefix ? `${prefix}[${i}].type` : `${field}.type`, step?.type, 'null | "NFC"');
  });
  return steps.length ? (text) => text.normalize('NFC') : (text) => text;
}

/** One Split step: a Regex or String pattern, behavior "Isolated", not inverted. */
function readSplit(step, field) {
  if (step.behavior !== 'Isolated') throw unsupported(`${field}.behavior`, step.behavior, '"Isolated"');
  if (step.invert) throw unsupported(`${field}.invert`, step.invert, 'false');
  const pattern = step.pattern;
  if (isObject(pattern) && typeof pattern.Regex === 'string') {
    try {
      return splitStep(compilePattern(pattern.Regex));
    } catch (error) {
      if (!(error instanceof PatternError)) throw error;
      throw AttentionConfigError.of(`${field}.pattern.Regex`, 'tokenizer-bad-pattern', {
        field: `${field}.pattern.Regex`,
        reason: error.message,
      });
    }
  }
  if (isObject(pattern) && typeof pattern.String === 'string' && pattern.String !== '')
    return splitStep(new RegExp(escapeLiteral(pattern.String), 'gu'));
  throw unsupported(`${field}.pattern`, pattern, '{"Regex": …} | {"String": …}');
}

const PRE_TOKENIZERS = '"ByteLevel" | "Sequence" ["Split", …, "ByteLevel"]';

/** The pre-tokenizer as a function of a text piece -> byte-level words. */
function readPreTokenizer(json) {
  const field = `${ROOT}.pre_tokenizer`;
  const spec = objectAt(json, 'pre_tokenizer', field);
  const sequence = spec.type === 'Sequence';
  const steps = sequence ? spec.pretokenizers : [spec];
  if (!Array.isArray(steps)) throw wrongType(`${field}.pretokenizers`, 'an array', steps);
  const fieldOf = (i) => (sequence ? `${field}.pretokenizers[${i}]` : field);
  const last = steps.length - 1;
  const run = steps.map((step, i) => {
    if (!isObject(step)) throw wrongType(fieldOf(i), 'an object', step);
    if (step.type === 'ByteLevel' && i === last)
      return byteLevelStep({ addPrefixSpace: step.add_prefix_space === true, useRegex: step.use_regex !== false });
    if (step.type === 'Split' && i < last) return readSplit(step, fieldOf(i));
    throw unsupported(`${fieldOf(i)}.type`, step.type, PRE_TOKENIZERS);
  });
  if (!run.length) throw unsupported(`${field}.pretokenizers`, steps, PRE_TOKENIZERS);
  return (text) => run.reduce((pieces, step) => step(pieces), [text]);
}

function checkDecoder(json) {
  const spec = json.decoder ?? null;
  if (spec !== null && spec?.type !== 'ByteLevel')
    throw unsupported(`${ROOT}.decoder.type`, spec?.type, 'null | "ByteLevel"');
}

/** added_tokens: [{id, content, special, lstrip, rstrip, single_word}], each checked. */
function readAddedTokens(json) {
  const field = `${ROOT}.added_tokens`;
  const list = json.added_tokens ?? [];
  if (!Array.isArray(list)) throw wrongType(field, 'an array', list);
  return list.map((token, i) => {
    if (!isObject(token)) throw wrongType(`${field}[${i}]`, 'an object', token);
    if (typeof token.content !== 'string' || token.content === '')
      throw wrongType(`${field}[${i}].content`, 'a string', token.content);
    if (!Number.isInteger(token.id) || token.id < 0)
      throw AttentionConfigError.of(`${field}[${i}].id`, 'not-whole', {
        field: `${field}[${i}].id`,
        got: shown(token.id),
      });
    return token;
  });
}

/**
 * One RegExp that finds every added token in a text, longest content first at
 * a position (Hugging Face's leftmost-longest match); lstrip / rstrip take the
 * whitespace on that side into the token, single_word wants no letter, digit
 * or _ beside it. Group i+1 is added token i (sorted).
 */
function addedTokenRegex(tokens) {
  if (!tokens.length) return null;
  const parts = tokens.map((token) => {
    let source = `(${escapeLiteral(token.content)})`;
    if (token.single_word) source = `(?<![\\p{L}\\p{N}_])${source}(?![\\p{L}\\p{N}_])`;
    if (token.lstrip) source = `\\p{White_Space}*${source}`;
    if (token.rstrip) source = `${source}\\p{White_Space}*`;
    return `(?:${source})`;
  });
  return new RegExp(parts.join('|'), 'gu');
}

/** A template's special tokens for encode(text, {addSpecialTokens: true}): [ids before, ids after]. */
function readTemplate(json) {
  const found = [];
  const visit = (spec) => {
    if (!isObject(spec)) return;
    if (spec.type === 'TemplateProcessing') found.push(spec);
    if (spec.type === 'Sequence' && Array.isArray(spec.processors)) spec.processors.forEach(visit);
  };
  visit(json.post_processor);
  if (!found.length || !Array.isArray(found[0].single)) return [[], []];
  const { single, special_tokens: specials = {} } = found[0];
  const before = [];
  const after = [];
  let seenSequence = false;
  for (const item of single) {
    if (item?.Sequence) seenSequence = true;
    else if (item?.SpecialToken) (seenSequence ? after : before).push(...(specials[item.SpecialToken.id]?.ids ?? []));
  }
  return [before, after];
}

/**
 * One token as the page shows it: `text` its characters as a reader sees
 * them (a byte of an incomplete UTF-8 character as "<0xE6>"), `bytes` its
 * UTF-8 bytes, `special` whether it is an added special token.
 * @typedef {{ id: number, text: string, bytes: number[], special: boolean }} TokenPiece
 */

/**
 * @typedef {object} Tokenizer
 * @property {number} vocabSize how many ids there are: the vocab's and the added tokens'
 * @property {(text: string, options?: {addSpecialTokens?: boolean}) => {ids: number[], tokens: string[], pieces: TokenPiece[]}} encode
 * @property {(ids: number[], options?: {skipSpecialTokens?: boolean}) => string} decode
 * @property {(ids: number[]) => TokenPiece[]} pieces
 */

class BpeTokenizer {
  #model;
  #normalize;
  #preTokenize;
  #addedRegex;
  #addedSorted;
  #idToToken = new Map(); // id -> {token, added, special}
  #template;

  constructor(json) {
    const model = readModel(json);
    this.#normalize = readNormalizer(json);
    this.#preTokenize = readPreTokenizer(json);
    checkDecoder(json);
    const added = readAddedTokens(json);
    this.#template = readTemplate(json);
    this.#model = new BytePairModel(model);
    for (const [token, id] of model.vocab) this.#idToToken.set(id, { token, added: false, special: false });
    for (const { id, content, special } of added)
      this.#idToToken.set(id, { token: content, added: true, special: special === true });
    this.#addedSorted = [...added].sort((a, b) => b.content.length - a.content.length);
    this.#addedRegex = addedTokenRegex(this.#addedSorted);
  }

  get vocabSize() {
    return this.#idToToken.size;
  }

  /** The ids of a text that holds no added token: normalized, pre-tokenized, each word merged. */
  #encodePlain(text, ids) {
    for (const word of this.#preTokenize(this.#normalize(text))) ids.push(...this.#model.encodeWord(word));
  }

  /**
   * `text` -> {ids, tokens, pieces}: `tokens[i]` is token i as a reader sees
   * it ("Hello", " world", "<0xE6>" for a partial character), `pieces` the
   * same with ids, bytes and whether it is special (for token chips).
   */
  encode(text, { addSpecialTokens = false } = {}) {
    if (typeof text !== 'string') throw wrongType('text', 'a string', text);
    const ids = [...(addSpecialTokens ? this.#template[0] : [])];
    let at = 0;
    if (this.#addedRegex) {
      for (const match of text.matchAll(this.#addedRegex)) {
        this.#encodePlain(text.slice(at, match.index), ids);
        const which = match.slice(1).findIndex((group) => group !== undefined);
        ids.push(this.#addedSorted[which].id);
        at = match.index + match[0].length;
      }
    }
    this.#encodePlain(text.slice(at), ids);
    if (addSpecialTokens) ids.push(...this.#template[1]);
    const pieces = this.pieces(ids);
    return { ids, tokens: pieces.map((piece) => piece.text), pieces };
  }

  /** Each id as a TokenPiece; an id that is none of the tokenizer's is an error on "ids[i]". */
  pieces(ids) {
    return this.#entries(ids).map(({ id, token, added, special }) => {
      const bytes = (added ? null : fromByteLevel(token)) ?? [...utf8.encode(token)];
      return { id, text: added ? token : readableBytes(bytes), bytes, special };
    });
  }

  /**
   * ids -> text, as Hugging Face's ByteLevel decoder: every token's bytes
   * joined, then read as UTF-8 (an invalid sequence as U+FFFD). An added
   * token whose content is not byte-level characters is its own UTF-8.
   */
  decode(ids, { skipSpecialTokens = false } = {}) {
    const bytes = [];
    for (const { token, special } of this.#entries(ids)) {
      if (skipSpecialTokens && special) continue;
      const own = fromByteLevel(token);
      if (own) bytes.push(...own);
      else bytes.push(...utf8.encode(token));
    }
    return new TextDecoder().decode(Uint8Array.from(bytes));
  }

  #entries(ids) {
    if (!Array.isArray(ids)) throw wrongType('ids', 'an array', ids);
    return ids.map((id, i) => {
      const entry = this.#idToToken.get(id);
      if (!entry)
        throw AttentionConfigError.of(`ids[${i}]`, 'tokenizer-unknown-id', { field: `ids[${i}]`, got: shown(id) });
      return { id, ...entry };
    });
  }
}

/**
 * A tokenizer from the text of a tokenizer.json (or the parsed object).
 * Throws an AttentionConfigError whose field is the JSON path of what it
 * cannot read ("tokenizer.json.model.type") and whose code and params the
 * UI translates (web/i18n: error.tokenizer-*).
 * @param {string | object} source
 * @returns {Tokenizer}
 */
export function loadTokenizer(source) {
  let json = source;
  if (typeof source === 'string') {
    try {
      json = JSON.parse(source);
    } catch (error) {
      throw AttentionConfigError.of(ROOT, 'tokenizer-not-json', { reason: error.message });
    }
  }
  if (!isObject(json)) throw wrongType(ROOT, 'an object', json);
  return new BpeTokenizer(json);
}
