// Step "masked": scaled.masked_fill(M, fill) (1 = keep: M == 0; additive: scaled + M)   (B, H, S, S_kv)
import { say } from '../../model/words.js';
import { PER_HEAD } from './scores.js';
import { setting } from './quotes.js';
import { figureLook } from './figure-looks.js';
import { maskInput, maskedExpression } from './formulas.js';

function meaningOf(run, t) {
  const { rs, b, h } = run;
  if (rs.mask === 'none') return say(t, 'meaning.masked.none');
  const fill = setting(rs.fill, 'maskFill');
  const claims = [{ weightsAt: 'blocked', b, h, states: ['0'] }];
  if (rs.maskConvention === 'additive') return say(t, 'meaning.masked.additive', { fill }, { claims });
  return say(t, 'step.masked.meaning', { fill }, { claims });
}

export default {
  key: 'masked',
  chapter: 'basics',
  name: 'masked',
  shapes: [PER_HEAD],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => [{ name: 'masked', rows: run.S, cols: run.Skv }],
  formula: ({ rs }) => `masked = ${maskedExpression(rs, maskInput(rs))}`,
  words: (run, t) => ({
    meaning: [meaningOf(run, t)],
    notes: [],
    narration: [
      say(
        t,
        'step.masked.narration',
        { fill: setting(run.rs.fill, 'maskFill') },
        { claims: [{ weightsAt: 'blocked', b: run.b, h: run.h, states: ['0'] }] },
      ),
    ],
  }),
  render: (run, kit) => () => [kit.headMatrix('masked', figureLook(run, 'masked'))],
};
