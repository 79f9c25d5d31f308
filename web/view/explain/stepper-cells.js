// "How this number is computed" for the steppers' matrices (steppers.js): the
// KV cache's rows at decode step t and the online softmax's running figures.
// ctx.steppers: {decode: {data, t}, flash: {data, k}} (Steppers.state).
import { formatNumber } from '../../model/format.js';
import { headStart } from '../../model/selection.js';
import { decodeStep, flashTile, sameBits } from '../../model/stepper-runs.js';
import { kvHeadOf } from '../../model/variant-math.js';
import { cellName, line } from './lines.js';

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
  const { t: translate, decimals, h } = ctx;
  const name = step === 'kv-K' ? 'K_cache' : 'V_cache';
  const value = (step === 'kv-K' ? d.at.keys : d.at.values)[i * d.sizes.headDim + c];
  const g = kvHeadOf(h, d.sizes.H, d.sizes.H_kv);
  return {
    nodes: [
      line(`${cellName(name, d.tokens[i], `d${c}`)} = ${formatNumber(value, decimals)}`),
      line(
        translate(i === d.t ? 'explain.kv.cacheNew' : 'explain.kv.cacheOld', {
          token: d.tokens[i],
          j: i,
          t: d.t,
          kind: step === 'kv-K' ? 'k' : 'v',
          g: g + 1,
        }),
        'text',
      ),
    ],
    highlight: [],
  };
}

function explainDecodeRow(step, i, j, ctx) {
  const d = decodeAt(ctx);
  if (!d) return null;
  const { t, decimals } = ctx;
  const fmt = (v) => formatNumber(v, decimals);
  const token = d.tokens[d.t];
  const key = d.tokens[j];
  const { at } = d;
  const nodes = [];
  if (step === 'kv-scores') {
    nodes.push(line(`${cellName('scores', token, key)} = q_${d.t} · k_${j} = ${fmt(at.scores[j])}`));
    nodes.push(line(t('explain.kv.score', { t: d.t, j, n: d.t + 1 }), 'text'));
    return { nodes, highlight: [{ matrix: 'kv-K', row: j }] };
  }
  if (step === 'kv-weights' || step === 'kv-full') {
    const own = step === 'kv-weights' ? at.weights[j] : at.full[j];
    const other = step === 'kv-weights' ? at.full[j] : at.weights[j];
    nodes.push(line(`${cellName(step === 'kv-weights' ? 'a_t' : 'weights', token, key)} = ${fmt(own)}`));
    nodes.push(
      line(t(step === 'kv-weights' ? 'explain.kv.weight' : 'explain.kv.full', { t: d.t, n: d.t + 1 }), 'text'),
    );
    nodes.push(
      line(t(sameBits(own, other) ? 'explain.kv.same' : 'explain.kv.differs', { other: fmt(other) }), 'result'),
    );
    return { nodes, highlight: [{ matrix: step === 'kv-weights' ? 'kv-full' : 'kv-weights', row: 0, col: j }] };
  }
  // kv-causal: is_causal=True on the one query.
  nodes.push(line(`${cellName('is_causal', token, key)} = ${fmt(at.isCausal[j])}`));
  nodes.push(line(t(j === 0 ? 'explain.kv.causalKept' : 'explain.kv.causalBlocked', { j }), 'text'));
  return { nodes, highlight: [] };
}

/** The flash step shown and its tile; null before its figures. */
function flashAt(ctx) {
  const flash = ctx.steppers?.flash;
  if (!flash) return null;
  const { data, k } = flash;
  const S = ctx.result.sizes.S;
  const dk = data.output.length / S;
  const tileQueries = data.runningMax.length / data.tiles.length;
  return { data, k, dk, tile: k < data.tiles.length ? flashTile(data, k, tileQueries, dk) : null };
}

/** The head's logit (i, j): the masked scores the online softmax reads. */
const logitAt = (ctx, i, j) => {
  const masked = ctx.result.tensors.masked;
  return masked.data[headStart(masked, ctx.b, ctx.h) + i * ctx.Skv + j];
};

const STAT_COLUMNS = ['m_old', 'm', 'α', 'ℓ'];

function explainFlash(step, i, j, ctx) {
  const f = flashAt(ctx);
  if (!f) return null;
  const { t, decimals } = ctx;
  const fmt = (v) => formatNumber(v, decimals);
  if (step === 'flash-logits') {
    const k = f.data.tiles.findIndex((x) => x.queryStart <= i && i < x.queryEnd && x.keyStart <= j && j < x.keyEnd);
    const tile = f.data.tiles[k];
    return {
      nodes: [
        line(`${cellName('x', ctx.queryLabels[i], ctx.keyLabels[j])} = ${fmt(logitAt(ctx, i, j))}`),
        line(
          t(tile.skipped ? 'explain.flash.logitSkipped' : 'explain.flash.logit', {
            n: k + 1,
            q0: tile.queryStart,
            q1: tile.queryEnd - 1,
            k0: tile.keyStart,
            k1: tile.keyEnd - 1,
          }),
          'text',
        ),
      ],
      highlight: [],
    };
  }
  if (step === 'flash-stats' && f.tile) {
    const r = f.tile.rows[i];
    const value = [r.mOld, r.m, r.alpha, r.l][j];
    const key = ['explain.flash.mOld', 'explain.flash.m', 'explain.flash.alpha', 'explain.flash.l'][j];
    const nodes = [line(`${STAT_COLUMNS[j]}[${r.i}] = ${fmt(value)}`), line(t(key, { i: r.i }), 'text')];
    if (j === 2 && r.mOld !== -Infinity)
      nodes.push(line(`exp(${fmt(r.mOld)} − ${fmt(r.m)}) = ${fmt(r.alpha)}`, 'result'));
    return { nodes, highlight: [{ matrix: 'flash-partial', row: i }] };
  }
  if (step === 'flash-partial' && f.tile) {
    const r = f.tile.rows[i];
    return {
      nodes: [line(`O[${r.i},d${j}] = ${fmt(r.partial[j])}`), line(t('explain.flash.partial', { i: r.i }), 'text')],
      highlight: [{ matrix: 'flash-stats', row: i }],
    };
  }
  if (step === 'flash-output' || step === 'flash-plain') {
    const at = i * f.dk + j;
    const out = f.data.output[at];
    const plain = f.data.plain[at];
    return {
      nodes: [
        line(
          `${step === 'flash-output' ? 'O/ℓ' : 'softmax·V'}[${i},d${j}] = ${fmt(step === 'flash-output' ? out : plain)}`,
        ),
        line(t(step === 'flash-output' ? 'explain.flash.output' : 'explain.flash.plain'), 'text'),
        line(
          sameBits(out, plain)
            ? t('explain.flash.same')
            : t('explain.flash.differs', { diff: Math.abs(out - plain).toExponential(2) }),
          'result',
        ),
      ],
      highlight: [{ matrix: step === 'flash-output' ? 'flash-plain' : 'flash-output', row: i, col: j }],
    };
  }
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
