// The tiny trained model's view logic, without DOM: how its tokens (UTF-8
// bytes) are written, which heads the measured scores name, which byte the
// induction head should look at, the most likely next bytes, and the text
// typed twice. The bytes' labels are model/tiny-bytes.js's, shared with the
// CLI. The numbers come from the engine (lab.run({model: 'tiny'})),
// whose forward and scores are tests/reference/tiny/model.py and scores.py.

import { SCHEMA } from './schema.js';
import { asciiText, byteLabels as byteLabelParts, characterOf, hex, sequenceLength } from './tiny-bytes.js';

export { weightsFileName } from '../api/tiny-files.js';

/** "L2H1": head `head` of layer `layer` (both from 0), counted from 1 as the page and the report name them. */
export const headName = (layer, head) => `L${layer + 1}H${head + 1}`;

/** The bytes the model reads at most (its positions: the engine's kTinyContext). */
export const TINY_CONTEXT = SCHEMA.tinyModel.context;

/** The model's parameters (model.py): the byte and position embeddings, and 4 projections [d, d] per layer. */
export const TINY_PARAMETERS = (({ vocab, context, dModel, layers }) =>
  (vocab + context) * dModel + layers * 4 * dModel * dModel)(SCHEMA.tinyModel);

/** The shortest run of bytes typed again that makes a repeat (the engine's kTinyMinRepeat). */
export const MIN_REPEAT = SCHEMA.tinyModel.minRepeat;

/**
 * A head is named by a measured score at or above these. Previous-token:
 * the mean weight a byte gives the byte just before it; a head with no
 * preference gives it 1/(i+1) at position i, about 0.06 on 64 bytes, and
 * from 0.5 on the previous byte outweighs all the others together.
 * Induction: the mean weight a byte of the repeat gives the byte that
 * followed its earlier copy; with no preference that is about 1/(i+1), near
 * 0.02 on 60 bytes, and 0.3 is over ten times that. Not higher: on a
 * sentence whose bytes repeat inside it ("The cat sat…" has four a's and
 * six spaces) the trained head splits its weight among every earlier copy
 * of the byte, and scores less than on random strings.
 */
export const PREVIOUS_TOKEN_THRESHOLD = 0.5;
export const INDUCTION_THRESHOLD = 0.3;

/** The sentences typed twice by default, per UI language (the training report's probes). */
export const TWICE_SENTENCES = { en: 'The cat sat on the warm mat.', zh: '今天我们学习注意力。' };

const encoder = new TextEncoder();
/** The UTF-8 bytes of a text. */
export const utf8Bytes = (text) => encoder.encode(text);

const isContinuation = (b) => b >= 0x80 && b <= 0xbf;

/** A label per byte of `ids` (model/tiny-bytes.js): "T", "␣", "↵", "春 1/3", "0xE6". */
export const byteLabels = (ids) => byteLabelParts(Array.from(ids)).map((label) => label.text);

/**
 * The label of byte `b` predicted after position i of `ids`: ASCII as in
 * byteLabels; a byte that completes or continues the character begun before
 * it as that character's part ("春 3/3", or "0x98 2/3" while the character is
 * not complete yet); otherwise hex.
 */
export function nextByteLabel(ids, i, b) {
  if (b < 0x80) return asciiText(b);
  // The start of the character that position i is in, if that character is not complete at i.
  let start = i + 1;
  for (let k = i; k >= 0 && k > i - 3; k--) {
    if (!isContinuation(ids[k])) {
      start = k;
      break;
    }
  }
  const length = start <= i ? sequenceLength(ids[start]) : 0;
  const done = i + 1 - start;
  if (length > 1 && done < length && isContinuation(b)) {
    const prefix = [...Array.from(ids.slice(start, i + 1)), b];
    if (prefix.length === length) {
      const character = characterOf(prefix);
      return character ? `${character} ${length}/${length}` : hex(b);
    }
    return `${hex(b)} ${prefix.length}/${length}`;
  }
  const starts = sequenceLength(b);
  return starts > 1 ? `${hex(b)} 1/${starts}` : hex(b);
}

/** n when the bytes are exactly s + s with |s| = n ≥ 1, else null ("Type it twice" keeps s). */
export function repeatLengthOf(ids) {
  const T = ids.length;
  if (T < 2 || T % 2) return null;
  const n = T / 2;
  for (let i = 0; i < n; i++) if (ids[i] !== ids[i + n]) return null;
  return n;
}

/**
 * The longest prefix of whole characters of `text` within `limit` UTF-8
 * bytes, and whether it was cut (the probes' fit()).
 */
export function fitBytes(text, limit) {
  let out = '';
  let bytes = 0;
  for (const character of text) {
    const size = utf8Bytes(character).length;
    if (bytes + size > limit) return { text: out, cut: true };
    out += character;
    bytes += size;
  }
  return { text: out, cut: false };
}

/** A text that cannot be typed twice: code "twice-empty" (nothing to repeat). */
export class TwiceError extends Error {
  constructor(code) {
    super(code);
    this.name = 'TwiceError';
    this.field = 'text';
    this.code = code;
  }
}

/**
 * `text` typed twice, to fit the model's context: s + s where s is the text
 * (its first copy when it is already typed twice), cut at a character
 * boundary to at most half the context. {text, n (bytes of s), cut}. A text
 * that is empty, or whose first character alone is too long, is a TwiceError.
 */
export function typedTwice(text, context = TINY_CONTEXT) {
  const bytes = utf8Bytes(text);
  const n = repeatLengthOf(bytes);
  const first = n ? new TextDecoder().decode(bytes.slice(0, n)) : text;
  const { text: s, cut } = fitBytes(first, Math.floor(context / 2));
  if (s === '') throw new TwiceError('twice-empty');
  return { text: s + s, n: utf8Bytes(s).length, cut };
}

