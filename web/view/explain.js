// "How this number is computed": the explanation of every number in the
// pipeline's matrices, shown when it is hovered, focused or tapped. Each
// explanation opens with the cell it explains (name[row,column] = value),
// then says where the number comes from, with its terms where it is a sum.
// Token text only ever reaches the page as textContent.
import { headStart, sentenceStart } from '../model/selection.js';
import { formatNumber } from './matrix.js';
import { blockReasons, compactNumber, maskBlocks } from './run-settings.js';
import { fillText } from './formulas.js';
import { UNKNOWN } from './dropout.js';
import { explainWeightCell } from './explain-weights.js';
import { STEPPER_EXPLAIN } from './explain-steppers.js';

const MAX_TERMS = 16;

function termList(terms, decimals, t) {
  const list = document.createElement('ol');
  list.className = 'terms';
  for (const term of terms.slice(0, MAX_TERMS)) {
    const li = document.createElement('li');
    li.textContent = term.map((x) => (typeof x === 'number' ? formatNumber(x, decimals) : x)).join(' ');
    list.append(li);
  }
  if (terms.length > MAX_TERMS) {
    const li = document.createElement('li');
    li.textContent = t('explain.more', { count: terms.length - MAX_TERMS });
    list.append(li);
  }
  return list;
}

/** A paragraph of text: 'formula' (monospace), 'result' (bold), or 'text' (a sentence). */
export const line = (text, className = 'formula') => {
  const p = document.createElement('p');
  p.className = className;
  p.textContent = text;
  if (className === 'formula') p.translate = false; // math, with tensor names and tokens
  return p;
};

/** A line that is only math: marked not to be translated. */
const math = (p) => {
  p.translate = false;
  return p;
};

/** The matrix cell an event happened on: {td, step, i, j}, or null. */
export function cellOfEvent(event) {
  const td = event.target.closest?.('td[data-i]');
  const figure = td?.closest('[data-matrix]');
  if (!td || !figure) return null;
  return { td, step: figure.dataset.matrix, i: Number(td.dataset.i), j: Number(td.dataset.j) };
}

/** Whether an event happened on a number or label that has no explanation (a table cell, a legend). */
export const isUnexplainedNumber = (event) =>
  Boolean(event.target.closest?.('td, th, .legend, .chart, .head-multiple')) && !cellOfEvent(event);

/** "name[row,col] = value": the cell an explanation is about. */
export const cellName = (name, row, col) => (row === null ? `${name}[${col}]` : `${name}[${row},${col}]`);

/**
 * Explanation for cell (i, j) of the matrix `step` in the context `ctx`
 * ({t, result, rs, b, h, B, S, Skv, D, H, dk, queryLabels, keyLabels, decimals,
 * weightsGiven, edited(name, i, j), embeddingEdited(token, d), dropout}).
 * Returns {nodes, highlight: [{matrix, row?, col?}]} (row null: every row), or null.
 */
export function explainCell(step, i, j, ctx) {
  const explain = EXPLAIN[step] ?? STEPPER_EXPLAIN[step] ?? (step in ctx.result.tensors ? explainWeightCell : null);
  if (!explain) return null;
  return explain(step, i, j, ctx);
}

// Index helpers into the [B, H, S, S_kv] and [B, S, D] tensors, which may hold
// the shown sentence (and head) alone (model/selection.js).
const headCell = (tensor, ctx, i, j, h = ctx.h) => headStart(tensor, ctx.b, h) + i * ctx.Skv + j;
const rowCell = (tensor, ctx, i, c) => sentenceStart(tensor, ctx.b) + i * tensor.shape[2] + c;
const qLabel = (ctx, i) => ctx.queryLabels[i];
const kLabel = (ctx, j) => ctx.keyLabels[j];
const d = (c) => `d${c}`;

