// The CLI (package.json "bin"): fixtures via --config and stdin, flags, errors.
import { spawnSync } from 'node:child_process';
import { closeSync, cpSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { TENSOR_NAMES, loadAttentionLab } from '../../web/api/index.js';
import { PRESETS, presetByKey, presetSettings } from '../../web/model/presets.js';
import { configFromSettings } from '../../web/model/settings.js';
import { compareTensors, fixtureDir, fixtureNames, readFixture } from './fixtures.js';
import { CLI_PATH as cli, ENGLISH, run } from './cli-run.js';

// Non-finite numbers print as the strings "NaN", "Infinity", "-Infinity" (JSON has no NaN or -inf).
const asJson = { nonFiniteAs: (x) => String(x) };

describe('CLI', () => {
  test.each(fixtureNames)('--config %s.json matches PyTorch', async (name) => {
    // The fixture file is config + expected; give the CLI just the config through stdin.
    const { config, expected } = readFixture(name);
    const out = await run(['--config', '-'], JSON.stringify(config));
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    const result = JSON.parse(out.stdout);
    expect(result.tokens).toEqual(expected.tokens);
    expect(result.vocab).toEqual(expected.vocab);
    const { problems } = compareTensors(expected.tensors, result.tensors, asJson);
    expect(problems).toEqual([]);
  });

  test('reads a config file, and flags override it', async () => {
    const file = `${fixtureDir}tutorial-once-upon.json`;
    // The fixture file itself is not a config (it has "expected"): an unknown field.
    const bad = await run(['--config', file]);
    expect(bad.status).toBe(3);
    expect(bad.stderr).toContain('unknown field "name"');

    const out = await run([
      '--text',
      'I love my cat',
      '--d-model',
      '4',
      '--heads',
      '1',
      '--init',
      'identity',
      '--no-out-proj',
      '--scale',
      'none',
      '--seed',
      '5',
      '--tensors',
      'weights,output',
    ]);
    expect(out.status).toBe(0);
    const { expected } = readFixture('identity-softmax-xxt-x');
    const result = JSON.parse(out.stdout);
    expect(Object.keys(result.tensors).sort()).toEqual(['output', 'weights']);
    const { problems } = compareTensors(
      { weights: expected.tensors.weights, output: expected.tensors.output },
      result.tensors,
      asJson,
    );
    expect(problems).toEqual([]);
  });

  test('repeated --text makes a batch, as do several sentences; masks print -inf as "-Infinity", or null', async () => {
    const args = ['--mask', 'padding', '--seed', '21'];
    const out = await run(['--text', 'the cat sat on the mat', '--text', 'a dog ran', ...args]);
    expect(out.status).toBe(0);
    const { expected } = readFixture('padded-batch');
    const result = JSON.parse(out.stdout);
    expect(result.tokens).toEqual(expected.tokens);
    expect(result.tensors.masked.data).toContain('-Infinity');
    expect(compareTensors(expected.tensors, result.tensors, asJson).problems).toEqual([]);
    // The sentences as positional arguments: the same run.
    expect((await run(['the cat sat on the mat', ...args, 'a dog ran'])).stdout).toBe(out.stdout);
    const nulls = JSON.parse(
      (await run([...args, 'the cat sat on the mat', 'a dog ran', '--nonfinite', 'null'])).stdout,
    );
    expect(nulls.tensors.masked.data).toContain(null);
    expect(compareTensors(expected.tensors, nulls.tensors, { nonFiniteAs: () => null }).problems).toEqual([]);
  });

  test('--batch and --head print one sentence and one head, equal to that part of the PyTorch fixture', async () => {
    const args = ['--text', 'the cat sat on the mat', '--text', 'a dog ran', '--mask', 'padding', '--seed', '21'];
    const out = await run([...args, '--batch', '1', '--head', '1', '--tensors', 'X,W_Q,scaled,context,output']);
    expect(out.stderr).toBe('');
    const { tensors } = JSON.parse(out.stdout);
    const { expected } = readFixture('padded-batch');
    const [B, H] = expected.tensors.scores.shape;
    expect([B, H]).toEqual([2, 2]);
    // Sentence 1 (and head 1) of PyTorch's [B, ...] / [B, H, ...] tensor.
    const part = ({ shape, data }, perHead) => {
      const size = data.length / (shape[0] * (perHead ? shape[1] : 1));
      const start = (perHead ? 1 * H + 1 : 1) * size;
      const sliced = [1, ...(perHead ? [1] : []), ...shape.slice(perHead ? 2 : 1)];
      return { shape: sliced, data: data.slice(start, start + size) };
    };
    const want = {
      X: part(expected.tensors.X, false),
      W_Q: expected.tensors.W_Q,
      scaled: part(expected.tensors.scaled, true),
      context: part(expected.tensors.context, true),
      output: part(expected.tensors.output, false),
    };
    expect(compareTensors(want, tensors, asJson).problems).toEqual([]);
    expect([tensors.scaled.batch, tensors.scaled.head, tensors.X.batch, tensors.X.head]).toEqual([1, 1, 1, undefined]);
  });

  test.each([
    [['--text', 'a b', '--head', '2'], 2, 'attention-lab: --head (2) must be between 0 and 1'],
    [['--text', 'a b', '--batch', '-1'], 2, 'attention-lab: --batch must be a whole number from 0'],
    [['--text', 'a b', '--d-model', '6', '--heads', '4'], 3, 'numHeads: dModel (6) must be divisible by numHeads (4)'],
    // the field is said once, first: no "dModel: dModel …"
    [['--text', ''], 3, 'attention-lab: text is empty'],
    [['--text', 'a', '--d-model', 'eight'], 3, 'attention-lab: dModel must be a finite number, got "eight"'],
    [['--text', 'a', '--mask', 'sideways'], 3, 'attention-lab: mask must be one of'],
    [['--config', '/nonexistent/config.json'], 3, 'attention-lab: cannot read /nonexistent/config.json: no such file'],
    [['--config', '/tmp'], 3, 'attention-lab: cannot read /tmp: it is a folder'],
    [['--bogus'], 2, 'attention-lab: unknown option --bogus\nTry --help.'],
    [['--text'], 2, 'attention-lab: option --text needs a value'],
    [['-x'], 2, 'attention-lab: unknown option -x\nTry --help.'],
    [['hello', '--text', 'a'], 2, 'attention-lab: the sentence "hello" and --text cannot go together'],
    [['--tokens', '[["a"]]', 'hello'], 2, 'attention-lab: the sentence "hello" and --tokens cannot go together'],
    [['--input', '{"rand": [1, 2, 8]}', 'hi'], 2, 'attention-lab: the sentence "hi" and --input cannot go together'],
    [['--lang', 'fr'], 2, 'attention-lab: --lang must be one of en|zh, got "fr"'],
    [['a', '--format', 'csv'], 2, 'attention-lab: --format must be one of json|npz|svg, got "csv"'],
    [['a', '--nonfinite', 'nan'], 2, 'attention-lab: --nonfinite must be one of strings|null, got "nan"'],
    [['a', '-o', '/nonexistent/out.npz'], 2, 'attention-lab: cannot write /nonexistent/out.npz: no such file'],
    [['a', '--d-model', '7'], 3, 'attention-lab: numHeads: dModel (7) must be divisible by numHeads (2)'],
    [['--text', 'a', '--tensors', 'attention'], 2, '--tensors: unknown tensor "attention"'],
  ])('%j exits %i with the error on stderr, no stack trace', async (args, code, message) => {
    const out = await run(args);
    expect(out.status).toBe(code);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain(message);
    expect(out.stderr).not.toMatch(/\n\s+at /);
    expect(out.stderr).not.toMatch(/(^|\s)([^\s:]+): \2[:\s]/); // no prefix said twice ("--tensors: --tensors …")
  });

  test('malformed JSON on stdin, and duplicate keys as the API rejects them', async () => {
    const out = await run(['--config', '-'], '{"text": ');
    expect(out.status).toBe(3);
    expect(out.stderr).toContain('attention-lab: stdin: config is not valid JSON');
    const duplicate = await run(['--config', '-'], '{"text": "a b", "text": "c"}');
    expect(duplicate.status).toBe(3);
    expect(duplicate.stderr).toContain(
      'attention-lab: stdin: text: config is not valid JSON: line 1, column 17: duplicate key "text"',
    );
  });

  test.each([
    ['--lang zh', ['--lang', 'zh'], {}],
    ['LANG=zh_CN.UTF-8', [], { LANG: 'zh_CN.UTF-8' }],
    ['LC_ALL over LANG', [], { LANG: 'en_US.UTF-8', LC_ALL: 'zh_CN.UTF-8' }],
  ])('errors and help in Chinese (%s), with the same exit codes', async (_, lang, env) => {
    const cases = [
      [['--text', 'a', '--d-model', 'eight'], 3, 'attention-lab: dModel 应为有限的数，实际为 "eight"'],
      [['--config', '/nonexistent/config.json'], 3, 'attention-lab: 无法读取 /nonexistent/config.json：文件不存在'],
      [['--bogus'], 2, 'attention-lab: 未知选项 --bogus\n用 --help 查看用法。'],
      [['--text'], 2, 'attention-lab: 选项 --text 需要一个值'],
      [['--text', 'a', '--tensors', 'attention'], 2, 'attention-lab: --tensors: 未知张量 "attention"'],
    ];
    for (const [args, code, message] of cases) {
      const out = await run([...lang, ...args], undefined, env);
      expect(out.status, args.join(' ')).toBe(code);
      expect(out.stderr, args.join(' ')).toContain(message);
    }
    const json = await run([...lang, '--config', '-'], '{"text": ', env);
    expect(json.status).toBe(3);
    expect(json.stderr).toMatch(/^attention-lab: stdin: 配置不是有效的 JSON：第 1 行第 10 列/);
    const help = await run([...lang, '--help'], undefined, env);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^用法：attention-lab/);
    expect(help.stdout).toContain('--d-model N');
    expect(help.stdout).toContain('每个词嵌入和投影的宽度'); // dModel's help, in Chinese
  });

  test('JSON-valued flags for the new inputs: --tokens, --context-tokens, --input with rand', async () => {
    const tokens = await run([
      '--tokens',
      '[["自然", "语言", "处理", "很", "有趣"], ["我", "爱", "你"]]',
      '--mask',
      'padding',
      '--seed',
      '154',
    ]);
    expect(tokens.stderr).toBe('');
    const { expected } = readFixture('tokens-pre-split');
    const result = JSON.parse(tokens.stdout);
    expect(result.tokens).toEqual(expected.tokens);
    expect(compareTensors(expected.tensors, result.tensors, asJson).problems).toEqual([]);

    const cross = await run([
      '--tokens',
      '[["我们", "学习"]]',
      '--context-tokens',
      '[["注意力", "机制", "很", "重要"]]',
    ]);
    expect(cross.status).toBe(0);
    expect(JSON.parse(cross.stdout).contextTokens).toEqual([['注意力', '机制', '很', '重要']]);

    const rand = await run(['--input', '{"rand": [2, 5, 8]}', '--mask', 'causal', '--seed', '102']);
    expect(rand.status).toBe(0);
    const randFixture = readFixture('rand-input-large').expected;
    expect(compareTensors(randFixture.tensors, JSON.parse(rand.stdout).tensors, asJson).problems).toEqual([]);

    // A flag of the input group replaces the file's choice, here --tokens over the config's text.
    const over = await run(['--config', '-', '--tokens', '[["a", "b"]]'], JSON.stringify({ text: 'x y z' }));
    expect(JSON.parse(over.stdout).tokens).toEqual([['a', 'b']]);
    const bad = await run(['--tokens', '[["a b"]]']);
    expect(bad.status).toBe(3);
    expect(bad.stderr).toContain('attention-lab: tokens[0][0] ("a b") contains whitespace');
  });

  test('the tokenizer flag', async () => {
    const out = await run(['--text', '我爱NLP和AI', '--tensors', 'output']);
    expect(JSON.parse(out.stdout).tokens).toEqual([['我', '爱', 'NLP', '和', 'AI']]);
    const split = await run(['--text', '我爱 NLP', '--tokenizer', 'whitespace', '--tensors', 'output']);
    expect(JSON.parse(split.stdout).tokens).toEqual([['我爱', 'NLP']]);
  });

  test('negative numbers are values, not flags', async () => {
    const out = await run([
      '--text',
      'a b c',
      '--mask',
      'causal',
      '--mask-fill',
      '-1e9',
      '--scale',
      '-1',
      '--tensors',
      'masked',
    ]);
    expect(out.status).toBe(0);
    const { settings } = JSON.parse(out.stdout);
    expect(settings.maskFill).toBe(-1e9);
    expect(settings.scale).toBe(-1);
    expect(
      JSON.parse((await run(['--text', 'a b', '--mask-fill', '-inf', '--tensors', 'output'])).stdout).settings.maskFill,
    ).toBe('-inf');
  });

  test('a reader that stops early (| head) ends the output quietly', async () => {
    const text = Array.from({ length: 400 }, (_, i) => `w${i}`).join(' ');
    const out = spawnSync(
      'sh',
      ['-c', `"${process.execPath}" "${cli}" --text "${text}" --d-model 64 --heads 4 | head -c 20`],
      { encoding: 'utf8' },
    );
    expect(out.stdout).toBe('{"tokens":[["w0","w1');
    expect(out.stderr).toBe('');
  });

  test('-h is --help: usage, every flag, the tensor names, examples and the exit codes', async () => {
    const out = await run(['-h']);
    expect(out.status).toBe(0);
    expect((await run(['--help'])).stdout).toBe(out.stdout);
    expect(out.stdout).toMatch(/^Usage: attention-lab \[SENTENCE\.\.\.\]/);
    for (const flag of [
      '-h, --help',
      '--version',
      '-o, --output FILE|-',
      '--format json|npz|svg',
      '--nonfinite strings|null',
      '--figure NAME',
      '--decimals N',
    ])
      expect(out.stdout).toContain(flag);
    const tensors = out.stdout.split('\nTensors')[1].split('\n\n')[0];
    expect(tensors.match(/[\w]+(?=,|\n|$)/g).slice(1)).toEqual(TENSOR_NAMES);
    expect(out.stdout).toContain('\nExamples:\n  attention-lab "the cat sat on the mat"\n');
    expect(out.stdout).toMatch(
      /Exit codes[^\n]*\n {2}0 {2}done\n {2}1 {2}the engine stopped[^]*\n {2}2 {2}a bad command line[^]*\n {2}3 {2}a bad config/,
    );
    const zh = (await run(['-h', '--lang', 'zh'])).stdout;
    expect(zh).toMatch(/^用法：attention-lab \[句子\.\.\.\]/);
    expect(zh).toContain('\n示例：\n');
    expect(zh).toContain('\n退出码');
  });

  test("--help's examples run as shown, and the NumPy one prints the shape it promises", async () => {
    const dir = mkdtempSync(`${tmpdir()}/attention-lab-examples-`);
    // The checkpoint example's ./llama: the small random Llama of tests/reference (two shards).
    cpSync(fileURLToPath(new URL('../reference/llama/checkpoints/llama-sharded', import.meta.url)), `${dir}/llama`, {
      recursive: true,
    });
    const examples = (await run(['--help'])).stdout
      .split('\nExamples:\n')[1]
      .split('\n\n')[0]
      .split('\n')
      .filter((line) => /^ {2}\S/.test(line));
    expect(examples.length).toBeGreaterThanOrEqual(5);
    for (const line of examples) {
      const command = line
        .trim()
        .replace(/(^|\| )attention-lab /g, `$1"${process.execPath}" "${cli}" `)
        .replace(/^python3 /, '/usr/bin/python3 ');
      const out = spawnSync('sh', ['-c', command], { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20 });
      expect(out.stderr, line).toBe('');
      expect(out.status, line).toBe(0);
      if (line.includes('python3')) expect(out.stdout).toBe('(1, 4, 6, 6)\n');
      else if (line.includes('--model tiny')) expect(out.stdout).toContain('second copy: ');
      else if (line.includes('--model-dir')) expect(out.stdout).toMatch(/^L2H2 +0\.\d{4} +0\.\d{4}$/m);
      else if (!line.includes(' -o ')) expect(JSON.parse(out.stdout).tensors).toBeTypeOf('object');
    }
  });

  test('--version prints the package version', async () => {
    const out = await run(['--version']);
    expect(out.status).toBe(0);
    expect(out.stdout).toBe(
      `${JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version}\n`,
    );
  });

  test('a sentence as the one argument is --text; -- lets a sentence start with a dash', async () => {
    const positional = await run(['the cat sat', '--tensors', 'weights']);
    expect(positional.status).toBe(0);
    expect(positional.stdout).toBe((await run(['--text', 'the cat sat', '--tensors', 'weights'])).stdout);
    expect(JSON.parse((await run(['--tensors', 'X', '--', '-x y'])).stdout).tokens).toEqual([['-x', 'y']]);
    // With a config file, the sentence replaces the file's text, as --text does.
    const over = await run(['--config', '-', 'a b'], JSON.stringify({ texts: ['x y z', 'w'], dModel: 4, numHeads: 1 }));
    expect(JSON.parse(over.stdout).tokens).toEqual([['a', 'b']]);
  });

  test('--format npz to a terminal is a usage error; to a pipe or -o FILE it is the .npz', async () => {
    const tty = spawnSync('script', ['-qec', `"${process.execPath}" "${cli}" a --format npz`, '/dev/null'], {
      encoding: 'utf8',
      env: { ...process.env, ...ENGLISH },
    });
    expect(tty.status).toBe(2);
    expect(tty.stdout).toContain('attention-lab: a .npz is binary: write it to a file with -o FILE.npz, or pipe it');
    const piped = spawnSync(process.execPath, [cli, 'a', '--format', 'npz', '--tensors', 'weights']);
    expect(piped.status).toBe(0);
    expect(piped.stdout.subarray(0, 4)).toEqual(Buffer.from('PK\x03\x04', 'latin1'));
    const dir = mkdtempSync(`${tmpdir()}/attention-lab-npz-`);
    // -o FILE.npz implies --format npz; the same bytes but for the entries' dates (bytes 10 to 13).
    expect((await run(['a', '--tensors', 'weights', '-o', `${dir}/a.npz`])).status).toBe(0);
    const file = readFileSync(`${dir}/a.npz`);
    expect(file.length).toBe(piped.stdout.length);
    expect(file.subarray(14, 100)).toEqual(piped.stdout.subarray(14, 100));
    // --format json wins over the name; a failed run leaves the file as it was.
    expect((await run(['a', '--tensors', 'weights', '--format', 'json', '-o', `${dir}/a.npz`])).status).toBe(0);
    const json = readFileSync(`${dir}/a.npz`, 'utf8');
    expect(JSON.parse(json).tensors.weights.data).toEqual([1, 1]);
    expect((await run(['a', '--d-model', '7', '-o', `${dir}/a.npz`])).status).toBe(3);
    expect(readFileSync(`${dir}/a.npz`, 'utf8')).toBe(json);
  });
});

