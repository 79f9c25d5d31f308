// Every preset reproduces its program (tests/reference/programs/<key>.py, run
// by `npm run fixtures` with PyTorch 1.13): the engine, given the preset's
// settings as the page sends them, in each UI language, computes every tensor
// the program saved, each seen in the program's own layout.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { LANGUAGES } from '../../web/i18n/index.js';
import {
  DEFAULT_SETTINGS,
  PRESETS,
  defaultSettings,
  presetByKey,
  presetSettings,
  relocalize,
} from '../../web/model/presets.js';
import { configFromSettings, withSetting } from '../../web/model/settings.js';
import { emptyEdits } from '../../web/model/edits.js';
import { decodeState, encodeState } from '../../web/model/share.js';
import { compareTensors, fixtureDir } from './fixtures.js';
import {
  first,
  idsMatrix,
  idsTensor,
  narrow,
  permute,
  reshape,
  select,
  splitHeads,
  transpose,
} from './program-views.js';

const programFixture = (key) => JSON.parse(readFileSync(`${fixtureDir}programs/${key}.json`, 'utf8'));
const programNames = JSON.parse(readFileSync(`${fixtureDir}programs/index.json`, 'utf8'));
const tutorialDir = fileURLToPath(new URL('../reference/tutorials/', import.meta.url));

// Per head h of size dk: its column block of an x·W matrix, as the head's nn.Linear weight.
const headWeight = (w, h, dk) => transpose(narrow(w, 1, h * dk, dk));
// Per head h: its slice of Q, K, V [B, S, D].
const headColumns = (t, h, dk) => narrow(t, 2, h * dk, dk);

