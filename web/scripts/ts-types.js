// TypeScript text for the schema's fields and the view options: the type of
// each (from its schema type, choices and default) and its doc comment. Used
// by config-types.js and element-types.js, which write the generated .d.ts.

// The named types of index.d.ts that the JSON-valued schema types stand for.
// A map field's names are WeightName (config-types.js writes it from the choices).
const NAMED_TYPES = {
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

const literals = (choices) => choices.map((choice) => `'${choice}'`).join(' | ');

/** The TypeScript type of a schema field's value (without null): "number", "'none' | 'causal'", … */
export function fieldType(field) {
  if (field.type === 'enum') return literals(field.choices);
  if (field.type === 'enum|number') return `${literals(field.choices)} | number`;
  const named = NAMED_TYPES[field.type];
  if (!named) throw new Error(`ts-types.js: no TypeScript type for the schema type "${field.type}" (${field.path})`);
  return named;
}

/** Its type where null may stand for "unset": fields whose default is null. */
export const nullableFieldType = (field) => (field.default === null ? `${fieldType(field)} | null` : fieldType(field));

/** The TypeScript type of a view option (model/view-options.js); "steps" is a space-separated list, or null. */
export function optionType(option) {
  if (option.type === 'enum') return literals(option.choices);
  if (option.type === 'integer') return 'number';
  if (option.type === 'boolean') return 'boolean';
  if (option.type === 'names') return 'string | null';
  return 'string';
}

/** The index.d.ts types that these types name, sorted: what a generated file imports. */
export function namedTypesIn(types) {
  const names = ['CellEdit', 'EmbeddingEdit', 'GivenValues', 'RandomInput', 'WeightName'];
  return names.filter((name) => types.some((type) => new RegExp(`\\b${name}\\b`).test(type)));
}

/** "An integer from 1 to 4096.", "A number from 0 to 1.", or "" for a field without limits. */
export function limitsText({ type, min, max }) {
  if (min === undefined) return '';
  if (type === 'seed') return `A seed: an integer from ${min} to ${max}.`;
  if (type === 'number|number[]') return `A number, or a list with one per head, each from ${min} to ${max}.`;
  return `${type === 'number' ? 'A number' : 'An integer'} from ${min} to ${max}.`;
}

/** "Has an effect only when `mask` is not "none"." for a field with usedWhen, else "". */
export function usedWhenText({ usedWhen }) {
  if (!usedWhen) return '';
  const { path, equals, differs } = usedWhen;
  // the schema gives the value as text: "additive" quoted, a number ("0") as a number
  const value = (text) => (text !== '' && Number.isFinite(Number(text)) ? text : JSON.stringify(text));
  return equals !== undefined
    ? `Has an effect only when \`${path}\` is ${value(equals)}.`
    : `Has an effect only when \`${path}\` is not ${value(differs)}.`;
}

/** "Give at most one of text, texts, tokens, input." for a field of an exclusive group, else "". */
export function oneOfText(field, fields, nameOf = (f) => f.path) {
  if (!field.oneOf) return '';
  const names = fields.filter((f) => f.oneOf === field.oneOf).map(nameOf);
  return `Give at most one of ${names.join(', ')}.`;
}

/** Words wrapped to lines of at most `width` characters (a longer word stays whole). */
function wrap(text, width) {
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * A /** … *\/ comment of `paragraphs` (null and empty ones left out; "@tag …" ones kept as they are),
 * wrapped to 110 columns at `indent`.
 */
export function docComment(paragraphs, indent) {
  const width = 110 - indent.length - 3;
  const kept = paragraphs.filter(Boolean).map((text) => text.replace(/\*\//g, '*\\/'));
  const body = kept.flatMap((text, i) => [
    ...(i > 0 && !text.startsWith('@') ? [''] : []),
    ...(text.startsWith('@') ? [text] : wrap(text, width)),
  ]);
  return [`${indent}/**`, ...body.map((line) => `${indent} *${line ? ` ${line}` : ''}`), `${indent} */`];
}
