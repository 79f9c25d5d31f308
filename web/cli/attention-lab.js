#!/usr/bin/env node
// attention-lab: run the attention engine from a shell and print every tensor as JSON.
//
//   npx attention-lab --text "He sat by the bank" --heads 2
//   npx attention-lab --config example.json --tensors weights,output
//   echo '{"text": "a b c"}' | npx attention-lab --config -
//
// Exit codes: 0 ok, 2 bad config or flags (message on stderr).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AttentionConfigError, loadAttentionLab } from '../api/index.js';

const HELP = `Usage: attention-lab [--config FILE|-] [flags]

Runs scaled dot-product / multi-head attention and prints the result as JSON:
{"tokens", "ids", "vocab", ..., "tensors": {name: {"shape": [...], "data": [...]}}}.
NaN and infinities (e.g. -inf in "masked") print as null.

  --config FILE      the config as JSON (- reads stdin); flags below override it
  --text TEXT        a sentence; repeat for a batch
  --context-text T   keys/values from this sentence (cross-attention); repeatable
  --d-model N        dModel (default 8)
  --heads N          numHeads (default 2)
  --seed N           torch.manual_seed before the first draw (default 0)
  --init NAME        torch-linear | torch-rand | torch-mha | identity
  --layout NAME      fused | per-head
  --qkv-bias         biases on Q, K, V
  --no-out-proj      no output projection W_O
  --weights-seed N   re-seed before the weights
  --scale S          head-dim | d-model | none | a number
  --mask M           none | causal | padding | causal+padding
  --mask-fill F      -inf or a number such as -1e9
  --dropout P        dropout probability on the weights (train mode)
  --dropout-seed N   re-seed before the dropout mask
  --positional P     none | sinusoidal
  --max-len N        pad or truncate every sentence to N tokens
  --tensors LIST     only these tensors, comma-separated (e.g. weights,output)
  --pretty           indent the JSON
  --help             this text
`;

const OPTIONS = {
  config: { type: 'string' },
  text: { type: 'string', multiple: true },
  'context-text': { type: 'string', multiple: true },
  'd-model': { type: 'string' },
  heads: { type: 'string' },
  seed: { type: 'string' },
  init: { type: 'string' },
  layout: { type: 'string' },
  'qkv-bias': { type: 'boolean' },
  'no-out-proj': { type: 'boolean' },
  'weights-seed': { type: 'string' },
  scale: { type: 'string' },
  mask: { type: 'string' },
  'mask-fill': { type: 'string' },
  dropout: { type: 'string' },
  'dropout-seed': { type: 'string' },
  positional: { type: 'string' },
  'max-len': { type: 'string' },
  tensors: { type: 'string' },
  pretty: { type: 'boolean' },
  help: { type: 'boolean' },
};

// "8" -> 8; anything else stays a string, so the engine names the field in its error.
const numberOr = (text) => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text);

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
  const sub = (key) => (config[key] = { ...(config[key] ?? {}) });
  if (values.text) {
    delete config.text; delete config.texts; delete config.input;
    if (values.text.length === 1) config.text = values.text[0];
    else config.texts = values.text;
  }
  if (values['context-text']) {
    delete config.contextText; delete config.contextTexts; delete config.contextInput;
    if (values['context-text'].length === 1) config.contextText = values['context-text'][0];
    else config.contextTexts = values['context-text'];
  }
  if (values['d-model'] !== undefined) config.dModel = numberOr(values['d-model']);
  if (values.heads !== undefined) config.numHeads = numberOr(values.heads);
  if (values.seed !== undefined) config.seed = numberOr(values.seed);
  if (values.init !== undefined) sub('weights').init = values.init;
  if (values.layout !== undefined) sub('weights').layout = values.layout;
  if (values['qkv-bias']) sub('weights').qkvBias = true;
  if (values['no-out-proj']) sub('weights').outProj = false;
  if (values['weights-seed'] !== undefined) sub('weights').seed = numberOr(values['weights-seed']);
  if (values.scale !== undefined) config.scale = numberOr(values.scale);
  if (values.mask !== undefined) config.mask = values.mask;
  if (values['mask-fill'] !== undefined) config.maskFill = values['mask-fill'] === '-inf' ? '-inf' : numberOr(values['mask-fill']);
  if (values.dropout !== undefined) sub('dropout').p = numberOr(values.dropout);
  if (values['dropout-seed'] !== undefined) sub('dropout').seed = numberOr(values['dropout-seed']);
  if (values.positional !== undefined) sub('embedding').positional = values.positional;
  if (values['max-len'] !== undefined) config.maxLen = numberOr(values['max-len']);
  return config;
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
    ({ values } = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    process.stderr.write(`attention-lab: ${error.message}\nTry --help.\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(HELP);
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
