// The CLI with bad flag values, generated from the schema like the API's
// bad-input matrix (bad-input.test.js): a non-zero exit, the field named on
// stderr, nothing on stdout, no stack trace. And negative numbers as flag
// values: "--mask-fill -1e9" is one flag with its value, not two flags.
import { describe, expect, test } from 'vitest';
import { FIELDS, SCHEMA, isScalar, setPath } from '../../web/model/schema.js';
import { above, below, caseVariant, choiceNumbers, fractionNear, nextDown, nextUp } from './edges.js';
import { run } from './cli-run.js';

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const BASE_TEXT = 'the cat sat on the mat';
const D = 8;
const LIMITS = SCHEMA.limits;
// Numbers beyond the range of a double, as a flag or the config file writes them: [label, text].
const BEYOND_DOUBLE = [
  ['1e400 (beyond a double)', '1e400'],
  ['-1e400 (beyond a double)', '-1e400'],
  ['a 400-digit number', `1${'0'.repeat(400)}`],
];
const NUMERIC = new Set(['integer', 'seed', 'number', 'enum|number']);

/**
 * The bad flag texts of one field: [label, args]. An empty value of a field
 * that is not text is one: the flag needs a value (it is not "unset").
 */
function badFlags(field) {
  const flag = `--${field.name}`;
  const cases = [];
  const add = (label, value) => cases.push([label, [flag, value]]);
  if (!['boolean', 'string'].includes(field.type)) {
    add('an empty value', '');
    add('only whitespace', '  ');
  }
  switch (field.type) {
    case 'number|number[]':
      add('a word in the list', '0.5, x');
      add('max + 1 in the list', `0, ${above(field.max)}`);
      add('three numbers for two heads', '1, 2, 3');
      add('an empty list', '[]');
    // falls through: one number is checked as a number field is
    case 'integer':
    case 'seed':
    case 'number':
      add('a word', 'x');
      add('min − 1', String(below(field.min)));
      add('max + 1', String(above(field.max)));
      if (field.type.startsWith('number')) {
        add('just below min', String(nextDown(field.min)));
        add('just above max', String(nextUp(field.max)));
      } else {
        add('a fraction', String(field.min + 0.5));
        add('a fraction near max', String(fractionNear(field.min, field.max)));
      }
      add('1e300', '1e300');
      for (const [label, text] of BEYOND_DOUBLE) add(label, text);
      for (const x of ['NaN', 'Infinity', '-Infinity']) add(x, x);
      break;
    case 'enum':
      add('an unknown value', 'bogus');
      add('a number', '42');
      for (const choice of field.choices) {
        const variant = caseVariant(field, choice);
        if (variant) add(`case variant ${variant}`, variant);
      }
      break;
    case 'enum|number': {
      add('an unknown value', 'bogus');
      for (const choice of field.choices) {
        const variant = caseVariant(field, choice);
        if (variant) add(`case variant ${variant}`, variant);
      }
      const valid = choiceNumbers(field);
      for (const [text, x] of [
        ['NaN', NaN],
        ['Infinity', Infinity],
        ['-Infinity', -Infinity],
      ])
        if (!valid.includes(x)) add(text, text);
      add('inf', 'inf');
      // FINDING: --scale 1e39 / -1e39 / 1e300 exit 0 (the engine keeps scale as a double and it
      // becomes an infinite float32 factor); --mask-fill rejects the same values.
      add('1e39 (no float32)', '1e39');
      add('-1e39 (no float32)', '-1e39');
      add('1e300', '1e300');
      for (const [label, text] of BEYOND_DOUBLE) add(label, text);
      break;
    }
    case 'boolean':
      // A boolean flag takes no value but =true or =false.
      cases.push(['with a value', [`${flag}=x`]]);
      cases.push(['with an empty value', [`${flag}=`]]);
      cases.push(['negated with a value', [`--no-${field.name}=1`]]);
      break;
    case 'string':
      if (field.oneOf) {
        add('an empty sentence', '');
        add('only whitespace', '  ');
        add(`${LIMITS.tokensPerSequence + 1} tokens`, 'w '.repeat(LIMITS.tokensPerSequence + 1).trim());
        add('a lone surrogate', 'the\uD800cat sat');
      }
      break;
    // The other fields take JSON (bad-input.test.js walks them in depth): one wrong type, one bad inside.
    case 'string[]':
      add('not JSON', 'the cat');
      add('a number inside', '["the cat", 1]');
      break;
    case 'string[][]':
      add('not JSON', 'the cat');
      add('a flat list', '["the", "cat"]');
      add('an empty token', '[["the", ""]]');
      add('a token with a space', '[["the cat"]]');
      add('an empty sentence', '[[]]');
      break;
    case 'random-input':
      add('a number', '42');
      add('a zero size', `{"randn": [1, 0, ${D}]}`);
      add('rand of the wrong dModel', `{"rand": [1, 3, ${2 * D}]}`);
      add('both randn and rand', `{"randn": [1, 3, ${D}], "rand": [1, 3, ${D}]}`);
      break;
    case 'matrix':
      add('not JSON', 'x');
      add('1e39 inside', `[[1e39${', 0'.repeat(D - 1)}]]`);
      break;
    case 'matrix-map':
      add('an unknown name', '{"W_X": [[1]]}');
      add('1e39 inside', `{"b_Q": [1e39${', 0'.repeat(D - 1)}]}`);
      break;
    case 'edits':
      add('a flat edit', '[0, 0, 1]');
      add('1e39 as value', '[[0, 0, 1e39]]');
      break;
    case 'edits-map':
      add('an unknown name', '{"W_X": [[0, 0, 1]]}');
      add('1e39 as value', '{"W_Q": [[0, 0, 1e39]]}');
      break;
    default:
      throw new Error(`no bad flags for type "${field.type}" (field ${field.path}): teach badFlags() this type`);
  }
  return cases;
}

