// "How this number is computed": the explanation of every number in the
// pipeline's matrices, shown when it is hovered, focused or tapped. Each
// explanation opens with the cell it explains (name[row,column] = value),
// then says where the number comes from, with its terms where it is a sum.
// Token text only ever reaches the page as textContent.
import { compactNumber, formatNumber } from '../../model/format.js';
import { headStart, sentenceIndex, sentenceStart } from '../../model/selection.js';
import { blockReasons, maskBlocks } from '../../model/run-settings.js';
import { fillText } from '../steps/formulas.js';
import { UNKNOWN } from '../../model/dropout.js';
import { explainWeightCell } from './weight-cells.js';
import { ropePairOf, windowEffect } from '../../model/variant-math.js';
import { STEPPER_EXPLAIN } from './stepper-cells.js';
import { cellName, line, math, termList } from './lines.js';

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

// The q and k the scores use: the last of Q, Q_norm, Q_rope the run has (and K's); the K/V head of head h.
const queryOf = (T) => (T.Q_rope ? 'Q_rope' : T.Q_norm ? 'Q_norm' : 'Q');
const keyOf = (T) => (T.K_rope ? 'K_rope' : T.K_norm ? 'K_norm' : 'K');
const kvHead = (ctx) => ctx.g ?? ctx.h;
/** What the mask applied to: the last of scaled, capped, biased the run has. */
const maskInputOf = (T) => (T.biased ? 'biased' : T.capped ? 'capped' : 'scaled');

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
  const width = W.shape[1]; // D, or H_kv·d_k for W_K and W_V with GQA
  const terms = [];
  let sum = 0;
  for (let k = 0; k < D; k++) {
    const x = T[source].data[rowCell(T[source], ctx, i, k)];
    const w = W.data[k * width + c];
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
  const { t, result, h, H, dk, decimals } = ctx;
  const name = step[0];
  const labels = name === 'Q' ? ctx.queryLabels : ctx.keyLabels;
  const head = name === 'Q' ? h : kvHead(ctx); // K and V: the K/V head head h reads
  const column = head * dk + c;
  const value = result.tensors[name].data[rowCell(result.tensors[name], ctx, i, column)];
  const nodes = [
    line(
      `${cellName(step, labels[i], d(column))} = ${cellName(name, labels[i], d(column))} = ${formatNumber(value, decimals)}`,
    ),
    line(t('explain.split', { name, h: head + 1, from: d(head * dk), to: d(head * dk + dk - 1) }), 'text'),
  ];
  if (name !== 'Q' && ctx.Hkv < H)
    nodes.push(line(t('explain.kvHead', { h: h + 1, g: head + 1, group: H / ctx.Hkv }), 'text'));
  return { nodes, highlight: [{ matrix: name, row: i, col: column }] };
}

// The feature c of the selected head (or its K/V head) in a [B, S, heads·d_k] tensor, and its global column.
function headFeature(name, i, c, ctx) {
  const tensor = ctx.result.tensors[name];
  const head = name[0] === 'Q' ? ctx.h : kvHead(ctx);
  const column = head * ctx.dk + c;
  return { tensor, head, column, at: (cc) => tensor.data[rowCell(tensor, ctx, i, head * ctx.dk + cc)] };
}

// QK-norm: x / √(mean(x²) + 1e-6) over the head's d_k numbers.
function explainQkNorm(step, i, c, ctx) {
  const { t, result, dk, decimals } = ctx;
  const fmt = (v) => formatNumber(v, decimals);
  const source = step[0]; // Q or K
  const labels = source === 'Q' ? ctx.queryLabels : ctx.keyLabels;
  const input = headFeature(source, i, c, ctx);
  const { head, column } = input;
  let squares = 0;
  for (let m = 0; m < dk; m++) squares += input.at(m) ** 2;
  const rms = Math.sqrt(squares / dk + 1e-6);
  const value = result.tensors[step].data[rowCell(result.tensors[step], ctx, i, column)];
  return {
    nodes: [
      line(`${cellName(step, labels[i], d(column))} = ${fmt(value)}`),
      line(t('explain.qkNorm', { h: head + 1, dk }), 'text'),
      line(`RMS = √(${fmt(squares)} / ${dk} + 1e-6) = ${fmt(rms)}`),
      line(`${fmt(input.at(c))} / ${fmt(rms)} = ${fmt(input.at(c) / rms)}`, 'result'),
    ],
    highlight: [{ matrix: source, row: i }],
  };
}

