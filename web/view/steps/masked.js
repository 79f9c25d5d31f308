// Step "masked": scaled.masked_fill(M, fill) (1 = keep: M == 0; additive: scaled + M)   (B, H, S, S_kv)
import { say } from '../../model/words.js';
import { PER_HEAD } from './scores.js';
import { derived, setting } from './quotes.js';
import { figureLook } from './figure-looks.js';
import { maskInput, maskedExpression } from './formulas.js';

/**
 * The largest weight left at a blocked cell, as a quote, when the fill leaves any (a fill such as −1);
 * null when every blocked cell gets weight 0.
 */
export function leakedWeight(run) {
  const { b, h } = run;
  return run.blockedWeightMax > 0 ? derived(run.blockedWeightMax, 'blockedWeightMax', { b, h }, run.decimals) : null;
}

function meaningOf(run, t) {
  const { rs, b, h } = run;
  if (rs.mask === 'none') return say(t, 'meaning.masked.none');
  const fill = setting(rs.fill, 'maskFill');
  const additive = rs.maskConvention === 'additive';
  const largest = leakedWeight(run);
  if (largest)
    return additive
      ? say(
          t,
          'meaning.masked.additive.leaky',
          { fill, largest },
          { claims: [{ maskMarks: 'kept', b, states: ['0'] }] },
        )
      : say(t, 'step.masked.meaning.leaky', { fill, largest });
  const claims = [{ weightsAt: 'blocked', b, h, states: ['0'] }];
  return say(t, additive ? 'meaning.masked.additive' : 'step.masked.meaning', { fill }, { claims });
}

function narrationOf(run, t) {
  const fill = setting(run.rs.fill, 'maskFill');
  const largest = leakedWeight(run);
  if (largest) return say(t, 'step.masked.narration.leaky', { fill, largest });
  return say(
    t,
    'step.masked.narration',
    { fill },
    { claims: [{ weightsAt: 'blocked', b: run.b, h: run.h, states: ['0'] }] },
  );
}

export default {
  key: 'masked',
  // Differential attention's two maps per head stand in its place (diff-maps.js, diff-weights.js).
  applies: (run) => !run.diff,
  chapter: 'basics',
  name: 'masked',
  shapes: [PER_HEAD],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => [{ name: 'masked', rows: run.S, cols: run.Skv }],
  formula: ({ rs }) => `masked = ${maskedExpression(rs, maskInput(rs))}`,
  words: (run, t) => ({
    meaning: [meaningOf(run, t)],
    notes: [],
    narration: [narrationOf(run, t)],
  }),
  render: (run, kit) => () => [kit.headMatrix('masked', figureLook(run, 'masked'))],
};