// nn.Linear(in, out) -> its state_dict entries under `name`.
const linear = (name, w, b) => ({ [`${name}.weight`]: transpose(w), ...(b ? { [`${name}.bias`]: b } : {}) });
/** The program's tensor names -> the engine's tensors in the program's layout. */
const VIEWS = {
  tutorial: ({ tensors: t, ids }) => ({
    ids: idsTensor(ids),
    X: first(t.X),
    W_q: t.W_Q,
    W_k: t.W_K,
    W_v: t.W_V,
    Q: first(t.Q),
    K: first(t.K),
    V: first(t.V),
    scores: first(first(t.scores)),
    scaled_scores: first(first(t.scaled)),
    attention_weights: first(first(t.weights)),
    output: first(t.output),
  }),
  'tutorial-causal': (r) => ({
    ...VIEWS.tutorial(r),
    mask: first(r.tensors.mask),
    masked_scores: first(first(r.tensors.masked)),
    dropped_weights: first(first(r.tensors.dropped)),
  }),
  'tutorial-self-attention': ({ tensors: t, ids }) => ({
    ids: idsTensor(ids),
    X: first(t.X),
    ...linear('W_Q', t.W_Q),
    ...linear('W_K', t.W_K),
    ...linear('W_V', t.W_V),
    Q: first(t.Q),
    K: first(t.K),
    V: first(t.V),
    scores: first(first(t.scores)),
    scaled: first(first(t.scaled)),
    weights: first(first(t.weights)),
    output: first(t.output),
  }),
  'tutorial-causal-attention': ({ tensors: t }) => ({
    batch: t.X,
    mask: first(t.mask),
    ...linear('W_Q', t.W_Q),
    ...linear('W_K', t.W_K),
    ...linear('W_V', t.W_V),
    Q: t.Q,
    K: t.K,
    V: t.V,
    scores: select(t.scores, 1, 0),
    scaled: select(t.scaled, 1, 0),
    masked: select(t.masked, 1, 0),
    weights: select(t.dropped, 1, 0), // after self.dropout (p = 0)
    context: select(t.context, 1, 0),
    context_vecs: t.output,
  }),
  'tutorial-two-heads': ({ tensors: t }) => {
    const dk = 3;
    const views = { batch: t.X, context_vecs: t.output };
    for (const h of [0, 1]) {
      Object.assign(views, {
        [`heads.${h}.W_Q.weight`]: headWeight(t.W_Q, h, dk),
        [`heads.${h}.W_K.weight`]: headWeight(t.W_K, h, dk),
        [`heads.${h}.W_V.weight`]: headWeight(t.W_V, h, dk),
        [`heads.${h}.Q`]: headColumns(t.Q, h, dk),
        [`heads.${h}.K`]: headColumns(t.K, h, dk),
        [`heads.${h}.V`]: headColumns(t.V, h, dk),
        [`heads.${h}.scores`]: select(t.scores, 1, h),
        [`heads.${h}.scaled`]: select(t.scaled, 1, h),
        [`heads.${h}.masked`]: select(t.masked, 1, h),
        [`heads.${h}.weights`]: select(t.dropped, 1, h),
        [`heads.${h}.context`]: select(t.context, 1, h),
      });
    }
    return views;
  },
  'tutorial-multi-head': ({ tensors: t }) => ({
    batch: t.X,
    ...linear('W_Q', t.W_Q),
    ...linear('W_K', t.W_K),
    ...linear('W_V', t.W_V),
    ...linear('W_O', t.W_O, t.b_O),
    Q: t.Q,
    K: t.K,
    V: t.V,
    scores: t.scores,
    scaled: t.scaled,
    masked: t.masked,
    weights: t.weights,
    context: t.context,
    concat: t.concat,
    context_vecs: t.output,
  }),
  'mha-512': ({ tensors: t }) => ({
    x: t.X,
    Q: t.Q,
    K: t.K,
    V: t.V,
    scaled: t.scaled, // no mask is passed: the scaled scores are what the softmax reads
    weights: t.weights,
    concat: t.concat,
    output: t.output,
  }),
  'simple-self-attention': ({ tensors: t, ids }) => ({
    ids: idsTensor(ids),
    inputs: first(t.X),
    'W_query.weight': transpose(t.W_Q),
    'W_key.weight': transpose(t.W_K),
    'W_value.weight': transpose(t.W_V),
    queries: first(t.Q),
    keys: first(t.K),
    values: first(t.V),
    attn_scores: first(first(t.scores)),
    attn_weights: first(first(t.weights)),
    context_vecs: first(t.output),
  }),
  'causal-head': ({ tensors: t }) => ({
    batch: t.X,
    mask: first(t.mask),
    'W_query.weight': transpose(t.W_Q),
    'W_key.weight': transpose(t.W_K),
    'W_value.weight': transpose(t.W_V),
    queries: t.Q,
    keys: t.K,
    values: t.V,
    attn_scores: select(t.scores, 1, 0),
    scaled_scores: select(t.scaled, 1, 0),
    masked_scores: select(t.masked, 1, 0),
    attn_weights: select(t.dropped, 1, 0), // after self.dropout (p = 0)
    context_vecs: t.output,
  }),
  'two-heads': ({ tensors: t }) => {
    const dk = 3;
    const views = { batch: t.X, context_vecs: t.output };
    for (const h of [0, 1]) {
      Object.assign(views, {
        [`heads.${h}.mask`]: first(t.mask),
        [`heads.${h}.W_query.weight`]: headWeight(t.W_Q, h, dk),
        [`heads.${h}.W_key.weight`]: headWeight(t.W_K, h, dk),
        [`heads.${h}.W_value.weight`]: headWeight(t.W_V, h, dk),
        [`heads.${h}.queries`]: headColumns(t.Q, h, dk),
        [`heads.${h}.keys`]: headColumns(t.K, h, dk),
        [`heads.${h}.values`]: headColumns(t.V, h, dk),
        [`heads.${h}.attn_scores`]: select(t.scores, 1, h),
        [`heads.${h}.scaled_scores`]: select(t.scaled, 1, h),
        [`heads.${h}.masked_scores`]: select(t.masked, 1, h),
        [`heads.${h}.attn_weights`]: select(t.dropped, 1, h),
        [`heads.${h}.context_vec`]: select(t.context, 1, h),
      });
    }
    return views;
  },
  'multi-head': ({ tensors: t }) => ({
    batch: t.X,
    mask: first(t.mask),
    'W_query.weight': transpose(t.W_Q),
    'W_key.weight': transpose(t.W_K),
    'W_value.weight': transpose(t.W_V),
    'out_proj.weight': transpose(t.W_O),
    'out_proj.bias': t.b_O,
    queries: t.Q,
    keys: t.K,
    values: t.V,
    attn_scores: t.scores,
    scaled_scores: t.scaled,
    masked_scores: t.masked,
    attn_weights: t.dropped,
    heads: t.context,
    concatenated: t.concat,
    context_vecs: t.output,
  }),
  mha: ({ tensors: t, ids }) => ({
    batch_ids: idsMatrix(ids),
    key_padding_mask: select(t.mask, 1, 0), // padding only: every query row blocks the same keys
    x: permute(t.X, [1, 0, 2]), // (L, N, E): batch_first=False
    attn_output: permute(t.output, [1, 0, 2]),
    attn_weights: t.averagedWeights,
  }),
  annotated: ({ tensors: t }) => {
    const heads = (x) => permute(reshape(x, [6, 3, 2, 4]), [0, 2, 1, 3]); // .view(nbatches, -1, h, d_k).transpose(1, 2)
    return {
      x: t.X,
      ...Object.fromEntries(
        ['Q', 'K', 'V', 'O'].flatMap((n, i) => [
          [`linears.${i}.weight`, transpose(t[`W_${n}`])],
          [`linears.${i}.bias`, t[`b_${n}`]],
        ]),
      ),
      mask: narrow(t.mask, 0, 0, 1), // subsequent_mask(3): 1 = may attend
      scores: t.scaled, // matmul(...) / math.sqrt(d_k)
      masked_scores: t.masked,
      p_attn: t.weights,
      query: heads(t.Q),
      key: heads(t.K),
      value: heads(t.V),
      heads: t.context,
      concat: t.concat,
      attn: t.dropped, // self.attn holds p_attn after dropout
      out: t.output,
    };
  },
  xxt: ({ tensors: t, ids }) => ({
    ids: idsTensor(ids),
    x: t.X,
    raw_weights: select(t.scores, 1, 0),
    weights: select(t.weights, 1, 0),
    y: t.output,
  }),
  cross: ({ tensors: t, ids, contextIds }) => ({
    ids_1: idsTensor(ids),
    ids_2: idsTensor(contextIds),
    first_input: first(t.X),
    second_input: first(t.X_context),
    W_query: t.W_Q,
    W_key: t.W_K,
    W_value: t.W_V,
    queries_1: first(t.Q),
    keys_2: first(t.K),
    values_2: first(t.V),
    attn_scores: first(first(t.scores)),
    attn_weights: first(first(t.weights)),
    context_vectors: first(t.output),
  }),
  additive: ({ tensors: t, ids, contextIds }) => ({
    decoder_ids: idsMatrix(ids),
    encoder_ids: idsMatrix(contextIds),
    queries: t.X,
    keys: t.X_context,
    'W_q.weight': transpose(t.W_a),
    'W_k.weight': transpose(t.U_a),
    'w_v.weight': reshape(t.v_a, [1, t.v_a.shape[0]]),
    scores: select(t.scores, 1, 0),
    attention_weights: select(t.weights, 1, 0),
    context: t.output,
  }),
};

