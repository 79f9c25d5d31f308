// "How this number is computed": the explanation shown when a number in the
// scores, weights, weighted sum or output is hovered or focused.
import { blocksKey } from '../model/mask.js';
import { formatNumber } from './matrix.js';

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

const line = (text, className = 'formula') => {
  const p = document.createElement('p');
  p.className = className;
  p.textContent = text;
  return p;
};

/** The matrix cell an event happened on: {td, step, i, j}, or null. */
export function cellOfEvent(event) {
  const td = event.target.closest?.('td[data-i]');
  const figure = td?.closest('[data-matrix]');
  if (!td || !figure) return null;
  return { td, step: figure.dataset.matrix, i: Number(td.dataset.i), j: Number(td.dataset.j) };
}

/**
 * Explanation for cell (i, j) of `step` in the context `ctx`
 * ({t, result, b, h, S, Skv, D, H, dk, queryLabels, keyLabels, decimals}).
 * Returns {nodes, highlight: [{matrix, row}]} or null.
 */
export function explainCell(step, i, j, ctx) {
  const { t, result, b, h, S, Skv, D, H, dk, decimals } = ctx;
  const T = result.tensors;
  const fmt = (v) => formatNumber(v, decimals);
  const q = (m) => T.Q.data[(b * S + i) * D + h * dk + m];
  const k = (m) => T.K.data[(b * Skv + j) * D + h * dk + m];
  const scoreIndex = ((b * H + h) * S + i) * Skv + j;
  const blocked = (jj) => blocksKey(result.settings, T.mask.data[(b * S + i) * Skv + jj]);

  if (step === 'scores' || step === 'scaled') {
    const terms = [];
    let sum = 0;
    for (let m = 0; m < dk; m++) {
      terms.push([q(m), '×', k(m), '=', q(m) * k(m)]);
      sum += q(m) * k(m);
    }
    const nodes = [
      line(t('explain.dot', { i: ctx.queryLabels[i], j: ctx.keyLabels[j] })),
      termList(terms, decimals, t),
      line(`Σ = ${fmt(sum)}`, 'result'),
    ];
    if (step === 'scaled')
      nodes.push(
        line(
          `${fmt(T.scores.data[scoreIndex])} × ${fmt(result.scaleFactor)} = ${fmt(T.scaled.data[scoreIndex])}`,
          'result',
        ),
      );
    return {
      nodes,
      highlight: [
        { matrix: 'Q_h', row: i },
        { matrix: 'K_h', row: j },
      ],
    };
  }

  if (step === 'weights' || step === 'masked') {
    const row = [];
    for (let jj = 0; jj < Skv; jj++) row.push(T.masked.data[((b * H + h) * S + i) * Skv + jj]);
    const finite = row.filter((v) => v !== -Infinity);
    const top = finite.length ? Math.max(...finite) : NaN;
    const exps = row.map((v) => Math.exp(v - top));
    const total = exps.reduce((a, c) => a + c, 0);
    const terms = row.map((v, jj) => [
      ctx.keyLabels[jj] + ':',
      `exp(${fmt(v)} − ${fmt(top)})`,
      '=',
      exps[jj],
      '→',
      exps[jj] / total,
      blocked(jj) ? `(${t('explain.masked')})` : '',
    ]);
    const weightsRow = [];
    for (let jj = 0; jj < Skv; jj++) weightsRow.push(T.weights.data[((b * H + h) * S + i) * Skv + jj]);
    return {
      nodes: [
        line(t('explain.softmax', { i: ctx.queryLabels[i], j: ctx.keyLabels[j] })),
        termList(terms, decimals, t),
        line(`Σ exp = ${fmt(total)};  ${fmt(exps[j])} / ${fmt(total)} = ${fmt(T.weights.data[scoreIndex])}`, 'result'),
        line(t('explain.sum', { sum: fmt(weightsRow.reduce((a, c) => a + c, 0)) }), 'result'),
      ],
      highlight: [],
    };
  }

  if (step === 'context') {
    const c = j;
    const terms = [];
    let sum = 0;
    for (let jj = 0; jj < Skv; jj++) {
      const w = T.dropped.data[((b * H + h) * S + i) * Skv + jj];
      const v = T.V.data[(b * Skv + jj) * D + h * dk + c];
      terms.push([`${ctx.keyLabels[jj]}:`, w, '×', v, '=', w * v]);
      sum += w * v;
    }
    return {
      nodes: [
        line(t('explain.weighted', { i: ctx.queryLabels[i], c: `d${c}` })),
        termList(terms, decimals, t),
        line(`Σ = ${fmt(sum)}`, 'result'),
      ],
      highlight: [{ matrix: 'V_h', row: null }],
    };
  }

  if (step === 'output' && T.W_O) {
    const c = j;
    const terms = [];
    let sum = 0;
    for (let kk = 0; kk < D; kk++) {
      const x = T.concat.data[(b * S + i) * D + kk];
      const w = T.W_O.data[kk * D + c];
      terms.push([`d${kk}:`, x, '×', w, '=', x * w]);
      sum += x * w;
    }
    const bias = T.b_O ? T.b_O.data[c] : 0;
    return {
      nodes: [
        line(t('explain.output', { i: ctx.queryLabels[i], c: `d${c}` })),
        termList(terms, decimals, t),
        line(`Σ = ${fmt(sum)}${T.b_O ? ` + ${fmt(bias)} = ${fmt(sum + bias)}` : ''}`, 'result'),
      ],
      highlight: [{ matrix: 'concat', row: i }],
    };
  }
  return null;
}