// RoPE: feature c's pair (a, b) turned by θ = m·freq_i: a·cos θ − b·sin θ, or a·sin θ + b·cos θ.
function explainRope(step, i, c, ctx) {
  const { t, result, rs, dk, decimals } = ctx;
  const T = result.tensors;
  const fmt = (v) => formatNumber(v, decimals);
  const side = step[0]; // Q or K
  const source = T[`${side}_norm`] ? `${side}_norm` : side;
  const labels = side === 'Q' ? ctx.queryLabels : ctx.keyLabels;
  const input = headFeature(source, i, c, ctx);
  const { head, column } = input;
  const {
    i: pair,
    pair: [a, b],
  } = ropePairOf(c, dk, rs.rope);
  const angle = T.ropeAngles.data[i * (dk / 2) + pair];
  const [xa, xb] = [input.at(a), input.at(b)];
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  const first = c === a;
  const value = T[step].data[rowCell(T[step], ctx, i, column)];
  const base = head * dk;
  return {
    nodes: [
      line(`${cellName(step, labels[i], d(column))} = ${fmt(value)}`),
      line(
        t('explain.rope', { c: d(column), a: d(base + a), b: d(base + b), h: head + 1, m: i, angle: fmt(angle) }),
        'text',
      ),
      line(
        first
          ? `${fmt(xa)}·cos(${fmt(angle)}) − ${fmt(xb)}·sin(${fmt(angle)}) = ${fmt(xa)}·${fmt(cos)} − ${fmt(xb)}·${fmt(sin)}`
          : `${fmt(xa)}·sin(${fmt(angle)}) + ${fmt(xb)}·cos(${fmt(angle)}) = ${fmt(xa)}·${fmt(sin)} + ${fmt(xb)}·${fmt(cos)}`,
      ),
      line(`= ${fmt(first ? xa * cos - xb * sin : xa * sin + xb * cos)}`, 'result'),
    ],
    highlight: [
      { matrix: 'ropeAngles', row: i, col: pair },
      { matrix: source === side ? `${side}_h` : `${side}_norm_h`, row: i },
    ],
  };
}

// θ[m, i] = m · base^(−2i/d_k).
function explainRopeAngle(step, m, i, ctx) {
  const { t, result, rs, dk, decimals } = ctx;
  const fmt = (v) => formatNumber(v, decimals);
  const value = result.tensors.ropeAngles.data[m * (dk / 2) + i];
  const freq = 1 / rs.ropeBase ** ((2 * i) / dk);
  return {
    nodes: [
      line(`${cellName('ropeAngles', m, `θ${i}`)} = ${fmt(value)}`),
      line(t('explain.ropeAngle', { m, i, dk, freq: fmt(freq) }), 'text'),
      line(`${m} × ${compactNumber(rs.ropeBase)}^(−${2 * i}/${dk}) = ${m} × ${fmt(freq)} = ${fmt(m * freq)}`, 'result'),
    ],
    highlight: [],
  };
}

// capped = c·tanh(scaled / c).
function explainCapped(step, i, j, ctx) {
  const { t, result, rs, decimals } = ctx;
  const T = result.tensors;
  const fmt = (v) => formatNumber(v, decimals);
  const scaled = T.scaled.data[headCell(T.scaled, ctx, i, j)];
  const value = T.capped.data[headCell(T.capped, ctx, i, j)];
  const c = rs.softcap;
  return {
    nodes: [
      line(`${cellName('capped', qLabel(ctx, i), kLabel(ctx, j))} = ${fmt(value)}`),
      line(
        `${compactNumber(c)} · tanh(${fmt(scaled)} / ${compactNumber(c)}) = ${fmt(c * Math.tanh(scaled / c))}`,
        'result',
      ),
      line(t('explain.capped', { c: compactNumber(c) }), 'text'),
    ],
    highlight: [{ matrix: 'scaled_beside_capped', row: i, col: j }],
  };
}

