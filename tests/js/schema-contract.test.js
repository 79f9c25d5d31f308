// The engine's schema is the one list of config fields: the JS API's types,
// the element's types, the config docs, the CLI and the generated schema file all
// name every field, and lab.schema is the same table the build wrote.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { SCHEMA, loadAttentionLab } from '../../web/api/index.js';
import { FIELDS, camelCase, isUsed } from '../../web/model/schema.js';

const read = (path) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');
const cli = fileURLToPath(new URL('../../web/cli/attention-lab.js', import.meta.url));

describe('one schema', () => {
  test("the schema the build wrote (schema.json, SCHEMA, lab.schema) is the engine core's table as its wasm prints it", async () => {
    const printed = spawnSync(
      process.execPath,
      [fileURLToPath(new URL('../../build/wasm/schema_dump.js', import.meta.url))],
      {
        encoding: 'utf8',
      },
    );
    expect(printed.status).toBe(0);
    const engine = JSON.parse(printed.stdout);
    expect(JSON.parse(read('web/api/generated/schema.json'))).toEqual(engine);
    expect(SCHEMA).toEqual(engine);
    expect((await loadAttentionLab()).schema).toEqual(engine);
    expect(FIELDS.length).toBeGreaterThanOrEqual(20);
  });

  test('attention-lab --schema prints the same schema', () => {
    const out = spawnSync(process.execPath, [cli, '--schema'], { encoding: 'utf8' });
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual(SCHEMA);
  });

  test('index.d.ts takes AttentionConfig from the types the build wrote from the schema', () => {
    const dts = read('web/api/index.d.ts');
    expect(dts).toMatch(/^export type \{[^}]*\bAttentionConfig\b[^}]*\} from '\.\/generated\/schema-types\.js';$/m);
    expect(dts).not.toContain('export interface AttentionConfig');
  });

  test('the generated AttentionConfig names every field, under its parent object', () => {
    const dts = read('web/api/generated/schema-types.d.ts');
    const config = dts.slice(dts.indexOf('export interface AttentionConfig'));
    for (const field of FIELDS) {
      const keys = field.path.split('.');
      // each key of the path appears as an optional property, the parents before the leaf
      let at = 0;
      for (const key of keys) {
        const found = config.indexOf(`${key}?:`, at);
        expect(found, field.path).toBeGreaterThan(-1);
        at = found;
      }
    }
  });

  test('the generated AttentionConfig lists every enum value of the schema', () => {
    const dts = read('web/api/generated/schema-types.d.ts');
    // The engine's fields: tokenizer "words" is resolved in JS before the engine (model/segment.js).
    for (const field of SCHEMA.fields)
      if (field.type === 'enum' || field.type === 'enum|number')
        for (const value of field.choices) expect(dts, `${field.path} ${value}`).toContain(`'${value}'`);
  });

  test("the element's generated properties have one for every field, named after its attribute", () => {
    const dts = read('web/api/generated/element-properties.d.ts');
    for (const field of FIELDS) expect(dts, field.name).toMatch(new RegExp(`^\\s+${camelCase(field.name)}: `, 'm'));
    expect(read('web/element/attention-lab-element.d.ts')).toMatch(
      /export interface AttentionLabElement extends AttentionLabConfigProperties, AttentionLabViewProperties \{\}/,
    );
  });

  test('the config docs name every field and every enum value', () => {
    const readme = read('web/docs/config.md');
    for (const field of FIELDS) {
      expect(readme, field.path).toContain(`\`${field.path}\``);
      if (field.type === 'enum' || field.type === 'enum|number')
        for (const value of field.choices) expect(readme, `${field.path} ${value}`).toContain(`"${value}"`);
    }
  });

  test('--help lists a flag for every field', () => {
    const out = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8' });
    for (const field of FIELDS)
      expect(out.stdout, field.name).toContain(field.type === 'boolean' ? `--[no-]${field.name}` : `--${field.name} `);
  });
});

describe('the config table (web/docs/config.md)', () => {
  test('is the one npm run docs writes from the schema', async () => {
    const { readmeWithTable } = await import('../../web/scripts/config-docs.js');
    const readme = read('web/docs/config.md');
    expect(readmeWithTable(readme)).toBe(readme);
  });
});

describe('fields that have an effect only in some setups (usedWhen)', () => {
  const field = (path) => FIELDS.find((f) => f.path === path);
  const valuesOf = (values) => (path) => values[path] ?? field(path).default;

  test('the schema says which: the additive hidden size, the mask fill and convention, the dropout seed', () => {
    expect(field('additiveHidden').usedWhen).toEqual({ path: 'score', equals: 'additive' });
    expect(field('maskFill').usedWhen).toEqual({ path: 'mask', differs: 'none' });
    expect(field('maskConvention').usedWhen).toEqual({ path: 'mask', differs: 'none' });
    expect(field('dropout.p').usedWhen).toBeUndefined();
    expect(field('dropout.seed').usedWhen).toEqual({ path: 'dropout.p', differs: '0' });
    // every condition names a field of the schema and, for an enum, one of its values
    for (const f of FIELDS.filter((f) => f.usedWhen)) {
      const other = field(f.usedWhen.path);
      expect(other, f.path).toBeDefined();
      if (other.type === 'enum') expect(other.choices).toContain(f.usedWhen.equals ?? f.usedWhen.differs);
    }
  });

  test('isUsed reads the other field: its default, a chosen value, a number typed as text', () => {
    expect(isUsed(field('additiveHidden'), valuesOf({}))).toBe(false); // score defaults to "dot"
    expect(isUsed(field('additiveHidden'), valuesOf({ score: 'additive' }))).toBe(true);
    expect(isUsed(field('maskFill'), valuesOf({}))).toBe(false);
    expect(isUsed(field('maskFill'), valuesOf({ mask: 'causal' }))).toBe(true);
    expect(isUsed(field('dropout.seed'), valuesOf({}))).toBe(false);
    expect(isUsed(field('dropout.seed'), valuesOf({ 'dropout.p': '0.0' }))).toBe(false);
    expect(isUsed(field('dropout.seed'), valuesOf({ 'dropout.p': '0.2' }))).toBe(true);
    expect(isUsed(field('dModel'), valuesOf({}))).toBe(true);
  });
});