describe('CLI: what the hostile and the unlucky meet', () => {
  test.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'a config key %s is an unknown field, exit 3, named as typed',
    async (key) => {
      for (const command of [[], ['decode'], ['flash']]) {
        const out = await run([...command, '--config', '-'], `{"text": "a", "${key}": 1}`);
        expect(out.status, command.join(' ')).toBe(3);
        expect(out.stderr, command.join(' ')).toBe(`attention-lab: ${key}: unknown field "${key}"\n`);
        expect(out.stdout).toBe('');
      }
    },
  );

  test('a full disk: -o /dev/full and > /dev/full say so, in the reader’s language, and exit 2', async () => {
    const file = await run(['the cat sat', '-o', '/dev/full']);
    expect(file.status).toBe(2);
    expect(file.stderr).toBe('attention-lab: cannot write /dev/full: the disk is full (no space left on the device)\n');
    const zh = await run(['the cat sat', '-o', '/dev/full', '--lang', 'zh']);
    expect(zh.stderr).toContain('磁盘已满');
    // stdout itself on a full disk: only a real process has one.
    for (const command of [[], ['decode', '--mask', 'causal'], ['--model', 'tiny']]) {
      const full = openSync('/dev/full', 'w');
      const out = spawnSync(process.execPath, [cli, ...command, 'the cat sat'], {
        stdio: ['ignore', full, 'pipe'],
        encoding: 'utf8',
        env: { ...process.env, ...ENGLISH },
      });
      closeSync(full);
      expect(out.stderr, command.join(' ')).toBe(
        'attention-lab: cannot write stdout: the disk is full (no space left on the device)\n',
      );
      expect(out.status, command.join(' ')).toBe(2);
    }
  });

  // Every command × output format × a path that cannot be written: a clear error naming the path, exit 2.
  const COMMANDS = [[], ['decode', '--mask', 'causal'], ['flash'], ['--model', 'tiny']];
  const BAD_OUTPUTS = [
    ['/nonexistent-folder/out', 'no such file'],
    [tmpdir(), 'it is a folder'],
    ['/dev/full', 'the disk is full (no space left on the device)'],
  ];
  const OUTPUT_CASES = COMMANDS.flatMap((command) =>
    ['json', 'npz'].flatMap((format) =>
      BAD_OUTPUTS.map(([path, reason]) => [command[0] ?? 'run', format, path, reason, command]),
    ),
  );
  test.each(OUTPUT_CASES)('%s --format %s -o %s: %s', async (_, format, path, reason, command) => {
    const out = await run([...command, 'the cat sat', '--format', format, '-o', path]);
    expect(out.stderr).toBe(`attention-lab: cannot write ${path}: ${reason}\n`);
    expect(out.status).toBe(2);
    expect(out.stdout).toBe('');
  });

  test.each(['decode', 'flash'])(
    '%s --format npz writes its tensors as a .npz, each with its shape',
    async (command) => {
      const dir = mkdtempSync(`${tmpdir()}/attention-lab-stepper-npz-`);
      const out = await run([command, 'the cat sat on the mat', '--mask', 'causal', '-o', `${dir}/s.npz`]);
      expect(out.stderr).toBe('');
      expect(out.status).toBe(0);
      const python = spawnSync(
        '/usr/bin/python3',
        [
          '-c',
          'import sys, json, numpy as np; z = np.load(sys.argv[1]); print(json.dumps({k: list(z[k].shape) for k in z.files}))',
          `${dir}/s.npz`,
        ],
        { encoding: 'utf8' },
      );
      expect(python.stderr).toBe('');
      const shapes = JSON.parse(python.stdout);
      if (command === 'decode')
        expect(shapes).toEqual({
          newKeys: [6, 2, 4],
          newValues: [6, 2, 4],
          scores: [6, 2, 6],
          weights: [6, 2, 6],
          fullWeights: [6, 2, 6],
          isCausalOneQuery: [6, 6],
        });
      else
        expect(Object.keys(shapes)).toEqual([
          'runningMax',
          'runningSum',
          'rescale',
          'partialOutput',
          'output',
          'plain',
        ]);
      // Not the text table written into a file named .npz.
      expect(readFileSync(`${dir}/s.npz`).subarray(0, 4)).toEqual(Buffer.from('PK\x03\x04', 'latin1'));
    },
  );
});

