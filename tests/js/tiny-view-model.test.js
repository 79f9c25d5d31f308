// The tiny model's view logic (web/model/tiny.js) on small hand-made inputs,
// and its "Copy as PyTorch" program run with Debian's PyTorch 1.13 against
// the committed weights: it prints the training report's numbers (the report
// was written by PyTorch too, tests/reference/tiny/report.py).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import {
  INDUCTION_THRESHOLD,
  PREVIOUS_TOKEN_THRESHOLD,
  TWICE_SENTENCES,
  byteLabels,
  compositionHeads,
  compositionPick,
  defaultQuery,
  fitBytes,
  headLabels,
  nextByteLabel,
  MIN_REPEAT,
  TINY_CONTEXT,
  TINY_PARAMETERS,
  repeatLengthOf,
  repeatStripes,
  secondCopyMarks,
  topNextBytes,
  typedTwice,
  utf8Bytes,
  weightsFileName,
} from '../../web/model/tiny.js';
import { SCHEMA } from '../../web/model/schema.js';
import { tinyPytorchScript } from '../../web/model/tiny-pytorch.js';
import { TRAINING_CURVE, phaseChange } from '../../web/view/trained/checkpoints.js';
import { runPythonScripts } from './python-batch.js';

const bytes = (text) => Array.from(utf8Bytes(text));
const report = JSON.parse(readFileSync(new URL('../reference/tiny/report.json', import.meta.url), 'utf8'));
const weightsDir = fileURLToPath(new URL('../../web/api/tiny/', import.meta.url));

describe('byte labels', () => {
  test('ASCII as the character, space, newline and tab as ␣ ↵ ⇥, other control bytes in hex', () => {
    expect(byteLabels(bytes('a b\nc\t\x01'))).toEqual(['a', '␣', 'b', '↵', 'c', '⇥', '0x01']);
  });

  test('a multi-byte character as the character with its part', () => {
    expect(byteLabels(bytes('春a'))).toEqual(['春 1/3', '春 2/3', '春 3/3', 'a']);
    expect(byteLabels(bytes('é😀'))).toEqual(['é 1/2', 'é 2/2', '😀 1/4', '😀 2/4', '😀 3/4', '😀 4/4']);
  });

  test('bytes outside a valid character in hex, one label per byte', () => {
    // A cut character (春's first two bytes) and a stray continuation byte.
    const ids = [...bytes('春').slice(0, 2), 0x41, 0x80];
    expect(byteLabels(ids)).toEqual(['0xE6', '0x98', 'A', '0x80']);
  });

  test('a predicted byte: ASCII as the character, the end of a begun character as that character', () => {
    const ids = bytes('a春');
    expect(nextByteLabel(ids, 0, 0x20)).toBe('␣');
    expect(nextByteLabel(ids, 2, ids[3])).toBe('春 3/3'); // after 春's first two bytes
    expect(nextByteLabel(ids, 1, ids[2])).toBe('0x98 2/3'); // the character is not complete yet
    expect(nextByteLabel(ids, 0, 0xe6)).toBe('0xE6 1/3'); // the start of a 3-byte character
    expect(nextByteLabel(ids, 3, 0x80)).toBe('0x80'); // a continuation byte after a whole character
  });
});