// The self-attention notes' one-head example: X [1, 4, 6] and its x·W projections, as the program keeps them.
const notesProjections = (t) => ({ X: t.X, W_Q: t.W_Q, W_K: t.W_K, W_V: t.W_V, Q: t.Q, K: t.K, V: t.V });
// One head's [B, 1, S, S] map as the program's [B, S, S].
const oneHead = (t) => select(t, 1, 0);
// The notes' multi-head module: proj_weights 0-3 are nn.Linear(W^Q, W^K, W^V, W^O) with biases; the heads [B, H, S, dk].
const notesModule = (t) => {
  const heads = (x) => splitHeads(x, t.context.shape[1]);
  return {
    x: t.X,
    ...Object.fromEntries(
      ['Q', 'K', 'V', 'O'].flatMap((n, i) => [
        [`proj_weights.${i}.weight`, transpose(t[`W_${n}`])],
        [`proj_weights.${i}.bias`, t[`b_${n}`]],
      ]),
    ),
    query: heads(t.Q),
    key: heads(t.K),
    value: heads(t.V),
    scores: t.scaled, // matmul(...) / math.sqrt(k_dim)
    masked: t.masked,
    weights: t.weights,
    attention_score: t.dropped, // the module keeps the weights after its dropout
    heads: t.context,
    concat: t.concat,
    out: t.output,
  };
};
// The hand-written tutorial's tokens and embedded rows (one sentence, no batch axis).
const handwrittenInput = ({ tensors: t, ids }) => ({ encoded_sentence: idsTensor(ids), embedded_sentence: first(t.X) });

