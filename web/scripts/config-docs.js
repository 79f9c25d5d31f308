// The config table of web/docs/config.md, written from the engine's schema and the
// English help texts: `npm run docs` rewrites the part of that page between
// the config-table markers, custom-elements.json (write-element-manifest.js)
// and the editors' html-custom-data.json (write-custom-data.js); tests check all are current.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { translator } from '../i18n/index.js';
import { FIELDS } from '../model/schema.js';
import { writeCustomData } from './write-custom-data.js';
import { writeElementManifest } from './write-element-manifest.js';

const t = translator('en');
const START = '<!-- config-table: written by npm run docs from the schema -->';
const END = '<!-- /config-table -->';

const shown = (value) => (value === null ? '—' : `\`${JSON.stringify(value)}\``);

function typeText(field) {
  const values =
    field.type === 'enum' || field.type === 'enum|number' ? field.choices.map((v) => `"${v}"`).join(', ') : '';
  if (field.type === 'enum') return `one of ${values}`;
  if (field.type === 'enum|number') return `${values} or a number`;
  if (field.type === 'number|number[]')
    return `a number, or a list of numbers (one per head), ${field.min} to ${field.max}`;
  if (field.min !== undefined) return `${field.type}, ${field.min} to ${field.max}`;
  if (field.type === 'matrix-map' || field.type === 'edits-map') return `${field.type} of ${field.choices.join(' ')}`;
  return field.type;
}

// "Used when score is "additive"." for a field that has an effect only then.
function usedWhenText({ usedWhen }) {
  if (!usedWhen) return '';
  const { path, equals, differs } = usedWhen;
  return equals !== undefined
    ? ` Used when \`${path}\` is \`${equals}\`.`
    : ` Used when \`${path}\` is not \`${differs}\`.`;
}

export function configTable() {
  const rows = FIELDS.map(
    (f) =>
      `| \`${f.path}\` | \`--${f.name}\` | ${typeText(f)} | ${shown(f.default)} | ${t(`help.${f.path}`).replace(/\|/g, '\\|').replace(/</g, '&lt;')}${usedWhenText(f)} |`,
  );
  return [
    START,
    '| field | flag / attribute | type | default | meaning |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    END,
  ].join('\n');
}

export function readmeWithTable(readme) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < 0) throw new Error('web/docs/config.md has no config-table markers');
  return readme.slice(0, start) + configTable() + readme.slice(end + END.length);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = fileURLToPath(new URL('../docs/config.md', import.meta.url));
  writeFileSync(path, readmeWithTable(readFileSync(path, 'utf8')));
  console.log('web/docs/config.md: config table written from the schema');
  writeElementManifest();
  console.log('custom-elements.json: written from the schema, the view options and the element interface');
  writeCustomData();
  console.log('html-custom-data.json: written from the element manifest');
}
