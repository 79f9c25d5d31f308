// The AttentionConfig interface of the JS API, written from the engine's
// schema (not the JS side's FIELDS: the API sends the config to the engine
// as it is), with the English help text, limits and default of every field,
// and the TensorName and WeightName unions. write-types.js writes it to
// web/api/generated/schema-types.d.ts, which index.d.ts re-exports.
import { docComment, fieldType, limitsText, namedTypesIn, oneOfText, usedWhenText } from './ts-types.js';

/** The doc comment of a config field: its help, then its limits, conditions, flag and default. */
function fieldComment(field, fields, t, indent) {
  const facts = [
    limitsText(field),
    usedWhenText(field),
    oneOfText(field, fields),
    `CLI flag --${field.name}; element attribute ${field.name}.`,
  ];
  return docComment(
    [
      t(`help.${field.path}`),
      facts.filter(Boolean).join(' '),
      `@default ${field.default === null ? 'null (unset)' : JSON.stringify(field.default)}`,
    ],
    indent,
  );
}

/** The fields as a tree of objects by their dotted paths, in schema order: [{key, field} | {key, children}]. */
function tree(fields) {
  const root = [];
  for (const field of fields) {
    let level = root;
    const keys = field.path.split('.');
    for (const key of keys.slice(0, -1)) {
      let node = level.find((n) => n.key === key && n.children);
      if (!node) level.push((node = { key, children: [] }));
      level = node.children;
    }
    level.push({ key: keys.at(-1), field });
  }
  return root;
}

function members(nodes, fields, t, indent) {
  return nodes.flatMap((node) =>
    node.field
      ? [
          ...fieldComment(node.field, fields, t, indent),
          // null is the unset value of a field whose default is null: the engine reads it as not given
          `${indent}${node.key}?: ${fieldType(node.field)}${node.field.default === null ? ' | null' : ''};`,
        ]
      : [`${indent}${node.key}?: {`, ...members(node.children, fields, t, `${indent}  `), `${indent}};`],
  );
}

/** The names a map field (weights.values, weights.edits) takes: all map fields must take the same ones. */
function weightNames(fields) {
  const maps = fields.filter((field) => field.type === 'matrix-map' || field.type === 'edits-map');
  const names = maps[0]?.choices ?? [];
  for (const field of maps)
    if (field.choices.join() !== names.join())
      throw new Error(`config-types.js: ${field.path} takes other names than ${maps[0].path}; WeightName is one list`);
  return names;
}

/** The text of schema-types.d.ts for `schema` (SCHEMA); t: the English translator (help.<path> texts). */
export function configTypes(schema, t) {
  const body = members(tree(schema.fields), schema.fields, t, '  ');
  const imports = namedTypesIn(body).filter((name) => name !== 'WeightName');
  const union = (values) => values.map((value) => `\n  | '${value}'`).join('');
  return [
    "// Written by web/scripts/write-types.js from the engine's schema (cpp/core/schema.cpp) and the English",
    '// help texts (web/i18n/en.js); web/api/index.d.ts re-exports these types. Do not edit: `npm run build:wasm`.',
    ...(imports.length ? [`import type { ${imports.join(', ')} } from '../index.js';`] : []),
    '',
    '/** A tensor name, in pipeline order (SCHEMA.tensors). */',
    `export type TensorName =${union(schema.tensors)};`,
    '',
    '/** A weight of weights.values and weights.edits: a matrix, or a vector (the biases, v_a). */',
    `export type WeightName =${union(weightNames(schema.fields))};`,
    '',
    '/** A config of the engine: every field is optional and has the default shown. */',
    'export interface AttentionConfig {',
    ...body,
    '}',
    '',
  ].join('\n');
}