describe('CLI: presets', () => {
  test('--list-presets prints every preset key, one a line', async () => {
    const out = await run(['--list-presets']);
    expect(out.status).toBe(0);
    expect(out.stderr).toBe('');
    expect(out.stdout).toBe(PRESETS.map((preset) => `${preset.key}\n`).join(''));
  });

  test('--preset KEY runs the preset: the tutorial MultiHeadAttention prints its −0.5829 first', async () => {
    const lab = await loadAttentionLab();
    const preset = PRESETS.find((p) => p.key === 'tutorial-multi-head');
    const out = await run(['--preset', 'tutorial-multi-head', '--tensors', 'output']);
    expect(out.status).toBe(0);
    const { tensors } = JSON.parse(out.stdout);
    const expected = lab.run(configFromSettings(presetSettings(preset, 'en')), { tensors: ['output'] }).tensors.output;
    expect(tensors.output.shape).toEqual([2, 5, 6]);
    expect(tensors.output.data.map(Math.fround)).toEqual(Array.from(expected.data)); // float32, written shortest
    expect(tensors.output.data[0].toFixed(4)).toBe('-0.5829');
    // The same in a Chinese shell: a preset's sentences are its English ones.
    const zh = await run(['--preset', 'tutorial-multi-head', '--tensors', 'output'], '', { LANG: 'zh_CN.UTF-8' });
    expect(zh.stdout).toBe(out.stdout);
  });

  test('--preset handwritten-torch-mha: the hand-written tutorial through nn.MultiheadAttention, as torch 1.13 and the API give it', async () => {
    const key = 'handwritten-torch-mha';
    const { tensors: torch } = JSON.parse(readFileSync(`${fixtureDir}programs/${key}.json`, 'utf8'));
    const out = await run(['--preset', key, '--tensors', 'averagedWeights,output']);
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    const result = JSON.parse(out.stdout);
    expect(result.tokens).toEqual([[...'this is an example sentence'.split(' '), ...Array(5).fill('<pad>')]]);
    expect(result.ids).toEqual([torch.encoded_sentence.data]); // [1, 2, 3, 4, 5, 0, 0, 0, 0, 0]
    const { problems } = compareTensors(
      { averagedWeights: torch.attn_weights, output: torch.attention_output },
      result.tensors,
      asJson,
    );
    expect(problems).toEqual([]);
    // The JS API, given the preset's settings in either language, computes the same float32 numbers.
    const lab = await loadAttentionLab();
    for (const lang of ['en', 'zh']) {
      const api = lab.run(configFromSettings(presetSettings(presetByKey.get(key), lang)), {
        tensors: ['averagedWeights'],
      });
      expect(api.tokens).toEqual(result.tokens);
      expect(result.tensors.averagedWeights.data.map(Math.fround)).toEqual(
        Array.from(api.tensors.averagedWeights.data),
      );
    }
    // A Chinese shell runs the same preset: its sentence is the tutorial's own.
    const zh = await run(['--preset', key, '--tensors', 'averagedWeights,output'], '', { LANG: 'zh_CN.UTF-8' });
    expect(zh.stdout).toBe(out.stdout);
  });

  test('--config and the other flags override the preset; a sentence replaces its random input', async () => {
    const settingsOf = async (args, input) => {
      const out = await run(['--preset', 'tutorial-multi-head', '--tensors', 'output', ...args], input);
      expect(out.stderr).toBe('');
      return JSON.parse(out.stdout);
    };
    const heads = await settingsOf(['--heads', '3']);
    expect(heads.sizes).toMatchObject({ H: 3, B: 2, S: 5, D: 6 });
    expect(heads.settings).toMatchObject({ input: { randn: [2, 5, 6] }, mask: 'causal', scale: 'd-model', seed: 123 });
    const file = await settingsOf(['--config', '-'], '{"seed": 7, "mask": "none"}');
    expect(file.settings).toMatchObject({ seed: 7, mask: 'none', scale: 'd-model' });
    const flag = await settingsOf(['--config', '-', '--seed', '9'], '{"seed": 7}');
    expect(flag.settings.seed).toBe(9);
    const sentence = await settingsOf(['the cat sat']);
    expect(sentence.tokens).toEqual([['the', 'cat', 'sat']]);
    expect(sentence.settings.input).toBeUndefined();
    expect(sentence.settings).toMatchObject({ dModel: 6, numHeads: 2, scale: 'd-model' });
    const text = await settingsOf(['--config', '-'], '{"text": "a b"}');
    expect(text.tokens).toEqual([['a', 'b']]);
  });

  test('an unknown preset is a usage error that lists the keys; --help shows both flags', async () => {
    const out = await run(['--preset', 'nope']);
    expect(out.status).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr).toBe(`attention-lab: unknown preset "nope" (known: ${PRESETS.map((p) => p.key).join(', ')})\n`);
    const zh = await run(['--preset', 'nope', '--lang', 'zh']);
    expect(zh.status).toBe(2);
    expect(zh.stderr).toMatch(/^attention-lab: 未知的预设 "nope"/);
    const help = (await run(['--help'])).stdout;
    expect(help).toContain('--preset KEY');
    expect(help).toContain('--list-presets');
  });
});