// ALiBi: bias[h, i, j] = −m_h·(i − j); biased = (scaled or capped) + bias.
function explainAlibi(step, i, j, ctx) {
  const { t, result, h, S, Skv, decimals } = ctx;
  const T = result.tensors;
  const fmt = (v) => formatNumber(v, decimals);
  const bias = T.alibiBias.data[(h * S + i) * Skv + j];
  const slope = S > 1 ? -T.alibiBias.data[(h * S + 1) * Skv] : 0;
  const nodes = [];
  if (step === 'alibiBias') {
    nodes.push(
      line(`${cellName('alibiBias', qLabel(ctx, i), kLabel(ctx, j))} = ${fmt(bias)}`),
      line(`−${compactNumber(slope)} × (${i} − ${j}) = ${fmt(-slope * (i - j))}`, 'result'),
      line(t('explain.alibi', { h: h + 1, m: compactNumber(slope), d: i - j }), 'text'),
    );
    return { nodes, highlight: [] };
  }
  const input = T.capped ? 'capped' : 'scaled';
  const before = T[input].data[headCell(T[input], ctx, i, j)];
  const value = T.biased.data[headCell(T.biased, ctx, i, j)];
  nodes.push(
    line(`${cellName('biased', qLabel(ctx, i), kLabel(ctx, j))} = ${fmt(value)}`),
    line(`${input} + alibiBias = ${fmt(before)} + ${fmt(bias)} = ${fmt(before + bias)}`, 'result'),
    line(t('explain.biased', { h: h + 1, d: i - j }), 'text'),
  );
  return { nodes, highlight: [{ matrix: 'alibiBias', row: i, col: j }] };
}

