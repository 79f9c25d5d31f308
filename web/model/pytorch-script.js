// "Copy as PyTorch": a short, readable script that builds the same
// embeddings, weights, mask and dropout as the engine for a config, and
// prints the same tensors. It follows the engine's draw order exactly:
// inputs, then weights (Q, K, V, the additive score's layers, W_O), then
// the dropout mask.
import { float32Text } from './export.js';
import { fieldByPath, isVectorWeight } from './schema.js';
import { qkLines, scoreLines, softmaxLines, variantHelpers, variantTensors, windowLines } from './pytorch-variants.js';
import { runSettings } from './run-settings.js';
import { DIFF_PRINTED, diffOutputLines, diffScoreLines, diffWeightLines } from './pytorch-diff.js';
import { MLA_PRINTED, mlaOutputLines, mlaScoreLines, mlaSizeLines, mlaWeightLines } from './pytorch-mla.js';

// Python literals: integers exactly, other numbers as the float32 the engine uses.
const py = (v) => {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : float32Text(Math.fround(v));
  return JSON.stringify(v);
};
const pyList = (xs) => `[${xs.map(py).join(', ')}]`;
const pyMatrix = (rows) => `[\n${rows.map((r) => `    ${pyList(r)},`).join('\n')}\n]`;
const isComplete = (values) => values.every((v) => (Array.isArray(v) ? isComplete(v) : v !== null && v !== undefined));

// The weight names in the engine's pipeline order (the schema's weights.values names them).
const WEIGHT_NAMES = fieldByPath.get('weights.values').choices;
const DIFF_WEIGHTS = ['lambda_q1', 'lambda_k1', 'lambda_q2', 'lambda_k2', 'subln'];

// The additive score's layers, shared by the heads, drawn right after Q, K, V.
const ADDITIVE_LAYERS = [
  '# additive score: W_a, U_a = nn.Linear(d_k, hidden), v_a = nn.Linear(hidden, 1), no biases, shared by the heads',
  'W_a_layer = nn.Linear(d_k, hidden, bias=False)',
  'U_a_layer = nn.Linear(d_k, hidden, bias=False)',
  'v_a_layer = nn.Linear(hidden, 1, bias=False)',
  'W_a, U_a = W_a_layer.weight.detach().T.clone(), U_a_layer.weight.detach().T.clone()  # (d_k, hidden)',
  'v_a = v_a_layer.weight.detach()[0].clone()  # (hidden,)',
];

/** Assignments for the non-null entries of explicit values (nulls keep the drawn numbers). */
function overrides(target, values, indent = '') {
  const lines = [];
  values.forEach((v, i) => {
    if (Array.isArray(v)) v.forEach((x, j) => x !== null && lines.push(`${indent}${target}[${i}, ${j}] = ${py(x)}`));
    else if (v !== null) lines.push(`${indent}${target}[${i}] = ${py(v)}`);
  });
  return lines;
}

