// custom-elements.json: the Custom Elements Manifest (schema 2.1) of
// <attention-lab>, for editors and documentation tools. Written from the same
// lists the element reads: the engine's config fields (model/schema.js), the
// view options (view/view-options.js), its own attributes, events, custom
// properties and parts (element/element-interface.js), with the English help
// texts. `npm run docs` rewrites it (with the config table of web/docs/config.md); a test
// checks it is current.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import authorsStrings from '../i18n/authors.js';
import { addStrings, translator } from '../i18n/index.js';
import { FIELDS, camelCase } from '../model/schema.js';
import { VIEW_OPTIONS } from '../model/view-options.js';
import {
  COLOR_PROPERTIES,
  ELEMENT_ATTRIBUTES,
  ELEMENT_EVENTS,
  ELEMENT_PARTS,
  SURFACE_PROPERTIES,
} from '../element/element-interface.js';

// The element's attributes, events and custom properties are described in the authors' strings.
addStrings(authorsStrings);
const t = translator('en');
const root = fileURLToPath(new URL('../../', import.meta.url));
export const MANIFEST_PATH = `${root}web/element/custom-elements.json`;
// The module the package's "./element" export points to, and the class it defines.
const MODULE = 'dist/attention-lab-element.js';
const CLASS = 'AttentionLabElement';

const JSON_TYPES = {
  'string[]': 'string[]',
  'string[][]': 'string[][]',
  'random-input': '{ randn: number[] } | { rand: number[] }',
  matrix: 'number[][]',
  edits: '[row: string | number, column: number, value: number][]',
  'matrix-map': 'Record<string, number[][]>',
  'edits-map': 'Record<string, number[][]>',
};

/** The TypeScript-style type of a config field's property, spelled out (element-properties.d.ts names RandomInput, …). */
function fieldType(field) {
  const choices = (field.choices ?? []).map((choice) => JSON.stringify(choice)).join(' | ');
  if (field.type === 'enum') return choices;
  if (field.type === 'enum|number') return `${choices} | number`;
  if (['integer', 'seed', 'number'].includes(field.type)) return 'number';
  if (field.type === 'number|number[]') return 'number | number[]';
  if (field.type === 'boolean') return 'boolean';
  return JSON_TYPES[field.type] ?? 'string';
}

function optionType(option) {
  if (option.type === 'enum') return option.choices.map((choice) => JSON.stringify(choice)).join(' | ');
  if (option.type === 'integer') return 'number';
  if (option.type === 'boolean') return 'boolean';
  return 'string';
}

const defaultText = (value) => (value === null || value === undefined ? undefined : JSON.stringify(value));
const rangeText = ({ min, max }) => (min === undefined ? '' : ` (${min} to ${max})`);

/** [attribute, property] pairs for every attribute the element observes. */
function attributesAndMembers() {
  const entries = [
    ...FIELDS.map((field) => ({
      name: field.name,
      type: fieldType(field),
      default: defaultText(field.default),
      description: `\`${field.path}\`${rangeText(field)}: ${t(`help.${field.path}`)}`,
    })),
    ...VIEW_OPTIONS.map((option) => ({
      name: option.name,
      type: optionType(option),
      default: defaultText(option.default),
      description: t(option.help),
    })),
    ...ELEMENT_ATTRIBUTES.map((attribute) => ({
      name: attribute.name,
      type: attribute.type,
      description: t(attribute.help),
    })),
  ];
  const attributes = entries.map(({ name, type, description, default: value }) => ({
    name,
    fieldName: camelCase(name),
    type: { text: type },
    ...(value === undefined ? {} : { default: value }),
    description,
  }));
  const members = [
    {
      kind: 'field',
      name: 'result',
      readonly: true,
      type: { text: 'AttentionResult | null' },
      description: 'The last result, or null before the first run and while the attributes are invalid.',
    },
    {
      kind: 'field',
      name: 'figureNames',
      readonly: true,
      type: { text: 'string[]' },
      description:
        'The figures shown, by the names exportFigure takes: a matrix\'s ("weights"), "links", "heads:weights".',
    },
    {
      kind: 'method',
      name: 'exportFigure',
      parameters: [
        { name: 'name', type: { text: 'string' } },
        { name: 'options', optional: true, type: { text: "{ format?: 'svg' | 'png'; scale?: 1 | 2 | 4 }" } },
      ],
      return: { type: { text: 'Promise<Blob>' } },
      description:
        "Figure `name` as shown, with its caption in the element's language: an SVG, or a PNG at scale × its size.",
    },
    ...attributes.map(({ name, fieldName, type, description, default: value }) => ({
      kind: 'field',
      name: fieldName,
      attribute: name,
      type,
      ...(value === undefined ? {} : { default: value }),
      description,
    })),
  ];
  return { attributes, members };
}

/** The fallback after `var(--name, …)` in element.css (nested parentheses kept whole). */
function cssFallback(css, name) {
  const start = css.indexOf(`var(${name},`);
  if (start < 0) return undefined;
  let depth = 0;
  const from = start + `var(${name},`.length;
  for (let i = from; i < css.length; i++) {
    if (css[i] === '(') depth++;
    else if (css[i] === ')' && depth-- === 0) return css.slice(from, i).replace(/\s+/g, ' ').trim();
  }
  return undefined;
}

function cssProperties() {
  const css = readFileSync(`${root}web/element/element.css`, 'utf8');
  const surface = SURFACE_PROPERTIES.map(({ name, help }) => ({
    name,
    default: cssFallback(css, name),
    description: t(help),
  }));
  const colors = COLOR_PROPERTIES.map(({ name, help, slot, index, default: value }) => ({
    name,
    syntax: '<color>',
    default: value,
    description: t(help, { h: slot === 'heads' ? index + 1 : '' }),
  }));
  return [...surface, ...colors];
}

/** The manifest as an object. */
export function elementManifest() {
  const { attributes, members } = attributesAndMembers();
  const declaration = { name: CLASS, module: MODULE };
  return {
    schemaVersion: '2.1.0',
    readme: 'README.md',
    modules: [
      {
        kind: 'javascript-module',
        path: MODULE,
        declarations: [
          {
            kind: 'class',
            name: CLASS,
            tagName: 'attention-lab',
            customElement: true,
            superclass: { name: 'HTMLElement' },
            summary: 'The attention calculator: every step of (multi-head) attention with PyTorch-exact numbers.',
            description:
              "Renders in Shadow DOM and loads the engine when it nears the viewport. Every config field of the engine's schema is an attribute (named as the CLI's flag) and a typed property; a bad attribute is an inline error naming it.",
            attributes,
            members,
            events: ELEMENT_EVENTS.map(({ name, type, help }) => ({
              name,
              type: { text: type },
              description: t(help),
            })),
            cssProperties: cssProperties(),
            cssParts: ELEMENT_PARTS.map((name) => ({ name })),
          },
        ],
        exports: [
          { kind: 'js', name: CLASS, declaration },
          { kind: 'custom-element-definition', name: 'attention-lab', declaration },
        ],
      },
    ],
  };
}

export const manifestText = () => `${JSON.stringify(elementManifest(), null, 2)}\n`;

export function writeElementManifest() {
  writeFileSync(MANIFEST_PATH, manifestText());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeElementManifest();
  console.log('custom-elements.json: written from the schema, the view options and the element interface');
}
