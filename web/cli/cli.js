// attention-lab: run the attention engine from a shell and print every tensor
// as JSON, or write them as a NumPy .npz. attention-lab.js runs it on the
// process's streams; the tests run it in their own process on strings.
//
//   npx attention-lab "He sat by the bank" --heads 2
//   npx attention-lab --config example.json --tensors weights,output
//   npx attention-lab "the cat sat" --mask causal -o cat.npz
//   echo '{"text": "a b c"}' | npx attention-lab --config -
//   npx attention-lab decode "the cat sat on the mat" --mask causal      # the KV cache, token by token
//   npx attention-lab flash "the cat sat on the mat" --tile-queries 2 --tile-keys 3 --head 1
//   npx attention-lab --model tiny --checkpoint 11000 "The cat sat. The cat sat."   # the tiny trained model
//
// Every config field is a flag named as in the engine's schema (--help lists
// them with their types and defaults). Help and errors are in the language of
// --lang, else of LC_ALL / LC_MESSAGES / LANG (zh_CN.UTF-8 gives Chinese).
// Exit codes (message on stderr):
//   0 ok;  1 the engine stopped (out of memory);  2 bad command line;  3 bad config.
import { once } from 'node:events';
import { createWriteStream, openSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AttentionConfigError, TENSOR_NAMES, TINY_MODEL, loadAttentionLab } from '../api/index.js';
import cliStrings from '../i18n/cli.js';
import {
  LANGUAGES,
  addStrings,
  errorText,
  fieldErrorText,
  loadLanguage,
  resolveLanguage,
  translator,
} from '../i18n/index.js';
import { float32Text, npzParts } from '../model/export.js';
import { FIELDS, batchFieldOf, setPath } from '../model/schema.js';
import { resolveWordTokenizer } from '../model/segment.js';
import { coerce, configFromSettings, mergeConfig } from '../model/settings.js';
import { PRESETS, presetSettings } from '../model/presets.js';
import { viewOptionByName } from '../model/view-options.js';
import { resultFigure, resultFigureNames } from '../view/figures/result-figures.js';
import { loadStepsFor } from '../view/steps/registry.js';
import { runSettings } from '../model/run-settings.js';
import { engineConfig, keepBeyondDouble, parseKeepingNumbers } from './number-text.js';
import {
  STEPPER_OPTIONS,
  decodeText,
  flashText,
  stepperFlagOf,
  stepperJson,
  stepperOptions,
  stepperTensors,
} from './stepper-commands.js';
import { checkpointTensors, checkpointText, runCheckpointFolder } from './checkpoint-command.js';
import { tinyTensors, tinyText } from './tiny-command.js';

addStrings(cliStrings);

// The language of --lang (looked up before the flags are parsed, so that their errors are said in it),
// else of the environment (POSIX: LC_ALL overrides LC_MESSAGES, which overrides LANG).
function chosenLanguage(argv, env) {
  const at = argv.findLastIndex((arg) => arg === '--lang' || arg.startsWith('--lang='));
  const flag = at < 0 ? undefined : argv[at] === '--lang' ? argv[at + 1] : argv[at].slice('--lang='.length);
  if (Object.hasOwn(LANGUAGES, flag ?? '')) return flag;
  return resolveLanguage(env.LC_ALL || env.LC_MESSAGES || env.LANG || 'en');
}