function explainDotScore(step, i, j, ctx) {
  const { t, result, h, dk, decimals } = ctx;
  const T = result.tensors;
  const fmt = (v) => formatNumber(v, decimals);
  const [Q, K] = [T[queryOf(T)], T[keyOf(T)]];
  const q = (m) => Q.data[rowCell(Q, ctx, i, h * dk + m)];
  const k = (m) => K.data[rowCell(K, ctx, j, kvHead(ctx) * dk + m)];
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
      { matrix: `${queryOf(T)}_h`, row: i },
      { matrix: `${keyOf(T)}_h`, row: j },
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
  const reasons = blockReasons(rs.mask, i, j, kLabel(ctx, j), rs);
  const REASON = { future: 'explain.mask.future', window: 'explain.mask.window', pad: 'explain.mask.pad' };
  if (blocked) {
    const sentences = reasons.map((r) => t(REASON[r], { i, j, d: i - j, window: rs.window, key: kLabel(ctx, j) }));
    return sentences.join(' ');
  }
  if (rs.mask === 'none') return t('explain.mask.noMask');
  const kept = [];
  if (rs.maskKinds.causal) kept.push(t('explain.mask.notFuture', { i, j }));
  if (rs.window && j <= i)
    kept.push(
      windowEffect(i, j, rs.window, rs.sinkTokens) === 'sink'
        ? t('explain.mask.sink', { j, n: rs.sinkTokens })
        : t('explain.mask.inWindow', { j, d: i - j, window: rs.window }),
    );
  if (rs.maskKinds.padding) kept.push(t('explain.mask.notPad', { key: kLabel(ctx, j) }));
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
  const input = maskInputOf(T);
  if (rs.maskConvention === 'additive')
    nodes.push(
      line(
        `${input} + M = ${fmt(T[input].data[headCell(T[input], ctx, i, j)])} + ${fmt(maskValue)} = ${fmt(value)}`,
        'result',
      ),
    );
  else if (blocked) nodes.push(line(t('explain.masked.blocked', { fill: fillText(rs.fill) }), 'text'));
  else if (input !== 'scaled') nodes.push(line(t('explain.masked.keptInput', { input, value: fmt(value) }), 'text'));
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
  const sink = T.sinkWeights ? rs.sinkLogit : null; // the sink logit: one more term in the row's softmax
  if (sink === null && row.every((v) => v === -Infinity)) {
    nodes.push(line(t('explain.weights.nan'), 'text'));
    return { nodes, highlight: [{ matrix: 'masked', row: i }] };
  }
  if (row.some((v) => v === Infinity || Number.isNaN(v))) {
    nodes.push(line(t('explain.weights.overflow'), 'text'));
    return { nodes, highlight: [{ matrix: 'masked', row: i }] };
  }
  const top = Math.max(...row.filter((v) => !Number.isNaN(v)), ...(sink === null ? [] : [sink]));
  const exps = row.map((v) => Math.exp(v - top));
  const sinkExp = sink === null ? 0 : Math.exp(sink - top);
  const total = exps.reduce((a, c) => a + c, 0) + sinkExp;
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
  if (sink !== null)
    terms.push([`${t('sink.column')}:`, `exp(${fmt(sink)} − ${fmt(top)})`, '=', sinkExp, '→', sinkExp / total]);
  let rowSum = 0;
  for (let jj = 0; jj < Skv; jj++) rowSum += T.weights.data[start + jj];
  nodes.push(
    line(t('explain.softmax', { i: qLabel(ctx, i), j: kLabel(ctx, j) })),
    termList(terms, decimals, t),
    math(line(`Σ exp = ${fmt(total)};  ${fmt(exps[j])} / ${fmt(total)} = ${fmt(value)}`, 'result')),
    line(t('explain.sum', { sum: fmt(rowSum) }), 'result'),
  );
  if (sink !== null) nodes.push(line(t('explain.softmax.sink', { logit: compactNumber(sink) }), 'text'));
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
  const vColumn = kvHead(ctx) * dk + c; // V of the K/V head head h reads
  for (let jj = 0; jj < Skv; jj++) {
    const w = T.dropped.data[headCell(T.dropped, ctx, i, jj)];
    const v = T.V.data[rowCell(T.V, ctx, jj, vColumn)];
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
      { matrix: 'V_h', col: vColumn },
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

// The sink column beside the weights: (i, 0) the sink's weight, (i, 1) the sum of row i's weights.
function explainSink(step, i, col, ctx) {
  const { t, result, rs, Skv, decimals } = ctx;
  const T = result.tensors;
  const fmt = (v) => formatNumber(v, decimals);
  const start = headCell(T.weights, ctx, i, 0);
  let sum = 0;
  for (let jj = 0; jj < Skv; jj++) sum += T.weights.data[start + jj];
  const [, heads, rows] = T.sinkWeights.shape; // [B, H, S]
  const head = T.sinkWeights.head === undefined ? ctx.h : 0;
  const sink = T.sinkWeights.data[(sentenceIndex(T.sinkWeights, ctx.b) * heads + head) * rows + i];
  const nodes =
    col === 0
      ? [
          line(`${cellName('sinkWeights', qLabel(ctx, i), null)} = ${fmt(sink)}`),
          line(t('explain.sink', { i: qLabel(ctx, i) }), 'text'),
          line(t('explain.softmax.sink', { logit: compactNumber(rs.sinkLogit) }), 'text'),
        ]
      : [
          line(`Σ_j weights[${qLabel(ctx, i)}, j] = ${fmt(sum)}`),
          line(`1 − ${fmt(sink)} = ${fmt(1 - sink)}`, 'result'),
        ];
  return { nodes, highlight: [{ matrix: 'weights', row: i }] };
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
  Q_norm_h: (step, i, j, ctx) => explainQkNorm('Q_norm', i, j, ctx),
  K_norm_h: (step, i, j, ctx) => explainQkNorm('K_norm', i, j, ctx),
  Q_before_rope: (step, i, j, ctx) =>
    ctx.result.tensors.Q_norm ? explainQkNorm('Q_norm', i, j, ctx) : explainHeadSplit('Q_h', i, j, ctx),
  Q_rope_h: (step, i, j, ctx) => explainRope('Q_rope', i, j, ctx),
  K_rope_h: (step, i, j, ctx) => explainRope('K_rope', i, j, ctx),
  ropeAngles: explainRopeAngle,
  scores: explainScore,
  scaled: explainScore,
  scaled_beside_capped: (step, i, j, ctx) => explainScore('scaled', i, j, ctx),
  capped: explainCapped,
  alibiBias: explainAlibi,
  biased: explainAlibi,
  sinkWeights: explainSink,
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
