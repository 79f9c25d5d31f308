// The two steppers' view models, read out of the engine's figures (lab.decode
// and lab.flash, index.d.ts): the KV cache decoding one query at a time, and
// FlashAttention's online softmax tile by tile. Pure functions, no DOM.
import { kvHeadOf } from './variant-math.js';

/** Whether two float32 values are bit-identical (NaN equals NaN, 0 is not −0), as the engine counts them. */
export function sameBits(a, b) {
  return Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));
}

/** Row (t, h) of a [S, H, S] figure, its first `count` entries. */
const rowOf = (data, t, h, H, S, count) => data.subarray((t * H + h) * S, (t * H + h) * S + count);

/**
 * Decode step t of head h: what the cache holds and what the one query sees.
 * decoded: lab.decode's result. Returns {g, keys, values ([t+1, dk], the cache
 * of KV head g), scores, weights, full, isCausal ([t+1] rows), identical (this
 * row of weights bit-identical to the full run's), sinkWeight (what the sink took, or null),
 * bytes: {mha, gqa, mqa} at length t+1}.
 */
export function decodeStep(decoded, t, h) {
  const { S, H, H_kv: Hkv, headDim: dk } = decoded.sizes;
  const g = kvHeadOf(h, H, Hkv);
  // The cache of KV head g after step t: rows 0..t of newKeys[:, g, :]   # (t+1, dk)
  const cacheOf = (data) => {
    const out = new Float32Array((t + 1) * dk);
    for (let j = 0; j <= t; j++) out.set(data.subarray((j * Hkv + g) * dk, (j * Hkv + g + 1) * dk), j * dk);
    return out;
  };
  const weights = rowOf(decoded.weights, t, h, H, S, t + 1);
  const full = rowOf(decoded.fullWeights, t, h, H, S, t + 1);
  let identical = true;
  for (let j = 0; j <= t; j++) if (!sameBits(weights[j], full[j])) identical = false;
  let sum = 0;
  for (const w of weights) sum += w;
  return {
    g,
    keys: cacheOf(decoded.newKeys),
    values: cacheOf(decoded.newValues),
    scores: rowOf(decoded.scores, t, h, H, S, t + 1),
    weights,
    full,
    isCausal: decoded.isCausalOneQuery.subarray(t * S, t * S + t + 1),
    identical,
    weightSum: sum,
    bytes: {
      mha: decoded.cacheBytes.mha[t],
      gqa: decoded.cacheBytes.gqa[t],
      mqa: decoded.cacheBytes.mqa[t],
    },
  };
}

/** The KV cache's size in bytes at length n: 2 (k and v) · n · heads · dk · 4 (float32). */
export const cacheBytes = (n, heads, dk) => 2 * n * heads * dk * 4;

/** A default tile size for S rows: about a quarter of them, at least 1, at most 64. */
export const defaultTileSize = (S) => Math.min(64, Math.max(1, Math.ceil(S / 4)));

/** The smallest tile size that keeps S × S in at most `maxTiles` tiles (each side ≤ √maxTiles tiles). */
export const smallestTileSize = (S, maxTiles = 1024) => Math.max(1, Math.ceil(S / Math.floor(Math.sqrt(maxTiles))));

/** A tile size as typed: an integer within [smallest, S], else `fallback`. */
export function tileSizeOf(text, S, fallback) {
  const n = String(text).trim() === '' ? NaN : Number(text);
  if (!Number.isInteger(n)) return fallback;
  return Math.min(S, Math.max(smallestTileSize(S), n));
}

/**
 * Tile k of an online softmax (lab.flash's result), for the rows of its query
 * tile: [{i (the query), mOld, m, l, alpha, partial (dk numbers)}]; mOld is the
 * running max before this tile (−∞ at the first key tile of the row).
 */
export function flashTile(flashed, k, tileQueries, dk) {
  const tile = flashed.tiles[k];
  const previous = k > 0 && flashed.tiles[k - 1].queryStart === tile.queryStart ? k - 1 : -1;
  const rows = [];
  for (let r = 0; r < tileQueries && tile.queryStart + r < tile.queryEnd; r++) {
    const at = k * tileQueries + r;
    rows.push({
      i: tile.queryStart + r,
      mOld: previous < 0 ? -Infinity : flashed.runningMax[previous * tileQueries + r],
      m: flashed.runningMax[at],
      l: flashed.runningSum[at],
      alpha: flashed.rescale[at],
      partial: flashed.partialOutput.subarray(at * dk, (at + 1) * dk),
    });
  }
  return { ...tile, first: previous < 0, rows };
}

/** Whether tile k is the last key tile of its query tile (after it, O is divided by ℓ). */
export const lastOfRow = (flashed, k) =>
  k === flashed.tiles.length - 1 || flashed.tiles[k + 1].queryStart !== flashed.tiles[k].queryStart;

/** The [S, dk] entries of `output` that are bit-identical to `plain`, as a flag per entry. */
export function identicalEntries(output, plain) {
  return Array.from(output, (v, k) => sameBits(v, plain[k]));
}

/** A byte count as people read it: "96 B", "1.5 KiB", "2.25 MiB". */
export function bytesText(n) {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let v = n;
  let unit = -1;
  while (v >= 1024 && unit < units.length - 1) {
    v /= 1024;
    unit++;
  }
  return `${Number(v.toFixed(2))} ${units[unit]}`;
}
