// Element properties: every schema field set as a property and as an
// attribute reads back with the right type and recomputes; the bugs reported
// before (qkvBias following init, booleans read as strings, numbers read as
// text, config as text); typed view options; a consumer's Vite build with a
// named import; and the authors' attribute table.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FIELDS, camelCase, isScalar } from '../../web/model/schema.js';
import { useBrowserSuite } from './suite.js';

const suite = useBrowserSuite();

const identity = (n) => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
// The default text ("He sat by the bank of the river") has a vocab of 7 tokens; dModel is 8.
const embeddingTable = Array.from({ length: 7 }, (_, i) => Array.from({ length: 8 }, (_, j) => i + j / 8));

/**
 * A valid value of every schema field, different from its default: `value`;
 * `base`, attributes the element starts with so the value is valid; and for
 * JSON-valued fields `effect(result)`, what a run with it shows (scalar fields
 * are checked through result.settings[path]).
 */
// A whole MLA config as attributes (DeepSeek's interleaved RoPE): the base of each MLA field's sample.
const MLA_BASE = {
  rope: 'interleaved',
  'mla-kv-rank': '4',
  'mla-nope-dim': '2',
  'mla-rope-dim': '2',
  'mla-value-dim': '4',
};

const SAMPLES = {
  text: { value: 'the dog ran' },
  texts: {
    value: ['a b', 'c d e'],
    effect: (r) =>
      expect(r.tokens).toEqual([
        ['a', 'b', '<pad>'],
        ['c', 'd', 'e'],
      ]),
  },
  tokens: { value: [['我', '爱', '你']], effect: (r) => expect(r.tokens).toEqual([['我', '爱', '你']]) },
  input: {
    value: { randn: [1, 3, 4] },
    base: { 'd-model': '4' },
    effect: (r) => expect(r.tensors.X.shape).toEqual([1, 3, 4]),
  },
  contextText: { value: 'x y z' },
  contextTexts: { value: ['x y z'], effect: (r) => expect(r.contextTokens).toEqual([['x', 'y', 'z']]) },
  contextTokens: { value: [['x', 'y']], effect: (r) => expect(r.contextTokens).toEqual([['x', 'y']]) },
  contextInput: { value: { rand: [1, 2, 8] }, effect: (r) => expect(r.tensors.X_context.shape).toEqual([1, 2, 8]) },
  vocab: { value: ['he', 'sat', 'bank'], effect: (r) => expect(r.vocab).toEqual(['he', 'sat', 'bank']) },
  tokenizer: { value: 'whitespace' },
  maxLen: { value: 12 },
  dModel: { value: 4 },
  numHeads: { value: 1 },
  seed: { value: 7 },
  'embedding.positional': { value: 'sinusoidal' },
  'embedding.values': {
    value: embeddingTable,
    effect: (r) => expect(r.tensors.X.data.slice(0, 8)).toEqual(embeddingTable[0]),
  },
  'embedding.edits': {
    value: [['cat', 0, 9]],
    base: { text: 'the cat sat' },
    effect: (r) => expect(r.tensors.X.data[1 * 8 + 0]).toBe(9),
  },
  'weights.init': { value: 'torch-mha' },
  'weights.layout': { value: 'per-head' },
  // true, not false: the default (null) resolves to false for torch-linear, so true is the visible change.
  'weights.qkvBias': { value: true },
  'weights.outProj': { value: false },
  'weights.seed': { value: 42 },
  'weights.values': {
    value: { W_Q: identity(8) },
    effect: (r) => expect(r.tensors.W_Q.data).toEqual(identity(8).flat()),
  },
  'weights.edits': { value: { W_Q: [[0, 0, 2]] }, effect: (r) => expect(r.tensors.W_Q.data[0]).toBe(2) },
  score: { value: 'additive' },
  additiveHidden: { value: 4 },
  scale: { value: 0.5 },
  mask: { value: 'causal' },
  maskConvention: { value: 'keep' },
  maskFill: { value: -1e9 },
  'dropout.p': { value: 0.25 },
  'dropout.seed': { value: 5 },
  qkNorm: { value: true },
  'rope.style': { value: 'rotate-half' },
  'rope.base': { value: 500 },
  'rope.scaling.type': { value: 'yarn', base: { rope: 'rotate-half' } },
  'rope.scaling.factor': { value: 8, base: { rope: 'rotate-half', 'rope-scaling': 'linear' } },
  'rope.scaling.originalMaxPositions': {
    value: 2,
    base: { rope: 'rotate-half', 'rope-scaling': 'dynamic' },
  },
  'rope.scaling.betaFast': { value: 16, base: { rope: 'rotate-half', 'rope-scaling': 'yarn' } },
  'rope.scaling.betaSlow': { value: 2, base: { rope: 'rotate-half', 'rope-scaling': 'yarn' } },
  'rope.scaling.truncate': { value: false, base: { rope: 'rotate-half', 'rope-scaling': 'yarn' } },
  numKVHeads: { value: 1 },
  window: { value: 2, base: { mask: 'causal' } },
  sinkTokens: { value: 1 },
  sinkLogit: { value: [0.5, -1] },
  alibi: { value: true },
  softcap: { value: 30 },
  outputGate: { value: true },
  'diff.depth': { value: 3 },
  // MLA's sizes need each other and a RoPE style: the base is a whole MLA config, the sample changes one size.
  'mla.kvRank': { value: 6, base: MLA_BASE },
  'mla.nopeDim': { value: 3, base: MLA_BASE },
  'mla.ropeDim': { value: 4, base: MLA_BASE },
  'mla.valueDim': { value: 5, base: MLA_BASE },
  'mla.absorb': { value: true, base: MLA_BASE },
  // model "tiny" switches the element to the trained model's view (tested with that view); here the attention
  // layer, set explicitly, reads back and reflects (the default's own value: the one exception below).
  model: { value: 'attention', isDefault: true },
  // The checkpoint reaches the settings whatever the model (it is used with model "tiny").
  checkpoint: { value: 1500 },
};