function explainEmbedding(step, i, c, ctx) {
  const { t, result, rs, b, D, decimals } = ctx;
  const fmt = (v) => formatNumber(v, decimals);
  const context = step === 'X_context';
  const tensor = result.tensors[step];
  const x = tensor.data[rowCell(tensor, ctx, i, c)];
  const labels = context ? ctx.keyLabels : ctx.queryLabels;
  const nodes = [line(`${cellName(step, labels[i], d(c))} = ${fmt(x)}`)];
  const ids = context ? result.contextIds : result.ids;
  if (!ids || ids.length === 0) {
    const draw = context ? rs.contextDraw : rs.inputDraw;
    const shape = context ? 'B, S_kv, D' : 'B, S, D';
    const key = draw === 'rand' ? 'explain.X.rand' : 'explain.X.randn';
    nodes.push(line(t(key, { seed: result.settings.seed ?? 0, shape }), 'text'));
    return { nodes, highlight: [] };
  }
  const id = ids[b][i];
  const token = labels[i];
  let pe = 0;
  if (rs.positional === 'sinusoidal') {
    // PE[pos, c] = sin(pos · 10000^(−2k/D)) for c = 2k, cos(…) for c = 2k + 1.
    const k = c - (c % 2);
    pe = (c % 2 ? Math.cos : Math.sin)(i * Math.exp(k * (-Math.log(10000) / D)));
  }
  const embedding = x - pe;
  nodes.push(line(t('explain.X.embedding', { token, id, c: d(c), value: fmt(embedding) }), 'text'));
  if (rs.positional === 'sinusoidal') {
    const fn = c % 2 ? 'cos' : 'sin';
    nodes.push(
      line(`PE[${i},${c}] = ${fn}(${i} / 10000^(${c - (c % 2)}/${D})) = ${fmt(pe)}`),
      line(t('explain.X.positional'), 'text'),
      line(`${fmt(embedding)} + ${fmt(pe)} = ${fmt(x)}`, 'result'),
    );
  }
  if (ctx.embeddingEdited?.(token, c)) nodes.push(line(t('explain.edited'), 'text'));
  return { nodes, highlight: [] };
}

function explainProjection(name, i, c, ctx) {
  const { t, result, D, decimals } = ctx;
  const T = result.tensors;
  const fmt = (v) => formatNumber(v, decimals);
  const cross = Boolean(T.X_context) && name !== 'Q';
  const source = cross ? 'X_context' : 'X';
  const labels = name === 'Q' ? ctx.queryLabels : ctx.keyLabels;
  const value = T[name].data[rowCell(T[name], ctx, i, c)];
  const W = T[`W_${name}`];
  const bias = T[`b_${name}`];
  const terms = [];
  let sum = 0;
  for (let k = 0; k < D; k++) {
    const x = T[source].data[rowCell(T[source], ctx, i, k)];
    const w = W.data[k * D + c];
    terms.push([`${d(k)}:`, x, '×', w, '=', x * w]);
    sum += x * w;
  }
  const biasValue = bias ? bias.data[c] : 0;
  const sumText = `Σ_k ${cellName(source, labels[i], 'k')} · ${cellName(`W_${name}`, 'k', d(c))}`;
  const nodes = [
    line(`${cellName(name, labels[i], d(c))} = ${fmt(value)}`),
    line(`${cellName(name, labels[i], d(c))} = ${sumText}${bias ? ` + ${cellName(`b_${name}`, null, d(c))}` : ''}`),
    line(t(bias ? 'explain.qkv.bias' : 'explain.qkv', { name, x: source, i: labels[i], c: d(c) }), 'text'),
    termList(terms, decimals, t),
    line(`Σ = ${fmt(sum)}${bias ? ` + ${fmt(biasValue)} = ${fmt(sum + biasValue)}` : ''}`, 'result'),
  ];
  const highlight = [
    { matrix: source, row: i },
    { matrix: `W_${name}`, col: c },
  ];
  if (bias) highlight.push({ matrix: `b_${name}`, col: c });
  return { nodes, highlight };
}

function explainHeadSplit(step, i, c, ctx) {
  const { t, result, h, dk, decimals } = ctx;
  const name = step[0];
  const labels = name === 'Q' ? ctx.queryLabels : ctx.keyLabels;
  const column = h * dk + c;
  const value = result.tensors[name].data[rowCell(result.tensors[name], ctx, i, column)];
  return {
    nodes: [
      line(
        `${cellName(step, labels[i], d(column))} = ${cellName(name, labels[i], d(column))} = ${formatNumber(value, decimals)}`,
      ),
      line(t('explain.split', { name, h: h + 1, from: d(h * dk), to: d(h * dk + dk - 1) }), 'text'),
    ],
    highlight: [{ matrix: name, row: i, col: column }],
  };
}