// The CLI's own flags, their help the i18n key cli.option.<name>; every other flag is a config field.
// `choices`: the values a flag takes (another is a usage error).
const OWN_OPTIONS = {
  preset: { type: 'string', value: 'KEY' },
  'list-presets': { type: 'boolean' },
  config: { type: 'string', value: 'FILE|-' },
  tensors: { type: 'string', value: 'LIST' },
  batch: { type: 'string', value: 'N' },
  head: { type: 'string', value: 'N' },
  format: { type: 'string', choices: ['json', 'npz', 'svg'] },
  figure: { type: 'string', value: 'NAME' },
  decimals: { type: 'string', value: 'N' },
  output: { type: 'string', short: 'o', value: 'FILE|-' },
  nonfinite: { type: 'string', choices: ['strings', 'null'] },
  pretty: { type: 'boolean' },
  json: { type: 'boolean' },
  'model-dir': { type: 'string', value: 'DIR' },
  ids: { type: 'string', value: 'JSON' },
  schema: { type: 'boolean' },
  lang: { type: 'string', choices: Object.keys(LANGUAGES) },
  version: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

// Commands shown under "Examples" in --help, each with the i18n key cli.example.<n> saying what it does.
const EXAMPLES = [
  'attention-lab "the cat sat on the mat"',
  'attention-lab "the cat sat" "a dog ran" --mask padding --tensors weights --pretty',
  'attention-lab "the cat sat on the mat" --mask causal --heads 4 --d-model 16 -o cat.npz',
  `python3 -c 'import numpy as np; print(np.load("cat.npz")["weights"].shape)'`,
  'attention-lab "He sat by the bank" --mask causal --batch 0 --head 1 --tensors masked --nonfinite null',
  `echo '{"text": "a b c", "dModel": 4}' | attention-lab --config - --seed 7`,
  'attention-lab --model tiny --checkpoint 11000 "The cat sat. The cat sat."',
  'attention-lab --preset tutorial-multi-head --tensors output --pretty',
  'attention-lab --model-dir ./llama --ids "[5, 9, 2, 5, 9, 2]"',
];

// A figure's decimals: the element's decimals attribute's range and default.
const DECIMALS = viewOptionByName.get('decimals');

// The exit codes, in --help (cli.exit.<name>) and web/docs/cli.md.
const EXIT = { ok: 0, engine: 1, usage: 2, config: 3 };

/**
 * An error of the CLI itself (not of the engine): an i18n key cli.error.<code>
 * and its parameters; `exit` is EXIT.usage (the command line) or EXIT.config.
 */
class CliError extends Error {
  constructor(code, params = {}, exit = EXIT.config) {
    super(cliErrorText(translator('en'), { code, params }));
    this.code = code;
    this.params = params;
    this.exit = exit;
  }
}

// A file's read error said in words where there are some (cli.reason.ENOENT), else as the system says it.
function cliErrorText(t, { code, params }) {
  const reason = t.has(`cli.reason.${params.reason}`) ? t(`cli.reason.${params.reason}`) : params.reason;
  return t(`cli.error.${code}`, { ...params, reason });
}

const OPTIONS = {};
for (const [name, { type, short }] of Object.entries(OWN_OPTIONS)) OPTIONS[name] = short ? { type, short } : { type };
for (const field of FIELDS) {
  // A sentence flag may repeat: each one is a row of the batch (--text a --text b).
  OPTIONS[field.name] = {
    type: field.type === 'boolean' ? 'boolean' : 'string',
    multiple: Boolean(batchFieldOf(field)),
  };
}

function fieldHelp(t, field) {
  const value =
    { boolean: '', integer: ' N', seed: ' N', number: ' X', 'number|number[]': ' X[,X…]', enum: ' NAME' }[field.type] ??
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

// Words in lines of at most `width` characters (a longer word stands alone), each line after `indent`.
function wrap(words, width, indent) {
  const lines = [];
  for (const word of words) {
    if (lines.length && indent.length + lines.at(-1).length + 1 + word.length <= width)
      lines[lines.length - 1] += ` ${word}`;
    else lines.push(word);
  }
  return lines.map((line) => `${indent}${line}`).join('\n');
}

function helpText(t) {
  const rows = [
    ...FIELDS.map((field) => fieldHelp(t, field)),
    ...Object.entries(OWN_OPTIONS).map(([name, o]) => {
      const value = o.value ?? o.choices?.join('|');
      return [`${o.short ? `-${o.short}, ` : ''}--${name}${value ? ` ${value}` : ''}`, t(`cli.option.${name}`)];
    }),
    // decode and flash's own flags, once each.
    ...Object.entries({ ...STEPPER_OPTIONS.decode, ...STEPPER_OPTIONS.flash }).map(([name, o]) => [
      `--${name}${o.value ? ` ${o.value}` : ''}`,
      t(`cli.option.${name}`),
    ]),
  ];
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2;
  const examples = EXAMPLES.map((command, k) => `  ${command}\n      ${t(`cli.example.${k + 1}`)}`);
  const exits = Object.entries(EXIT).map(
    ([name, code]) => `  ${code}  ${wrap(t(`cli.exit.${name}`).split(' '), 80, '     ').trimStart()}`,
  );
  return `${t('cli.usage')}

${t('cli.steppers.usage')}

${t('cli.heading.options')}
${rows.map(([flag, help]) => `  ${flag.padEnd(width)}${help}`).join('\n')}

${t('cli.heading.tensors')}
${wrap(
  TENSOR_NAMES.map((name, k) => (k < TENSOR_NAMES.length - 1 ? `${name},` : name)),
  80,
  '  ',
)}

${t('cli.heading.examples')}
${examples.join('\n')}

${t('cli.heading.exit')}
${exits.join('\n')}
`;
}

// A boolean flag given =true or =false ("--alibi=false", as a config file would say it) is the flag or its
// --no- form; another value is a usage error that says how to write it.
function booleanValues(argv, options) {
  return argv.map((arg) => {
    const [, name, value] = /^--([\w-]+)=(.*)$/s.exec(arg) ?? [];
    if (options[name]?.type !== 'boolean') return arg;
    const on = { true: true, false: false }[value.trim().toLowerCase()];
    if (on === undefined) throw new CliError('boolean-value', { option: `--${name}`, name, got: value }, EXIT.usage);
    return on ? `--${name}` : `--no-${name}`;
  });
}

// parseArgs reads "--mask-fill -1e9" as two flags; a value that is a negative number belongs to its flag.
function joinNegativeValues(argv, options = OPTIONS) {
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].startsWith('--') ? argv[i].slice(2) : null;
    const next = argv[i + 1];
    if (name && options[name]?.type === 'string' && next !== undefined && /^-(\d|\.\d|inf)/i.test(next)) {
      out.push(`--${name}=${next}`);
      i++;
    } else {
      out.push(argv[i]);
    }
  }
  return out;
}