// w: {init, layout} as the engine ran them (result.settings); `additive`: the
// lines that draw the additive score's layers, right after Q, K and V; `kv`: the
// columns of W_K and W_V as Python ("D", or "H_kv * d_k" with grouped-query attention).
function drawWeights(w, qkvBias, outProj, additive, kv = 'D', gate = false) {
  const { init } = w;
  const perHead = w.layout === 'per-head';
  const L = [];
  if (init === 'identity') {
    L.push(
      kv === 'D'
        ? 'W_Q, W_K, W_V = torch.eye(D), torch.eye(D), torch.eye(D)'
        : `W_Q, W_K, W_V = torch.eye(D), torch.eye(D)[:, :${kv}], torch.eye(D)[:, :${kv}]  # K, V: the first ${kv} columns`,
      ...additive,
    );
    if (outProj) L.push('W_O = torch.eye(D)');
  } else if (init === 'torch-linear-clones') {
    L.push(
      '# the Annotated Transformer: linears = clones(nn.Linear(D, D), 4), one Linear deep-copied four times',
      `linear = nn.Linear(D, D, bias=${py(qkvBias)})`,
      'q_proj, k_proj, v_proj, o_proj = nn.ModuleList([copy.deepcopy(linear) for _ in range(4)])',
      'W_Q, W_K, W_V = (p.weight.detach().T.clone() for p in (q_proj, k_proj, v_proj))',
    );
    if (qkvBias) L.push('b_Q, b_K, b_V = (p.bias.detach().clone() for p in (q_proj, k_proj, v_proj))');
    if (outProj) L.push('W_O = o_proj.weight.detach().T.clone()');
    if (outProj && qkvBias) L.push('b_O = o_proj.bias.detach().clone()');
    L.push(...additive);
  } else if (init === 'torch-rand' && !perHead) {
    L.push(`W_Q, W_K, W_V = torch.rand(D, D), torch.rand(D, ${kv}), torch.rand(D, ${kv})`, ...additive);
    if (outProj) L.push('W_O = torch.rand(D, D)');
  } else if (init === 'torch-rand') {
    L.push(
      '# each head draws its own [D, d_k] blocks for Q, K, V, head by head',
      'blocks = {"Q": [], "K": [], "V": []}',
      'for _ in range(H):',
      '    for name in "QKV":',
      '        blocks[name].append(torch.rand(D, d_k))',
      'W_Q, W_K, W_V = (torch.cat(blocks[name], dim=1) for name in "QKV")',
      ...additive,
    );
    if (outProj) L.push('W_O = torch.rand(D, D)');
  } else if (init === 'torch-linear' && !perHead) {
    L.push(
      `q_proj = nn.Linear(D, D, bias=${py(qkvBias)})`,
      `k_proj = nn.Linear(D, ${kv}, bias=${py(qkvBias)})`,
      `v_proj = nn.Linear(D, ${kv}, bias=${py(qkvBias)})`,
      ...additive,
    );
    if (outProj) L.push('o_proj = nn.Linear(D, D)');
    L.push('# nn.Linear computes x @ weight.T: we show W = weight.T, so Q = X @ W_Q');
    L.push('W_Q, W_K, W_V = (p.weight.detach().T.clone() for p in (q_proj, k_proj, v_proj))');
    if (qkvBias) L.push('b_Q, b_K, b_V = (p.bias.detach().clone() for p in (q_proj, k_proj, v_proj))');
    if (outProj) L.push('W_O, b_O = o_proj.weight.detach().T.clone(), o_proj.bias.detach().clone()');
  } else if (init === 'torch-linear') {
    L.push(
      'class Head(nn.Module):',
      '    def __init__(self):',
      '        super().__init__()',
      `        self.query = nn.Linear(D, d_k, bias=${py(qkvBias)})`,
      `        self.key = nn.Linear(D, d_k, bias=${py(qkvBias)})`,
      `        self.value = nn.Linear(D, d_k, bias=${py(qkvBias)})`,
      '',
      'heads = nn.ModuleList([Head() for _ in range(H)])',
      ...additive,
    );
    if (outProj) L.push('o_proj = nn.Linear(D, D)');
    L.push(
      'W_Q, W_K, W_V = (torch.cat([getattr(h, a).weight.detach().T for h in heads], dim=1) for a in ("query", "key", "value"))',
    );
    if (qkvBias)
      L.push(
        'b_Q, b_K, b_V = (torch.cat([getattr(h, a).bias.detach() for h in heads]) for a in ("query", "key", "value"))',
      );
    if (outProj) L.push('W_O, b_O = o_proj.weight.detach().T.clone(), o_proj.bias.detach().clone()');
  } else if (init === 'torch-mha') {
    L.push(
      `mha = nn.MultiheadAttention(D, H, bias=${py(qkvBias)}, batch_first=True)  # draws out_proj, then xavier in_proj`,
      'W_Q, W_K, W_V = (mha.in_proj_weight[i * D:(i + 1) * D].detach().T.clone() for i in range(3))',
    );
    if (qkvBias) L.push('b_Q, b_K, b_V = (mha.in_proj_bias[i * D:(i + 1) * D].detach().clone() for i in range(3))');
    if (outProj) L.push('W_O = mha.out_proj.weight.detach().T.clone()');
    if (outProj && qkvBias) L.push('b_O = mha.out_proj.bias.detach().clone()');
    L.push(...additive); // after the module, which drew out_proj first
  }
  // The output gate's W_G (Qwen3-Next), after every other weight.
  if (gate && init === 'identity') L.push('W_G = torch.eye(D)  # the output gate');
  else if (gate && init === 'torch-rand') L.push('W_G = torch.rand(D, D)  # the output gate');
  else if (gate)
    L.push(
      'g_proj = nn.Linear(D, D, bias=False)  # the output gate (Qwen3-Next), drawn after the other weights',
      'W_G = g_proj.weight.detach().T.clone()',
    );
  return L;
}

