// Settings (what a user set, by config path) -> engine config, element
// attributes, share links and edits: derived from the schema, in Node.
import { describe, expect, test } from 'vitest';
import {
  countEdits,
  editsFromJson,
  editsToJson,
  emptyEdits,
  setEmbeddingEdit,
  setWeightEdit,
  withEdits,
} from '../../web/model/edits.js';
import { FIELDS, fieldByPath } from '../../web/model/schema.js';
import {
  attributesFromSettings,
  coerce,
  configFromSettings,
  elementMarkup,
  settingOfError,
  settingsFromAttributes,
  settingsFromConfig,
} from '../../web/model/settings.js';

describe('settings -> config', () => {
  test('only what was set is sent, so the engine decides the rest (qkvBias follows init)', () => {
    expect(configFromSettings({ text: 'a b', 'weights.init': 'torch-mha' })).toEqual({
      text: 'a b',
      weights: { init: 'torch-mha' },
    });
  });

  test('numbers from text, text that is no number stays text, empty means unset', () => {
    expect(
      configFromSettings({
        text: 'a',
        dModel: '16',
        numHeads: ' 4 ',
        seed: '',
        maskFill: '−1e9',
        scale: 'd-model',
        'dropout.p': 'x',
      }),
    ).toEqual({ text: 'a', dModel: 16, numHeads: 4, maskFill: -1e9, scale: 'd-model', dropout: { p: 'x' } });
  });

  test('several lines make a batch', () => {
    expect(configFromSettings({ text: 'one\n\ntwo', contextText: 'x\ny' })).toEqual({
      texts: ['one', 'two'],
      contextTexts: ['x', 'y'],
    });
    expect(settingsFromConfig({ texts: ['one', 'two'], dModel: 4 })).toEqual({ text: 'one\ntwo', dModel: 4 });
  });

  test('coerce follows each type', () => {
    expect(coerce(fieldByPath.get('weights.qkvBias'), 'false')).toBe(false);
    expect(coerce(fieldByPath.get('weights.qkvBias'), '')).toBe(true);
    expect(coerce(fieldByPath.get('vocab'), '["a","b"]')).toEqual(['a', 'b']);
    expect(coerce(fieldByPath.get('vocab'), 'not json')).toBe('not json');
    expect(coerce(fieldByPath.get('scale'), '0.5')).toBe(0.5);
    expect(coerce(fieldByPath.get('scale'), 'head-dim')).toBe('head-dim');
  });

  test('an engine error finds its setting', () => {
    expect(settingOfError('weights.init')).toBe('weights.init');
    expect(settingOfError('texts[1]')).toBe('text');
    expect(settingOfError('contextTexts')).toBe('contextText');
    expect(settingOfError('input.randn[1]')).toBe('input');
    expect(settingOfError('weights.edits.W_Q[0]')).toBe('weights.edits');
    expect(settingOfError('config')).toBeUndefined();
    // A thrown TypeError has no field: no setting, and no second error while the page says the first.
    expect(settingOfError(undefined)).toBeUndefined();
  });
});

describe('element attributes', () => {
  test('every field is an attribute named as its CLI flag, round trip through markup', () => {
    const settings = {
      text: 'a "b" <c>',
      dModel: 4,
      'weights.qkvBias': false,
      'weights.outProj': true,
      vocab: ['a', 'b'],
      maskFill: -1e9,
    };
    const attributes = attributesFromSettings(settings);
    expect(attributes).toEqual([
      ['text', 'a "b" <c>'],
      ['vocab', '["a","b"]'],
      ['d-model', '4'],
      ['qkv-bias', 'false'],
      ['out-proj', ''],
      ['mask-fill', '-1000000000'],
    ]);
    expect(elementMarkup(attributes)).toBe(
      '<attention-lab text="a &quot;b&quot; &lt;c&gt;" vocab="[&quot;a&quot;,&quot;b&quot;]" d-model="4" qkv-bias="false" out-proj mask-fill="-1000000000"></attention-lab>',
    );
    const back = settingsFromAttributes((name) => Object.fromEntries(attributes)[name] ?? null);
    expect(configFromSettings(back)).toEqual(configFromSettings(settings));
    expect(new Set(FIELDS.map((f) => f.name)).size).toBe(FIELDS.length);
  });
});

describe('edits', () => {
  test('sparse [i, j, v], biases [j, v], embedding by token', () => {
    const edits = emptyEdits();
    setWeightEdit(edits, 'W_Q', 2, 3, 0.5);
    setWeightEdit(edits, 'W_Q', 2, 3, 0.75); // the same cell again: one edit
    setWeightEdit(edits, 'b_O', 0, 1, -1);
    setEmbeddingEdit(edits, 'cat', 0, 9);
    expect(countEdits(edits)).toBe(3);
    expect(editsToJson(edits)).toEqual({
      weights: { W_Q: [[2, 3, 0.75]], b_O: [[1, -1]] },
      embedding: [['cat', 0, 9]],
    });
    expect(editsToJson(editsFromJson(editsToJson(edits)))).toEqual(editsToJson(edits));
    expect(withEdits({ text: 'a', weights: { init: 'identity' } }, edits)).toEqual({
      text: 'a',
      weights: { init: 'identity', edits: { W_Q: [[2, 3, 0.75]], b_O: [[1, -1]] } },
      embedding: { edits: [['cat', 0, 9]] },
    });
  });

  test('tokens named like built-in properties are plain data', () => {
    const edits = emptyEdits();
    for (const token of ['__proto__', 'constructor', 'toString']) setEmbeddingEdit(edits, token, 1, 2);
    expect(editsToJson(edits).embedding).toEqual([
      ['__proto__', 1, 2],
      ['constructor', 1, 2],
      ['toString', 1, 2],
    ]);
    expect({}.polluted).toBeUndefined();
    expect(Object.prototype.toString.call([])).toBe('[object Array]');
  });
});

describe('a config attribute holding "__proto__"', () => {
  test('stays a key through mergeConfig, and the element is refused as the API refuses it', async () => {
    const { loadAttentionLab } = await import('../../web/api/index.js');
    const { configFromAttributes } = await import('../../web/model/element-config.js');
    const { mergeConfig } = await import('../../web/model/settings.js');
    const text = '{"__proto__": {"dModel": 4}, "text": "a b"}';
    const merged = mergeConfig({ text: 'x' }, JSON.parse(text));
    expect(Object.keys(merged)).toEqual(['text', '__proto__']);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    const lab = await loadAttentionLab();
    const attributes = new Map([['config', text]]);
    const config = configFromAttributes((name) => attributes.get(name) ?? null, 'en');
    for (const given of [config, JSON.parse(text)]) {
      let error;
      try {
        lab.run(given);
      } catch (e) {
        error = e;
      }
      expect(error).toMatchObject({ field: '__proto__', code: 'unknown-field' });
    }
    expect({}.dModel).toBeUndefined();
  });
});