const READ_ERRORS = ['ENOENT', 'EISDIR', 'EACCES']; // the reasons said in words (cli.reason.<code>)

/**
 * The --config file (or stdin) as an object, under the engine's JSON rules (duplicate keys are errors); a
 * number in it beyond a double is kept as its text (number-text.js).
 */
function readConfig(path, lab, io) {
  if (path === undefined) return {};
  const name = path === '-' ? 'stdin' : path;
  let text;
  try {
    text = path === '-' ? io.readStdin() : readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError('cannot-read', { name, reason: READ_ERRORS.includes(error.code) ? error.code : error.message });
  }
  const problem = lab.jsonError(text);
  if (problem) {
    // Said on the file (or on the repeated key's path in it).
    problem.field = problem.field === 'config' ? name : `${name}: ${problem.field}`;
    throw problem;
  }
  return parseKeepingNumbers(text);
}

// The fields whose flag takes a number (a number beyond a double is kept as its text).
const NUMERIC_TYPES = new Set(['integer', 'seed', 'number', 'enum|number', 'number|number[]']);

/** The config of --preset KEY (its English sentences), or {} without the flag. */
function presetConfig(key) {
  if (key === undefined) return {};
  const preset = PRESETS.find((p) => p.key === key);
  if (!preset)
    throw new CliError('unknown-preset', { got: key, known: PRESETS.map((p) => p.key).join(', ') }, EXIT.usage);
  return configFromSettings(presetSettings(preset, 'en'));
}

/** `over` merged over `base`; a field of an exclusive group (text, texts, input) in `over` replaces base's choice. */
function mergeOver(base, over) {
  const kept = { ...base };
  for (const field of FIELDS)
    if (field.oneOf && over[field.path] !== undefined)
      for (const other of FIELDS) if (other.oneOf === field.oneOf) delete kept[other.path];
  return mergeConfig(kept, over);
}

/**
 * The config of --preset, then --config over it, then the flags, which override both: an object, or JSON
 * text when a number in it is beyond a double, so that the engine names it as written (number-text.js).
 */
