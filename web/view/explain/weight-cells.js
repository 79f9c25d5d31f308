// Explanations of the weights' numbers: where W_Q … W_O and b_Q … b_O come
// from for the run's init (which PyTorch tensor and index, transposed where
// nn.Linear stores [out, in]), and what they multiply into.
import { formula, say } from '../../model/words.js';
import { headQuote } from './names.js';
import { reader } from './lines.js';

const OUT_OF = { Q: 'Q', K: 'K', V: 'V', O: 'output' };
const IN_OF = { Q: 'X', K: 'X', V: 'X', O: 'concat' };
const MODULE = { Q: 'q_proj', K: 'k_proj', V: 'v_proj', O: 'o_proj' };
const HEAD_MODULE = { Q: 'query', K: 'key', V: 'value' };
const IN_PROJ_BLOCK = { Q: 0, K: 1, V: 2 };

/**
 * Where W_{which}[i][j] comes from for the init: [the PyTorch expression (text, or a
 * sentence where it names a head), the i18n key of the sentence].
 */
function weightSource(which, i, j, ctx) {
  const { rs, D, dk } = ctx;
  const perHead = rs.layout === 'per-head' && which !== 'O';
  switch (rs.init) {
    case 'identity':
      return [`I[${i},${j}]`, 'explain.W.identity'];
    case 'torch-rand':
      return perHead
        ? [
            formula`torch.rand(D, d_k)[${i},${j % dk}]  (${say(ctx.t, 'view.head', { h: headQuote(Math.floor(j / dk)) })})`,
            'explain.W.randHead',
          ]
        : [`torch.rand(D, D)[${i},${j}]`, 'explain.W.rand'];
    case 'torch-mha':
      return which === 'O'
        ? [`mha.out_proj.weight[${j},${i}]`, 'explain.W.linear']
        : [`mha.in_proj_weight[${IN_PROJ_BLOCK[which] * D + j},${i}]`, 'explain.W.mha'];
    case 'torch-linear-clones':
      return [`linear.weight[${j},${i}]`, 'explain.W.clones'];
    default:
      return perHead
        ? [`heads[${Math.floor(j / dk)}].${HEAD_MODULE[which]}.weight[${j % dk},${i}]`, 'explain.W.perHead']
        : [`${MODULE[which]}.weight[${j},${i}]`, 'explain.W.linear'];
  }
}

/** Where b_{which}[j] comes from: [the PyTorch expression, the sentence's key], or null for a given bias. */
function biasSource(which, j, ctx) {
  const { rs, D, dk } = ctx;
  switch (rs.init) {
    case 'torch-mha':
      return which === 'O'
        ? ['mha.out_proj.bias', 'explain.b.mhaZero', j]
        : ['mha.in_proj_bias', 'explain.b.mhaZero', IN_PROJ_BLOCK[which] * D + j];
    case 'torch-linear-clones':
      return ['linear.bias', 'explain.b.clones', j];
    case 'torch-linear':
      return rs.layout === 'per-head' && which !== 'O'
        ? [`heads[${Math.floor(j / dk)}].${HEAD_MODULE[which]}.bias`, 'explain.b.linear', j % dk]
        : [`${MODULE[which]}.bias`, 'explain.b.linear', j];
    default:
      return null; // identity and torch.rand draw no bias: this one was given or edited
  }
}

/**
 * W_Q … W_O, b_Q … b_O, and the additive score's W_a, U_a, v_a: their
 * number (i, j) explained. Same result shape as explainCell.
 */
export function explainWeightCell(name, i, j, ctx) {
  const { t, result } = ctx;
  const { cell } = reader(ctx);
  const isVector = result.tensors[name].shape.length === 1;
  const value = isVector ? cell(name, j) : cell(name, i, j);
  const head = isVector ? `${name}[d${j}]` : `${name}[d${i},d${j}]`;
  const lines = [formula`${head} = ${value}`];
  const which = name.slice(2);
  if (!(which in OUT_OF)) {
    // W_a, U_a, v_a: the additive score's own parameters.
    lines.push(say(t, 'explain.additiveParam', { name }));
    return { lines, highlight: [] };
  }
  const out = OUT_OF[which];
  const highlight = [{ matrix: out, col: j }];
  const init = [{ claim: 'setting', name: 'weights.init', is: ctx.rs.init }];
  if (isVector) {
    const source = biasSource(which, j, ctx);
    if (source) lines.push(formula`= ${source[0]}[${source[2]}]`, say(t, source[1], {}, { claims: init }));
    lines.push(say(t, 'explain.b.role', { j: `d${j}`, out }));
  } else {
    const [expression, key] = weightSource(which, i, j, ctx);
    const perHead = key === 'explain.W.randHead' || key === 'explain.W.perHead';
    const params = perHead ? { h: headQuote(Math.floor(j / ctx.dk)) } : {};
    lines.push(formula`= ${expression}`, say(t, key, params, { claims: init }));
    const input = which === 'O' ? 'concat' : which !== 'Q' && result.tensors.X_context ? 'X_context' : IN_OF[which];
    lines.push(say(t, 'explain.W.role', { i: `d${i}`, j: `d${j}`, x: input, out }));
    highlight.push({ matrix: input, col: i });
  }
  if (ctx.weightsGiven) lines.push(say(t, 'explain.W.given'));
  if (ctx.edited?.(name, isVector ? 0 : i, j)) lines.push(say(t, 'explain.edited'));
  return { lines, highlight };
}