/** The flags every case starts from; without --text when the field is another query input. */
const baseArgs = (field) => [
  ...(field.oneOf === 'input' ? [] : ['--text', BASE_TEXT]),
  '--d-model',
  String(D),
  '--heads',
  '2',
  '--tensors',
  'output',
];

// Each bad flag under every command that reads a config: the run, and the steppers (decode needs a causal
// mask, so its base has one unless the mask is the field tried).
const COMMANDS = [
  { name: 'run', args: () => [] },
  { name: 'decode', args: (field) => ['decode', ...(field.path === 'mask' ? [] : ['--mask', 'causal'])] },
  { name: 'flash', args: () => ['flash'] },
];
const CASES = COMMANDS.flatMap((command) =>
  FIELDS.flatMap((field) =>
    badFlags(field).map(([label, args]) => ({
      id: `${command.name} ${args.join(' ').slice(0, 60)} (${field.path}: ${label})`,
      field,
      args: [...command.args(field), ...baseArgs(field), ...args],
    })),
  ),
);

describe('CLI: bad flag values (generated from the schema), for the run, decode and flash', () => {
  test('every scalar field has bad flag values', () => {
    for (const field of FIELDS.filter((f) => isScalar(f) && (f.type !== 'string' || f.oneOf))) {
      expect(
        CASES.some((c) => c.field === field),
        field.path,
      ).toBe(true);
    }
  });

  test.concurrent.each(CASES)('$id', async ({ field, args }) => {
    const out = await run(args);
    // FINDING (when it fails here with status 0): the CLI ran a value the schema rules out.
    expect(out.status, `exit status; stderr: ${out.stderr}`).not.toBe(0);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(/^attention-lab: /);
    expect(out.stderr).not.toMatch(/\n\s+at /); // no stack trace
    // Config errors name the path ("attention-lab: dModel: ..."); flag errors the flag ("--qkv-bias").
    const names = [field.path, `--${field.name}`];
    expect(
      names.some((name) => out.stderr.includes(name)),
      `stderr names ${names.join(' or ')}: ${out.stderr}`,
    ).toBe(true);
  });
});

describe('CLI: a lone surrogate in the config names its field', () => {
  // As lab.run says it: the JSON reader keeps a \uD800 escape for the field's reader to name.
  test.concurrent.each([
    ['an escape in the file', '{"text": "a\\ud800b c"}'],
    ['a raw one in the file', '{"text": "a\uD800b c"}'],
    ['a raw one last in the file', '{"text": "a b\uD800"}'],
  ])('%s', async (_, json) => {
    const out = await run(['--config', '-', '--tensors', 'output'], json);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain('attention-lab: text holds a lone surrogate (U+D800)');
    expect(out.status).toBe(3);
  });
});