function configFromArgs(values, lab, io) {
  const file = readConfig(values.config, lab, io);
  if (file === null || typeof file !== 'object' || Array.isArray(file)) throw new CliError('not-object');
  const config = mergeOver(presetConfig(values.preset), file);
  const flags = {};
  for (const field of FIELDS) {
    const given = values[field.name];
    if (given === undefined) continue;
    // An empty value is no value: an error, not "unset" (a text may be empty; the engine says whether it may).
    if (field.type !== 'string' && [given].flat().some((value) => typeof value === 'string' && value.trim() === ''))
      throw new CliError('option-value', { option: `--${field.name}` }, EXIT.usage);
    // A flag of an exclusive group (text, texts, input) replaces the file's choice.
    if (field.oneOf) for (const other of FIELDS) if (other.oneOf === field.oneOf) delete config[other.path];
    if (Array.isArray(given) && given.length > 1) setPath(flags, batchFieldOf(field).path, given);
    else {
      const value = coerce(field, Array.isArray(given) ? given[0] : given);
      setPath(flags, field.path, NUMERIC_TYPES.has(field.type) ? keepBeyondDouble(value) : value);
    }
  }
  return engineConfig(resolveWordTokenizer(mergeConfig(config, flags)));
}

/**
 * Where the output goes: stdout, or the file --output names (opened once the
 * run has succeeded, so a bad config leaves an existing file alone). write()
 * waits when the pipe or disk is behind.
 */
function openOutput(path, io) {
  if (path === undefined || path === '-') return stdoutOutput(io);
  let stream;
  try {
    stream = createWriteStream(null, { fd: openSync(path, 'w') });
  } catch (error) {
    throw writeError(path, error);
  }
  // The first write that failed (a full disk), said when the file is closed: a write's own callback hears
  // of it first; later writes and end() only hear that the stream is destroyed.
  let failed = null;
  const fail = (error) => {
    if (error) failed ??= error;
  };
  stream.on('error', fail);
  return {
    // once() rejects when the stream errs while it waits: that error is said when the file is closed.
    write: (chunk) => (stream.write(chunk, fail) || failed ? null : once(stream, 'drain').catch(fail)),
    close: () =>
      new Promise((resolve, reject) =>
        stream.end((error) => (failed || error ? reject(failed ?? error) : resolve())),
      ).catch((error) => {
        throw writeError(path, error);
      }),
  };
}

const writeError = (name, error) =>
  new CliError('cannot-write', { name, reason: error.code ?? error.message }, EXIT.usage);

/**
 * stdout as the output. A write that fails (> /dev/full: ENOSPC) is said like
 * a file's; a reader that stops early (| head: EPIPE) ends the run quietly.
 * A stream's write error comes as an event, after the write returned.
 */
function stdoutOutput(io) {
  let failed = null;
  io.stdout.on('error', (error) => {
    failed ??= error;
  });
  const check = () => {
    if (failed) throw failed.code === 'EPIPE' ? new ReaderGone() : writeError('stdout', failed);
  };
  return {
    write: async (chunk) => {
      check();
      // once() rejects when stdout errs while it waits: the 'error' listener above keeps that error.
      if (!io.stdout.write(chunk)) await once(io.stdout, 'drain').catch(() => {});
      check();
    },
    close: async () => {
      await new Promise((resolve) => setImmediate(resolve));
      check();
    },
  };
}

/** The reader of stdout closed it (| head): not an error, the run ends with exit 0. */
class ReaderGone extends Error {}

// JSON has no NaN or infinities: --nonfinite strings writes "NaN", "Infinity" and "-Infinity"
// (as the page's JSON download does, and np.array(data, np.float32) reads them back); null loses which.
const NONFINITE = {
  strings: (v) => `"${float32Text(v)}"`,
  null: () => 'null',
};

/**
 * Writes the result as JSON, a tensor at a time (512 tokens make tens of MB
 * of text, more than one string may hold). Numbers are the shortest text that
 * reads back as the same float32.
 */
