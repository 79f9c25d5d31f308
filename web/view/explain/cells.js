// "How this number is computed": the explanation of every number in the
// pipeline's matrices, shown when it is hovered, focused or tapped, as data
// (model/words.js): {lines: [sentence], highlight: [{matrix, row?, col?}]}.
// Each explanation opens with the cell it explains (name[row,column] =
// value), then says where the number comes from, with its terms where it is
// a sum; every number in it is quoted with the fact it states. This file
// dispatches to each step family's explainers and explains the mask;
// render-explanation.js turns an explanation into the panel's DOM.
import { compact, formula, joined, restyled, say, whole } from '../../model/words.js';
import explainStrings from '../../i18n/explain.js';
import { addStrings } from '../../i18n/index.js';
import { blockReasons, maskBlocks } from '../../model/run-settings.js';
import { windowEffect } from '../../model/variant-math.js';
import { explainWeightCell } from './weight-cells.js';
import { STEPPER_EXPLAIN } from './stepper-cells.js';
import { cellFact, derived, headLine, reader } from './lines.js';
import { indexQuote, kLabel, maskInputOf, qLabel } from './names.js';
import {
  explainEmbedding,
  explainHeadSplit,
  explainProjection,
  explainQkNorm,
  explainRope,
  explainRopeAngle,
} from './input-cells.js';
import { explainAlibi, explainCapped, explainScore } from './score-cells.js';
import { explainAveraged, explainDropped, explainKeep, explainSink, explainWeight } from './softmax-cells.js';
import { explainConcat, explainContext, explainOutput } from './output-cells.js';
import { explainGate, explainGated } from './gate-cells.js';
import { DIFF_EXPLAIN } from './diff-cells.js';
import { MLA_EXPLAIN } from './mla-cells.js';

// The explanations' words arrive with their code (a part of its own in the standalone scripts).
addStrings(explainStrings);

/**
 * Explanation for cell (i, j) of the matrix `step` in the context `ctx`
 * ({t, result, rs, b, h, B, S, Skv, D, H, dk, queryLabels, keyLabels, decimals,
 * weightsGiven, edited(name, i, j), embeddingEdited(token, d), dropout}: the
 * layout renderPipeline returns or runContext(result, {b, h}), and the page's).
 * Returns {lines: [sentence], highlight: [{matrix, row?, col?}]} (row null: every row), or null.
 */
export function explainCell(step, i, j, ctx) {
  // Differential attention's weights are A₁ − λ·A₂, not a softmax of their own.
  const diffStep = step === 'weights' && ctx.rs.diffDepth !== null ? 'diffWeights' : step;
  const explain =
    (ctx.rs.mla ? MLA_EXPLAIN[step] : undefined) ??
    DIFF_EXPLAIN[diffStep] ??
    EXPLAIN[step] ??
    STEPPER_EXPLAIN[step] ??
    (step in ctx.result.tensors ? explainWeightCell : null);
  if (!explain) return null;
  return explain(step, i, j, ctx);
}

// The mask's sentences for query i and key j: t(key, params) with the cell's
// positions, distance, window and sink count quoted, and what each claims.
const REASON_CLAIM = {
  'explain.mask.future': 'future',
  'explain.mask.window': 'window',
  'explain.mask.pad': 'pad',
  'explain.mask.noMask': 'noMask',
  'explain.mask.notFuture': 'notFuture',
  'explain.mask.sink': 'sink',
  'explain.mask.inWindow': 'inWindow',
  'explain.mask.notPad': 'notPad',
};

function maskWords(ctx, i, j) {
  const { rs, b } = ctx;
  const [qi, kj] = [indexQuote(i, 'S'), indexQuote(j, 'S_kv')];
  const quoted = {
    i: qi,
    j: kj,
    d: whole(i - j, derived('difference', qi.fact, kj.fact)),
    window: whole(rs.window, { setting: 'window' }),
    n: whole(rs.sinkTokens, { setting: 'sinkTokens' }),
  };
  return (key, params = {}) => {
    const template = ctx.t(key);
    const used = Object.entries(params).filter(([name]) => template.includes(`{${name}}`));
    const words = Object.fromEntries(used.map(([name, value]) => [name, quoted[name] ?? value]));
    const reason = REASON_CLAIM[key];
    return say(ctx.t, key, words, { claims: reason ? [{ claim: 'reason', reason, b, i, j }] : [] });
  };
}

/**
 * Whether key j is padding (a <pad> the engine appended to a shorter sentence), not a "<pad>" typed in the
 * text: the padding mask blocks a padding key for every query.
 */
function isPadding(ctx, j) {
  const { rs, S } = ctx;
  if (!rs.maskKinds.padding || kLabel(ctx, j) !== '<pad>') return false;
  const { value } = reader(ctx);
  for (let i = 0; i < S; i++) if (!maskBlocks(value('mask', ctx.b, i, j), rs.maskConvention)) return false;
  return true;
}

