// The settings of a run, read once: result.settings (the engine's record of
// what it ran, its decisions filled in) as named values, with the schema's
// default for a setting an older engine does not report (maskConvention,
// score). The view's steps and explanations and the PyTorch script read them
// here, and nowhere else from result.settings.
import { windowEffect } from './variant-math.js';
import { maskKindsOf } from './mask-kinds.js';
import { fieldByPath } from './schema.js';
import { compact } from './words.js';

/** A setting that may be unset (null, absent): its number or null. */
const optionalNumber = (value) => (value === null || value === undefined || value === '' ? null : Number(value));

/** The sink logit setting (a number, or one per head) as one number per head; unset -> null. */
const sinkLogitsOf = (value, heads) =>
  value === null || value === undefined || value === ''
    ? null
    : Array.isArray(value)
      ? value.map(Number)
      : Array.from({ length: heads }, () => Number(value));

/** {"rand": [B, S, D]} -> "rand"; none -> null. */
const randomDraw = (input) => (input && typeof input === 'object' ? (Object.keys(input)[0] ?? null) : null);

/**
 * The run's settings from an AttentionResult's `settings`: {maskConvention, score, init, layout, outProj,
 * qkvBias, p, positional, scale, mask, maskKinds, fill, seed, weightsSeed, dropoutSeed, additiveHidden, heads,
 * kvHeads, gqa, inputDraw, contextDraw, qkNorm, rope, ropeBase, ropeScaling, window, sinkTokens, sinkLogits, sinkPerHead,
 * alibi, softcap, outputGate, diffDepth, mla}.
 */
export function runSettings(settings) {
  const valueOf = (path) => settings[path] ?? fieldByPath.get(path).default;
  const mask = valueOf('mask'); // "none" | "causal" | "padding" | "causal+padding"
  const heads = Number(valueOf('numHeads'));
  const kvHeads = optionalNumber(settings.numKVHeads) ?? heads;
  const ropeStyle = valueOf('rope.style');
  return {
    maskConvention: valueOf('maskConvention'), // "blocked" | "keep" | "additive"
    score: valueOf('score'), // "dot" | "additive"
    init: valueOf('weights.init'),
    layout: valueOf('weights.layout'),
    outProj: valueOf('weights.outProj') !== false,
    qkvBias: valueOf('weights.qkvBias') === true, // the engine reports what it decided
    p: Number(valueOf('dropout.p')),
    positional: valueOf('embedding.positional'),
    scale: valueOf('scale'), // "head-dim" | "d-model" | "none" | a number
    mask,
    // What the mask blocks, a flag per kind of the schema: {causal: true, padding: false}.
    maskKinds: maskKindsOf(mask),
    fill: valueOf('maskFill') === '-inf' ? -Infinity : Number(valueOf('maskFill')),
    // torch.manual_seed before the first draw; before the weights and the dropout mask again (null: not again).
    seed: Number(valueOf('seed')),
    weightsSeed: optionalNumber(settings['weights.seed']),
    dropoutSeed: optionalNumber(settings['dropout.seed']),
    additiveHidden: Number(valueOf('additiveHidden')),
    // Query heads, and key/value heads (fewer with grouped-query attention: gqa).
    heads,
    kvHeads,
    gqa: kvHeads !== heads,
    // How a side's vectors were drawn when they are random: "randn" | "rand"; null for embedded tokens.
    inputDraw: randomDraw(settings.input),
    contextDraw: randomDraw(settings.contextInput),
    // The modern variants (null or false: off).
    qkNorm: valueOf('qkNorm') === true,
    rope: ropeStyle && ropeStyle !== 'none' ? ropeStyle : null,
    ropeBase: Number(valueOf('rope.base')),
    // Long-context RoPE (rope.scaling): {type: "linear" | "dynamic" | "yarn", factor, originalMaxPositions,
    // betaFast, betaSlow, truncate}, or null for the trained frequencies.
    ropeScaling:
      ropeStyle && ropeStyle !== 'none' && valueOf('rope.scaling.type') !== 'none'
        ? {
            type: valueOf('rope.scaling.type'),
            factor: Number(valueOf('rope.scaling.factor')),
            originalMaxPositions: Number(valueOf('rope.scaling.originalMaxPositions')),
            betaFast: Number(valueOf('rope.scaling.betaFast')),
            betaSlow: Number(valueOf('rope.scaling.betaSlow')),
            truncate: valueOf('rope.scaling.truncate') !== false,
          }
        : null,
    window: optionalNumber(settings.window),
    sinkTokens: Number(valueOf('sinkTokens')),
    // The sink logit of each head (null: no sink column); per head (gpt-oss's learned sinks) or one for all.
    sinkLogits: sinkLogitsOf(settings.sinkLogit, heads),
    sinkPerHead: Array.isArray(settings.sinkLogit),
    alibi: valueOf('alibi') === true,
    softcap: optionalNumber(settings.softcap),
    outputGate: valueOf('outputGate') === true,
    // Differential attention's layer depth (λ_init = 0.8 − 0.6·exp(−0.3·depth)), or null: off.
    diffDepth: optionalNumber(settings['diff.depth']),
    // Multi-head latent attention's sizes and path ({kvRank, nopeDim, ropeDim, valueDim, absorb}), or null: off.
    mla:
      optionalNumber(settings['mla.kvRank']) === null
        ? null
        : {
            kvRank: Number(settings['mla.kvRank']),
            nopeDim: Number(settings['mla.nopeDim']),
            ropeDim: Number(settings['mla.ropeDim']),
            valueDim: Number(settings['mla.valueDim']),
            absorb: valueOf('mla.absorb') === true,
          },
  };
}

/**
 * Whether a value of the mask tensor blocks its key, in the convention the
 * mask is shown in: "blocked" 1 = blocked; "keep" 1 = kept (torch.tril);
 * "additive" 0 = kept, the fill (−∞ or a number) = blocked.
 */
export function maskBlocks(value, convention) {
  return convention === 'keep' ? value === 0 : value !== 0;
}

/**
 * Why the mask blocks key j for query i: 'future' (j > i), 'window' (i − j ≥ window, not a sink token),
 * 'pad' (a <pad> key), several, or []. mask: a mask choice; rs: {window, sinkTokens} (a sliding window; optional).
 */
export function blockReasons(mask, i, j, keyLabel, rs = {}) {
  const kinds = maskKindsOf(mask);
  const reasons = [];
  if (kinds.causal && j > i) reasons.push('future');
  if (windowEffect(i, j, rs.window, rs.sinkTokens) === 'window') reasons.push('window');
  if (kinds.padding && keyLabel === '<pad>') reasons.push('pad');
  return reasons;
}

/** Head h's sink logit as a fact of the words: the setting, or its entry h when it is one per head. */
export const sinkLogitFact = (rs, h) => ({ setting: 'sinkLogit', ...(rs.sinkPerHead ? { head: h } : {}) });

/** Head h's sink logit quoted as the sentences write a setting (compactly). */
export const sinkLogitQuote = (rs, h) => compact(rs.sinkLogits[h], sinkLogitFact(rs, h));