describe('typed twice', () => {
  test('repeatLengthOf: n for s + s, else null', () => {
    expect(repeatLengthOf(bytes('abcabc'))).toBe(3);
    expect(repeatLengthOf(bytes('abcabd'))).toBeNull();
    expect(repeatLengthOf(bytes('abc'))).toBeNull();
    expect(repeatLengthOf(bytes('a'))).toBeNull();
  });

  test('the default sentences typed twice fit the context, and are the training report’s', () => {
    for (const [lang, sentence] of Object.entries(TWICE_SENTENCES)) {
      expect(utf8Bytes(sentence).length * 2, lang).toBeLessThanOrEqual(TINY_CONTEXT);
      expect(Object.values(report.probes.sentences)).toContain(sentence + sentence);
    }
  });

  test('the sizes come from the engine: 256 bytes of context, runs of 4 bytes, the report’s parameter count', () => {
    expect(TINY_CONTEXT).toBe(report.model.context);
    expect(TINY_CONTEXT).toBe(256);
    expect(MIN_REPEAT).toBe(4);
    expect(TINY_PARAMETERS).toBe(report.model.parameters);
  });

  test('typedTwice: s + s; an already doubled text keeps its first copy', () => {
    expect(typedTwice('abc')).toEqual({ text: 'abcabc', n: 3, cut: false });
    expect(typedTwice('abcabc')).toEqual({ text: 'abcabc', n: 3, cut: false });
  });

  test('typedTwice cuts at a character boundary to half the context, 128 bytes', () => {
    const long = '今天我们学习注意力，明天我们复习。'.repeat(3); // 51 characters of 3 bytes
    const { text, n, cut } = typedTwice(long);
    expect(cut).toBe(true);
    expect(n).toBe(126); // 42 characters: a 43rd would make 129 bytes
    expect(text).toBe(long.slice(0, 42).repeat(2));
    expect(utf8Bytes(text).length).toBeLessThanOrEqual(TINY_CONTEXT);
    expect(fitBytes('ab春', 4)).toEqual({ text: 'ab', cut: true });
  });

  test('typedTwice of nothing is an error on the text field', () => {
    expect(() => typedTwice('')).toThrow(expect.objectContaining({ field: 'text', code: 'twice-empty' }));
  });
});

describe('heads', () => {
  const scores = {
    previousToken: [
      [0.15, 0.2, 0.08, 0.98],
      [0.19, 0.03, 0.5, 0.13],
    ],
    induction: [
      [0.001, 0.01, 0, 0],
      [0.01, 0.74, 0.001, 0.299],
    ],
  };

  test('named by their scores at the thresholds; induction before previous-token', () => {
    const labels = headLabels(scores);
    const named = labels.filter((h) => h.kind).map((h) => [`L${h.layer + 1}H${h.head + 1}`, h.kind]);
    expect(named).toEqual([
      ['L1H4', 'previous-token'],
      ['L2H2', 'induction'],
      ['L2H3', 'previous-token'], // exactly at the threshold
    ]);
    expect(PREVIOUS_TOKEN_THRESHOLD).toBe(0.5);
    expect(INDUCTION_THRESHOLD).toBe(0.3);
    expect(labels[7]).toMatchObject({ induction: 0.299, kind: null }); // just under
  });

  test('without a text typed twice only previous-token heads are named; no scores, none', () => {
    const labels = headLabels({ previousToken: scores.previousToken, induction: null });
    expect(labels.filter((h) => h.kind === 'induction')).toEqual([]);
    expect(labels[3].induction).toBeNull();
    expect(headLabels({ previousToken: null, induction: null }).every((h) => h.kind === null)).toBe(true);
  });

  test('the composition heads: layer 1’s best previous-token head, layer 2’s best induction head', () => {
    expect(compositionHeads(scores)).toEqual({ previous: 3, induction: 1 });
    expect(compositionHeads({ previousToken: scores.previousToken, induction: null })).toEqual({
      previous: 3,
      induction: null,
    });
  });

  test('the training report’s final scores name L1H1, and L2H2 and L2H4 (two induction heads), only', () => {
    const named = headLabels(report.final).filter((h) => h.kind);
    expect(named.map((h) => [h.layer, h.head, h.kind])).toEqual([
      [0, 0, 'previous-token'],
      [1, 1, 'induction'],
      [1, 3, 'induction'],
    ]);
    // And at step 0 (random weights) none.
    expect(headLabels(report.curve[0]).filter((h) => h.kind)).toEqual([]);
  });
});