async function writeJson(output, result, { pretty, nonfinite }) {
  const nonFiniteText = NONFINITE[nonfinite];
  const { tensors, ...rest } = result;
  const head = JSON.stringify(rest, null, pretty ? 2 : undefined);
  await output.write(`${head.slice(0, -1)}${pretty ? ',\n  ' : ','}"tensors":{`);
  let first = true;
  for (const [name, tensor] of Object.entries(tensors)) {
    // The one sentence or head it holds (--batch, --head), before its data.
    const held = ['batch', 'head'].map((key) => (tensor[key] === undefined ? '' : `"${key}":${tensor[key]},`)).join('');
    await output.write(
      `${first ? '' : ','}${JSON.stringify(name)}:{"shape":${JSON.stringify(tensor.shape)},${held}"data":[`,
    );
    first = false;
    const CHUNK = 65536;
    for (let start = 0; start < tensor.data.length; start += CHUNK) {
      const part = Array.from(tensor.data.subarray(start, start + CHUNK), (v) =>
        Number.isFinite(v) ? float32Text(v) : nonFiniteText(v),
      );
      await output.write(`${start ? ',' : ''}${part.join(',')}`);
    }
    await output.write(']}');
  }
  await output.write(`}${pretty ? '\n' : ''}}\n`);
}

/** Writes the tensors as a NumPy .npz: np.load(file)[name] is each one, float32. */
async function writeNpz(output, result) {
  for (const part of npzParts(result.tensors)) await output.write(part);
}

// parseArgs's errors, by its error code, as the CLI's own: the option named in its message.
const USAGE_ERRORS = {
  ERR_PARSE_ARGS_UNKNOWN_OPTION: 'unknown-option',
  ERR_PARSE_ARGS_INVALID_OPTION_VALUE: 'option-value',
};

function usageError(t, error) {
  const code = USAGE_ERRORS[error.code];
  const option = /'(-[^' ]*)/.exec(error.message)?.[1] ?? /'([^']*)'/.exec(error.message)?.[1]; // '--text <value>'
  const text = code && option ? t(`cli.error.${code}`, { option }) : error.message;
  return `attention-lab: ${text}\n${t('cli.tryHelp')}\n`;
}

/** The usage error `code` (cli.error.<code>) as the CLI says it, with the hint to try --help. */
const usageText = (t, code, params) => `attention-lab: ${t(`cli.error.${code}`, params)}\n${t('cli.tryHelp')}\n`;

// The flags that give the sentence, which a positional sentence cannot go with.
const SENTENCE_FLAGS = FIELDS.filter((field) => field.oneOf === 'input').map((field) => field.name);

/** The command line's problems that need no engine (`tensors`: the --tensors list): a usage error's text, or null. */
function commandLineProblem(t, values, positionals, tensors, io) {
  for (const [name, { choices }] of Object.entries(OWN_OPTIONS)) {
    if (choices && values[name] !== undefined && !choices.includes(values[name]))
      return usageText(t, 'bad-choice', { option: `--${name}`, got: values[name], choices: choices.join('|') });
  }
  const flag = SENTENCE_FLAGS.find((name) => values[name] !== undefined);
  if (positionals.length && flag)
    return usageText(t, 'positional-with', { sentence: positionals[0], option: `--${flag}` });
  const unknown = tensors?.find((name) => !TENSOR_NAMES.includes(name));
  if (unknown) {
    const error = AttentionConfigError.of('--tensors', 'unknown-tensor', {
      name: unknown,
      known: TENSOR_NAMES.join(', '),
    });
    return `attention-lab: --tensors: ${errorText(error, t)}\n`;
  }
  if (values.format === 'npz' && (values.output ?? '-') === '-' && io.stdout.isTTY)
    return usageText(t, 'npz-to-terminal');
  if ((values.figure !== undefined) !== (values.format === 'svg')) return usageText(t, 'figure-format');
  if (values.decimals !== undefined && !(/^\d$/.test(values.decimals) && Number(values.decimals) <= DECIMALS.max))
    return usageText(t, 'bad-choice', { option: '--decimals', got: values.decimals, choices: `0…${DECIMALS.max}` });
  return null;
}

const VERSION = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

/**
 * Runs one command line: its output on io.stdout, its messages on io.stderr;
 * the exit code. io: {stdout: {write, isTTY, once 'drain'}, stderr: {write},
 * env (the LANG variables), readStdin() (--config -)}.
 */
