#!/usr/bin/env node
// attention-lab: run the attention engine from a shell and print every tensor as JSON.
//
//   npx attention-lab --text "He sat by the bank" --heads 2
//   npx attention-lab --config example.json --tensors weights,output
//   echo '{"text": "a b c"}' | npx attention-lab --config -
//
// Every config field is a flag named as in the engine's schema (--help lists
// them with their types and defaults). Help and errors are in the language of
// --lang, else of LC_ALL / LC_MESSAGES / LANG (zh_CN.UTF-8 gives Chinese).
// Exit codes (message on stderr):
//   0 ok;  1 the engine stopped (out of memory);  2 bad flags;  3 bad config.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AttentionConfigError, AttentionEngineError, TENSOR_NAMES, loadAttentionLab } from '../api/index.js';
import { LANGUAGES, errorText, loadLanguage, resolveLanguage, translator } from '../i18n/index.js';
import { float32Text } from '../model/export.js';
import { FIELDS, batchFieldOf, setPath } from '../model/schema.js';
import { resolveWordTokenizer } from '../model/segment.js';
import { coerce, mergeConfig } from '../model/settings.js';

// The language of --lang (looked up before the flags are parsed, so that their errors are said in it),
// else of the environment (POSIX: LC_ALL overrides LC_MESSAGES, which overrides LANG).
function chosenLanguage(argv) {
  const at = argv.findLastIndex((arg) => arg === '--lang' || arg.startsWith('--lang='));
  const flag = at < 0 ? undefined : argv[at] === '--lang' ? argv[at + 1] : argv[at].slice('--lang='.length);
  if (Object.hasOwn(LANGUAGES, flag ?? '')) return flag;
  return resolveLanguage(process.env.LC_ALL || process.env.LC_MESSAGES || process.env.LANG || 'en');
}

// The CLI's own flags, their help the i18n key cli.option.<name>; every other flag is a config field.
const OWN_OPTIONS = {
  config: { type: 'string', value: 'FILE|-' },
  tensors: { type: 'string', value: 'LIST' },
  batch: { type: 'string', value: 'N' },
  head: { type: 'string', value: 'N' },
  pretty: { type: 'boolean' },
  schema: { type: 'boolean' },
  lang: { type: 'string', value: Object.keys(LANGUAGES).join('|') },
  help: { type: 'boolean' },
};

/** An error of the CLI itself (not of the engine): an i18n key cli.error.<code> and its parameters. */
class CliError extends Error {
  constructor(code, params = {}) {
    super(cliErrorText(translator('en'), { code, params }));
    this.code = code;
    this.params = params;
  }
}

// A file's read error said in words where there are some (cli.reason.ENOENT), else as the system says it.
function cliErrorText(t, { code, params }) {
  const reason = t.has(`cli.reason.${params.reason}`) ? t(`cli.reason.${params.reason}`) : params.reason;
  return t(`cli.error.${code}`, { ...params, reason });
}

const OPTIONS = {};
for (const [name, { type }] of Object.entries(OWN_OPTIONS)) OPTIONS[name] = { type };
for (const field of FIELDS) {
  // A sentence flag may repeat: each one is a row of the batch (--text a --text b).
  OPTIONS[field.name] = {
    type: field.type === 'boolean' ? 'boolean' : 'string',
    multiple: Boolean(batchFieldOf(field)),
  };
}