function explainDotScore(step, i, j, ctx) {
  const { t, result, h, dk, decimals } = ctx;
  const T = result.tensors;
  const fmt = (v) => formatNumber(v, decimals);
  const q = (m) => T.Q.data[rowCell(T.Q, ctx, i, h * dk + m)];
  const k = (m) => T.K.data[rowCell(T.K, ctx, j, h * dk + m)];
  const terms = [];
  let sum = 0;
  for (let m = 0; m < dk; m++) {
    terms.push([q(m), '×', k(m), '=', q(m) * k(m)]);
    sum += q(m) * k(m);
  }
  return {
    terms: [
      line(t('explain.dot', { i: qLabel(ctx, i), j: kLabel(ctx, j) })),
      termList(terms, decimals, t),
      line(`Σ = ${fmt(sum)}`, 'result'),
    ],
    highlight: [
      { matrix: 'Q_h', row: i },
      { matrix: 'K_h', row: j },
    ],
  };
}

// score = v_aᵀ tanh(q·W_a + k·U_a): one term per hidden unit m.
function explainAdditiveScore(step, i, j, ctx) {
  const { t, result, h, dk, decimals } = ctx;
  const T = result.tensors;
  const fmt = (v) => formatNumber(v, decimals);
  const hidden = T.v_a.shape[0];
  const q = (m) => T.Q.data[rowCell(T.Q, ctx, i, h * dk + m)];
  const k = (m) => T.K.data[rowCell(T.K, ctx, j, h * dk + m)];
  const terms = [];
  let sum = 0;
  for (let m = 0; m < hidden; m++) {
    let a = 0;
    let c = 0;
    for (let r = 0; r < dk; r++) {
      a += q(r) * T.W_a.data[r * hidden + m];
      c += k(r) * T.U_a.data[r * hidden + m];
    }
    const v = T.v_a.data[m];
    const term = v * Math.tanh(a + c);
    terms.push([`m${m}:`, v, `× tanh(${fmt(a)} + ${fmt(c)}) =`, term]);
    sum += term;
  }
  return {
    terms: [
      line(t('explain.additive', { i: qLabel(ctx, i), j: kLabel(ctx, j) })),
      termList(terms, decimals, t),
      line(`Σ = ${fmt(sum)}`, 'result'),
    ],
    highlight: [
      { matrix: 'Q_h', row: i },
      { matrix: 'K_h', row: j },
    ],
  };
}

function explainScore(step, i, j, ctx) {
  const { t, result, rs, decimals } = ctx;
  const T = result.tensors;
  const fmt = (v) => formatNumber(v, decimals);
  const at = (name) => T[name].data[headCell(T[name], ctx, i, j)];
  const parts =
    rs.score === 'additive' && T.v_a ? explainAdditiveScore(step, i, j, ctx) : explainDotScore(step, i, j, ctx);
  const nodes = [line(`${cellName(step, qLabel(ctx, i), kLabel(ctx, j))} = ${fmt(at(step))}`), ...parts.terms];
  if (step === 'scaled') {
    nodes.push(
      line(`${fmt(at('scores'))} × ${compactNumber(result.scaleFactor)} = ${fmt(at('scaled'))}`, 'result'),
      line(t('explain.scaled', { factor: ctx.scaleText }), 'text'),
    );
  }
  return { nodes, highlight: parts.highlight };
}

/** The sentence saying why the mask blocks or keeps key j for query i. */
function maskReason(i, j, ctx, blocked) {
  const { t, rs } = ctx;
  const reasons = blockReasons(rs.mask, i, j, kLabel(ctx, j));
  if (blocked) {
    const sentences = reasons.map((r) =>
      t(r === 'future' ? 'explain.mask.future' : 'explain.mask.pad', { i, j, key: kLabel(ctx, j) }),
    );
    return sentences.join(' ');
  }
  if (rs.mask === 'none') return t('explain.mask.noMask');
  const kept = [];
  if (rs.mask.includes('causal')) kept.push(t('explain.mask.notFuture', { i, j }));
  if (rs.mask.includes('padding')) kept.push(t('explain.mask.notPad', { key: kLabel(ctx, j) }));
  return t('explain.mask.kept', { reasons: kept.join('; ') });
}

