// The fuzzers' libFuzzer dictionary, written from the engine's schema at fuzz
// time (web/scripts/fuzz.sh): every member name a config may hold (each key of
// each field's dotted path, and the names a map field takes), every choice, and
// the limits, followed by the hand-kept tokens that are no part of the schema
// (cpp/fuzz/json.dict: JSON's own, typed arrays, float32 edges).
//   node web/scripts/fuzz-dict.js <schema.json> <json.dict>   prints the dictionary
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A dictionary entry: the UTF-8 bytes in double quotes; " and \ escaped, bytes outside printable ASCII as \xNN. */
export function entry(text) {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (c === '"' || c === '\\') out += `\\${c}`;
    else if (byte >= 0x20 && byte < 0x7f) out += c;
    else out += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return `"${out}"`;
}

const unique = (items) => [...new Set(items)];
const isMap = (field) => field.type === 'matrix-map' || field.type === 'edits-map';

/** The schema's part of the dictionary, as lines of text (comments and entries). */
export function schemaDictionary(schema) {
  const keys = unique(schema.fields.flatMap((field) => field.path.split('.')));
  const names = unique(schema.fields.filter(isMap).flatMap((field) => field.choices));
  const choices = unique(schema.fields.filter((field) => !isMap(field)).flatMap((field) => field.choices ?? []));
  const numbers = unique(
    [
      ...schema.fields.flatMap((field) => [field.min, field.max, field.default]),
      ...Object.values(schema.limits),
      ...schema.tinyModel.checkpoints,
    ]
      .filter((value) => typeof value === 'number')
      .map(String),
  );
  return [
    "# Written by web/scripts/fuzz-dict.js from the engine's schema (cpp/core/schema.cpp) at fuzz time.",
    '# Member names, as "name": (a dotted path is nested objects: weights.init is {"weights": {"init": ...}}).',
    ...keys.map((key) => entry(`"${key}":`)),
    '# The names a map field takes (weights.values, weights.edits).',
    ...names.map((name) => entry(`"${name}":`)),
    '# Choices.',
    ...choices.map((choice) => entry(`"${choice}"`)),
    "# Limits, defaults and the tiny model's checkpoints.",
    ...numbers.map((number) => entry(number)),
  ];
}

/** The whole dictionary: the schema's part, then the hand-kept tokens (the text of json.dict). */
export const fuzzDictionary = (schema, handKept) => `${schemaDictionary(schema).join('\n')}\n\n${handKept}`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [schemaPath, handKeptPath] = process.argv.slice(2);
  if (!schemaPath || !handKeptPath) {
    console.error('usage: node web/scripts/fuzz-dict.js <schema.json> <json.dict>');
    process.exit(2);
  }
  const schema = JSON.parse(readFileSync(schemaPath, 'utf8'));
  process.stdout.write(fuzzDictionary(schema, readFileSync(handKeptPath, 'utf8')));
}
