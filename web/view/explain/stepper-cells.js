// "How this number is computed" for the steppers' matrices (steppers.js): the
// KV cache's rows at decode step t and the online softmax's running figures.
// ctx.steppers: {decode: {data, t}, flash: {data, k}} (Steppers.state). A
// stepper's number is quoted with the fact {stepper: [decode | flash, field,
// ...index]}: the engine's figure (lab.decode, lab.flash) at that index.
import { formula, quote, restyled, say, whole } from '../../model/words.js';
import { decodeStep, flashTile, sameBits } from '../../model/stepper-runs.js';
import { kvHeadOf } from '../../model/variant-math.js';
import { sinkLogitQuote } from '../../model/run-settings.js';
import { cellName, derived, reader } from './lines.js';
import { headQuote, indexQuote } from './names.js';

/** The decode step shown, its row of head h, and the tokens; null before its figures. */
function decodeAt(ctx) {
  const decode = ctx.steppers?.decode;
  if (!decode) return null;
  const tokens = decode.data.tokens.length ? decode.data.tokens : ctx.queryLabels;
  return { t: decode.t, at: decodeStep(decode.data, decode.t, ctx.h), tokens, sizes: decode.data.sizes };
}

function explainCache(step, i, c, ctx) {
  const d = decodeAt(ctx);
  if (!d) return null;
  const { num } = reader(ctx);
  const { H, H_kv: Hkv, headDim } = d.sizes;
  const g = kvHeadOf(ctx.h, H, Hkv);
  const field = step === 'kv-K' ? 'newKeys' : 'newValues';
  const value = num((step === 'kv-K' ? d.at.keys : d.at.values)[i * headDim + c], {
    stepper: ['decode', field, (i * Hkv + g) * headDim + c],
  });
  const params = { token: d.tokens[i], kind: step === 'kv-K' ? 'k' : 'v', t: indexQuote(d.t, 'S') };
  const sentence =
    i === d.t
      ? say(ctx.t, 'explain.kv.cacheNew', { ...params, g: headQuote(g, 'H_kv') })
      : say(ctx.t, 'explain.kv.cacheOld', { ...params, j: indexQuote(i, 'S') });
  const name = step === 'kv-K' ? 'K_cache' : 'V_cache';
  return { lines: [formula`${cellName(name, d.tokens[i], `d${c}`)} = ${value}`, sentence], highlight: [] };
}

// Entry j of the decode step's row of `field` ([S, H, S] figures), quoted.
const rowEntry = (ctx, d, field, own, j) =>
  reader(ctx).num(own[j], { stepper: ['decode', field, (d.t * d.sizes.H + ctx.h) * d.sizes.S + j] });

function explainDecodeWeights(step, j, ctx, d) {
  const { t } = ctx;
  const [ownField, otherField] = step === 'kv-weights' ? ['weights', 'fullWeights'] : ['fullWeights', 'weights'];
  const own = rowEntry(ctx, d, ownField, step === 'kv-weights' ? d.at.weights : d.at.full, j);
  const other = rowEntry(ctx, d, otherField, step === 'kv-weights' ? d.at.full : d.at.weights, j);
  const n = whole(d.t + 1, derived('sum', { index: d.t, of: 'S' }, { constant: 1 }));
  const same = sameBits(own.value, other.value);
  const claims = [{ claim: same ? 'sameBits' : 'differentBits', of: [own.fact, other.fact] }];
  return {
    lines: [
      formula`${cellName(step === 'kv-weights' ? 'a_t' : 'weights', d.tokens[d.t], d.tokens[j])} = ${own}`,
      step === 'kv-weights'
        ? say(t, 'explain.kv.weight', { n })
        : say(t, 'explain.kv.full', { t: indexQuote(d.t, 'S') }),
      say(t, same ? 'explain.kv.same' : 'explain.kv.differs', { other }, { kind: 'result', claims }),
    ],
    highlight: [{ matrix: step === 'kv-weights' ? 'kv-full' : 'kv-weights', row: 0, col: j }],
  };
}