// What a mask value says, per maskConvention: [kept, blocked].
const MASK_VALUE = {
  blocked: ['explain.mask.blocked.kept', 'explain.mask.blocked.blocked'],
  keep: ['explain.mask.keep.kept', 'explain.mask.keep.blocked'],
  additive: ['explain.mask.additive.kept', 'explain.mask.additive.blocked'],
};

function explainMask(step, i, j, ctx) {
  const { t, result, rs, decimals } = ctx;
  const value = result.tensors.mask.data[rowCell(result.tensors.mask, ctx, i, j)];
  const blocked = maskBlocks(value, rs.maskConvention);
  const shown = rs.maskConvention === 'additive' ? formatNumber(value, decimals) : String(value ? 1 : 0);
  const meaning = t(MASK_VALUE[rs.maskConvention][blocked ? 1 : 0], { fill: fillText(rs.fill) });
  return {
    nodes: [
      line(`${cellName('mask', qLabel(ctx, i), kLabel(ctx, j))} = ${shown}`),
      line(meaning, 'text'),
      line(maskReason(i, j, ctx, blocked), 'text'),
    ],
    highlight: [],
  };
}

function explainMasked(step, i, j, ctx) {
  const { t, result, rs, decimals } = ctx;
  const T = result.tensors;
  const fmt = (v) => formatNumber(v, decimals);
  const maskValue = T.mask.data[rowCell(T.mask, ctx, i, j)];
  const blocked = maskBlocks(maskValue, rs.maskConvention);
  const value = T.masked.data[headCell(T.masked, ctx, i, j)];
  const nodes = [line(`${cellName('masked', qLabel(ctx, i), kLabel(ctx, j))} = ${fmt(value)}`)];
  if (rs.maskConvention === 'additive')
    nodes.push(
      line(
        `scaled + M = ${fmt(T.scaled.data[headCell(T.scaled, ctx, i, j)])} + ${fmt(maskValue)} = ${fmt(value)}`,
        'result',
      ),
    );
  else if (blocked) nodes.push(line(t('explain.masked.blocked', { fill: fillText(rs.fill) }), 'text'));
  else nodes.push(line(t('explain.masked.kept', { value: fmt(value) }), 'text'));
  nodes.push(line(maskReason(i, j, ctx, blocked), 'text'));
  return { nodes, highlight: [{ matrix: 'mask', row: i, col: j }] };
}

function explainWeight(step, i, j, ctx) {
  const { t, result, rs, Skv, decimals } = ctx;
  const T = result.tensors;
  const fmt = (v) => formatNumber(v, decimals);
  const maskedStart = headCell(T.masked, ctx, i, 0);
  const row = Array.from(T.masked.data.subarray(maskedStart, maskedStart + Skv));
  const start = headCell(T.weights, ctx, i, 0);
  const value = T.weights.data[start + j];
  const nodes = [line(`${cellName('weights', qLabel(ctx, i), kLabel(ctx, j))} = ${fmt(value)}`)];
  if (row.every((v) => v === -Infinity)) {
    nodes.push(line(t('explain.weights.nan'), 'text'));
    return { nodes, highlight: [{ matrix: 'masked', row: i }] };
  }
  if (row.some((v) => v === Infinity || Number.isNaN(v))) {
    nodes.push(line(t('explain.weights.overflow'), 'text'));
    return { nodes, highlight: [{ matrix: 'masked', row: i }] };
  }
  const top = Math.max(...row.filter((v) => !Number.isNaN(v)));
  const exps = row.map((v) => Math.exp(v - top));
  const total = exps.reduce((a, c) => a + c, 0);
  const mask = (jj) => maskBlocks(T.mask.data[rowCell(T.mask, ctx, i, jj)], rs.maskConvention);
  const terms = row.map((v, jj) => [
    `${kLabel(ctx, jj)}:`,
    `exp(${fmt(v)} − ${fmt(top)})`,
    '=',
    exps[jj],
    '→',
    exps[jj] / total,
    mask(jj) ? `(${t('explain.masked')})` : '',
  ]);
  let rowSum = 0;
  for (let jj = 0; jj < Skv; jj++) rowSum += T.weights.data[start + jj];
  nodes.push(
    line(t('explain.softmax', { i: qLabel(ctx, i), j: kLabel(ctx, j) })),
    termList(terms, decimals, t),
    math(line(`Σ exp = ${fmt(total)};  ${fmt(exps[j])} / ${fmt(total)} = ${fmt(value)}`, 'result')),
    line(t('explain.sum', { sum: fmt(rowSum) }), 'result'),
  );
  if (rs.mask !== 'none' && Number.isFinite(rs.fill) && row.every((v, jj) => mask(jj)))
    nodes.push(line(t('explain.weights.allFilled', { fill: fillText(rs.fill), n: Skv }), 'text'));
  return { nodes, highlight: [{ matrix: 'masked', row: i }] };
}

