// The <attention-lab> element's typed properties, written from the lists the
// element reads: a property per config field (model/schema.js's FIELDS, with
// the JS side's tokenizer "words") and per view option (model/view-options.js).
// write-types.js writes them to web/api/generated/element-properties.d.ts;
// web/element/attention-lab-element.d.ts merges them into the element's class.
import { camelCase } from '../model/schema.js';
import { docComment, fieldType, limitsText, namedTypesIn, oneOfText, optionType, usedWhenText } from './ts-types.js';

const defaultTag = (value) => `@default ${value === null ? 'null (unset)' : JSON.stringify(value)}`;

function fieldProperty(field, fields, t) {
  const facts = [
    limitsText(field),
    usedWhenText(field),
    oneOfText(field, fields, (f) => f.name),
    'Unset, it reads as the value the last run used (the default before one).',
  ];
  return [
    ...docComment(
      [
        `\`${field.name}\` (config \`${field.path}\`): ${t(`help.${field.path}`)}`,
        facts.filter(Boolean).join(' '),
        defaultTag(field.default),
      ],
      '  ',
    ),
    `  ${camelCase(field.name)}: ${field.default === null ? `${fieldType(field)} | null` : fieldType(field)};`,
  ];
}

function optionProperty(option, t) {
  const range = option.min === undefined ? '' : `An integer from ${option.min} to ${option.max}.`;
  return [
    ...docComment([`\`${option.name}\`: ${t(option.help)}`, range, defaultTag(option.default)], '  '),
    `  ${camelCase(option.name)}: ${optionType(option)};`,
  ];
}

// An attribute's value as markup and the frameworks' templates give it: numbers as numbers or their text,
// booleans present ("") or "false" (model/settings.js), JSON-valued fields as their JSON text.
const NUMBER_ATTRIBUTE = 'number | `${number}`';
const BOOLEAN_ATTRIBUTE = "boolean | '' | 'true' | 'false'";

function attributeType({ type, choices }) {
  const literals = (choices ?? []).map((choice) => `'${choice}'`).join(' | ');
  if (type === 'enum') return literals;
  if (type === 'enum|number') return `${literals} | ${NUMBER_ATTRIBUTE}`;
  if (['integer', 'seed', 'number'].includes(type)) return NUMBER_ATTRIBUTE;
  if (type === 'number|number[]') return `${NUMBER_ATTRIBUTE} | string`;
  if (type === 'boolean') return BOOLEAN_ATTRIBUTE;
  return 'string';
}

/** One optional attribute per config field, view option and element attribute (config, preset), kebab-named. */
function attributeLines(fields, viewOptions, elementAttributes, t) {
  return [...fields, ...viewOptions, ...elementAttributes].flatMap((entry) => [
    ...docComment([t(entry.path ? `help.${entry.path}` : entry.help)], '  '),
    `  '${entry.name}'?: ${attributeType(entry)};`,
  ]);
}

/**
 * The text of element-properties.d.ts; t: the English translator (help.<path>, view.* and element.* texts);
 * elementAttributes: the element's own attributes (element/element-interface.js).
 */
export function elementTypes(fields, viewOptions, elementAttributes, t) {
  const config = fields.flatMap((field) => fieldProperty(field, fields, t));
  const view = viewOptions.flatMap((option) => optionProperty(option, t));
  const imports = namedTypesIn(config);
  return [
    '// Written by web/scripts/write-types.js from the schema (web/model/schema.js), the view options',
    '// (web/model/view-options.js) and the English help texts. Do not edit: `npm run build:wasm`.',
    ...(imports.length ? [`import type { ${imports.join(', ')} } from '../index.js';`] : []),
    '',
    '/** A property per config field, named after its attribute (the CLI flag): d-model is dModel. */',
    'export interface AttentionLabConfigProperties {',
    ...config,
    '}',
    '',
    '/** A property per view option: how the element shows the run. */',
    'export interface AttentionLabViewProperties {',
    ...view,
    '}',
    '',
    '/** Its attributes as markup and JSX / Vue templates write them (kebab-case, values as text or typed). */',
    'export interface AttentionLabAttributes {',
    ...attributeLines(fields, viewOptions, elementAttributes, t),
    '}',
    '',
  ].join('\n');
}