Object.assign(VIEWS, {
  'notes-dot': ({ tensors: t }) => ({
    ...notesProjections(t),
    scores: oneHead(t.scores),
    weights: oneHead(t.weights),
    out: t.output,
  }),
  'notes-scaled': ({ tensors: t }) => ({
    ...notesProjections(t),
    dot: oneHead(t.scores),
    scores: oneHead(t.scaled),
    weights: oneHead(t.weights),
    out: t.output,
  }),
  'notes-additive': ({ tensors: t }) => ({
    ...notesProjections(t),
    'W.weight': transpose(t.W_a),
    'U.weight': transpose(t.U_a),
    'w.weight': reshape(t.v_a, [1, t.v_a.shape[0]]),
    scores: oneHead(t.scores),
    weights: oneHead(t.weights),
    out: t.output,
  }),
  'notes-mask': ({ tensors: t }) => ({
    ...notesProjections(t),
    mask: first(t.mask), // 1 = blocked, the notes' MASK matrix
    scores: oneHead(t.scaled),
    masked: oneHead(t.masked),
    weights: oneHead(t.weights),
    out: t.output,
  }),
  'notes-heads': (r) => ({ ids: idsMatrix(r.ids), ...notesModule(r.tensors) }),
  'notes-clones': ({ tensors: t }) => ({ ...notesModule(t), mask: narrow(t.mask, 0, 0, 1) }), // tril: 1 = may attend
  'handwritten-mha': (r) => ({
    ...handwrittenInput(r),
    q1: r.tensors.Q,
    k1: r.tensors.K,
    v1: r.tensors.V,
    scores: r.tensors.scaled, // / head_dim ** 0.5, no mask
    attn_weights: r.tensors.weights,
    attn_output: r.tensors.concat, // the heads concatenated, before self.out
    attention_output: r.tensors.output,
  }),
  'handwritten-torch-mha': (r) => ({
    ...handwrittenInput(r),
    embedded_sentence: r.tensors.X, // unsqueezed: (1, 10, 512)
    attention_output: r.tensors.output,
    attn_weights: r.tensors.averagedWeights, // averaged over the 8 heads
  }),
});

// Hugging Face-style modules: q/k/v_proj without bias, o_proj with nn.Linear's bias.
const hfProjections = (t) => ({
  ...linear('q_proj', t.W_Q),
  ...linear('k_proj', t.W_K),
  ...linear('v_proj', t.W_V),
  ...linear('o_proj', t.W_O, t.b_O),
});
const heads = (r) => [r.sizes.H, r.sizes.H_kv ?? r.sizes.H];

Object.assign(VIEWS, {
  llama: (r) => {
    const { tensors: t, ids } = r;
    const [H, Hkv] = heads(r);
    return {
      ids: idsMatrix(ids),
      hidden_states: t.X,
      ...hfProjections(t),
      query_proj: t.Q,
      key_proj: t.K,
      value_proj: t.V,
      rope_angles: t.ropeAngles,
      query_states: splitHeads(t.Q_rope, H),
      key_states: splitHeads(t.K_rope, Hkv),
      attn_scores: t.scores,
      scaled_scores: t.scaled,
      masked_scores: t.masked,
      attn_weights: t.weights,
      attn_heads: t.context,
      attn_output: t.output,
    };
  },
  mistral: (r) => {
    const { tensors: t, ids } = r;
    const [H, Hkv] = heads(r);
    return {
      ids: idsMatrix(ids),
      hidden_states: t.X,
      ...hfProjections(t),
      query_states: splitHeads(t.Q_rope, H),
      key_states: splitHeads(t.K_rope, Hkv),
      value_states: splitHeads(t.V, Hkv),
      attn_scores: t.scores,
      scaled_scores: t.scaled,
      mask: first(t.mask), // causal | window, 1 = blocked
      masked_scores: t.masked,
      attn_weights: t.weights,
      attn_output: t.output,
    };
  },
  'streaming-llm': ({ tensors: t, ids }) => ({
    ids: idsMatrix(ids),
    x: t.X,
    ...linear('W_query', t.W_Q),
    ...linear('W_key', t.W_K),
    ...linear('W_value', t.W_V),
    ...linear('out_proj', t.W_O, t.b_O),
    attn_scores: t.scores,
    scaled_scores: t.scaled,
    mask: first(t.mask), // causal | (window and not a sink), 1 = blocked
    masked_scores: t.masked,
    attn_weights: t.weights,
    context: t.context,
    output: t.output,
  }),
  'alibi-bloom': ({ tensors: t, ids }) => ({
    ids: idsMatrix(ids),
    hidden_states: t.X,
    ...linear('query', t.W_Q, t.b_Q),
    ...linear('key', t.W_K, t.b_K),
    ...linear('value', t.W_V, t.b_V),
    ...linear('dense', t.W_O, t.b_O),
    attn_scores: t.scores,
    scaled_scores: t.scaled,
    alibi: t.alibiBias,
    biased_scores: t.biased,
    masked_scores: t.masked,
    attn_weights: t.weights,
    output: t.output,
  }),
  'multi-query': (r) => {
    const { tensors: t, ids } = r;
    return {
      ids: idsMatrix(ids),
      x: t.X,
      ...hfProjections(t),
      queries: splitHeads(t.Q, r.sizes.H),
      keys: t.K, // the one key head: (B, S, dk)
      values: t.V,
      attn_scores: t.scores,
      scaled_scores: t.scaled,
      masked_scores: t.masked,
      attn_weights: t.weights,
      heads: t.context,
      output: t.output,
    };
  },
  'gemma2-softcap': (r) => {
    const { tensors: t, ids } = r;
    return {
      ids: idsMatrix(ids),
      hidden_states: t.X,
      ...hfProjections(t),
      query_states: splitHeads(t.Q_rope, r.sizes.H),
      attn_scores: t.scores,
      scaled_scores: t.scaled,
      capped_scores: t.capped,
      masked_scores: t.masked,
      attn_weights: t.weights,
      attn_output: t.output,
    };
  },
});