describe('composition and next bytes', () => {
  // The engine's repeatTargets of "abca abca" (the copy after the space: 5 … 8 look at 1 … 4).
  const spaced = [-1, -1, -1, -1, -1, 1, 2, 3, 4];

  test('a query of the repeat: the byte before its target t(i), and the key t(i)', () => {
    const ids = bytes('abca abca');
    expect(compositionPick(ids, 7, spaced)).toEqual({ query: 7, match: 2, key: 3 });
    // The second copy's "a" at 8: its own copy at 3, though "a" was at 0 too.
    expect(compositionPick(ids, 8, spaced)).toEqual({ query: 8, match: 3, key: 4 });
  });

  test('outside a text typed twice: the earliest earlier equal byte with a byte after it before i', () => {
    const ids = bytes('xyzxq');
    expect(compositionPick(ids, 3, [-1, -1, -1, -1, -1])).toEqual({ query: 3, match: 0, key: 1 });
    expect(compositionPick(ids, 4)).toBeNull();
    expect(compositionPick(bytes('aab'), 1)).toBeNull(); // the key would be the query itself
  });

  test('the default query: the first byte of the repeat whose earliest match is the one before its target', () => {
    // "abaxabax": the repeat 4 … 7 looks at 1 … 4; "a" at 4 matches 0 (its target 1), the first that does.
    expect(defaultQuery(bytes('abaxabax'), [-1, -1, -1, -1, 1, 2, 3, 4])).toBe(4);
    // "abca abca": "a" at 5 matches 0 (target 1).
    expect(defaultQuery(bytes('abca abca'), spaced)).toBe(5);
    // "aaaaaa": none qualifies (each "a" matches 0 first): the repeat's first byte.
    expect(defaultQuery(bytes('aaaaaa'), [-1, -1, -1, -1, 3, 4])).toBe(4);
    expect(defaultQuery(bytes('abc'), [-1, -1, -1])).toBeNull();
  });

  test('the repeat as diagonal stripes of cells (i, t(i))', () => {
    expect(repeatStripes(spaced)).toEqual([{ row: 5, column: 1, length: 4 }]);
    // Two runs: a jump in the targets starts another stripe.
    expect(repeatStripes([-1, -1, 1, 2, 7, 8, -1])).toEqual([
      { row: 2, column: 1, length: 2 },
      { row: 4, column: 7, length: 2 },
    ]);
    expect(repeatStripes([-1, -1])).toEqual([]);
  });

  test('top next bytes: most likely first, equal ones by byte', () => {
    const data = new Float32Array(2 * 256);
    data.set([0.1, 0.3, 0.3], 256);
    data[256 + 200] = 0.2;
    const probs = { shape: [2, 256], data };
    expect(topNextBytes(probs, 1, 4)).toEqual([
      { byte: 1, p: expect.closeTo(0.3, 6) },
      { byte: 2, p: expect.closeTo(0.3, 6) },
      { byte: 200, p: expect.closeTo(0.2, 6) },
      { byte: 0, p: expect.closeTo(0.1, 6) },
    ]);
  });

  test('second-copy marks: the top byte after each position of the repeat (before the last) against the next byte', () => {
    const ids = bytes('abab'); // a repeat at 2 … 3 (targets as given): one prediction, at 2, of byte 3 ("b")
    const targets = [-1, -1, 1, 2];
    const data = new Float32Array(4 * 256);
    data[2 * 256 + 98] = 0.9; // "b" after position 2: right
    expect(secondCopyMarks(ids, { shape: [4, 256], data }, targets)).toEqual([
      { position: 3, predicted: 98, right: true },
    ]);
    data[2 * 256 + 99] = 0.95; // "c" wins: wrong
    expect(secondCopyMarks(ids, { shape: [4, 256], data }, targets)).toEqual([
      { position: 3, predicted: 99, right: false },
    ]);
    expect(secondCopyMarks(bytes('abc'), { shape: [3, 256], data }, [-1, -1, -1])).toEqual([]);
  });

  test('the phase change: the last saved step well under the induction threshold, the first at or over it', () => {
    const curve = [0, 100, 200, 300, 400].map((step, k) => ({ step, induction: [0.02, 0.05, 0.2, 0.5, 0.7][k] }));
    expect(phaseChange(curve, [0, 200, 300, 400])).toEqual({ from: curve[0], to: curve[3] });
    expect(phaseChange(curve, [0, 100, 400])).toEqual({ from: curve[1], to: curve[4] });
    expect(phaseChange(curve, [0, 100])).toBeNull(); // never crosses
    // The shipped curve: between the slider's stops the report's curve shows the jump.
    const shipped = phaseChange(TRAINING_CURVE, SCHEMA.tinyModel.checkpoints);
    expect(shipped).not.toBeNull();
    expect(shipped.from.induction).toBeLessThan(INDUCTION_THRESHOLD / 3);
    expect(shipped.to.induction).toBeGreaterThanOrEqual(INDUCTION_THRESHOLD);
    expect(report.curve.find((c) => c.step === shipped.to.step).secondCopy.loss).toBe(shipped.to.secondCopyLoss);
  });

  test('weights file names', () => {
    expect(weightsFileName(0)).toBe('step-0000.safetensors');
    expect(weightsFileName(11000)).toBe('step-11000.safetensors');
  });
});