// Why the one query's top-left causal mask gives key j this weight: key 0 alone is kept (weight 1, or
// what the sink logit leaves it), every later key is blocked (weight 0).
function causalSentence(ctx, j, value) {
  const { t } = ctx;
  if (j > 0) {
    const claims = [{ claim: 'equal', of: [value.fact, { constant: 0 }] }];
    return say(t, 'explain.kv.causalBlocked', { j: indexQuote(j, 'S') }, { claims });
  }
  if (!ctx.result.tensors.sinkWeights)
    return say(t, 'explain.kv.causalKept', {}, { claims: [{ claim: 'equal', of: [value.fact, { constant: 1 }] }] });
  // The is_causal figure is head 1's: its sink logit.
  const logit = sinkLogitQuote(ctx.rs, 0);
  return say(
    t,
    'explain.kv.causalKeptSink',
    { logit, weight: value },
    { claims: [{ claim: 'sinkShare', of: value.fact }] },
  );
}

function explainDecodeRow(step, i, j, ctx) {
  const d = decodeAt(ctx);
  if (!d) return null;
  const { t } = ctx;
  const token = d.tokens[d.t];
  const key = d.tokens[j];
  const [qt, kj] = [indexQuote(d.t, 'S'), indexQuote(j, 'S')];
  if (step === 'kv-scores') {
    const score = rowEntry(ctx, d, 'scores', d.at.scores, j);
    const n = whole(d.t + 1, derived('sum', qt.fact, { constant: 1 }));
    return {
      lines: [
        formula`${cellName('scores', token, key)} = q_${d.t} · k_${j} = ${score}`,
        say(t, 'explain.kv.score', { t: qt, j: kj, n }),
      ],
      highlight: [{ matrix: 'kv-K', row: j }],
    };
  }
  if (step === 'kv-weights' || step === 'kv-full') return explainDecodeWeights(step, j, ctx, d);
  // kv-causal: is_causal=True on the one query.
  const fact = { stepper: ['decode', 'isCausalOneQuery', d.t * d.sizes.S + j] };
  const value = reader(ctx).num(d.at.isCausal[j], fact);
  return {
    lines: [formula`${cellName('is_causal', token, key)} = ${value}`, causalSentence(ctx, j, value)],
    highlight: [],
  };
}

/** The flash step shown and its tile; null before its figures. */
function flashAt(ctx) {
  const flash = ctx.steppers?.flash;
  if (!flash) return null;
  const { data, k } = flash;
  const S = ctx.result.sizes.S;
  const dk = data.output.length / S;
  const tileQueries = data.runningMax.length / data.tiles.length;
  return { data, k, dk, tileQueries, tile: k < data.tiles.length ? flashTile(data, k, tileQueries, dk) : null };
}

// Tile k's place in the logits: its number and the first and last query and key, quoted.
function tileWords(k, tile) {
  const bound = (field, last) => {
    const fact = { stepper: ['flash', 'tiles', k, field] };
    return last ? whole(tile[field] - 1, derived('difference', fact, { constant: 1 })) : whole(tile[field], fact);
  };
  return {
    n: whole(k + 1, { tileNumber: k }),
    q0: bound('queryStart'),
    q1: bound('queryEnd', true),
    k0: bound('keyStart'),
    k1: bound('keyEnd', true),
  };
}

function explainFlashLogit(i, j, ctx, f) {
  const { cell } = reader(ctx);
  const k = f.data.tiles.findIndex((x) => x.queryStart <= i && i < x.queryEnd && x.keyStart <= j && j < x.keyEnd);
  const tile = f.data.tiles[k];
  const claims = [{ claim: 'inTile', k, i, j, skipped: Boolean(tile.skipped) }];
  return {
    lines: [
      formula`${cellName('x', ctx.queryLabels[i], ctx.keyLabels[j])} = ${cell('masked', ctx.b, ctx.h, i, j)}`,
      say(ctx.t, tile.skipped ? 'explain.flash.logitSkipped' : 'explain.flash.logit', tileWords(k, tile), { claims }),
    ],
    highlight: [],
  };
}

const STAT_COLUMNS = ['m_old', 'm', 'α', 'ℓ'];
const STAT_KEYS = ['explain.flash.mOld', 'explain.flash.m', 'explain.flash.alpha', 'explain.flash.l'];