function explainKeep(step, i, j, ctx) {
  const { t, rs, dropout } = ctx;
  const k = i * ctx.Skv + j;
  const m = dropout.keep[k];
  const shown = m === UNKNOWN ? '–' : String(m);
  const key = m === UNKNOWN ? 'explain.keep.unknown' : m ? 'explain.keep.kept' : 'explain.keep.zeroed';
  return {
    nodes: [
      line(`${cellName('keep', qLabel(ctx, i), kLabel(ctx, j))} = ${shown}`),
      line(t(key, { p: compactNumber(rs.p), factor: compactNumber(dropout.factor) }), 'text'),
    ],
    highlight: [{ matrix: 'dropped', row: i, col: j }],
  };
}

function explainDropped(step, i, j, ctx) {
  const { t, result, rs, decimals, dropout } = ctx;
  const T = result.tensors;
  const fmt = (v) => formatNumber(v, decimals);
  const w = T.weights.data[headCell(T.weights, ctx, i, j)];
  const value = T.dropped.data[headCell(T.dropped, ctx, i, j)];
  const m = dropout.keep[i * ctx.Skv + j];
  const nodes = [line(`${cellName('dropped', qLabel(ctx, i), kLabel(ctx, j))} = ${fmt(value)}`)];
  if (Number.isNaN(w)) nodes.push(line(t('explain.dropped.nan'), 'text'));
  else if (m === UNKNOWN) nodes.push(line(t('explain.dropped.zeroWeight'), 'text'));
  else if (m)
    nodes.push(
      line(
        `${fmt(w)} × 1/(1 − ${compactNumber(rs.p)}) = ${fmt(w)} × ${compactNumber(dropout.factor)} = ${fmt(value)}`,
        'result',
      ),
      line(t('explain.dropped.kept'), 'text'),
    );
  else
    nodes.push(
      line(`${fmt(w)} × 0 = 0`, 'result'),
      line(t('explain.dropped.zeroed', { p: compactNumber(rs.p) }), 'text'),
    );
  return {
    nodes,
    highlight: [
      { matrix: 'weights', row: i, col: j },
      { matrix: 'keep', row: i, col: j },
    ],
  };
}

function explainContext(step, i, c, ctx) {
  const { t, result, b, h, Skv, dk, decimals } = ctx;
  const T = result.tensors;
  const fmt = (v) => formatNumber(v, decimals);
  const terms = [];
  let sum = 0;
  for (let jj = 0; jj < Skv; jj++) {
    const w = T.dropped.data[headCell(T.dropped, ctx, i, jj)];
    const v = T.V.data[rowCell(T.V, ctx, jj, h * dk + c)];
    terms.push([`${kLabel(ctx, jj)}:`, w, '×', v, '=', w * v]);
    sum += w * v;
  }
  const value = T.context.data[headStart(T.context, b, h) + i * dk + c];
  return {
    nodes: [
      line(`${cellName('context', qLabel(ctx, i), d(c))} = ${fmt(value)}`),
      line(t('explain.weighted', { i: qLabel(ctx, i), c: d(c) })),
      termList(terms, decimals, t),
      line(`Σ = ${fmt(sum)}`, 'result'),
    ],
    highlight: [
      { matrix: ctx.rs.p > 0 ? 'dropped' : 'weights', row: i },
      { matrix: 'V_h', col: h * dk + c },
    ],
  };
}

