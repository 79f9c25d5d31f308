// The share round trip for every preset × {no edit, a weight edit, an
// embedding edit} × dModel ∈ {4, 8, 16}, in Node: what the page runs, what its
// link restores (the page's and embed.html's reading of the fragment) and what
// the <attention-lab> snippet and embed.html's element are given (the element's
// reading of its attributes) run to identical tensors. The browser suite
// (tests/e2e/share-roundtrip.test.js) opens the real link, iframe and element
// for a few of these.
import { beforeAll, describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { emptyEdits, setEmbeddingEdit, setWeightEdit, withEdits } from '../../web/model/edits.js';
import { configFromAttributes, elementAttributesOf } from '../../web/model/element-config.js';
import { PRESETS, presetSettings } from '../../web/model/presets.js';
import { configFromSettings, withSetting } from '../../web/model/settings.js';
import { decodeState, encodeState } from '../../web/model/share.js';

const D_MODELS = [4, 8, 16];
// dModel is set to the sizes its heads divide (into an even head size when the
// preset rotates pairs of features, RoPE). A preset with a random input
// (torch.randn(B, S, D)) keeps its own D, and its X is not an embedding to edit.
export const dModelsOf = (preset) => {
  if (preset.settings.input) return [preset.settings.dModel];
  const heads = preset.settings.numHeads ?? 2;
  const rope = (preset.settings['rope.style'] ?? 'none') !== 'none';
  return D_MODELS.filter((d) => d % heads === 0 && (!rope || (d / heads) % 2 === 0));
};
export const EDITS = {
  none: null,
  weight: { matrix: 'W_Q', i: 1, j: 2, typed: '0.3141' },
  embedding: { matrix: 'X', i: 1, j: 2, typed: '-2.71' },
};
export const editKindsOf = (preset) =>
  Object.keys(EDITS).filter((kind) => !(preset.settings.input && kind === 'embedding'));

const CASES = PRESETS.flatMap((preset) =>
  editKindsOf(preset).flatMap((editKind) => dModelsOf(preset).map((dModel) => [preset, editKind, dModel])),
);

let lab;
beforeAll(async () => {
  lab = await loadAttentionLab();
});

/** The edits a reader makes by typing into cell (i, j) of W_Q or of X (X's row i is its token's embedding). */
function editsOf(edit, config) {
  const edits = emptyEdits();
  if (edit?.matrix === 'W_Q') setWeightEdit(edits, 'W_Q', edit.i, edit.j, Number(edit.typed));
  if (edit?.matrix === 'X') setEmbeddingEdit(edits, lab.run(config).tokens[0][edit.i], edit.j, Number(edit.typed));
  return edits;
}

/** The config an element runs with these attributes (getAttribute returns null for one it lacks). */
const elementConfig = (attributes, lang) => configFromAttributes((name) => new Map(attributes).get(name) ?? null, lang);

describe('share round trip: page = link = iframe = element', () => {
  test('covers every preset, each edit kind and each dModel its heads divide', () => {
    expect(new Set(CASES.map(([preset]) => preset.key)).size).toBe(PRESETS.length);
    expect(CASES.length).toBeGreaterThan(3 * PRESETS.length);
  });

  test.each(CASES.map(([preset, editKind, dModel]) => [preset.key, editKind, dModel, preset]))(
    '%s, %s edit, dModel %i',
    async (key, editKind, dModel, preset) => {
      const settings = withSetting(presetSettings(preset, 'en'), 'dModel', dModel);
      const edit = EDITS[editKind];
      const edits = editsOf(edit, configFromSettings(settings));
      const page = lab.run(withEdits(configFromSettings(settings), edits));
      expect(page.settings.dModel).toBe(dModel);
      if (edit) {
        const tensor = page.tensors[edit.matrix];
        expect(tensor.data[edit.i * tensor.shape.at(-1) + edit.j]).toBe(Math.fround(Number(edit.typed)));
      }

      const linked = await decodeState(await encodeState({ settings, edits }));
      const runs = {
        link: withEdits(configFromSettings(linked.settings), linked.edits),
        iframe: elementConfig(elementAttributesOf(linked), 'en'),
        element: elementConfig(elementAttributesOf({ settings, edits }), 'en'),
      };
      for (const [where, config] of Object.entries(runs)) {
        const shown = lab.run(config);
        expect(shown.tokens, where).toEqual(page.tokens);
        for (const [name, tensor] of Object.entries(page.tensors)) {
          expect(shown.tensors[name]?.shape, `${where} ${name}`).toEqual(tensor.shape);
          expect(shown.tensors[name].data, `${where} ${name}`).toEqual(tensor.data);
        }
      }
    },
  );
});