/** Whether the init draws this bias (the others a config gives are zeros before its values). */
function drawsBias(name, init, qkvBias) {
  if (name === 'b_O')
    return init === 'torch-linear' || (qkvBias && ['torch-mha', 'torch-linear-clones'].includes(init));
  return qkvBias && ['torch-linear', 'torch-mha', 'torch-linear-clones'].includes(init);
}

/**
 * The script for `config` and its full `result` (every tensor). What the
 * engine decided (defaults, qkvBias following init) is read from
 * result.settings (through runSettings), so no rule of the engine is restated
 * here; the tokens, ids and vocab are the ones the engine used. Each part below
 * writes one section of the script, in the engine's order.
 */
export function pytorchScript(config, result) {
  const rs = runSettings(result.settings);
  const run = {
    config,
    result,
    rs,
    w: { ...(config.weights ?? {}), init: rs.init, layout: rs.layout },
    cross: Boolean(result.tensors.X_context),
    additive: rs.score === 'additive',
    kv: rs.gqa ? 'H_kv * d_k' : 'D', // the columns of K and V
    names: WEIGHT_NAMES.filter((n) => result.tensors[n]), // the weights this run has
  };
  const lines = [
    ...headerLines(run),
    ...inputLines(run),
    ...weightLines(run),
    '',
    'with torch.no_grad():',
    ...[...projectionLines(run), ...maskLines(run), ...weightsToOutputLines(run)].map((line) => `    ${line}`),
    ...printLines(run),
  ];
  return `${lines.join('\n')}\n`;
}

/** The imports, the sizes, the tokens with their ids and vocab, and the seed. */
function headerLines({ result, rs, w, additive }) {
  const { B, H, S, S_kv: Skv, D } = result.sizes;
  const L = [
    '# Attention Lab: the same computation in PyTorch (1.13 or newer).',
    ...(w.init === 'torch-linear-clones' ? ['import copy'] : []),
    'import math',
    '',
    'import torch',
    'from torch import nn',
    '',
    `B, S, S_kv, D, H = ${B}, ${S}, ${Skv}, ${D}, ${H}`,
    'd_k = D // H',
  ];
  if (rs.gqa) L.push(`H_kv = ${rs.kvHeads}  # key/value heads (numKVHeads)`);
  if (rs.mla) L.push(...mlaSizeLines(rs.mla));
  if (additive) L.push(`hidden = ${py(rs.additiveHidden)}  # additiveHidden`);
  L.push('');
  if (hasTokens(result)) {
    L.push('# Tokens and their ids: id = index in vocab', `vocab = ${pyList(result.vocab)}`);
    if (result.tokens.length)
      L.push(
        `tokens = ${JSON.stringify(result.tokens)}`,
        `ids = torch.tensor(${JSON.stringify(result.ids)})  # (B, S)`,
      );
    if (result.contextTokens)
      L.push(
        `context_tokens = ${JSON.stringify(result.contextTokens)}`,
        `context_ids = torch.tensor(${JSON.stringify(result.contextIds)})  # (B, S_kv)`,
      );
    L.push('');
  }
  L.push(`torch.manual_seed(${py(rs.seed)})`, '');
  return L;
}

const hasTokens = (result) => result.tokens.length > 0 || Boolean(result.contextTokens);