function explainConcat(step, i, c, ctx) {
  const { t, result, dk, H, decimals } = ctx;
  const head = Math.floor(c / dk);
  const column = c % dk;
  const value = result.tensors.concat.data[rowCell(result.tensors.concat, ctx, i, c)];
  const nodes = [
    line(`${cellName('concat', qLabel(ctx, i), d(c))} = ${formatNumber(value, decimals)}`),
    line(
      t('explain.concat', {
        h: head + 1,
        i: qLabel(ctx, i),
        c: d(column),
        from: d(head * dk),
        to: d(head * dk + dk - 1),
      }),
      'text',
    ),
  ];
  // The selected head's context matrix is on the page: point at its cell.
  return { nodes, highlight: head === ctx.h || H === 1 ? [{ matrix: 'context', row: i, col: column }] : [] };
}

function explainOutput(step, i, c, ctx) {
  const { t, result, D, decimals } = ctx;
  const T = result.tensors;
  const fmt = (v) => formatNumber(v, decimals);
  const value = T.output.data[rowCell(T.output, ctx, i, c)];
  const nodes = [line(`${cellName('output', qLabel(ctx, i), d(c))} = ${fmt(value)}`)];
  if (!T.W_O) {
    nodes.push(line(t('explain.output.noProj'), 'text'));
    return { nodes, highlight: [{ matrix: 'concat', row: i, col: c }] };
  }
  const terms = [];
  let sum = 0;
  for (let k = 0; k < D; k++) {
    const x = T.concat.data[rowCell(T.concat, ctx, i, k)];
    const w = T.W_O.data[k * D + c];
    terms.push([`${d(k)}:`, x, '×', w, '=', x * w]);
    sum += x * w;
  }
  const bias = T.b_O ? T.b_O.data[c] : 0;
  nodes.push(
    line(t(T.b_O ? 'explain.output' : 'explain.output.noBias', { i: qLabel(ctx, i), c: d(c) })),
    termList(terms, decimals, t),
    line(`Σ = ${fmt(sum)}${T.b_O ? ` + ${fmt(bias)} = ${fmt(sum + bias)}` : ''}`, 'result'),
  );
  const highlight = [
    { matrix: 'concat', row: i },
    { matrix: 'W_O', col: c },
  ];
  if (T.b_O) highlight.push({ matrix: 'b_O', col: c });
  return { nodes, highlight };
}

function explainAveraged(step, i, j, ctx) {
  const { t, rs, H, decimals } = ctx;
  const fmt = (v) => formatNumber(v, decimals);
  const value = ctx.averaged[i * ctx.Skv + j];
  // nn.MultiheadAttention (PyTorch 1.13) averages the weights it used: after dropout.
  const source = rs.p > 0 ? ctx.result.tensors.dropped : ctx.result.tensors.weights;
  const terms = [];
  let sum = 0;
  for (let h = 0; h < H; h++) {
    const w = source.data[headCell(source, ctx, i, j, h)];
    terms.push([`${t('view.head', { h: h + 1 })}:`, w]);
    sum += w;
  }
  return {
    nodes: [
      line(`${cellName('averagedWeights', qLabel(ctx, i), kLabel(ctx, j))} = ${fmt(value)}`),
      line(t(rs.p > 0 ? 'explain.averaged.dropout' : 'explain.averaged', { H }), 'text'),
      termList(terms, decimals, t),
      line(`Σ / ${H} = ${fmt(sum)} / ${H} = ${fmt(sum / H)}`, 'result'),
    ],
    highlight: [],
  };
}

const EXPLAIN = {
  X: explainEmbedding,
  X_context: explainEmbedding,
  Q: (step, i, j, ctx) => explainProjection('Q', i, j, ctx),
  K: (step, i, j, ctx) => explainProjection('K', i, j, ctx),
  V: (step, i, j, ctx) => explainProjection('V', i, j, ctx),
  Q_h: explainHeadSplit,
  K_h: explainHeadSplit,
  V_h: explainHeadSplit,
  scores: explainScore,
  scaled: explainScore,
  mask: explainMask,
  masked: explainMasked,
  weights: explainWeight,
  averagedWeights: explainAveraged,
  keep: explainKeep,
  dropped: explainDropped,
  context: explainContext,
  concat: explainConcat,
  output: explainOutput,
};
