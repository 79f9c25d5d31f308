// Step "softcap": capped = c · tanh(scaled / c) (Gemma 2). torch: cap * torch.tanh(scores / cap)   (B, H, S, S_kv)
import { compactNumber } from '../../model/format.js';
import { say } from '../../model/words.js';
import { PER_HEAD } from './scores.js';
import { headNumber } from './quotes.js';

// The step's key, name, chapter and when it applies are its stub's (registry.js), which loads this code.
export default {
  shapes: [PER_HEAD],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => [
    { name: 'scaled_beside_capped', rows: run.S, cols: run.Skv },
    { name: 'capped', rows: run.S, cols: run.Skv },
  ],
  formula: ({ rs }) => `capped = c · tanh(scaled / c), c = ${compactNumber(rs.softcap)}`,
  words: (run, t) => ({
    meaning: [say(t, 'step.softcap.meaning')],
    notes: [],
    narration: [say(t, 'step.softcap.narration', { head: headNumber(run) })],
  }),
  render: (run, kit) => () => [
    kit.row(kit.headMatrix('scaled', { figureName: 'scaled_beside_capped' }), kit.headMatrix('capped')),
  ],
};