function fieldHelp(t, field) {
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

function helpText(t) {
  const rows = [
    ...FIELDS.map((field) => fieldHelp(t, field)),
    ...Object.entries(OWN_OPTIONS).map(([name, o]) => [
      `--${name}${o.value ? ` ${o.value}` : ''}`,
      t(`cli.option.${name}`, { tensors: TENSOR_NAMES.join(',') }),
    ]),
  ];
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2;
  return `${t('cli.usage')}

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
const READ_ERRORS = ['ENOENT', 'EISDIR', 'EACCES']; // the reasons said in words (cli.reason.<code>)

/** The --config file (or stdin) as an object, under the engine's JSON rules (duplicate keys are errors). */
function readConfig(path, lab) {
  if (path === undefined) return {};
  const name = path === '-' ? 'stdin' : path;
  let text;
  try {
    text = readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error) {
    throw new CliError('cannot-read', { name, reason: READ_ERRORS.includes(error.code) ? error.code : error.message });
  }
  const problem = lab.jsonError(text);
  if (problem) {
    // Said on the file (or on the repeated key's path in it).
    problem.field = problem.field === 'config' ? name : `${name}: ${problem.field}`;
    throw problem;
  }
  return JSON.parse(text);
}

/** The config from --config plus the flags, which override it. */
function configFromArgs(values, lab) {
  const config = readConfig(values.config, lab);
  if (config === null || typeof config !== 'object' || Array.isArray(config)) throw new CliError('not-object');
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
    // The one sentence or head it holds (--batch, --head), before its data.
    const held = ['batch', 'head'].map((key) => (tensor[key] === undefined ? '' : `"${key}":${tensor[key]},`)).join('');
    await write(`${first ? '' : ','}${JSON.stringify(name)}:{"shape":${JSON.stringify(tensor.shape)},${held}"data":[`);
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

// parseArgs's errors, by its error code, as the CLI's own: the option named in its message.
const USAGE_ERRORS = {
  ERR_PARSE_ARGS_UNKNOWN_OPTION: 'unknown-option',
  ERR_PARSE_ARGS_INVALID_OPTION_VALUE: 'option-value',
  ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL: 'unexpected-argument',
};

function usageError(t, error) {
  const code = USAGE_ERRORS[error.code];
  const option = /'(-[^' ]*)/.exec(error.message)?.[1] ?? /'([^']*)'/.exec(error.message)?.[1]; // '--text <value>'
  const text = code && option ? t(`cli.error.${code}`, { option }) : error.message;
  return `attention-lab: ${text}\n${t('cli.tryHelp')}\n`;
}

async function main(argv) {
  const t = await loadLanguage(chosenLanguage(argv));
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
    process.stderr.write(usageError(t, error));
    return EXIT.usage;
  }
  if (values.lang !== undefined && !Object.hasOwn(LANGUAGES, values.lang)) {
    process.stderr.write(
      `attention-lab: ${t('cli.error.unknown-lang', { lang: values.lang, known: OWN_OPTIONS.lang.value })}\n`,
    );
    return EXIT.usage;
  }
  if (values.help) {
    process.stdout.write(helpText(t));
    return EXIT.ok;
  }
  const tensors = values.tensors
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = tensors?.find((name) => !TENSOR_NAMES.includes(name));
  if (unknown) {
    const error = AttentionConfigError.of('--tensors', 'unknown-tensor', {
      name: unknown,
      known: TENSOR_NAMES.join(', '),
    });
    process.stderr.write(`attention-lab: --tensors: ${errorText(error, t)}\n`);
    return EXIT.usage;
  }
  // --batch N, --head N: RunOptions batch and head (their errors name the flag).
  const selection = {};
  for (const flag of ['batch', 'head']) {
    if (values[flag] === undefined) continue;
    selection[flag] = /^\d+$/.test(values[flag]) ? Number(values[flag]) : values[flag];
  }
  const flagError = (error) =>
    error instanceof AttentionConfigError && /^options\.(batch|head)$/.test(error.field)
      ? AttentionConfigError.of(`--${error.field.slice(8)}`, error.code, {
          ...error.params,
          field: `--${error.field.slice(8)}`,
        })
      : error;
  try {
    const lab = await loadAttentionLab();
    if (values.schema) {
      process.stdout.write(`${JSON.stringify(lab.schema, null, values.pretty ? 2 : undefined)}\n`);
      return EXIT.ok;
    }
    let result;
    try {
      result = lab.run(configFromArgs(values, lab), { ...(tensors ? { tensors } : {}), ...selection });
    } catch (error) {
      throw flagError(error);
    }
    await writeResult(process.stdout, result, values.pretty);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CliError) {
      process.stderr.write(`attention-lab: ${cliErrorText(t, error)}\n`);
      return EXIT.config;
    }
    const code = error instanceof AttentionConfigError ? EXIT.config : EXIT.engine;
    const text = errorText(error, t);
    // The field first, unless the message already starts with it ("dModel must be …").
    const field = error instanceof AttentionConfigError || error instanceof AttentionEngineError ? error.field : '';
    const where = field && !text.startsWith(field) ? `${field}: ` : '';
    process.stderr.write(`attention-lab: ${where}${text}\n`);
    return code;
  }
}

// A reader that stops early (| head) closes the pipe: that is not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(EXIT.ok);
  throw error;
});
process.exitCode = await main(process.argv.slice(2));
