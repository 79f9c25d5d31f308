// Step "kvcache": decoding one token at a time (lab.decode): K_cache ← [K_cache; k_t], V_cache ← [V_cache; v_t],
// a_t = softmax(q_t K_cacheᵀ · s). K_cache, V_cache (B, H_kv, t+1, d_k), q_t (B, H, 1, d_k).
// The stepper panel (stepper-panels.js) draws its figures with its own engine calls.
import { say } from '../../model/words.js';

export default {
  key: 'kvcache',
  // The engine's steppers walk one softmax per head: not differential attention's two maps.
  applies: (run) => !run.diff && !run.mla,
  chapter: 'inference',
  name: 'kv-cache',
  shapes: [
    { of: 'K_cache, V_cache', axes: ['B', 'H_kv', 't+1', 'd_k'] },
    { of: 'q_t', axes: ['B', 'H', '1', 'd_k'] },
  ],
  stepper: true,
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: () => [], // the stepper's own figures (its engine calls)
  formula: () =>
    'K_{cache} ← [K_{cache}; k_{t}], V_{cache} ← [V_{cache}; v_{t}];  a_{t} = softmax(q_{t}K_{cache}^{⊤} · s),  o_{t} = a_{t}V_{cache}',
  words: (run, t) => ({
    meaning: [say(t, 'step.kvcache.meaning')],
    notes: [],
    narration: [say(t, 'step.kvcache.narration')],
  }),
  render: (run, kit) => () => [kit.stepperBody('kvcache')],
};