let lab;
const worst = [];
beforeAll(async () => {
  lab = await loadAttentionLab();
});
afterAll(() => {
  const overall = worst.reduce((a, b) => (b.worst > a.worst ? b : a), { worst: 0 });
  console.log(
    `presets vs their PyTorch programs: worst |engine - torch| = ${overall.worst.toExponential(2)} (${overall.name})\n  ` +
      worst.map((w) => `${w.name} ${w.worst.toExponential(2)} (${w.tensor})`).join('\n  '),
  );
});

describe('every preset mirrors a program', () => {
  test('each preset has a program and each program a preset', () => {
    expect(PRESETS.map((p) => p.key).sort()).toEqual([...programNames].sort());
    expect(Object.keys(VIEWS).sort()).toEqual([...programNames].sort());
  });

  const cases = PRESETS.flatMap((preset) => Object.keys(LANGUAGES).map((lang) => [preset.key, lang, preset]));
  test.each(cases)('%s (%s) computes what the program printed', (key, lang, preset) => {
    const fixture = programFixture(key);
    const result = lab.run(configFromSettings(presetSettings(preset, lang)));
    const { worst: w, worstName, problems } = compareTensors(fixture.tensors, VIEWS[key](result));
    worst.push({ name: `${key} (${lang})`, worst: w, tensor: worstName });
    expect(problems).toEqual([]);
  });
});

