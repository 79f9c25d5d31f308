// The TypeScript types the build writes from the schema (web/scripts/write-types.js):
// read back through the TypeScript compiler itself, AttentionConfig has every
// field of the engine's schema with its type, choices, default and limits, and
// the element has a property for every field and view option. A field or a
// choice added to the schema appears in them with no type written by hand.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, test } from 'vitest';
import authorsStrings from '../../web/i18n/authors.js';
import { addStrings, translator } from '../../web/i18n/index.js';
import { FIELDS, SCHEMA, camelCase } from '../../web/model/schema.js';
import { VIEW_OPTIONS } from '../../web/model/view-options.js';
import { ELEMENT_ATTRIBUTES } from '../../web/element/element-interface.js';
import { configTypes } from '../../web/scripts/config-types.js';
import { elementTypes } from '../../web/scripts/element-types.js';

addStrings(authorsStrings);
const t = translator('en');
const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path) => readFileSync(`${root}${path}`, 'utf8');

// The program of the element's .d.ts (which imports index.d.ts and both generated files), and its checker.
let checker;
let config; // the AttentionConfig type, as index.d.ts exports it
let element; // the AttentionLabElement instance type
let diagnostics;
let exported; // (file, name) => the type a .d.ts exports under that name
beforeAll(() => {
  const program = ts.createProgram([`${root}web/element/attention-lab-element.d.ts`], {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
  });
  checker = program.getTypeChecker();
  diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  exported = (file, name) => {
    const symbol = checker
      .getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(`${root}${file}`)))
      .find((s) => s.name === name);
    return checker.getDeclaredTypeOfSymbol(
      symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol,
    );
  };
  config = exported('web/api/index.d.ts', 'AttentionConfig');
  element = exported('web/element/attention-lab-element.d.ts', 'AttentionLabElement');
}, 120_000);

/** The property at a dotted path of `type`: {symbol, type (without undefined)}. */
function property(type, path) {
  let symbol;
  let at = type;
  for (const key of path.split('.')) {
    symbol = checker.getPropertyOfType(at, key);
    if (!symbol) return undefined;
    at = checker.getNonNullableType(checker.getTypeOfSymbol(symbol));
  }
  return { symbol, type: checker.getTypeOfSymbol(symbol) };
}

const members = (type) => (type.isUnion() ? type.types : [type]);
const literals = (type) =>
  members(type)
    .filter((m) => m.isStringLiteral())
    .map((m) => m.value)
    .sort();
const has = (type, flag) => members(type).some((m) => m.flags & flag);
const docOf = (symbol) => ts.displayPartsToString(symbol.getDocumentationComment(checker));
const defaultTag = (symbol) =>
  ts.displayPartsToString(symbol.getJsDocTags(checker).find((tag) => tag.name === 'default')?.text ?? []);

// What each schema type must be in TypeScript (besides null and the enums' string literals).
const EXPECTED = {
  string: 'string',
  'string[]': 'string[]',
  'string[][]': 'string[][]',
  integer: 'number',
  seed: 'number',
  number: 'number',
  'number|number[]': 'number | number[]',
  boolean: 'boolean',
  'random-input': 'RandomInput',
  matrix: 'GivenValues',
  edits: 'EmbeddingEdit[]',
  'matrix-map': 'Partial<Record<WeightName, GivenValues>>',
  'edits-map': 'Partial<Record<WeightName, CellEdit[]>>',
};

describe('the generated types compile', () => {
  test('index.d.ts, the element .d.ts and the generated files type-check together', () => {
    expect(diagnostics).toEqual([]);
  });

  test('the generated files are what write-types.js writes from this schema (npm run build:wasm)', () => {
    expect(read('web/api/generated/schema-types.d.ts')).toBe(configTypes(SCHEMA, t));
    expect(read('web/api/generated/element-properties.d.ts')).toBe(
      elementTypes(FIELDS, VIEW_OPTIONS, ELEMENT_ATTRIBUTES, t),
    );
  });
});