export async function runCli(commandLine, io) {
  const t = await loadLanguage(chosenLanguage(commandLine, io.env));
  // attention-lab decode … / flash …: a stepper instead of a run, with its own flags too.
  const command = Object.hasOwn(STEPPER_OPTIONS, commandLine[0]) ? commandLine[0] : null;
  const argv = command ? commandLine.slice(1) : commandLine;
  const options = { ...OPTIONS };
  for (const [name, { type }] of Object.entries(STEPPER_OPTIONS[command] ?? {})) options[name] = { type };
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: joinNegativeValues(booleanValues(argv, options), options),
      options,
      strict: true,
      allowPositionals: true,
      allowNegative: true,
    }));
  } catch (error) {
    io.stderr.write(error instanceof CliError ? `attention-lab: ${cliErrorText(t, error)}\n` : usageError(t, error));
    return EXIT.usage;
  }
  if (values.help) {
    io.stdout.write(helpText(t));
    return EXIT.ok;
  }
  if (values.version) {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  if (values['list-presets']) {
    io.stdout.write(PRESETS.map((preset) => `${preset.key}\n`).join(''));
    return EXIT.ok;
  }
  // --format defaults to the --output file's extension: -o cat.npz writes a .npz; --figure writes SVG.
  values.format ??= values.figure !== undefined ? 'svg' : values.output?.endsWith('.npz') ? 'npz' : 'json';
  const tensors = values.tensors
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const problem = commandLineProblem(t, values, positionals, tensors, io);
  if (problem) {
    io.stderr.write(problem);
    return EXIT.usage;
  }
  // attention-lab "the cat sat" is --text "the cat sat"; more sentences are a batch.
  if (positionals.length) values.text = positionals;
  // --batch N, --head N: RunOptions batch and head. Their errors are the command line's, said on the flag.
  const selection = {};
  for (const flag of ['batch', 'head']) {
    if (values[flag] === undefined) continue;
    selection[flag] = /^\d+$/.test(values[flag]) ? Number(values[flag]) : values[flag];
  }
  const selectionError = (error) => {
    const flag = error instanceof AttentionConfigError ? stepperFlagOf(error.field) : null;
    if (!flag) return error;
    return Object.assign(AttentionConfigError.of(flag, error.code, { ...error.params, field: flag }), { usage: true });
  };
  try {
    if (values['model-dir'] !== undefined) return await runCheckpoint(t, values, io);
    const lab = await loadAttentionLab();
    if (values.schema) {
      io.stdout.write(`${JSON.stringify(lab.schema, null, values.pretty ? 2 : undefined)}\n`);
      return EXIT.ok;
    }
    if (command) return await runStepper(t, lab, command, values, selectionError, io);
    const config = configFromArgs(values, lab, io);
    // (JSON text, with a number beyond a double, goes to the engine as it is: it refuses that number.)
    if (config.model === 'tiny') return await runTinyModel(t, lab, config, values, io);
    if (values.figure !== undefined) return await writeFigure(t, lab, config, selection, values, io, selectionError);
    let result;
    try {
      result = lab.run(config, { ...(tensors ? { tensors } : {}), ...selection });
    } catch (error) {
      throw selectionError(error);
    }
    const output = openOutput(values.output, io);
    if (values.format === 'npz') await writeNpz(output, result);
    else await writeJson(output, result, { pretty: values.pretty, nonfinite: values.nonfinite ?? 'strings' });
    await output.close();
    return EXIT.ok;
  } catch (error) {
    if (error instanceof ReaderGone) return EXIT.ok;
    if (error instanceof CliError) {
      io.stderr.write(`attention-lab: ${cliErrorText(t, error)}\n`);
      return error.exit;
    }
    // The field first, unless the message already starts with it ("dModel must be …").
    io.stderr.write(`attention-lab: ${fieldErrorText(error, t)}\n`);
    if (error.usage) return EXIT.usage;
    return error instanceof AttentionConfigError ? EXIT.config : EXIT.engine;
  }
}

/**
 * attention-lab … --figure NAME: the figure's SVG (view/figures, as the page and the element export it),
 * for sentence --batch and head --head (0 and 0 without them), at --decimals.
 */