describe('presets in each language', () => {
  test('a per-language value is resolved; English where a language has none', () => {
    const tutorial = presetByKey.get('tutorial');
    expect(presetSettings(tutorial, 'en').text).toBe('Once upon a time there');
    // A tutorial's preset keeps the tutorial's own tokens in every language: its rows are the tutorial's rows.
    expect(presetSettings(tutorial, 'zh').text).toBe('Once upon a time there');
    expect(presetSettings(presetByKey.get('mha'), 'zh').text).toBe('我爱猫和狗\n狗爱你');
    expect(presetSettings(tutorial, 'fr').text).toBe('Once upon a time there');
    expect(presetSettings(tutorial, 'zh').dModel).toBe(4);
    expect(presetSettings(presetByKey.get('cross'), 'zh').contextText).toBe('je suis étudiant');
    expect(defaultSettings('en')).toEqual(DEFAULT_SETTINGS);
    expect(defaultSettings('zh').text).not.toBe(DEFAULT_SETTINGS.text);
  });

  // The tokens each tutorial's sentence preset shows, as the tutorial writes them (its text, and its padding).
  const TUTORIAL_TOKENS = {
    tutorial: 'Once upon a time there',
    'tutorial-causal': 'Once upon a time there',
    'tutorial-self-attention': 'Once upon a time there',
    'notes-heads': "The animal didn't cross the street because it was too tired",
    'handwritten-mha': `this is an example sentence${' <pad>'.repeat(5)}`,
    'handwritten-torch-mha': `this is an example sentence${' <pad>'.repeat(5)}`,
  };
  test("the tutorials' presets show the tutorial's own tokens in every language", () => {
    const named = readdirSync(tutorialDir)
      .filter((name) => name.endsWith('.json'))
      .flatMap((name) => JSON.parse(readFileSync(tutorialDir + name, 'utf8')).programs.map((p) => p.preset));
    const withText = PRESETS.filter(
      (p) => (p.key.startsWith('tutorial') || p.key.startsWith('notes') || named.includes(p.key)) && p.settings.text,
    );
    expect(withText.map((p) => p.key).sort()).toEqual(Object.keys(TUTORIAL_TOKENS).sort());
    for (const preset of withText) {
      expect(typeof preset.settings.text, preset.key).toBe('string'); // one sentence for every language
      for (const lang of Object.keys(LANGUAGES)) {
        const result = lab.run(configFromSettings(presetSettings(preset, lang)));
        expect(result.tokens, `${preset.key} (${lang})`).toEqual([TUTORIAL_TOKENS[preset.key].split(' ')]);
      }
    }
  });

  test("the language switch changes a preset's sentences the user left, and keeps what they typed", () => {
    const cross = presetByKey.get('cross');
    const shown = presetSettings(cross, 'en');
    const switched = relocalize(shown, cross, 'en', 'zh');
    expect(switched.settings).toEqual(presetSettings(cross, 'zh'));
    expect(switched.changed).toEqual(['text']);
    const typed = relocalize({ ...shown, text: 'my own sentence' }, cross, 'en', 'zh');
    expect(typed.settings.text).toBe('my own sentence');
    expect(typed.changed).toEqual([]);
  });

  test("a typed sentence replaces a preset's random input (the config gives one of them)", () => {
    const settings = presetSettings(presetByKey.get('causal-head'), 'en');
    const typed = withSetting(settings, 'text', 'a b c');
    expect(typed.input).toBeUndefined();
    expect(configFromSettings(typed)).toMatchObject({ text: 'a b c', dModel: 4 });
    expect(withSetting(settings, 'text', '').input).toEqual(settings.input); // an empty box gives nothing
  });

  const perLanguage = PRESETS.filter((p) => typeof p.settings.text === 'object');
  test.each(perLanguage.map((p) => [p.key, p]))(
    '%s: the Chinese tokens differ and their ids repeat as the English ones do',
    (key, preset) => {
      const en = lab.run(configFromSettings(presetSettings(preset, 'en')));
      const zh = lab.run(configFromSettings(presetSettings(preset, 'zh')));
      const words = (tokens) => tokens.flat().filter((token) => token !== '<pad>');
      expect(words(zh.tokens).some((token) => en.vocab.includes(token))).toBe(false);
      expect(words(zh.tokens).length).toBe(words(en.tokens).length);
      expect(zh.ids).toEqual(en.ids);
      expect(zh.contextIds).toEqual(en.contextIds);
      expect(zh.vocab.length).toBe(en.vocab.length);
    },
  );
});

describe('presets in share links', () => {
  const cases = PRESETS.flatMap((preset) => Object.keys(LANGUAGES).map((lang) => [preset.key, lang, preset]));
  test.each(cases)('%s (%s) round-trips, its random input, batch and vocab included', async (key, lang, preset) => {
    const settings = presetSettings(preset, lang);
    const back = await decodeState(`#${await encodeState({ settings, edits: emptyEdits() })}`);
    expect(back.settings).toEqual(settings);
  });

  const deflated = async (state) => {
    const bytes = new TextEncoder().encode(JSON.stringify(state));
    const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate-raw'));
    return `#s=v2.${Buffer.from(await new Response(stream).arrayBuffer()).toString('base64url')}`;
  };
  test.each([
    ['a random input of two sizes', { input: { randn: [1, 2] } }],
    ['a random input of another kind', { input: { normal: [1, 2, 4] } }],
    ['a random input with two kinds', { input: { randn: [1, 2, 4], rand: [1, 2, 4] } }],
    ['a random input of a negative size', { input: { rand: [1, -2, 4] } }],
    ['a vocab of numbers', { vocab: [1, 2] }],
    ['tokens that are not lists', { tokens: ['a b'] }],
    ['a prototype key', JSON.parse('{"input": {"__proto__": [1, 2, 4]}}')],
  ])('rejects %s', async (_, s) => {
    await expect(decodeState(await deflated({ s }))).rejects.toThrow('has the wrong type');
  });
});