/** 1. X (and X_context): the embedding of the tokens with its given and edited numbers, or a random input. */
function inputLines({ config, result, rs, cross }) {
  const L = ['# 1. Inputs'];
  if (hasTokens(result)) L.push(...embeddingLines(config, result));
  // {randn: [B, S, D]} -> torch.randn(B, S, D); {rand: [B, S, D]} -> torch.rand(B, S, D)
  const draw = (input) => Object.entries(input).map(([key, shape]) => `torch.${key}(${shape.join(', ')})`)[0];
  if (config.input) L.push(`X = ${draw(config.input)}  # (B, S, D)`);
  if (config.contextInput) L.push(`X_context = ${draw(config.contextInput)}  # (B, S_kv, D)`);
  if (rs.positional === 'sinusoidal') {
    L.push(
      '',
      'def sinusoidal(length, d):',
      '    position = torch.arange(length).unsqueeze(1)',
      '    div_term = torch.exp(torch.arange(0, d, 2) * (-math.log(10000.0) / d))',
      '    pe = torch.zeros(length, d)',
      '    pe[:, 0::2] = torch.sin(position * div_term)',
      '    pe[:, 1::2] = torch.cos(position * div_term[: d // 2])',
      '    return pe',
      '',
      'X = X + sinusoidal(S, D)',
    );
    if (cross) L.push('X_context = X_context + sinusoidal(S_kv, D)');
  }
  L.push(`X_kv = ${cross ? 'X_context' : 'X'}  # keys and values come from here`, '');
  return L;
}