describe('CLI: a number beyond a double, in the config file or a flag, is named on its field', () => {
  // JSON.parse makes it Infinity: the CLI keeps its text, so the engine says what lab.run of the JSON text says.
  /** The config file: the base config with `text` written as the number at `path`. */
  const fileWith = (path, text) => {
    const config = { text: BASE_TEXT, dModel: D, numHeads: 2 };
    setPath(config, path, '\u0000');
    return JSON.stringify(config).replace('"\\u0000"', text);
  };
  const shown = (text) => (text.length > 40 ? `${text.slice(0, 40)}...` : text);
  const cases = FIELDS.filter((field) => NUMERIC.has(field.type)).flatMap((field) =>
    BEYOND_DOUBLE.map(([label, text]) => ({ id: `${field.path} ← ${label}`, field, text })),
  );

  test.concurrent.each(cases)('the file: $id', async ({ field, text }) => {
    const out = await run(['--config', '-', '--tensors', 'output'], fileWith(field.path, text));
    expect(out.stdout).toBe('');
    // "dModel (1e400) must be between 1 and 4096", "scale (1e400) does not fit in float32"
    expect(out.stderr).toMatch(new RegExp(`^attention-lab: ${escapeRegExp(`${field.path} (${shown(text)})`)} `));
    expect(out.status).toBe(3);
  });

  test.concurrent.each([
    [['--d-model', '1e400'], 'dModel (1e400) must be between 1 and 4096'],
    [['--seed', '9'.repeat(100_000)], `seed (${'9'.repeat(40)}...) must be between 0 and 9007199254740992`],
    [['--rope', 'rotate-half', '--rope-base', '1e999'], 'rope.base (1e999) must be between 1 and 1000000000'],
    [['--scale', '-1e400'], 'scale (-1e400) does not fit in float32'],
  ])('the flags %j', async (flags, message) => {
    const out = await run(['--text', BASE_TEXT, '--tensors', 'output', ...flags]);
    expect(out.stderr).toContain(`attention-lab: ${message}`);
    expect(out.status).toBe(3);
  });

  test.concurrent('a 100,000-digit seed in the file', async () => {
    const out = await run(['--config', '-', '--tensors', 'output'], fileWith('seed', '9'.repeat(100_000)));
    expect(out.stderr).toContain(`attention-lab: seed (${'9'.repeat(40)}...) must be between 0 and 9007199254740992`);
    expect(out.status).toBe(3);
  });

  test.concurrent('a flag overrides the file: its number beyond a double is not read', async () => {
    const out = await run(['--config', '-', '--tensors', 'output', '--d-model', '4'], fileWith('dModel', '1e400'));
    expect(out.stderr).toBe('');
    expect(JSON.parse(out.stdout).settings.dModel).toBe(4);
  });
});

describe('CLI: a boolean flag =true or =false is the flag or its --no- form', () => {
  test.concurrent.each([
    ['--alibi=false', false],
    ['--alibi=TRUE', true],
    ['--alibi= true ', true],
    ['--qkv-bias=false', false],
  ])('%s', async (flag, on) => {
    const out = await run(['--text', BASE_TEXT, '--tensors', 'output', flag]);
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    const { settings } = JSON.parse(out.stdout);
    const name = flag.startsWith('--alibi') ? 'alibi' : 'weights.qkvBias';
    expect(settings[name]).toBe(on);
  });
});

describe('CLI: negative numbers are flag values', () => {
  const ok = async (args) => {
    const out = await run(args.includes('--text') ? args : ['--text', BASE_TEXT, ...args]);
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    return JSON.parse(out.stdout);
  };
  const bad = async (args) => {
    const out = await run(['--text', BASE_TEXT, ...args]);
    expect(out.status).not.toBe(0);
    expect(out.stdout).toBe('');
    return out.stderr;
  };

  test.concurrent('--mask-fill -1e9', async () => {
    const result = await ok(['--mask', 'causal', '--mask-fill', '-1e9', '--tensors', 'masked']);
    expect(result.settings.maskFill).toBe(-1e9);
    expect(result.tensors.masked.data).toContain(-1e9);
  });

  test.concurrent('--mask-fill=-1e9', async () => {
    const result = await ok(['--mask', 'causal', '--mask-fill=-1e9', '--tensors', 'masked']);
    expect(result.settings.maskFill).toBe(-1e9);
  });

  test.concurrent.each(['-inf', '-Infinity'])('--mask-fill %s', async (value) => {
    const result = await ok(['--mask', 'causal', '--mask-fill', value, '--tensors', 'masked']);
    expect(result.settings.maskFill).toBe('-inf');
    expect(result.tensors.masked.data).toContain('-Infinity'); // JSON has no -inf: a string
  });

  test.concurrent.each([
    ['-1', -1],
    ['-.5', -0.5],
    ['-2e-3', -0.002],
  ])('--scale %s', async (text, value) => {
    const result = await ok(['--scale', text, '--tensors', 'scaled']);
    expect(result.settings.scale).toBe(value);
    expect(result.scaleFactor).toBe(value);
  });

  test.concurrent('--text -1 is a sentence', async () => {
    const result = await ok(['--tensors', 'output', '--text', '-1']);
    expect(result.tokens).toEqual([['-1']]);
  });

  test.concurrent.each([
    [['--seed', '-1'], 'seed (-1) must be between 0 and'],
    [['--weights-seed', '-1'], 'weights.seed (-1) must be between 0 and'],
    [['--dropout', '-0.5'], 'dropout.p (-0.5) must be between 0 and 1'],
    [['--d-model', '-8'], 'dModel (-8) must be between 1 and'],
    [['--max-len', '-3'], 'maxLen (-3) must be between 1 and'],
    [['--scale', '-inf'], 'scale must be'],
  ])('%j: an error about the value, not about the flags', async (args, message) => {
    const stderr = await bad(args);
    expect(stderr).toContain(`attention-lab: ${message}`);
  });
});