/** The attribute text of a value: booleans present ('') or "false", arrays and objects as JSON. */
const attributeText = (value) =>
  typeof value === 'boolean'
    ? value
      ? ''
      : 'false'
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

/** Whether `value` is of the schema type of `field` (and in its range or choices). */
function fitsSchema(field, value) {
  const inRange = (n) => (field.min === undefined || n >= field.min) && (field.max === undefined || n <= field.max);
  switch (field.type) {
    case 'integer':
    case 'seed':
      return Number.isInteger(value) && inRange(value);
    case 'number':
      return typeof value === 'number' && inRange(value);
    case 'number|number[]':
      return [value].flat().every((n) => typeof n === 'number' && inRange(n));
    case 'boolean':
      return typeof value === 'boolean';
    case 'enum':
      return field.choices.includes(value);
    case 'enum|number':
      return typeof value === 'number' || field.choices.includes(value);
    case 'string':
      return typeof value === 'string';
    case 'string[]':
      return Array.isArray(value) && value.every((s) => typeof s === 'string');
    default:
      return value !== null && typeof value === 'object';
  }
}

let page;
const pageErrors = [];

/** A same-origin page that loads the element from the built site. */
beforeAll(async () => {
  const context = await suite.browser.newContext({ viewport: { width: 1200, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  const path = '__element-properties.html';
  await page.route(`${suite.server.url}${path}`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"></head>
      <body><div id="host"></div><script type="module" src="attention-lab-element.js"></script></body></html>`,
    }),
  );
  await page.goto(`${suite.server.url}${path}`);
  await page.waitForFunction(() => customElements.get('attention-lab'));
});
afterAll(() => page?.context().close());

/**
 * In the page: a fresh <attention-lab> with `base` attributes (or `markup`);
 * after its first result, the `change` operations ([prop, value] sets a
 * property, ['@name', text] an attribute), then the next attention-change (an
 * attention-error rejects). Returns what the test reads: property values
 * (`read`) before and after, the attributes and the results as plain data.
 */
function inElement({ base = {}, markup = null, change = [], read = [] }) {
  return page.evaluate(
    async ({ base, markup, change, read }) => {
      const host = document.getElementById('host');
      host.replaceChildren();
      if (markup) host.innerHTML = markup;
      const el = markup ? host.firstElementChild : document.createElement('attention-lab');
      for (const [name, value] of Object.entries(base)) el.setAttribute(name, value);
      const next = () =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => finish(reject, new Error('no attention-change within 10 s')), 10_000);
          const onChange = (e) => finish(resolve, e.detail);
          const onError = (e) => finish(reject, new Error(`attention-error ${e.detail.field}: ${e.detail.message}`));
          function finish(settle, value) {
            clearTimeout(timer);
            el.removeEventListener('attention-change', onChange);
            el.removeEventListener('attention-error', onError);
            settle(value);
          }
          el.addEventListener('attention-change', onChange);
          el.addEventListener('attention-error', onError);
        });
      const plain = (result) =>
        result && {
          settings: result.settings,
          vocab: result.vocab,
          tokens: result.tokens,
          contextTokens: result.contextTokens,
          tensors: Object.fromEntries(
            Object.entries(result.tensors).map(([name, t]) => [name, { shape: t.shape, data: Array.from(t.data) }]),
          ),
        };
      const snapshot = () => Object.fromEntries(read.map((prop) => [prop, { value: el[prop], type: typeof el[prop] }]));
      const first = next();
      if (!markup) host.append(el);
      const initial = plain(await first);
      const before = snapshot();
      let result = null;
      if (change.length) {
        const second = next();
        for (const [key, value] of change) {
          if (key.startsWith('@')) el.setAttribute(key.slice(1), value);
          else el[key] = value;
        }
        result = plain(await second);
      }
      const attributes = Object.fromEntries(Array.from(el.attributes, (a) => [a.name, a.value]));
      return { initial, before, result, after: snapshot(), attributes };
    },
    { base, markup, change, read },
  );
}

describe('every schema field, as a property and as an attribute', () => {
  test('every schema field has a valid sample that differs from its default (add one for a new field)', () => {
    const missing = FIELDS.filter((field) => !Object.hasOwn(SAMPLES, field.path)).map((field) => field.path);
    expect(missing, 'schema fields without a sample in SAMPLES').toEqual([]);
    const stale = Object.keys(SAMPLES).filter((path) => !FIELDS.some((field) => field.path === path));
    expect(stale, 'samples of fields the schema no longer has').toEqual([]);
    for (const field of FIELDS) {
      expect(fitsSchema(field, SAMPLES[field.path].value), `sample of ${field.path} fits ${field.type}`).toBe(true);
      if (!SAMPLES[field.path].isDefault)
        expect(SAMPLES[field.path].value, `sample of ${field.path} differs from the default`).not.toEqual(
          field.default,
        );
    }
  });

  for (const field of FIELDS) {
    const prop = camelCase(field.name);
    for (const mode of ['property', 'attribute']) {
      test(`${field.path}: ${mode === 'property' ? `el.${prop} = sample` : `setAttribute('${field.name}', text)`}`, async () => {
        const sample = SAMPLES[field.path];
        expect(sample, `SAMPLES has no entry for ${field.path}`).toBeDefined();
        const text = attributeText(sample.value);
        const change = mode === 'property' ? [[prop, sample.value]] : [[`@${field.name}`, text]];
        const { result, after, attributes } = await inElement({ base: sample.base, change, read: [prop] });
        // Reads back the same value with the same JS type.
        expect(after[prop].type).toBe(typeof sample.value);
        expect(after[prop].value).toEqual(sample.value);
        // The attribute reflects it: booleans present ('') or "false", JSON for objects.
        expect(attributes[field.name]).toBe(text);
        // And it recomputed with it.
        if (isScalar(field)) expect(result.settings[field.path]).toEqual(sample.value);
        else sample.effect(result);
      });
    }
  }
});

describe('the bugs reported before', () => {
  test('<attention-lab init="torch-mha">: qkvBias is true and b_Q is there; el.qkvBias = false recomputes without b_Q', async () => {
    const { initial, before, result, after, attributes } = await inElement({
      markup: '<attention-lab init="torch-mha"></attention-lab>',
      change: [['qkvBias', false]],
      read: ['qkvBias'],
    });
    expect(before.qkvBias).toEqual({ value: true, type: 'boolean' });
    expect(initial.tensors.b_Q.shape).toEqual([8]);
    expect(result.settings['weights.qkvBias']).toBe(false);
    expect(result.tensors.b_Q).toBeUndefined();
    expect(after.qkvBias).toEqual({ value: false, type: 'boolean' });
    expect(attributes['qkv-bias']).toBe('false');
  });

  test("setAttribute('qkv-bias', 'false') reads back false (a boolean); 'qkv-bias' present reads back true", async () => {
    const off = await inElement({ base: { init: 'torch-mha' }, change: [['@qkv-bias', 'false']], read: ['qkvBias'] });
    expect(off.after.qkvBias).toEqual({ value: false, type: 'boolean' });
    expect(off.result.tensors.b_Q).toBeUndefined();
    const on = await inElement({ change: [['@qkv-bias', '']], read: ['qkvBias'] });
    expect(on.before.qkvBias).toEqual({ value: false, type: 'boolean' });
    expect(on.after.qkvBias).toEqual({ value: true, type: 'boolean' });
    expect(on.result.tensors.b_Q.shape).toEqual([8]);
  });

  test('el.outProj is always a boolean, never the string "false"', async () => {
    const viaAttribute = await inElement({ change: [['@out-proj', 'false']], read: ['outProj'] });
    expect(viaAttribute.before.outProj).toEqual({ value: true, type: 'boolean' });
    expect(viaAttribute.after.outProj).toEqual({ value: false, type: 'boolean' });
    expect(viaAttribute.result.tensors.W_O).toBeUndefined();
    const viaProperty = await inElement({
      markup: '<attention-lab out-proj="false"></attention-lab>',
      change: [['outProj', true]],
      read: ['outProj'],
    });
    expect(viaProperty.before.outProj).toEqual({ value: false, type: 'boolean' });
    expect(viaProperty.after.outProj).toEqual({ value: true, type: 'boolean' });
    expect(viaProperty.attributes['out-proj']).toBe('');
    expect(viaProperty.result.tensors.W_O.shape).toEqual([8, 8]);
  });

  test('el.dModel = 16 gives the number 16 and a 16-wide result', async () => {
    const { before, after, result, attributes } = await inElement({
      change: [['dModel', 16]],
      read: ['dModel', 'heads', 'seed'],
    });
    expect(before).toEqual({
      dModel: { value: 8, type: 'number' },
      heads: { value: 2, type: 'number' },
      seed: { value: 0, type: 'number' },
    });
    expect(after.dModel).toEqual({ value: 16, type: 'number' });
    expect(attributes['d-model']).toBe('16');
    expect(result.tensors.X.shape).toEqual([1, 8, 16]);
  });

  test('el.config = {...} reads back an object and recomputes with it', async () => {
    const config = { weights: { init: 'identity', edits: { W_Q: [[0, 1, 3]] } }, scale: 'none' };
    const { before, after, result, attributes } = await inElement({ change: [['config', config]], read: ['config'] });
    expect(before.config).toEqual({ value: null, type: 'object' });
    expect(after.config).toEqual({ value: config, type: 'object' });
    expect(JSON.parse(attributes.config)).toEqual(config);
    expect(result.settings['weights.init']).toBe('identity');
    expect(result.settings.scale).toBe('none');
    expect(result.tensors.W_Q.data[1]).toBe(3);
  });
});

describe('view options are typed', () => {
  test('decimals is a number, compact and editable booleans, theme, lang and steps strings', async () => {
    const { before, after, attributes } = await inElement({
      // View options re-render without a run; seed makes the run that ends the wait.
      change: [
        ['decimals', 2],
        ['compact', true],
        ['theme', 'dark'],
        ['head', 2],
        ['@editable', 'false'],
        ['steps', ['scores', 'weights']],
        ['lang', 'zh'],
        ['seed', 1],
      ],
      read: ['decimals', 'compact', 'editable', 'theme', 'lang', 'steps', 'head'],
    });
    expect(before).toEqual({
      decimals: { value: 4, type: 'number' },
      compact: { value: false, type: 'boolean' },
      editable: { value: false, type: 'boolean' },
      theme: { value: 'auto', type: 'string' },
      head: { value: 1, type: 'number' },
      lang: { value: 'en', type: 'string' },
      steps: { value: null, type: 'object' },
    });
    expect(after).toEqual({
      decimals: { value: 2, type: 'number' },
      compact: { value: true, type: 'boolean' },
      editable: { value: false, type: 'boolean' },
      theme: { value: 'dark', type: 'string' },
      head: { value: 2, type: 'number' },
      lang: { value: 'zh', type: 'string' },
      steps: { value: 'scores weights', type: 'string' },
    });
    expect(attributes).toMatchObject({
      decimals: '2',
      compact: '',
      theme: 'dark',
      head: '2',
      editable: 'false',
      steps: 'scores weights',
      lang: 'zh',
    });
    // Attribute text reads back typed too; text that is not valid gives the default.
    const { after: fromText } = await inElement({
      base: { decimals: '3', compact: 'false', theme: 'purple', editable: '' },
      read: ['decimals', 'compact', 'theme', 'editable'],
    });
    expect(fromText).toEqual({
      decimals: { value: 3, type: 'number' },
      compact: { value: false, type: 'boolean' },
      theme: { value: 'auto', type: 'string' },
      editable: { value: true, type: 'boolean' },
    });
  });
});

describe('for authors', () => {
  test('a consumer project builds with Vite using the named import { AttentionLabElement }', async () => {
    const elementModule = fileURLToPath(new URL('../../web/element/attention-lab-element.js', import.meta.url));
    const dir = mkdtempSync(join(tmpdir(), 'attention-lab-consumer-'));
    try {
      writeFileSync(
        join(dir, 'index.html'),
        '<!doctype html><meta charset="utf-8"><attention-lab text="the cat sat"></attention-lab><script type="module" src="./main.js"></script>\n',
      );
      writeFileSync(
        join(dir, 'main.js'),
        `import { AttentionLabElement } from ${JSON.stringify(elementModule)};\nconsole.log(AttentionLabElement.name, customElements.get('attention-lab') === AttentionLabElement);\n`,
      );
      await build({
        root: dir,
        configFile: false,
        logLevel: 'silent',
        build: { outDir: join(dir, 'dist'), minify: false },
      });
      const assets = join(dir, 'dist', 'assets');
      const bundles = readdirSync(assets).filter((name) => name.endsWith('.js'));
      expect(bundles.length).toBeGreaterThan(0);
      const code = bundles.map((name) => readFileSync(join(assets, name), 'utf8')).join('\n');
      expect(code).toContain('attention-lab');
      expect(code).toContain('AttentionLabElement');
      expect(existsSync(join(dir, 'dist', 'index.html'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  test("the authors' page has a row for every schema field, named in its first cell", async () => {
    const authors = await page.context().newPage();
    await authors.goto(`${suite.server.url}authors.html`);
    await authors.waitForSelector('#attribute-rows tr');
    const firstCells = await authors.$$eval('#attribute-rows tr', (rows) =>
      rows.map((row) => row.cells[0]?.textContent.trim()),
    );
    for (const field of FIELDS) expect(firstCells, `a row for ${field.name}`).toContain(field.name);
    await authors.close();
  });
});

test('no page errors', () => {
  expect(pageErrors).toEqual([]);
});
