// Step "flash": FlashAttention's online softmax over tiles of keys (lab.flash): m = max(m_old, max_j x_ij),
// α = exp(m_old − m), ℓ = α·ℓ + Σ_j exp(x_ij − m), O = α·O + Σ_j exp(x_ij − m)·v_j; o_i = O / ℓ.
// Tiles [B_r, B_c]; m, ℓ, α [B_r]; O [B_r, d_k].
import { say } from '../../model/words.js';

export default {
  key: 'flash',
  // The engine's steppers walk one softmax per head: not differential attention's two maps.
  applies: (run) => !run.diff && !run.mla,
  chapter: 'inference',
  name: 'flash',
  shapes: [{ of: 'O', axes: ['B_r', 'd_k'] }],
  stepper: true,
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: () => [], // the stepper's own figures (its engine calls)
  formula: () =>
    'm = max(m_{old}, max_{j} x_{ij}),  α = exp(m_{old} − m),  ℓ = α·ℓ + Σ_{j} exp(x_{ij} − m),  O = α·O + Σ_{j} exp(x_{ij} − m)·v_{j};  o_{i} = O / ℓ',
  words: (run, t) => ({
    meaning: [say(t, 'step.flash.meaning')],
    notes: [],
    narration: [say(t, 'step.flash.narration')],
  }),
  render: (run, kit) => () => [kit.stepperBody('flash')],
};
