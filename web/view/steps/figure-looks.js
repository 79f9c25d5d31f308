// How the steps colour the matrices they show, by figure name: the scale
// (probabilities, signed, a mask), the cells the mask greys out, a mask's
// text. The steps' renders and the figures built from a result (the CLI's
// --figure, view/figures/result-figures.js) both read it here.
import { formatNumber } from '../../model/format.js';

// Probabilities (0 to 1, the sequential scale): differential attention's maps and λ·A₂ (diffNoise) too.
const PROB = new Set(['weights', 'averagedWeights', 'dropped', 'sinkWeights', 'halfWeights', 'diffNoise']);
// Differential attention's A = A₁ − λ·A₂ may be negative: signed there.
const SIGNED_WITH_DIFF = new Set(['weights', 'averagedWeights', 'dropped']);
// Matrices after the mask: its blocked cells are grey, not on the scale.
const AFTER_MASK = new Set([
  'masked',
  'weights',
  'dropped',
  'averagedWeights',
  'halfMasked',
  'halfWeights',
  'diffNoise',
]);

/**
 * The attention maps: a query row per token, a key column per key (S × S_kv), per head ([B, H, S, S_kv])
 * or, for the mask and the averaged weights, per sentence ([B, S, S_kv]) and for ALiBi's bias per head ([H, S, S_kv]).
 */
export const ATTENTION_MAPS = new Set([
  'scores',
  'scaled',
  'capped',
  'alibiBias',
  'biased',
  'mask',
  'masked',
  'weights',
  'averagedWeights',
  'dropped',
]);

/** The matrix view fields of figure `name` that say how its cells look: {kind, blocked?, hasBlocked?, maskText?}. */
export function figureLook(run, name) {
  if (name === 'mask')
    return {
      kind: 'mask',
      blocked: run.blocked,
      hasBlocked: run.hasBlocked(),
      // An additive mask holds numbers (0 and the fill); a boolean one 1 and 0.
      maskText: run.rs.maskConvention === 'additive' ? (v) => formatNumber(v, run.decimals) : undefined,
    };
  const kind = PROB.has(name) && !(run.diff && SIGNED_WITH_DIFF.has(name)) ? 'prob' : 'signed';
  return AFTER_MASK.has(name) ? { kind, blocked: run.blocked, hasBlocked: run.hasBlocked() } : { kind };
}