async function writeFigure(t, lab, config, selection, values, io, selectionError) {
  let result;
  try {
    // The selection checked as a run checks it; the figure is drawn from every sentence and head (links, heads:…).
    if (selection.batch !== undefined || selection.head !== undefined)
      lab.run(config, { ...selection, tensors: ['output'] });
    result = lab.run(config);
  } catch (error) {
    throw selectionError(error);
  }
  const options = {
    b: selection.batch ?? 0,
    h: selection.head ?? 0,
    decimals: Number(values.decimals ?? DECIMALS.default),
    t,
  };
  // The code of the variants' steps this run has (registry.js): their figures are named there.
  await loadStepsFor(runSettings(result.settings));
  const figure = resultFigure(result, values.figure, options);
  if (!figure)
    throw new CliError(
      'unknown-figure',
      { got: values.figure, known: resultFigureNames(result).join(', ') },
      EXIT.usage,
    );
  const output = openOutput(values.output, io);
  await output.write(figure.svg);
  await output.close();
  return EXIT.ok;
}

/**
 * attention-lab --model tiny: the weights of --checkpoint loaded from the
 * package (web/api/tiny), then its bytes, head scores and second copy as text
 * (or the whole result with --json, its tensors with --format npz). A
 * checkpoint that is not a shipped step is left to the engine to name.
 */
async function runTinyModel(t, lab, config, values, io) {
  const checkpoint = config.checkpoint ?? TINY_MODEL.checkpoints.at(-1);
  if (TINY_MODEL.checkpoints.includes(checkpoint)) await lab.loadTinyModel(checkpoint);
  const result = lab.run(config);
  for (const warning of result.warnings) io.stderr.write(`attention-lab: ${errorText(warning, t)}\n`);
  return writeResult(io, values, result, { tensors: () => tinyTensors(result), text: () => tinyText(t, result) });
}

/**
 * attention-lab --model-dir DIR: the checkpoint's forward on --text (one sentence, or the positional
 * one) or --ids, as tables (or --json, or --format npz).
 */
async function runCheckpoint(t, values, io) {
  const dir = values['model-dir'];
  const texts = values.text ?? [];
  if (texts.length > 1 || (texts.length === 1) === (values.ids !== undefined))
    throw new CliError('model-dir-input', {}, EXIT.usage);
  let result;
  try {
    result = await runCheckpointFolder({ dir, text: texts[0], ids: values.ids });
  } catch (error) {
    if (typeof error.code === 'string' && READ_ERRORS.includes(error.code))
      throw new CliError('cannot-read', { name: error.path ?? dir, reason: error.code });
    throw error;
  }
  return writeResult(io, values, result, {
    tensors: () => checkpointTensors(result),
    text: () => checkpointText(t, result),
  });
}

/**
 * Writes a result other than a run's (the tiny model's, a stepper's): its `tensors()` with --format npz,
 * the whole result as JSON with --json, else its `text()` tables.
 */
async function writeResult(io, values, result, { tensors, text }) {
  const output = openOutput(values.output, io);
  if (values.format === 'npz') await writeNpz(output, { tensors: tensors() });
  else if (values.json) {
    const nonFinite = NONFINITE[values.nonfinite ?? 'strings'];
    await output.write(stepperJson(result, { pretty: values.pretty, nonFinite }));
  } else await output.write(`${text()}\n`);
  await output.close();
  return EXIT.ok;
}

/** decode's --head: the head its table shows (0 without the flag), else an error on the flag. */
function shownHead(flag, heads) {
  if (flag === undefined) return 0;
  if (/^\d+$/.test(flag) && Number(flag) < heads) return Number(flag);
  const params = { field: '--head', got: flag, min: '0', max: String(heads - 1) };
  throw Object.assign(AttentionConfigError.of('--head', 'out-of-range', params), { usage: true });
}

/** attention-lab decode | flash: the stepper's tables (or --json) on stdout. */
async function runStepper(t, lab, command, values, selectionError, io) {
  const options = stepperOptions(command, values);
  let result;
  try {
    result = lab[command](configFromArgs(values, lab, io), options);
  } catch (error) {
    throw selectionError(error);
  }
  return writeResult(io, values, result, {
    tensors: () => stepperTensors(command, result),
    text: () => {
      // decode computes every head; --head chooses the one its table shows.
      const head = command === 'flash' ? (options.head ?? 0) : shownHead(values.head, result.sizes.H);
      return command === 'decode' ? decodeText(t, result, head) : flashText(t, result, head);
    },
  });
}