/** The sentence saying why the mask blocks or keeps key j for query i. */
function maskReason(i, j, ctx, blocked) {
  const { rs } = ctx;
  const t = maskWords(ctx, i, j);
  const reasons = blockReasons(rs.mask, i, j, kLabel(ctx, j), rs).filter((r) => r !== 'pad' || isPadding(ctx, j));
  const REASON = { future: 'explain.mask.future', window: 'explain.mask.window', pad: 'explain.mask.pad' };
  if (blocked) {
    const sentences = reasons.map((r) => t(REASON[r], { i, j, d: i - j, window: rs.window, key: kLabel(ctx, j) }));
    return joined(sentences);
  }
  if (rs.mask === 'none') return t('explain.mask.noMask');
  const kept = [];
  if (rs.maskKinds.causal) kept.push(t('explain.mask.notFuture', { i, j }));
  if (rs.window && j <= i)
    kept.push(
      windowEffect(i, j, rs.window, rs.sinkTokens) === 'sink'
        ? t('explain.mask.sink', { j, n: rs.sinkTokens })
        : t('explain.mask.inWindow', { j, d: i - j, window: rs.window }),
    );
  if (rs.maskKinds.padding) kept.push(t('explain.mask.notPad', { key: kLabel(ctx, j) }));
  return t('explain.mask.kept', { reasons: joined(kept, 'text', '; ') });
}

// What a mask value says, per maskConvention: [kept, blocked].
const MASK_VALUE = {
  blocked: ['explain.mask.blocked.kept', 'explain.mask.blocked.blocked'],
  keep: ['explain.mask.keep.kept', 'explain.mask.keep.blocked'],
  additive: ['explain.mask.additive.kept', 'explain.mask.additive.blocked'],
};

function explainMask(step, i, j, ctx) {
  const { t, rs, b } = ctx;
  const { num, value } = reader(ctx);
  const m = value('mask', b, i, j);
  const blocked = maskBlocks(m, rs.maskConvention);
  const fact = cellFact('mask', b, i, j);
  const shown = rs.maskConvention === 'additive' ? num(m, fact) : whole(m ? 1 : 0, fact);
  const fill = rs.maskConvention === 'additive' && blocked ? { fill: compact(rs.fill, { setting: 'maskFill' }) } : {};
  const claims = [{ claim: 'masks', b, i, j, blocked }];
  return {
    lines: [
      headLine('mask', qLabel(ctx, i), kLabel(ctx, j), shown),
      say(t, MASK_VALUE[rs.maskConvention][blocked ? 1 : 0], fill, { claims }),
      maskReason(i, j, ctx, blocked),
    ],
    highlight: [],
  };
}

function explainMasked(step, i, j, ctx) {
  const { t, result, rs, b, h } = ctx;
  const { num, cell } = reader(ctx);
  const mask = cell('mask', b, i, j);
  const blocked = maskBlocks(mask.value, rs.maskConvention);
  const value = cell('masked', b, h, i, j);
  const lines = [headLine('masked', qLabel(ctx, i), kLabel(ctx, j), value)];
  const input = maskInputOf(result.tensors);
  const before = cell(input, b, h, i, j);
  const claims = [{ claim: 'masks', b, i, j, blocked }];
  if (rs.maskConvention === 'additive') {
    const sum = num(before.value + mask.value, derived('sum', before.fact, mask.fact));
    claims.push({ claim: 'equal', of: [sum.fact, value.fact] });
    lines.push(restyled(formula`${input} + M = ${before} + ${mask} = ${value}`, 'result', { claims }));
  } else if (blocked) {
    const fill = compact(rs.fill, { setting: 'maskFill' });
    claims.push({ claim: 'equal', of: [fill.fact, value.fact] });
    lines.push(say(t, 'explain.masked.blocked', { fill }, { claims }));
  } else {
    claims.push({ claim: 'same', of: [before.fact, value.fact] });
    const key = input !== 'scaled' ? 'explain.masked.keptInput' : 'explain.masked.kept';
    lines.push(say(t, key, input !== 'scaled' ? { input, value } : { value }, { claims }));
  }
  lines.push(maskReason(i, j, ctx, blocked));
  return { lines, highlight: [{ matrix: 'mask', row: i, col: j }] };
}

const EXPLAIN = {
  X: explainEmbedding,
  X_context: explainEmbedding,
  Q: (step, i, j, ctx) => explainProjection('Q', i, j, ctx),
  K: (step, i, j, ctx) => explainProjection('K', i, j, ctx),
  V: (step, i, j, ctx) => explainProjection('V', i, j, ctx),
  Q_h: explainHeadSplit,
  K_h: explainHeadSplit,
  V_h: explainHeadSplit,
  Q_norm_h: (step, i, j, ctx) => explainQkNorm('Q_norm', i, j, ctx),
  K_norm_h: (step, i, j, ctx) => explainQkNorm('K_norm', i, j, ctx),
  Q_before_rope: (step, i, j, ctx) =>
    ctx.result.tensors.Q_norm ? explainQkNorm('Q_norm', i, j, ctx) : explainHeadSplit('Q_h', i, j, ctx),
  Q_rope_h: (step, i, j, ctx) => explainRope('Q_rope', i, j, ctx),
  K_rope_h: (step, i, j, ctx) => explainRope('K_rope', i, j, ctx),
  ropeAngles: explainRopeAngle,
  scores: explainScore,
  scaled: explainScore,
  scaled_beside_capped: (step, i, j, ctx) => explainScore('scaled', i, j, ctx),
  capped: explainCapped,
  alibiBias: explainAlibi,
  biased: explainAlibi,
  sinkWeights: explainSink,
  mask: explainMask,
  masked: explainMasked,
  weights: explainWeight,
  averagedWeights: explainAveraged,
  keep: explainKeep,
  dropped: explainDropped,
  context: explainContext,
  concat: explainConcat,
  gate: explainGate,
  gated: explainGated,
  output: explainOutput,
};