// ---- "Copy as PyTorch" -------------------------------------------------------------

/** Runs the programs in the weights folder (the file is there: no download) -> [{printed, tensors}]. */
const runPrograms = (scripts) => runPythonScripts(scripts, { cwd: weightsDir });

/** The same text through tests/reference/tiny/model.py and scores.py: the reference's own forward, as a program. */
function referenceProgram(text, step) {
  return `
import json, sys, torch
sys.path.insert(0, ${JSON.stringify(fileURLToPath(new URL('../reference/tiny/', import.meta.url)))})
from model import load_safetensors, encode
from scores import previous_token_score, induction_score
m = load_safetensors(${JSON.stringify(`${weightsDir}${weightsFileName(step)}`)})
ids = encode(${JSON.stringify(text)}); keep = {}
with torch.no_grad():
    m(ids, keep)
print(json.dumps({
  "probs": keep["probs"].flatten().tolist(),
  "previousToken": [previous_token_score(l["weights"]).tolist() for l in keep["layers"]],
  "induction": [induction_score(l["weights"], ids.tolist()).tolist() for l in keep["layers"]],
}))
`;
}

describe('Copy as PyTorch', () => {
  const url = 'https://example.org/tiny/step-11000.safetensors';

  test('names the weights file and its download address, and holds the text', () => {
    const script = tinyPytorchScript({ text: 'héllo "x"', checkpoint: 500, url });
    expect(script).toContain('WEIGHTS = "step-0500.safetensors"');
    expect(script).toContain(`URL = "${url}"`);
    expect(script).toContain('TEXT = "héllo \\"x\\""');
    expect(script).toContain('urllib.request.urlretrieve(URL, WEIGHTS)');
  });

  for (const [name, step, key] of [
    ['step 11000', 11000, 'final'],
    ['step 0', 0, 0],
  ]) {
    test(`${name}: the second copy of each probe sentence as the training report has it`, () => {
      const measured = key === 'final' ? report.final : report.curve.find((c) => c.step === step);
      const sentences = Object.values(measured.sentences);
      const runs = runPrograms(sentences.map(({ text }) => tinyPytorchScript({ text, checkpoint: step, url })));
      for (const [k, { text, correct, total, loss }] of sentences.entries()) {
        const { printed } = runs[k];
        const match = printed.match(/second copy: (\d+)\/(\d+) next bytes right, loss ([\d.]+)/);
        expect(match, text).not.toBeNull();
        expect([Number(match[1]), Number(match[2])], text).toEqual([correct, total]);
        expect(Number(match[3]), text).toBeCloseTo(loss, 4);
      }
    });
  }

  test('prints the same probabilities and head scores as the reference model.py', () => {
    const text = TWICE_SENTENCES.zh.repeat(2);
    const [{ tensors, printed }, ran] = runPrograms([
      tinyPytorchScript({ text, checkpoint: 11000, url, query: 40 }),
      referenceProgram(text, 11000),
    ]);
    const reference = JSON.parse(ran.printed);
    const T = utf8Bytes(text).length;
    expect(tensors.probs.shape).toEqual([T, 256]);
    expect(tensors['layers.1.weights'].shape).toEqual([4, T, T]);
    const worst = Math.max(...tensors.probs.data.map((p, k) => Math.abs(p - reference.probs[k])));
    expect(worst).toBeLessThan(1e-6);
    expect(tensors.previousToken.data).toEqual(reference.previousToken.flat().map((v) => expect.closeTo(v, 6)));
    expect(tensors.induction.data).toEqual(reference.induction.flat().map((v) => expect.closeTo(v, 6)));
    expect(printed).toContain('next byte after position 40:');
    expect(printed).toContain('layer 2 head 4 attention weights');
  });
});