/** nn.Embedding (drawn, or from the given table), its given entries and edits, then X = emb(ids). */
function embeddingLines(config, result) {
  const L = [];
  const values = config.embedding?.values;
  if (values && isComplete(values)) {
    L.push(`emb = nn.Embedding.from_pretrained(torch.tensor(${pyMatrix(values)}, dtype=torch.float32))`);
  } else {
    L.push('emb = nn.Embedding(len(vocab), D)  # weight ~ N(0, 1)');
    if (values) L.push('with torch.no_grad():  # given entries', ...overrides('emb.weight', values, '    '));
  }
  const edits = config.embedding?.edits ?? [];
  if (edits.length) {
    L.push('with torch.no_grad():  # edited numbers');
    for (const [row, d, v] of edits) {
      const id = typeof row === 'string' ? result.vocab.indexOf(row) : row;
      L.push(`    emb.weight[${id}, ${d}] = ${py(v)}${typeof row === 'string' ? `  # ${JSON.stringify(row)}` : ''}`);
    }
  }
  if (result.tokens.length) L.push('X = emb(ids).detach()  # (B, S, D)');
  if (result.contextTokens) L.push('X_context = emb(context_ids).detach()  # (B, S_kv, D)');
  return L;
}

/** 2. The weights: drawn as the init draws them (or all given), then given entries and edits; the variants' helpers. */
function weightLines({ rs, w, additive, kv, names }) {
  const { qkvBias, outProj } = rs;
  const L = ['# 2. Weights, in the x @ W convention'];
  if (rs.weightsSeed !== null) L.push(`torch.manual_seed(${py(rs.weightsSeed)})`);
  const values = w.values ?? {};
  const given = (n) => values[n] && isComplete(values[n]);
  // Differential attention's five are drawn after the layer's weights, unless all five are given.
  const diffNames = names.filter((n) => DIFF_WEIGHTS.includes(n));
  const allGiven = names.filter((n) => !diffNames.includes(n)).every(given);
  if (!allGiven && rs.mla) L.push(...mlaWeightLines());
  else if (!allGiven) {
    L.push(...drawWeights(w, qkvBias, outProj, additive ? ADDITIVE_LAYERS : [], kv, rs.outputGate));
    for (const n of names.filter((n) => n.startsWith('b_') && !drawsBias(n, w.init, qkvBias)))
      L.push(`${n} = torch.zeros(${n === 'b_K' || n === 'b_V' ? kv : 'D'})`);
  }
  if (rs.diffDepth !== null) L.push(...diffWeightLines(rs, diffNames.every(given)));
  for (const n of names) {
    if (!values[n]) continue;
    if (diffNames.includes(n) ? diffNames.every(given) : allGiven)
      L.push(
        `${n} = torch.tensor(${isVectorWeight(n) ? pyList(values[n]) : pyMatrix(values[n])}, dtype=torch.float32)`,
      );
    else L.push(`# given entries of ${n}`, ...overrides(n, values[n]));
  }
  for (const [n, cells] of Object.entries(w.edits ?? {})) {
    L.push(`# edited numbers of ${n}`);
    for (const cell of cells) L.push(`${n}[${cell.slice(0, -1).join(', ')}] = ${py(cell.at(-1))}`);
  }
  const helpers = variantHelpers(rs);
  if (helpers.length) L.push('', ...helpers.slice(0, -1));
  return L;
}

/** Q, K, V and their heads, the variants on q and k, the scores and their scaling (indented by the caller). */
function projectionLines({ rs, additive, names }) {
  if (rs.mla) return mlaScoreLines(rs);
  const bias = (n) => (names.includes(`b_${n}`) ? ` + b_${n}` : '');
  const kvShape = rs.gqa ? 'H_kv·d_k' : 'D';
  const kvHeads = rs.gqa ? 'H_kv' : 'H';
  const L = [
    `Q = X @ W_Q${bias('Q')}  # (B, S, D)`,
    `K = X_kv @ W_K${bias('K')}  # (B, S_kv, ${kvShape})`,
    `V = X_kv @ W_V${bias('V')}  # (B, S_kv, ${kvShape})`,
  ];
  if (rs.diffDepth !== null) return [...L, ...diffScoreLines()];
  L.push(
    'q = Q.view(B, S, H, d_k).transpose(1, 2)  # (B, H, S, d_k)',
    `k = K.view(B, S_kv, ${kvHeads}, d_k).transpose(1, 2)  # (B, ${kvHeads}, S_kv, d_k)`,
    `v = V.view(B, S_kv, ${kvHeads}, d_k).transpose(1, 2)  # (B, ${kvHeads}, S_kv, d_k)`,
    ...qkLines(rs),
  );
  if (additive)
    L.push(
      '# additive (Bahdanau) scores: v_a · tanh(q_i @ W_a + k_j @ U_a) for every query i and key j',
      'scores = torch.tanh((q @ W_a).unsqueeze(-2) + (k @ U_a).unsqueeze(-3)) @ v_a  # (B, H, S, S_kv)',
    );
  else L.push('scores = q @ k.transpose(-2, -1)  # (B, H, S, S_kv)');
  const { scale } = rs;
  L.push(
    scale === 'head-dim'
      ? 'scaled = scores / math.sqrt(d_k)'
      : scale === 'd-model'
        ? 'scaled = scores / math.sqrt(D)'
        : scale === 'none'
          ? 'scaled = scores * 1.0'
          : `scaled = scores * ${py(Number(scale))}`,
  );
  return L;
}

/** The mask (in the run's convention, as maskLines leaves it) applied to the scores `input`, as Python. */
function maskExpression(rs, input) {
  const fill = rs.fill === -Infinity ? 'float("-inf")' : py(rs.fill);
  if (rs.maskConvention === 'keep') return `${input}.masked_fill(mask[:, None] == 0, ${fill})`;
  if (rs.maskConvention === 'additive') return `${input} + mask[:, None]`;
  return `${input}.masked_fill(mask[:, None].bool(), ${fill})`;
}

/** The score variants after scaling, then the mask (1 = blocked, turned into the run's convention) and masked. */
function maskLines({ result, rs, cross }) {
  const fill = rs.fill === -Infinity ? 'float("-inf")' : py(rs.fill);
  // Differential attention masks its two maps per head: halfScaled -> halfMasked.
  const diff = rs.diffDepth !== null;
  const scored = diff ? { lines: [], last: 'halfScaled' } : scoreLines(rs);
  const masked = diff ? 'halfMasked' : 'masked';
  const L = [...scored.lines, 'mask = torch.zeros(B, S, S_kv)  # 1 = blocked'];
  // What the mask blocks: the schema's kinds of the mask choice ("causal+padding" is both).
  if (rs.maskKinds.causal)
    L.push('mask = torch.maximum(mask, torch.triu(torch.ones(S, S_kv), diagonal=1))  # look-ahead');
  L.push(...windowLines(rs));
  const side = cross ? result.contextTokens : result.tokens;
  if (rs.maskKinds.padding && side) {
    L.push(
      `key_padding = torch.tensor(${JSON.stringify(side.map((row) => row.map((tok) => tok === '<pad>')))}).float()  # (B, S_kv)`
        .replace(/true/g, 'True')
        .replace(/false/g, 'False'),
      'mask = torch.maximum(mask, key_padding[:, None, :].expand(B, S, S_kv))',
    );
  }
  if (rs.maskConvention === 'keep') L.push('mask = 1 - mask  # 1 = keep, as torch.tril(torch.ones(S, S_kv))');
  else if (rs.maskConvention === 'additive')
    L.push(`mask = torch.zeros(B, S, S_kv).masked_fill(mask.bool(), ${fill})  # 0 or the fill: a float attn_mask`);
  L.push(`${masked} = ${maskExpression(rs, scored.last)}`);
  return L;
}

/** Softmax, dropout (train mode, its own seed), the heads' average, context, concat and W_O (indented by the caller). */
function weightsToOutputLines({ rs, names }) {
  const project = (input) =>
    rs.outProj
      ? `output = ${input} @ W_O${names.includes('b_O') ? ' + b_O' : ''}  # (B, S, D)`
      : `output = ${input}  # no output projection`;
  if (rs.diffDepth !== null) return diffOutputLines(project('concat'));
  if (rs.mla) return mlaOutputLines(rs, maskExpression(rs, 'otherPathScaled'));
  const softmax = softmaxLines(rs);
  const L = [...softmax.softmax];
  if (rs.dropoutSeed !== null && rs.p > 0 && rs.p < 1) L.push(`torch.manual_seed(${py(rs.dropoutSeed)})`);
  L.push(
    `dropout = nn.Dropout(${py(rs.p)})`,
    'dropout.train()  # train mode: drop and rescale by 1 / (1 - p)',
    softmax.dropout,
    "averagedWeights = dropped.sum(dim=1) / H  # (B, S, S_kv): nn.MultiheadAttention's average_attn_weights=True",
    'context = dropped @ v  # (B, H, S, d_k)',
    'concat = context.transpose(1, 2).contiguous().view(B, S, D)',
  );
  // The output gate (Qwen3-Next): each number of concat times sigmoid(X @ W_G), before W_O.
  if (rs.outputGate)
    L.push('gateLogits = X @ W_G  # (B, S, D)', 'gate = torch.sigmoid(gateLogits)', 'gated = concat * gate');
  L.push(project(rs.outputGate ? 'gated' : 'concat'));
  return L;
}

// The tensors the script prints, in the page's order; each variant's own come after the one they follow.
const PRINTED = ['Q', 'K', 'V', 'scores', 'scaled', 'mask', 'masked', 'weights', 'dropped', 'averagedWeights'];

/** The tensors, printed with PyTorch's 4 decimals. */
function printLines({ rs, cross, names }) {
  const after = rs.mla ? {} : variantTensors(rs);
  const printed = rs.mla ? MLA_PRINTED : rs.diffDepth !== null ? DIFF_PRINTED : [...PRINTED, 'context'];
  const last = rs.mla ? ['concat', 'otherPathOutput', 'output'] : ['concat', 'output'];
  const shown = ['X', ...(cross ? ['X_context'] : []), ...names, ...printed, ...last].flatMap((n) => [
    n,
    ...(after[n] ?? []),
  ]);
  return [
    '',
    'tensors = {',
    ...shown.map((n) => `    "${n}": ${n},`),
    '}',
    'torch.set_printoptions(precision=4, sci_mode=False)',
    'for name, tensor in tensors.items():',
    '    print(name, tuple(tensor.shape))',
    '    print(tensor)',
  ];
}
