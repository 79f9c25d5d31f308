// Step "scaled": scores · s, s = 1/√d_k (or 1/√D, 1, your number). torch: scores / math.sqrt(d_k)   (B, H, S, S_kv)
import { say } from '../../model/words.js';
import { PER_HEAD } from './scores.js';
import { derived, size } from './quotes.js';
import { rawScores, scaleValue } from './formulas.js';

const SCALED_MEANING = {
  'head-dim': 'meaning.scaled.headDim',
  'd-model': 'meaning.scaled.dModel',
  none: 'meaning.scaled.none',
};

/** The scale factor as a quote: the test divides scaled by scores itself. */
const factorQuote = (run) => derived(run.factor, 'scaleFactor', { b: run.b, h: run.h });

export default {
  key: 'scaled',
  // Differential attention's two maps per head stand in its place (diff-maps.js, diff-weights.js).
  applies: (run) => !run.diff,
  chapter: 'basics',
  name: 'scaled',
  shapes: [PER_HEAD],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => [{ name: 'scaled', rows: run.S, cols: run.Skv }],
  formula: (run) =>
    run.rs.scale === 'none'
      ? `scaled = ${rawScores(run)} (s = 1)`
      : `scaled = ${rawScores(run)} · s, s = ${scaleValue(run.rs.scale, run)}`,
  words(run, t) {
    const { rs } = run;
    const n = rs.scale === 'd-model' ? size(run, 'D') : size(run, 'd_k');
    return {
      meaning: [say(t, SCALED_MEANING[rs.scale] ?? 'meaning.scaled.custom', { n, factor: factorQuote(run) })],
      notes: [],
      narration: [say(t, 'step.scaled.narration', { scale: factorQuote(run) })],
    };
  },
  render: (run, kit) => () => [kit.headMatrix('scaled')],
};
