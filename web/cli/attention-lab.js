#!/usr/bin/env node
// attention-lab: run the attention engine from a shell and print every tensor as JSON.
//
//   npx attention-lab --text "He sat by the bank" --heads 2
//   npx attention-lab --config example.json --tensors weights,output
//   echo '{"text": "a b c"}' | npx attention-lab --config -
//
// Every config field is a flag named as in the engine's schema (--help lists
// them with their types and defaults). Exit codes: 0 ok, 2 bad config or
// flags (message on stderr).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AttentionConfigError, TENSOR_NAMES, loadAttentionLab } from '../api/index.js';
import { translator } from '../i18n/index.js';
import { FIELDS, batchFieldOf, setPath } from '../model/schema.js';
import { coerce, mergeConfig } from '../model/settings.js';

const t = translator('en');

// The CLI's own flags; every other flag is a config field.
const OWN_OPTIONS = {
  config: { type: 'string', value: 'FILE|-', help: 'the config as JSON (- reads stdin); flags override it' },
  tensors: { type: 'string', value: 'LIST', help: `only these tensors, comma-separated: ${TENSOR_NAMES.join(',')}` },
  pretty: { type: 'boolean', help: 'indent the JSON' },
  schema: { type: 'boolean', help: "print the engine's config schema as JSON" },
  help: { type: 'boolean', help: 'this text' },
};

const OPTIONS = {};
for (const [name, { type }] of Object.entries(OWN_OPTIONS)) OPTIONS[name] = { type };
for (const field of FIELDS) {
  // A sentence flag may repeat: each one is a row of the batch (--text a --text b).
  OPTIONS[field.name] = { type: field.type === 'boolean' ? 'boolean' : 'string', multiple: Boolean(batchFieldOf(field)) };
}

function fieldHelp(field) {
  const value = { boolean: '', integer: ' N', seed: ' N', number: ' X', enum: ' NAME' }[field.type] ?? (field.type === 'string' ? ' TEXT' : ' JSON');
  const flag = field.type === 'boolean' ? `--[no-]${field.name}` : `--${field.name}${value}`;
  const facts = [];
  if (field.choices?.length && field.type !== 'matrix-map' && field.type !== 'edits-map') facts.push(`${field.choices.join(' | ')}${field.type === 'enum|number' ? ' | a number' : ''}`);
  if (field.min !== undefined) facts.push(`${field.min} to ${field.max}`);
  if (field.default !== null) facts.push(`default ${typeof field.default === 'string' ? field.default : JSON.stringify(field.default)}`);
  return [flag, `${t(`help.${field.path}`)}${facts.length ? ` (${facts.join('; ')})` : ''}`];
}

function helpText() {
  const rows = [
    ...FIELDS.map(fieldHelp),
    ...Object.entries(OWN_OPTIONS).map(([name, o]) => [`--${name}${o.value ? ` ${o.value}` : ''}`, o.help]),
  ];
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2;
  return `Usage: attention-lab [--config FILE|-] [flags]

Runs scaled dot-product / multi-head attention and prints the result as JSON:
{"tokens", "ids", "vocab", ..., "tensors": {name: {"shape": [...], "data": [...]}}}.
NaN and infinities (e.g. -inf in "masked") print as null.

${rows.map(([flag, help]) => `  ${flag.padEnd(width)}${help}`).join('\n')}
`;
}

// parseArgs reads "--mask-fill -1e9" as two flags; a value that is a negative number belongs to its flag.
function joinNegativeValues(argv) {
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].startsWith('--') ? argv[i].slice(2) : null;
    const next = argv[i + 1];
    if (name && OPTIONS[name]?.type === 'string' && next !== undefined && /^-(\d|\.\d|inf)/i.test(next)) {
      out.push(`--${name}=${next}`);
      i++;
    } else {
      out.push(argv[i]);
    }
  }
  return out;
}

function readConfig(path) {
  if (path === undefined) return {};
  const text = readFileSync(path === '-' ? 0 : path, 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AttentionConfigError('config', `${path === '-' ? 'stdin' : path} is not valid JSON: ${error.message}`);
  }
}

/** The config from --config plus the flags, which override it. */
function configFromArgs(values) {
  const config = readConfig(values.config);
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    throw new AttentionConfigError('config', 'the config must be a JSON object');
  }
  const flags = {};
  for (const field of FIELDS) {
    const given = values[field.name];
    if (given === undefined) continue;
    // A flag of an exclusive group (text, texts, input) replaces the file's choice.
    if (field.oneOf) for (const other of FIELDS) if (other.oneOf === field.oneOf) delete config[other.path];
    if (Array.isArray(given) && given.length > 1) setPath(flags, batchFieldOf(field).path, given);
    else setPath(flags, field.path, coerce(field, Array.isArray(given) ? given[0] : given));
  }
  return mergeConfig(config, flags);
}

/** The result as plain JSON: typed arrays become arrays, non-finite numbers null. */
function resultToJson(result, pretty) {
  const tensors = {};
  for (const [name, tensor] of Object.entries(result.tensors)) {
    tensors[name] = { shape: tensor.shape, data: Array.from(tensor.data) };
  }
  return JSON.stringify({ ...result, tensors }, null, pretty ? 2 : undefined);
}

async function main(argv) {
  let values;
  try {
    ({ values } = parseArgs({ args: joinNegativeValues(argv), options: OPTIONS, strict: true, allowPositionals: false, allowNegative: true }));
  } catch (error) {
    process.stderr.write(`attention-lab: ${error.message}\nTry --help.\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(helpText());
    return 0;
  }
  if (values.schema) {
    const { schema } = await loadAttentionLab();
    process.stdout.write(`${JSON.stringify(schema, null, values.pretty ? 2 : undefined)}\n`);
    return 0;
  }
  try {
    const config = configFromArgs(values);
    const tensors = values.tensors?.split(',').map((name) => name.trim()).filter(Boolean);
    const lab = await loadAttentionLab();
    const result = lab.run(config, tensors ? { tensors } : {});
    process.stdout.write(resultToJson(result, values.pretty) + '\n');
    return 0;
  } catch (error) {
    if (error instanceof AttentionConfigError) {
      process.stderr.write(`attention-lab: ${error.field}: ${error.message}\n`);
      return 2;
    }
    if (error.code === 'ENOENT') {
      process.stderr.write(`attention-lab: config: cannot read ${error.path}\n`);
      return 2;
    }
    throw error;
  }
}

process.exitCode = await main(process.argv.slice(2));
