// lab.decode and lab.flash: the KV cache's rows bit-identical to the full
// causal run, the online softmax within float32 rounding of the plain one,
// both against PyTorch's loops (tests/reference/fixtures/steppers, worst
// differences printed), and their errors named and translated.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { AttentionConfigError, SCHEMA, loadAttentionLab } from '../../web/api/index.js';
import { errorText, loadLanguage } from '../../web/i18n/index.js';
import { fixtureDir } from './fixtures.js';

const stepperDir = `${fixtureDir}steppers/`;
const stepperNames = JSON.parse(readFileSync(`${stepperDir}index.json`, 'utf8'));
const readStepper = (name) => JSON.parse(readFileSync(`${stepperDir}${name}.json`, 'utf8'));
const fromFixture = (x) => (typeof x === 'string' ? Number(x) : x);

let lab;
beforeAll(async () => {
  lab = await loadAttentionLab();
});

/** The largest |got - want| where want is a number; NaN in want must be NaN in got. */
function worstDifference(got, want, what) {
  const data = want.data.map(fromFixture);
  expect(got.length, what).toBe(data.length);
  let worst = 0;
  data.forEach((w, k) => {
    if (Number.isNaN(w)) expect(got[k], `${what}[${k}]`).toBeNaN();
    else if (!Number.isFinite(w)) expect(got[k], `${what}[${k}]`).toBe(w);
    else worst = Math.max(worst, Math.abs(got[k] - w));
  });
  return worst;
}

const sameBits = (a, b) =>
  new Uint32Array(a.buffer, a.byteOffset, a.length).every(
    (x, k) => x === new Uint32Array(b.buffer, b.byteOffset, b.length)[k],
  );

const DECODE_CONFIGS = [
  { text: 'the cat sat on the mat', dModel: 8, numHeads: 2, mask: 'causal' },
  { text: 'a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d', dModel: 64, numHeads: 4, mask: 'causal' },
  { texts: ['the cat sat', 'a dog ran far away'], dModel: 12, numHeads: 3, mask: 'causal+padding' },
  {
    text: 'the llama reads one token at a time',
    dModel: 16,
    numHeads: 8,
    numKVHeads: 2,
    rope: { style: 'rotate-half' },
    mask: 'causal',
  },
  {
    text: 'a b c d e f g h i j',
    dModel: 8,
    numHeads: 2,
    numKVHeads: 1,
    qkNorm: true,
    rope: { style: 'interleaved' },
    mask: 'causal',
    window: 3,
    sinkTokens: 1,
    sinkLogit: 0.5,
  },
  {
    text: 'every variant in a cached decode',
    dModel: 12,
    numHeads: 6,
    numKVHeads: 3,
    alibi: true,
    softcap: 2,
    mask: 'causal',
    sinkLogit: -1,
  },
];

describe('lab.decode', () => {
  test.each(DECODE_CONFIGS.map((c) => [JSON.stringify(c).slice(0, 60), c]))(
    'every row equals the full causal run bit for bit: %s',
    (_, config) => {
      const d = lab.decode(config, { batch: (config.texts?.length ?? 1) - 1 });
      expect(d.rows).toBe(d.sizes.S * d.sizes.H);
      expect(d.identicalRows).toBe(d.rows);
      const { S, H } = d.sizes;
      for (let t = 0; t < S; t++)
        for (let h = 0; h < H; h++) {
          const at = (t * H + h) * S;
          expect(sameBits(d.weights.subarray(at, at + t + 1), d.fullWeights.subarray(at, at + t + 1))).toBe(true);
          expect(d.weights.subarray(at + t + 1, at + S).every(Number.isNaN)).toBe(true);
        }
    },
  );

  test('is_causal=True on one query sees only key 0; the cache bytes of MHA, GQA and MQA', () => {
    const d = lab.decode({ text: 'the llama reads one token', dModel: 16, numHeads: 8, numKVHeads: 2, mask: 'causal' });
    const { S, H, H_kv: Hkv, headDim } = d.sizes;
    expect([H, Hkv, headDim]).toEqual([8, 2, 2]);
    for (let t = 0; t < S; t++) {
      expect(Array.from(d.isCausalOneQuery.subarray(t * S, t * S + t + 1))).toEqual([1, ...Array(t).fill(0)]);
      expect(d.cacheBytes.mha[t]).toBe(2 * (t + 1) * 8 * 2 * 4);
      expect(d.cacheBytes.gqa[t]).toBe(2 * (t + 1) * 2 * 2 * 4);
      expect(d.cacheBytes.mqa[t]).toBe(2 * (t + 1) * 1 * 2 * 4);
    }
    expect(d.newKeys.length).toBe(S * Hkv * headDim);
  });
});

