// What each claim of a sentence (model/words.js) asserts, checked by the
// claims tests' own code from the run's tensors and settings. claimProblem
// returns {problem (null when the claim holds), diff (how far an `equal`
// claim's two sides are, relative to the larger of 1 and their sizes)}.
import { cellValue, factValue, sizeOf } from './explanation-facts.js';

/** Two numbers that one run computed in float32 and a check in float64: equal to float32's rounding. */
export const close = (a, b) =>
  Object.is(a, b) ||
  (Number.isNaN(a) && Number.isNaN(b)) ||
  Math.abs(a - b) <= 1e-4 * Math.max(1, Math.abs(a), Math.abs(b));

const sameBits = (a, b) => Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));

/** Whether mask cell (b, i, j) blocks its key, in the run's mask convention. */
export function blocks(result, b, i, j) {
  const value = cellValue(result, 'mask', [b, i, j]);
  return (result.settings.maskConvention ?? 'blocked') === 'keep' ? value === 0 : value !== 0;
}

/** Whether key j of sentence b is padding: one of the <pad> tokens the engine appends after a shorter sentence. */
function isPadding(result, b, j) {
  const labels = (result.contextTokens ?? result.tokens)?.[b] ?? [];
  let end = labels.length;
  while (end > 0 && labels[end - 1] === '<pad>') end--;
  return j >= end;
}

// Why a mask blocks or keeps key j of query i: each reason, as the settings make it.
const REASONS = {
  future: (r, { i, j }) => r.mask.includes('causal') && j > i,
  notFuture: (r, { i, j }) => r.mask.includes('causal') && j <= i,
  window: (r, { i, j }) => r.window !== null && i - j >= r.window && j >= r.sinks,
  inWindow: (r, { i, j }) => r.window !== null && i - j >= 0 && i - j < r.window,
  sink: (r, { i, j }) => r.window !== null && j < r.sinks && j <= i,
  pad: (r, { padding }) => r.mask.includes('padding') && padding,
  notPad: (r, { padding }) => r.mask.includes('padding') && !padding,
  noMask: (r) => r.mask === 'none',
};

function reasonHolds(result, { reason, b, i, j }) {
  const s = result.settings;
  const r = { mask: s.mask ?? 'none', window: s.window ?? null, sinks: s.sinkTokens ?? 0 };
  if (!(reason in REASONS)) throw new Error(`unknown reason ${reason}`);
  return REASONS[reason](r, { i, j, padding: isPadding(result, b, j) });
}

const row = (result, name, b, h, i) =>
  Array.from({ length: result.sizes.S_kv }, (_, j) => cellValue(result, name, [b, h, i, j]));

function dropoutState(result, { b, h, i, j }) {
  const w = cellValue(result, 'weights', [b, h, i, j]);
  if (Number.isNaN(w)) return 'nan';
  if (w === 0) return 'zeroWeight';
  return cellValue(result, 'dropped', [b, h, i, j]) !== 0 ? 'kept' : 'zeroed';
}

function tileHolds(run, { k, i, j, skipped }) {
  const tile = run.steppers?.flash?.tiles?.[k];
  if (!tile) return false;
  const inside = tile.queryStart <= i && i < tile.queryEnd && tile.keyStart <= j && j < tile.keyEnd;
  if (!inside || Boolean(tile.skipped) !== skipped) return false;
  if (!skipped) return true;
  const { b, h } = run.steppers.flash;
  for (let q = tile.queryStart; q < tile.queryEnd; q++)
    for (let key = tile.keyStart; key < tile.keyEnd; key++)
      if (cellValue(run.result, 'masked', [b, h, q, key]) !== -Infinity) return false;
  return true;
}

const RULES = {
  equal: (c, run) => {
    const [a, b] = c.of.map((f) => factValue(f, run));
    const diff = Number.isFinite(a - b) ? Math.abs(a - b) / Math.max(1, Math.abs(a), Math.abs(b)) : 0;
    return { ok: close(a, b), diff, says: `${a} ≠ ${b}` };
  },
  same: (c, run) => {
    const [a, b] = c.of.map((f) => factValue(f, run));
    return { ok: sameBits(a, b), says: `${a} is not ${b}` };
  },
  sameBits: (c, run) => RULES.same(c, run),
  differentBits: (c, run) => {
    const [a, b] = c.of.map((f) => factValue(f, run));
    return { ok: !sameBits(a, b), says: `${a} and ${b} are the same` };
  },
  count: (c, run) => ({ ok: factValue(c.of, run) === c.n, says: `${c.n} terms, not ${factValue(c.of, run)}` }),
  masks: (c, run) => ({ ok: blocks(run.result, c.b, c.i, c.j) === c.blocked, says: 'the mask says otherwise' }),
  reason: (c, run) => ({ ok: reasonHolds(run.result, c), says: 'the settings give no such reason' }),
  dropout: (c, run) => ({ ok: dropoutState(run.result, c) === c.state, says: `it is ${dropoutState(run.result, c)}` }),
  rowMinusInfinity: (c, run) => ({
    ok: row(run.result, 'masked', c.b, c.h, c.i).every((v) => v === -Infinity),
    says: 'a score of the row is not −∞',
  }),
  rowOverflow: (c, run) => ({
    ok: row(run.result, 'masked', c.b, c.h, c.i).some((v) => v === Infinity || Number.isNaN(v)),
    says: 'no score of the row is ∞ or NaN',
  }),
  rowBlocked: (c, run) => ({
    ok: Array.from({ length: run.result.sizes.S_kv }, (_, j) => blocks(run.result, c.b, c.i, j)).every(Boolean),
    says: 'the mask keeps a key of the row',
  }),
  equalWeights: (c, run) => ({
    ok: row(run.result, 'weights', c.b, c.h, c.i).every((w) => close(w, 1 / run.result.sizes.S_kv)),
    says: 'the weights of the row are not all 1/S_kv',
  }),
  kvHead: (c, run) => {
    const g = Math.floor(c.h / (sizeOf(run.result, 'H') / sizeOf(run.result, 'H_kv')));
    return { ok: g === c.g, says: `head ${c.h} reads K/V head ${g}` };
  },
  setting: (c, run) => {
    const value = run.result.settings[c.name] ?? (c.name === 'weights.init' ? 'torch-linear' : undefined);
    return { ok: value === c.is, says: `${c.name} is ${value}` };
  },
  drawn: (c, run) => {
    const input = run.result.settings[c.side] ?? run.config?.[c.side];
    const draw = input && typeof input === 'object' ? Object.keys(input)[0] : undefined;
    return { ok: draw === c.draw, says: `${c.side} is drawn with ${draw}` };
  },
  sinkShare: (c, run) => {
    const w = factValue(c.of, run);
    return {
      ok: run.result.settings.sinkLogit !== undefined && w > 0 && w < 1,
      says: `${w} is no share of a row with a sink`,
    };
  },
  inTile: (c, run) => ({ ok: tileHolds(run, c), says: 'the tile does not hold that logit so' }),
};

/** {problem, diff}: null problem when the claim holds. */
export function claimProblem(claim, run) {
  const rule = RULES[claim.claim];
  if (!rule) return { problem: `unknown claim ${claim.claim}` };
  const { ok, diff = 0, says } = rule(claim, run);
  return { problem: ok ? null : says, diff };
}
