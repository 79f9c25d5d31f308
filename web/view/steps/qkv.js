// Step "qkv": Q = X·W_Q + b_Q [B, S, D]; K, V = X_kv·W_K|V + b [B, S_kv, H_kv·d_k].
// torch: q = q_proj(x); k = k_proj(x_kv); v = v_proj(x_kv).
import { quote, say, whole } from '../../model/words.js';
import { renderGqaGrouping } from './variant-figures.js';
import { features } from './run-context.js';
import { axis, sharedAxis, size } from './quotes.js';
import { sentenceStart } from '../../model/selection.js';

/** "1 2 1 2": the K/V head (1-based) each of the first query heads reads. */
const pattern = (H, kvHead) => Array.from({ length: Math.min(H, 8) }, (_, h) => kvHead(h)).join(' ');

/** With GQA, the notes on which K/V head each query head reads. */
export function gqaNotes(run, t) {
  if (!run.gqa) return [];
  const { H, Hkv } = run;
  const width = axis(run, 'K', 2);
  if (Hkv === 1) return [say(t, 'gqa.mqa', { H: size(run, 'H'), width })];
  const group = whole(H / Hkv, { value: 'gqaGroup' });
  // The K/V head each query head reads: .repeat tiles them, repeat_interleave repeats each in place.
  const tiled = pattern(H, (h) => (h % Hkv) + 1);
  const interleaved = pattern(H, (h) => Math.floor(h / (H / Hkv)) + 1);
  return [
    say(t, 'gqa.note', { H: size(run, 'H'), Hkv: size(run, 'H_kv'), group, width }),
    say(t, 'gqa.wrongNote', {
      tiled: quote(tiled, { kvPattern: 'tiled' }, tiled),
      interleaved: quote(interleaved, { kvPattern: 'interleaved' }, interleaved),
    }),
  ];
}

export default {
  key: 'qkv',
  chapter: 'basics',
  name: 'qkv',
  // MLA forms its query and latent in its own step (mla-latent.js), its keys and values per path (mla-paths.js).
  applies: (run) => !run.mla,
  shapes: [
    { of: 'Q', axes: ['B', 'S', 'D'] },
    { of: 'K/V', axes: ['B', 'S_kv', 'H_kv·d_k'] },
  ],
  // The matrices it shows: their names on the page (data-matrix) and sizes, for the claims test.
  figures: (run) => ['Q', 'K', 'V'].map((name) => ({ name, rows: run.T[name].shape[1], cols: run.T[name].shape[2] })),
  formula({ bias, cross }) {
    const kv = cross ? 'X_{ctx}' : 'X';
    const term = (n, x) => `${n} = ${x}·W_{${n}}${bias[n] ? ` + b_{${n}}` : ''}`;
    return [term('Q', 'X'), term('K', kv), term('V', kv)].join(',  ');
  },
  words: (run, t) => ({
    meaning: [say(t, 'step.qkv.meaning')],
    notes: gqaNotes(run, t),
    narration: [
      run.gqa
        ? say(t, 'step.qkv.narration.gqa', {
            S: size(run, 'S'),
            Skv: size(run, 'S_kv'),
            qWidth: axis(run, 'Q', 2),
            kvWidth: sharedAxis(run, run.T.K.shape[2], [
              ['K', 2],
              ['V', 2],
            ]),
          })
        : say(t, 'step.qkv.narration', {
            S: size(run, 'S'),
            Skv: size(run, 'S_kv'),
            D: sharedAxis(run, run.D, [
              ['Q', 2],
              ['K', 2],
              ['V', 2],
            ]),
          }),
    ],
  }),
  render(run, kit) {
    const { T, b, queryLabels, keyLabels, gqa, H, Hkv } = run;
    const qkvGroup = (name, labels, bands) => {
      const [, rows, cols] = T[name].shape;
      return kit.group(
        kit.heading(name),
        kit.matrix(name, T[name], sentenceStart(T[name], b), rows, cols, labels, features(cols), bands),
      );
    };
    return () => [
      kit.row(
        qkvGroup('Q', queryLabels, kit.headBands),
        qkvGroup('K', keyLabels, kit.kvBands),
        qkvGroup('V', keyLabels, kit.kvBands),
      ),
      ...(gqa ? [renderGqaGrouping({ t: kit.t, H, Hkv, theme: kit.view.theme })] : []),
    ];
  },
};