describe('AttentionConfig, from the schema', () => {
  test('every field of the engine is an optional property at its path, of its type, null only when unset by default', () => {
    expect(SCHEMA.fields.length).toBeGreaterThan(40);
    for (const field of SCHEMA.fields) {
      const found = property(config, field.path);
      expect(found, field.path).toBeDefined();
      expect(found.symbol.flags & ts.SymbolFlags.Optional, field.path).toBeTruthy();
      expect(has(found.type, ts.TypeFlags.Null), `${field.path} | null`).toBe(field.default === null);
      const rest = checker.getNonNullableType(found.type);
      if (field.type === 'enum' || field.type === 'enum|number') {
        expect(literals(rest), field.path).toEqual([...field.choices].sort());
        expect(has(rest, ts.TypeFlags.Number), `${field.path} takes a number`).toBe(field.type === 'enum|number');
      } else {
        expect(checker.typeToString(rest), field.path).toBe(EXPECTED[field.type]);
      }
    }
  });

  test('the choices are the documented ones (an anchor written by hand)', () => {
    const choices = (path) => literals(checker.getNonNullableType(property(config, path).type));
    expect(choices('mask')).toEqual(['causal', 'causal+padding', 'none', 'padding']);
    expect(choices('weights.init')).toEqual([
      'identity',
      'torch-linear',
      'torch-linear-clones',
      'torch-mha',
      'torch-rand',
    ]);
    expect(choices('tokenizer')).toEqual(['auto', 'chars', 'whitespace']); // "words" is the JS side's, not the API's
    expect(choices('scale')).toEqual(['d-model', 'head-dim', 'none']);
  });

  test("each field's comment is its English help, with its limits, condition, flag and default", () => {
    for (const field of SCHEMA.fields) {
      const { symbol } = property(config, field.path);
      const doc = docOf(symbol).replace(/\s+/g, ' ');
      expect(doc, field.path).toContain(t(`help.${field.path}`).replace(/\s+/g, ' '));
      expect(doc, field.path).toContain(`CLI flag --${field.name};`);
      if (field.min !== undefined) expect(doc, field.path).toContain(`from ${field.min} to ${field.max}.`);
      if (field.usedWhen) expect(doc, field.path).toContain(`Has an effect only when \`${field.usedWhen.path}\``);
      expect(defaultTag(symbol), field.path).toBe(
        field.default === null ? 'null (unset)' : JSON.stringify(field.default),
      );
    }
    // by hand: dModel is 8 by default, from 1 to 4096
    const dModel = property(config, 'dModel').symbol;
    expect(docOf(dModel)).toContain('An integer from 1 to 4096.');
    expect(defaultTag(dModel)).toBe('8');
  });

  test('TensorName and WeightName are the schema tensors and the names weights.values takes', () => {
    const alias = (name) => exported('web/api/index.d.ts', name);
    expect(literals(alias('TensorName'))).toEqual([...SCHEMA.tensors].sort());
    expect(literals(alias('WeightName'))).toEqual([...FIELDS.find((f) => f.path === 'weights.values').choices].sort());
    expect(literals(alias('WeightName'))).toEqual([
      'U_a',
      'W_DKV',
      'W_G',
      'W_K',
      'W_KR',
      'W_O',
      'W_Q',
      'W_UK',
      'W_UV',
      'W_V',
      'W_a',
      'b_K',
      'b_O',
      'b_Q',
      'b_V',
      'kv_norm',
      'lambda_k1',
      'lambda_k2',
      'lambda_q1',
      'lambda_q2',
      'subln',
      'v_a',
    ]);
  });

  test('a field or a choice added to the schema is in the types with nothing written by hand', () => {
    const trialField = {
      path: 'trial.width',
      name: 'trial-width',
      type: 'number',
      group: 'modern',
      default: 2.5,
      min: 0.5,
      max: 9,
      usedWhen: { path: 'mask', differs: 'none' },
      help: 'field.trial.width',
    };
    const fields = SCHEMA.fields.map((f) => (f.path === 'mask' ? { ...f, choices: [...f.choices, 'trial-kind'] } : f));
    const text = configTypes({ ...SCHEMA, fields: [...fields, trialField] }, (key) =>
      key === 'help.trial.width' ? 'A trial width.' : t(key),
    );
    expect(text).toMatch(/ {2}trial\?: \{\n {4}\/\*\*\n {5}\* A trial width\.\n/);
    expect(text).toContain(
      'A number from 0.5 to 9. Has an effect only when `mask` is not "none". CLI flag --trial-width;',
    );
    expect(text).toContain('     * @default 2.5\n     */\n    width?: number;\n  };');
    expect(text).toContain("mask?: 'none' | 'causal' | 'padding' | 'causal+padding' | 'trial-kind';");
  });
});

describe("the element's properties, from the schema and the view options", () => {
  test('a property per config field, named after its attribute, of its type (tokenizer with "words")', () => {
    for (const field of FIELDS) {
      const found = property(element, camelCase(field.name));
      expect(found, field.name).toBeDefined();
      expect(has(found.type, ts.TypeFlags.Null), `${field.name} | null`).toBe(field.default === null);
      const rest = checker.getNonNullableType(found.type);
      if (field.type === 'enum' || field.type === 'enum|number')
        expect(literals(rest), field.name).toEqual([...field.choices].sort());
      else expect(checker.typeToString(rest), field.name).toBe(EXPECTED[field.type]);
    }
    expect(literals(property(element, 'tokenizer').type)).toContain('words');
  });

  test('a property per view option, of its type', () => {
    const TYPES = { integer: 'number', boolean: 'boolean', string: 'string', names: 'string | null' };
    for (const option of VIEW_OPTIONS) {
      const found = property(element, camelCase(option.name));
      expect(found, option.name).toBeDefined();
      if (option.type === 'enum') expect(literals(found.type), option.name).toEqual([...option.choices].sort());
      else expect(checker.typeToString(found.type), option.name).toBe(TYPES[option.type]);
    }
    expect(literals(property(element, 'theme').type)).toEqual(['auto', 'dark', 'light']);
  });

  test('the hand-written class keeps what is not a field or option: result, config, preset', () => {
    expect(checker.typeToString(property(element, 'result').type)).toBe('AttentionResult | null');
    expect(checker.typeToString(property(element, 'config').type)).toBe('AttentionConfig | null');
    expect(checker.typeToString(property(element, 'preset').type)).toBe('string | null');
  });
});