function explainFlashStat(i, j, ctx, f) {
  const { num } = reader(ctx);
  const r = f.tile.rows[i];
  const at = f.k * f.tileQueries + i;
  const fact = (field, k = at) => ({ stepper: ['flash', field, k] });
  const mOld = num(r.mOld, f.tile.first ? { constant: -Infinity } : fact('runningMax', at - f.tileQueries));
  const m = num(r.m, fact('runningMax'));
  const alpha = num(r.alpha, fact('rescale'));
  const value = [mOld, m, alpha, num(r.l, fact('runningSum'))][j];
  const params = j === 2 ? {} : { i: indexQuote(r.i, 'S') }; // α's sentence names no query
  const lines = [formula`${STAT_COLUMNS[j]}[${r.i}] = ${value}`, say(ctx.t, STAT_KEYS[j], params)];
  if (j === 2 && r.mOld !== -Infinity) {
    const claims = [{ claim: 'equal', of: [derived('exp', derived('difference', mOld.fact, m.fact)), alpha.fact] }];
    lines.push(restyled(formula`exp(${mOld} − ${m}) = ${alpha}`, 'result', { claims }));
  }
  return { lines, highlight: [{ matrix: 'flash-partial', row: i }] };
}

function explainFlashResult(step, i, j, ctx, f) {
  const { num } = reader(ctx);
  const out = num(f.data.output[i * f.dk + j], { stepper: ['flash', 'output', i * f.dk + j] });
  const plain = num(f.data.plain[i * f.dk + j], { stepper: ['flash', 'plain', i * f.dk + j] });
  const same = sameBits(out.value, plain.value);
  const diff = derived('abs', derived('difference', out.fact, plain.fact));
  const claims = [{ claim: same ? 'sameBits' : 'differentBits', of: [out.fact, plain.fact] }];
  const gap = quote(Math.abs(out.value - plain.value), diff, Math.abs(out.value - plain.value).toExponential(2));
  return {
    lines: [
      formula`${step === 'flash-output' ? 'O/ℓ' : 'softmax·V'}[${i},d${j}] = ${step === 'flash-output' ? out : plain}`,
      say(ctx.t, step === 'flash-output' ? 'explain.flash.output' : 'explain.flash.plain'),
      same
        ? say(ctx.t, 'explain.flash.same', {}, { kind: 'result', claims })
        : say(ctx.t, 'explain.flash.differs', { diff: gap }, { kind: 'result', claims }),
    ],
    highlight: [{ matrix: step === 'flash-output' ? 'flash-plain' : 'flash-output', row: i, col: j }],
  };
}

function explainFlash(step, i, j, ctx) {
  const f = flashAt(ctx);
  if (!f) return null;
  if (step === 'flash-logits') return explainFlashLogit(i, j, ctx, f);
  if (step === 'flash-stats' && f.tile) return explainFlashStat(i, j, ctx, f);
  if (step === 'flash-partial' && f.tile) {
    const r = f.tile.rows[i];
    const at = (f.k * f.tileQueries + i) * f.dk + j;
    const value = reader(ctx).num(r.partial[j], { stepper: ['flash', 'partialOutput', at] });
    return {
      lines: [formula`O[${r.i},d${j}] = ${value}`, say(ctx.t, 'explain.flash.partial', { i: indexQuote(r.i, 'S') })],
      highlight: [{ matrix: 'flash-stats', row: i }],
    };
  }
  if (step === 'flash-output' || step === 'flash-plain') return explainFlashResult(step, i, j, ctx, f);
  return null;
}

export const STEPPER_EXPLAIN = {
  'kv-K': explainCache,
  'kv-V': explainCache,
  'kv-scores': explainDecodeRow,
  'kv-weights': explainDecodeRow,
  'kv-full': explainDecodeRow,
  'kv-causal': explainDecodeRow,
  'flash-logits': explainFlash,
  'flash-stats': explainFlash,
  'flash-partial': explainFlash,
  'flash-output': explainFlash,
  'flash-plain': explainFlash,
};
