// The steppers' view models (web/model/steppers.js) on small figures shaped as
// lab.decode and lab.flash return them (index.d.ts): which cache rows a step
// shows, which KV head a query head reads, the tiles' running figures.
import { describe, expect, test } from 'vitest';
import {
  bytesText,
  cacheBytes,
  decodeStep,
  defaultTileSize,
  flashTile,
  identicalEntries,
  lastOfRow,
  sameBits,
  smallestTileSize,
  tileSizeOf,
} from '../../web/model/stepper-runs.js';
import { kvHeadOf } from '../../web/model/variant-math.js';

// S = 3 tokens, H = 2 query heads sharing H_kv = 1 KV head of dk = 2.
const S = 3;
const H = 2;
const dk = 2;
const rows = (fill) => Float32Array.from({ length: S * H * S }, (_, k) => fill(k));
const decoded = {
  tokens: ['a', 'b', 'c'],
  sizes: { S, H, H_kv: 1, headDim: dk, D: 4 },
  newKeys: Float32Array.of(1, 2, 3, 4, 5, 6), // [S, 1, dk]
  newValues: Float32Array.of(-1, -2, -3, -4, -5, -6),
  scores: rows((k) => k),
  weights: rows((k) => k / 100),
  fullWeights: rows((k) => (k === 14 ? 0.5 : k / 100)), // step 2, head 0, key 2 differs
  identicalRows: 5,
  rows: 6,
  isCausalOneQuery: Float32Array.of(1, NaN, NaN, 1, 0, NaN, 1, 0, 0),
  cacheBytes: { mha: [32, 64, 96], gqa: [16, 32, 48], mqa: [16, 32, 48] },
};

describe('decodeStep', () => {
  test('step t shows the first t + 1 cached keys and values of the KV head the query head reads', () => {
    const at = decodeStep(decoded, 1, 1);
    expect(at.g).toBe(0);
    expect(Array.from(at.keys)).toEqual([1, 2, 3, 4]);
    expect(Array.from(at.values)).toEqual([-1, -2, -3, -4]);
    // scores[t=1, h=1, :2]: (1 * 2 + 1) * 3 = 9
    expect(Array.from(at.scores)).toEqual([9, 10]);
    expect(Array.from(at.isCausal)).toEqual([1, 0]);
    expect(at.bytes).toEqual({ mha: 64, gqa: 32, mqa: 32 });
    expect(at.identical).toBe(true);
  });

  test('a row that differs from the full run in one entry is not identical', () => {
    expect(decodeStep(decoded, 2, 0).identical).toBe(false);
    expect(decodeStep(decoded, 2, 1).identical).toBe(true);
  });

  test('query heads share KV heads by repeat_interleave: h // (H / H_kv)', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((h) => kvHeadOf(h, 8, 2))).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    expect([0, 1, 2, 3].map((h) => kvHeadOf(h, 4, 4))).toEqual([0, 1, 2, 3]);
  });
});

test('cache bytes: 2 · n · heads · dk · 4', () => {
  expect(cacheBytes(5, 8, 4)).toBe(1280);
  expect(bytesText(96)).toBe('96 B');
  expect(bytesText(1536)).toBe('1.5 KiB');
  expect(bytesText(3 * 2 ** 20)).toBe('3 MiB');
});

test('bit-identical: NaN equals NaN, 0 is not −0, no rounding', () => {
  expect(sameBits(NaN, NaN)).toBe(true);
  expect(sameBits(0, -0)).toBe(false);
  expect(sameBits(Math.fround(0.1), Math.fround(0.1))).toBe(true);
  expect(identicalEntries(Float32Array.of(1, 2, NaN), Float32Array.of(1, 2.5, NaN))).toEqual([true, false, true]);
});

describe('tile sizes', () => {
  test('defaults: about a quarter of the rows, within [1, 64]', () => {
    expect(defaultTileSize(1)).toBe(1);
    expect(defaultTileSize(8)).toBe(2);
    expect(defaultTileSize(2048)).toBe(64);
  });
  test('a typed size is an integer within [smallest, S], else the last one', () => {
    expect(tileSizeOf('3', 8, 2)).toBe(3);
    expect(tileSizeOf('99', 8, 2)).toBe(8);
    expect(tileSizeOf('0', 8, 2)).toBe(1);
    expect(tileSizeOf('2.5', 8, 2)).toBe(2);
    expect(tileSizeOf('', 8, 2)).toBe(2);
    expect(smallestTileSize(512)).toBe(16); // at most 32 × 32 tiles
    expect(tileSizeOf('1', 512, 128)).toBe(16);
  });
});

describe('flashTile', () => {
  // S = 3, tiles of 2 queries × 2 keys, causal: (q0-1, k0-1), (q0-1, k2) skipped, (q2, k0-1), (q2, k2).
  const tiles = [
    { queryStart: 0, queryEnd: 2, keyStart: 0, keyEnd: 2, skipped: false },
    { queryStart: 0, queryEnd: 2, keyStart: 2, keyEnd: 3, skipped: true },
    { queryStart: 2, queryEnd: 3, keyStart: 0, keyEnd: 2, skipped: false },
    { queryStart: 2, queryEnd: 3, keyStart: 2, keyEnd: 3, skipped: false },
  ];
  const flashed = {
    tiles,
    runningMax: Float32Array.of(1, 2, 1, 2, 0.5, NaN, 0.9, NaN),
    runningSum: Float32Array.of(1, 1.5, 1, 1.5, 1, NaN, 1.7, NaN),
    rescale: Float32Array.of(0, 0, 1, 1, 0, NaN, 0.67, NaN),
    partialOutput: Float32Array.from({ length: 4 * 2 * dk }, (_, k) => k),
  };

  test('the first key tile of a row starts from m_old = −∞; a later one reads the tile before', () => {
    const first = flashTile(flashed, 0, 2, dk);
    expect(first.first).toBe(true);
    expect(first.rows.map((r) => r.i)).toEqual([0, 1]);
    expect(first.rows[0].mOld).toBe(-Infinity);
    const later = flashTile(flashed, 3, 2, dk);
    expect(later.first).toBe(false);
    expect(later.rows).toHaveLength(1); // the query tile past S holds one row
    expect(later.rows[0]).toMatchObject({ i: 2, mOld: 0.5, l: Math.fround(1.7), alpha: Math.fround(0.67) });
    expect(Array.from(later.rows[0].partial)).toEqual([12, 13]);
  });

  test('the last key tile of each query tile is where O / ℓ follows', () => {
    expect([0, 1, 2, 3].map((k) => lastOfRow(flashed, k))).toEqual([false, true, false, true]);
  });
});
