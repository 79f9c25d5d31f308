// Step "output": output = concat · W_O + b_O (or concat itself without W_O).   (B, S, D)
import { say } from '../../model/words.js';
import { axis, size } from './quotes.js';
import { carriedNanNote } from './nan-rows.js';

export default {
  key: 'output',
  chapter: 'basics',
  name: 'output',
  shapes: [{ axes: ['B', 'S', 'D'] }],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => [{ name: 'output', rows: run.S, cols: run.D }],
  // With the output gate, W_O reads the gated concat (step "gate").
  formula: ({ hasWO, bias, T }) => {
    const input = T?.gated ? 'gated' : 'concat';
    return hasWO ? `output = ${input} · W_{O}${bias.O ? ' + b_{O}' : ''}` : `output = ${input}`;
  },
  words: (run, t) => ({
    meaning: [
      say(t, run.T.gated ? 'step.output.meaning.gated' : run.hasWO ? 'step.output.meaning' : 'meaning.output.noProj'),
    ],
    notes: [],
    narration: [say(t, 'step.output.narration', { D: axis(run, 'output', 2), S: size(run, 'S') })],
  }),
  render: (run, kit) => () => [kit.sentenceMatrix('output', run.queryLabels, { nanNote: carriedNanNote(run, kit.t) })],
};