describe('lab.flash', () => {
  test('equals the plain softmax within float32 rounding for tiles from 1×1 to larger than S', () => {
    let worst = 0;
    let identical = 0;
    let total = 0;
    const config = { text: 'the cat sat on the mat today', dModel: 8, numHeads: 2, mask: 'causal' };
    for (const [tileQueries, tileKeys] of [
      [1, 1],
      [2, 2],
      [2, 3],
      [3, 1],
      [64, 64],
    ])
      for (const head of [0, 1]) {
        const f = lab.flash(config, { head, tileQueries, tileKeys });
        expect(f.tiles.length).toBe(Math.ceil(7 / tileQueries) * Math.ceil(7 / tileKeys));
        f.output.forEach((x, k) =>
          expect(Math.abs(x - f.plain[k])).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(f.plain[k]))),
        );
        expect(f.maxAbsDifference).toBe(Math.max(...f.output.map((x, k) => Math.abs(x - f.plain[k]))));
        worst = Math.max(worst, f.maxAbsDifference);
        identical += f.identical;
        total += f.total;
      }
    console.log(
      `online softmax vs plain: worst |difference| ${worst.toExponential(2)}, ${identical} of ${total} bit-identical`,
    );
    expect(identical).toBeGreaterThan(0);
  });

  test('tiles larger than the sentence are the sentence: one tile per axis, S entries of state, no error', () => {
    const config = { text: 'the cat sat on the mat', dModel: 8, numHeads: 2, mask: 'causal' };
    for (const size of [6, 7, 100_000, 1_000_000, 2 ** 31 - 1]) {
      const f = lab.flash(config, { tileQueries: size, tileKeys: size });
      expect(f.sizes).toMatchObject({ S: 6, S_kv: 6, tileQueries: 6, tileKeys: 6 });
      expect(f.tiles).toEqual([{ queryStart: 0, queryEnd: 6, keyStart: 0, keyEnd: 6, skipped: false }]);
      expect(f.runningMax.length).toBe(6);
      expect(f.partialOutput.length).toBe(6 * 4);
    }
    // Only small tiles can be too many; the advice to choose larger ones is then the right one.
    const long = { text: Array.from({ length: 500 }, (_, i) => `w${i}`).join(' '), dModel: 64, numHeads: 1 };
    const error = (() => {
      try {
        lab.flash(long, { tileQueries: 1, tileKeys: 1 });
      } catch (e) {
        return e;
      }
    })();
    expect(error?.code).toBe('too-many-tiles');
    expect(Number(error.params.limit)).toBeGreaterThan(0);
  });
});

describe('the steppers against PyTorch', () => {
  test.each(stepperNames)('%s', (name) => {
    const { kind, config, options, expected } = readStepper(name);
    const got = lab[kind](config, options);
    const arrays = Object.keys(expected).filter((key) => expected[key]?.data);
    const worst = Math.max(...arrays.map((key) => worstDifference(got[key], expected[key], `${name} ${key}`)));
    if (kind === 'decode') {
      expect(got.tokens).toEqual(expected.tokens);
      expect(got.sizes).toEqual(expected.sizes);
      expect(got.cacheBytes).toEqual(expected.cacheBytes);
      expect(got.identicalRows).toBe(got.rows);
    } else {
      expect(got.tiles).toEqual(expected.tiles);
      expect(got.total).toBe(expected.total);
    }
    console.log(`${name}: worst difference from PyTorch ${worst.toExponential(2)}`);
    expect(worst).toBeLessThanOrEqual(1e-5);
  });
});

describe('stepper errors', () => {
  const CODES = new Map(SCHEMA.errors.map((kind) => [kind.code, kind]));
  const errorOf = (call) => {
    try {
      call();
    } catch (error) {
      return error;
    }
    throw new Error('expected an error');
  };
  test.each([
    ['decode', { text: 'a b', contextText: 'c d', mask: 'causal' }, {}, 'contextText', 'decode-needs-self-attention'],
    ['decode', { text: 'a b' }, {}, 'mask', 'decode-needs-causal'],
    ['decode', { text: 'a b', model: 'tiny' }, {}, 'model', 'stepper-needs-attention-model'],
    ['flash', { text: 'a b', model: 'tiny' }, {}, 'model', 'stepper-needs-attention-model'],
    ['decode', { text: 'a b', mask: 'causal', score: 'additive' }, {}, 'score', 'decode-needs-dot-score'],
    ['decode', { text: 'a b', mask: 'causal' }, { batch: 1 }, 'options.batch', 'out-of-range'],
    ['decode', { text: 'a b', mask: 'causal' }, { batch: -1 }, 'options.batch', 'not-an-index'],
    ['flash', { text: 'a b' }, { tileQueries: 0 }, 'options.tileQueries', 'tile-size'],
    ['flash', { text: 'a b' }, { tileKeys: 1.5 }, 'options.tileKeys', 'tile-size'],
    ['flash', { text: 'a b' }, { head: 2 }, 'options.head', 'out-of-range'],
    ['flash', { text: 'a b', dModel: 0 }, {}, 'dModel', 'out-of-range'],
  ])('%s %j %j: %s %s', async (kind, config, options, field, code) => {
    const error = errorOf(() => lab[kind](config, options));
    expect(error).toBeInstanceOf(AttentionConfigError);
    expect([error.field, error.code]).toEqual([field, code]);
    const template = CODES.get(code);
    expect(Object.keys(error.params).sort()).toEqual([...template.params].sort());
    const zh = await loadLanguage('zh');
    expect(errorText(error, zh)).not.toBe(error.message); // said in Chinese
    // The instance keeps working.
    expect(lab.flash({ text: 'a b' }).total).toBe(2 * 4);
  });
});