/**
 * What the head scores name: per layer and head {layer, head (from 0),
 * previousToken, induction (null when the text is not typed twice), kind:
 * 'induction' | 'previous-token' | null}. Induction first: an induction head
 * that also leans on the previous byte is named by what only it does. `floors`
 * raise the thresholds (an opened checkpoint's: checkpointHeadLabels).
 */
export function headLabels(headScores, layers = 2, heads = 4, floors = { previousToken: 0, induction: 0 }) {
  const labels = [];
  const previousFloor = Math.max(PREVIOUS_TOKEN_THRESHOLD, floors.previousToken);
  const inductionFloor = Math.max(INDUCTION_THRESHOLD, floors.induction);
  for (let l = 0; l < layers; l++) {
    for (let h = 0; h < heads; h++) {
      const previousToken = headScores?.previousToken?.[l]?.[h] ?? null;
      const induction = headScores?.induction?.[l]?.[h] ?? null;
      let kind = null;
      if (induction !== null && induction >= inductionFloor) kind = 'induction';
      else if (previousToken !== null && previousToken >= previousFloor) kind = 'previous-token';
      labels.push({ layer: l, head: h, previousToken, induction, kind });
    }
  }
  return labels;
}

/** The index of the largest value (the first of equals), or -1 for none. */
function argmax(values) {
  let best = -1;
  for (let k = 0; k < values.length; k++) if (best < 0 || values[k] > values[best]) best = k;
  return best;
}

/**
 * The heads that take part in the composition: layer 1's head with the
 * highest previous-token score and layer 2's with the highest induction
 * score, as {previous: h, induction: h} (h from 0; induction null when the
 * text is not typed twice). Measured, so at step 0 they are whichever heads
 * are highest, and named only when headLabels names them.
 */
export function compositionHeads(headScores) {
  const previous = headScores?.previousToken ? argmax(headScores.previousToken[0]) : null;
  const induction = headScores?.induction ? argmax(headScores.induction[1]) : null;
  return { previous, induction };
}

/** Whether position i is in the repeat (repeatTargets: the engine's headScores.repeatTargets). */
export const inRepeat = (repeatTargets, i) => (repeatTargets?.[i] ?? -1) >= 0;

/**
 * For the query byte at position i: j, the earlier byte that matches it (in
 * the repeat, the one before its target t(i), the engine's repeatTargets[i];
 * else the earliest earlier equal byte whose next byte is before i), and the
 * key j + 1, the byte that followed it, which an induction head at i reads
 * and copies. {query: i, match: j, key: j + 1}, or null when no earlier byte
 * matches.
 */
export function compositionPick(ids, i, repeatTargets = []) {
  if (inRepeat(repeatTargets, i)) return { query: i, match: repeatTargets[i] - 1, key: repeatTargets[i] };
  for (let j = 0; j + 1 < i; j++) if (ids[j] === ids[i]) return { query: i, match: j, key: j + 1 };
  return null;
}

/**
 * The query the composition view starts with: the first byte of the repeat
 * (before the last byte) whose earliest earlier match is the one before its
 * target, so the induction head has one byte to find; else the repeat's
 * first byte; null when there is no repeat.
 */
export function defaultQuery(ids, repeatTargets = []) {
  const repeat = [...ids.keys()].filter((i) => inRepeat(repeatTargets, i));
  if (repeat.length === 0) return null;
  return repeat.find((i) => i + 1 < ids.length && ids.indexOf(ids[i]) === repeatTargets[i] - 1) ?? repeat[0];
}

/**
 * The cells (i, t(i)) of the repeat as diagonal runs, each {row, column,
 * length}: the consecutive positions whose targets follow each other, as
 * the head's stripe is drawn.
 */
export function repeatStripes(repeatTargets = []) {
  const stripes = [];
  repeatTargets.forEach((t, i) => {
    if (t < 0) return;
    const last = stripes[stripes.length - 1];
    if (last && last.row + last.length === i && last.column + last.length === t) last.length++;
    else stripes.push({ row: i, column: t, length: 1 });
  });
  return stripes;
}

/**
 * The k most likely next bytes at position i of probs [T, 256] ({shape,
 * data}): [{byte, p}], most likely first, equal ones by byte.
 */
export function topNextBytes(probs, i, k = 5) {
  const V = probs.shape[1];
  const row = probs.data.subarray(i * V, (i + 1) * V);
  return Array.from(row, (p, byte) => ({ byte, p }))
    .sort((a, b) => b.p - a.p || a.byte - b.byte)
    .slice(0, k);
}

/**
 * The second copy byte by byte: for each position i of the repeat before
 * the last byte, the model's top byte after i (argmax of probs, as
 * scores.py's second_copy) against the byte that follows, ids[i + 1].
 * [{position: i + 1, predicted, right}]; empty when the text has no repeat.
 */
export function secondCopyMarks(ids, probs, repeatTargets = []) {
  const marks = [];
  for (let i = 0; i + 1 < ids.length; i++) {
    if (!inRepeat(repeatTargets, i)) continue;
    const predicted = topNextBytes(probs, i, 1)[0].byte;
    marks.push({ position: i + 1, predicted, right: predicted === ids[i + 1] });
  }
  return marks;
}

/** The checkpoint step nearest to `step` among `checkpoints` (the slider's stops). */
export function nearestCheckpoint(checkpoints, step) {
  return checkpoints.reduce((best, c) => (Math.abs(c - step) < Math.abs(best - step) ? c : best), checkpoints[0]);
}
