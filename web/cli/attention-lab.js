#!/usr/bin/env node
// attention-lab: run the attention engine from a shell and print every tensor as JSON.
//
//   npx attention-lab --text "He sat by the bank" --heads 2
//   npx attention-lab --config example.json --tensors weights,output
//   echo '{"text": "a b c"}' | npx attention-lab --config -
//
// Every config field is a flag named as in the engine's schema (--help lists
// them with their types and defaults). Exit codes (message on stderr):
//   0 ok;  1 the engine stopped (out of memory);  2 bad flags;  3 bad config.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AttentionConfigError, AttentionEngineError, TENSOR_NAMES, loadAttentionLab } from '../api/index.js';
import { translator } from '../i18n/index.js';
import { float32Text } from '../model/export.js';
import { FIELDS, batchFieldOf, setPath } from '../model/schema.js';
import { resolveWordTokenizer } from '../model/segment.js';
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
  OPTIONS[field.name] = {
    type: field.type === 'boolean' ? 'boolean' : 'string',
    multiple: Boolean(batchFieldOf(field)),
  };
}

function fieldHelp(field) {
  const value =
    { boolean: '', integer: ' N', seed: ' N', number: ' X', enum: ' NAME' }[field.type] ??
    (field.type === 'string' ? ' TEXT' : ' JSON');
  const flag = field.type === 'boolean' ? `--[no-]${field.name}` : `--${field.name}${value}`;
  const facts = [];
  if (field.choices?.length && field.type !== 'matrix-map' && field.type !== 'edits-map')
    facts.push(`${field.choices.join(' | ')}${field.type === 'enum|number' ? ' | a number' : ''}`);
  if (field.min !== undefined) facts.push(`${field.min} to ${field.max}`);
  if (field.default !== null)
    facts.push(`default ${typeof field.default === 'string' ? field.default : JSON.stringify(field.default)}`);
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
Exit codes: 0 ok, 1 the engine stopped (out of memory), 2 bad flags, 3 bad config.

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

const EXIT = { ok: 0, engine: 1, usage: 2, config: 3 };
const READ_ERRORS = { ENOENT: 'no such file', EISDIR: 'it is a folder', EACCES: 'permission denied' };

/** The --config file (or stdin) as an object, under the engine's JSON rules (duplicate keys are errors). */
function readConfig(path, lab) {
  if (path === undefined) return {};
  const name = path === '-' ? 'stdin' : path;
  let text;
  try {
    text = readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error) {
    throw new AttentionConfigError('config', `cannot read ${name}: ${READ_ERRORS[error.code] ?? error.message}`);
  }
  const problem = lab.jsonError(text);
  if (problem) throw new AttentionConfigError('config', `${name} is not valid JSON: ${problem}`);
  return JSON.parse(text);
}

/** The config from --config plus the flags, which override it. */
function configFromArgs(values, lab) {
  const config = readConfig(values.config, lab);
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
  return resolveWordTokenizer(mergeConfig(config, flags));
}

/**
 * Writes the result as JSON to `out`, a tensor at a time (512 tokens make
 * hundreds of MB of text, more than one string may hold). Numbers are the
 * shortest text that reads back as the same float32; non-finite ones null.
 */
async function writeResult(out, result, pretty) {
  // Waits when the pipe is full; stops when the reader has gone (EPIPE ends the process).
  const write = async (text) => {
    if (!out.write(text)) await new Promise((resolve) => out.once('drain', resolve));
  };
  const { tensors, ...rest } = result;
  const indent = pretty ? 2 : undefined;
  const head = JSON.stringify(rest, null, indent);
  await write(`${head.slice(0, -1)}${pretty ? ',\n  ' : ','}"tensors":{`);
  let first = true;
  for (const [name, tensor] of Object.entries(tensors)) {
    await write(`${first ? '' : ','}${JSON.stringify(name)}:{"shape":${JSON.stringify(tensor.shape)},"data":[`);
    first = false;
    const CHUNK = 65536;
    for (let start = 0; start < tensor.data.length; start += CHUNK) {
      const part = Array.from(tensor.data.subarray(start, start + CHUNK), (v) =>
        Number.isFinite(v) ? float32Text(v) : 'null',
      );
      await write(`${start ? ',' : ''}${part.join(',')}`);
    }
    await write(']}');
  }
  await write(`}${pretty ? '\n' : ''}}\n`);
}

async function main(argv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: joinNegativeValues(argv),
      options: OPTIONS,
      strict: true,
      allowPositionals: false,
      allowNegative: true,
    }));
  } catch (error) {
    process.stderr.write(`attention-lab: ${error.message}\nTry --help.\n`);
    return EXIT.usage;
  }
  if (values.help) {
    process.stdout.write(helpText());
    return EXIT.ok;
  }
  const tensors = values.tensors
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = tensors?.find((name) => !TENSOR_NAMES.includes(name));
  if (unknown) {
    process.stderr.write(`attention-lab: --tensors: unknown tensor "${unknown}" (known: ${TENSOR_NAMES.join(', ')})\n`);
    return EXIT.usage;
  }
  try {
    const lab = await loadAttentionLab();
    if (values.schema) {
      process.stdout.write(`${JSON.stringify(lab.schema, null, values.pretty ? 2 : undefined)}\n`);
      return EXIT.ok;
    }
    const result = lab.run(configFromArgs(values, lab), tensors ? { tensors } : {});
    await writeResult(process.stdout, result, values.pretty);
    return EXIT.ok;
  } catch (error) {
    const code = error instanceof AttentionConfigError ? EXIT.config : EXIT.engine;
    const where =
      error instanceof AttentionConfigError || error instanceof AttentionEngineError ? `${error.field}: ` : '';
    process.stderr.write(`attention-lab: ${where}${error.message}\n`);
    return code;
  }
}

// A reader that stops early (| head) closes the pipe: that is not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(EXIT.ok);
  throw error;
});
process.exitCode = await main(process.argv.slice(2));
