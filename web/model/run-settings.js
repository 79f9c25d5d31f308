// The settings of a run as the view reads them: result.settings with the
// engine's decisions filled in, and a default for every setting an older
// engine does not report (maskConvention, score), so the view works with both.
import { windowEffect } from './variant-math.js';

/**
 * {maskConvention, score, init, inputDraw, contextDraw, layout, outProj, qkvBias, p, positional, scale, mask, fill}
 * from an AttentionResult's settings.
 */
export function runSettings(settings) {
  const fill = settings.maskFill === '-inf' || settings.maskFill === undefined ? -Infinity : Number(settings.maskFill);
  return {
    maskConvention: settings.maskConvention ?? 'blocked', // "blocked" | "keep" | "additive"
    score: settings.score ?? 'dot', // "dot" | "additive"
    init: settings['weights.init'] ?? 'torch-linear',
    layout: settings['weights.layout'] ?? 'fused',
    outProj: settings['weights.outProj'] !== false,
    qkvBias: settings['weights.qkvBias'] === true,
    p: Number(settings['dropout.p'] ?? 0),
    positional: settings['embedding.positional'] ?? 'none',
    scale: settings.scale ?? 'head-dim', // "head-dim" | "d-model" | "none" | a number
    mask: settings.mask ?? 'none', // "none" | "causal" | "padding" | "causal+padding"
    fill,
    // How a side's vectors were drawn when they are random: "randn" | "rand"; null for embedded tokens.
    inputDraw: randomDraw(settings.input),
    contextDraw: randomDraw(settings.contextInput),
    // The modern variants (null or false: off).
    qkNorm: settings.qkNorm === true,
    rope: settings['rope.style'] && settings['rope.style'] !== 'none' ? settings['rope.style'] : null,
    ropeBase: Number(settings['rope.base'] ?? 10000),
    window: optionalNumber(settings.window),
    sinkTokens: Number(settings.sinkTokens ?? 0),
    sinkLogit: optionalNumber(settings.sinkLogit),
    alibi: settings.alibi === true,
    softcap: optionalNumber(settings.softcap),
  };
}

/** A setting that may be unset (null, absent): its number or null. */
const optionalNumber = (value) => (value === null || value === undefined || value === '' ? null : Number(value));

/** {"rand": [B, S, D]} -> "rand"; none -> null. */
const randomDraw = (input) => (input && typeof input === 'object' ? (Object.keys(input)[0] ?? null) : null);

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
 * 'pad' (a <pad> key), several, or []. rs: {window, sinkTokens} (a sliding window; optional).
 */
export function blockReasons(mask, i, j, keyLabel, rs = {}) {
  const reasons = [];
  if (mask.includes('causal') && j > i) reasons.push('future');
  if (windowEffect(i, j, rs.window, rs.sinkTokens) === 'window') reasons.push('window');
  if (mask.includes('padding') && keyLabel === '<pad>') reasons.push('pad');
  return reasons;
}
