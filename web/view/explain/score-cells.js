// "How this number is computed" for the scores: q·k term by term (or the
// additive score's hidden units), the scale, the softcap and ALiBi's bias.
import { compact, formula, restyled, say, whole } from '../../model/words.js';
import { alibiSlopes } from '../../model/variant-math.js';
import { cellFact, derived, headLine, reader, termList } from './lines.js';
import { headQuote, indexQuote, kLabel, keyOf, kvHead, qLabel, queryOf } from './names.js';
import { productTerms, sumLine } from './input-cells.js';

function explainDotScore(i, j, ctx) {
  const { t, result, b, h, dk } = ctx;
  const T = result.tensors;
  const { cell } = reader(ctx);
  const [Q, K] = [queryOf(T), keyOf(T)];
  const { items, sum } = productTerms(
    dk,
    (m) => cell(Q, b, i, h * dk + m),
    (m) => cell(K, b, j, kvHead(ctx) * dk + m),
    ctx,
    () => '',
  );
  return {
    lines: [
      say(t, 'explain.dot', { i: qLabel(ctx, i), j: kLabel(ctx, j) }, { kind: 'formula' }),
      termList(items, { size: 'd_k' }, t),
      sumLine(sum, null, cellFact('scores', b, h, i, j), ctx),
    ],
    highlight: [
      { matrix: `${Q}_h`, row: i },
      { matrix: `${K}_h`, row: j },
    ],
  };
}

// Unit m of the additive score: v_a[m]·tanh((q·W_a)[m] + (k·U_a)[m]), as a term sentence and its quote.
function additiveTerm(m, i, j, ctx) {
  const { b, h, dk } = ctx;
  const T = ctx.result.tensors;
  const { num, cell } = reader(ctx);
  const hidden = T.v_a.shape[0];
  const half = (row, side, weights) => {
    const facts = [];
    let sum = 0;
    for (let r = 0; r < dk; r++) {
      const x = cell(side, b, row, h * dk + r);
      const w = cell(weights, r, m);
      facts.push(derived('product', x.fact, w.fact));
      sum += x.value * w.value;
    }
    return num(sum, derived('sum', ...facts));
  };
  const [a, c] = [half(i, 'Q', 'W_a'), half(j, 'K', 'U_a')];
  const v = cell('v_a', m);
  const fact = derived('product', v.fact, derived('tanh', derived('sum', a.fact, c.fact)));
  const term = num(v.value * Math.tanh(a.value + c.value), fact);
  return { item: formula`${`m${m}`}: ${v} × tanh(${a} + ${c}) = ${term}`, term, hidden };
}

// score = v_aᵀ tanh(q·W_a + k·U_a): one term per hidden unit m.
function explainAdditiveScore(i, j, ctx) {
  const { t, b, h } = ctx;
  const { num } = reader(ctx);
  const hidden = ctx.result.tensors.v_a.shape[0];
  const items = [];
  const facts = [];
  let sum = 0;
  for (let m = 0; m < hidden; m++) {
    const { item, term } = additiveTerm(m, i, j, ctx);
    items.push(item);
    facts.push(term.fact);
    sum += term.value;
  }
  return {
    lines: [
      say(t, 'explain.additive', { i: qLabel(ctx, i), j: kLabel(ctx, j) }, { kind: 'formula' }),
      termList(items, { setting: 'additiveHidden' }, t),
      sumLine(num(sum, derived('sum', ...facts)), null, cellFact('scores', b, h, i, j), ctx),
    ],
    highlight: [
      { matrix: 'Q_h', row: i },
      { matrix: 'K_h', row: j },
    ],
  };
}

/** The scale factor as the scaled step writes it: "÷√4 = ×0.5 (1/√d_k)". */
function scaleSentence(ctx) {
  const { t, rs, dk, D, result } = ctx;
  const factor = compact(result.scaleFactor, { value: 'scaleFactor' });
  if (rs.scale === 'head-dim') return say(t, 'scale.factor.headDim', { n: whole(dk, { size: 'd_k' }), factor });
  if (rs.scale === 'd-model') return say(t, 'scale.factor.dModel', { n: whole(D, { size: 'D' }), factor });
  if (rs.scale === 'none')
    return say(t, 'scale.factor.none', {}, { claims: [{ claim: 'setting', name: 'scale', is: 'none' }] });
  return say(t, 'scale.factor.custom', { factor });
}

export function explainScore(step, i, j, ctx) {
  const { t, result, rs, b, h } = ctx;
  const { num, cell } = reader(ctx);
  const parts =
    rs.score === 'additive' && result.tensors.v_a ? explainAdditiveScore(i, j, ctx) : explainDotScore(i, j, ctx);
  const lines = [headLine(step, qLabel(ctx, i), kLabel(ctx, j), cell(step, b, h, i, j)), ...parts.lines];
  if (step === 'scaled') {
    const scores = cell('scores', b, h, i, j);
    const factor = compact(result.scaleFactor, { value: 'scaleFactor' });
    const scaled = num(scores.value * result.scaleFactor, derived('product', scores.fact, factor.fact));
    lines.push(
      restyled(formula`${scores} × ${factor} = ${cell('scaled', b, h, i, j)}`, 'result', {
        claims: [{ claim: 'equal', of: [scaled.fact, cellFact('scaled', b, h, i, j)] }],
      }),
      say(t, 'explain.scaled', { factor: scaleSentence(ctx) }),
    );
  }
  return { lines, highlight: parts.highlight };
}

// capped = c·tanh(scaled / c).
export function explainCapped(step, i, j, ctx) {
  const { t, rs, b, h } = ctx;
  const { num, cell } = reader(ctx);
  const scaled = cell('scaled', b, h, i, j);
  const c = compact(rs.softcap, { setting: 'softcap' });
  const fact = derived('product', c.fact, derived('tanh', derived('quotient', scaled.fact, c.fact)));
  const capped = num(rs.softcap * Math.tanh(scaled.value / rs.softcap), fact);
  return {
    lines: [
      headLine('capped', qLabel(ctx, i), kLabel(ctx, j), cell('capped', b, h, i, j)),
      restyled(formula`${c} · tanh(${scaled} / ${c}) = ${capped}`, 'result', {
        claims: [{ claim: 'equal', of: [fact, cellFact('capped', b, h, i, j)] }],
      }),
      say(t, 'explain.capped', { c }),
    ],
    highlight: [{ matrix: 'scaled_beside_capped', row: i, col: j }],
  };
}

// ALiBi: bias[h, i, j] = −m_h·(i − j); biased = (scaled or capped) + bias.
export function explainAlibi(step, i, j, ctx) {
  const { t, result, h, H, b } = ctx;
  const T = result.tensors;
  const { num, cell } = reader(ctx);
  const bias = cell('alibiBias', h, i, j);
  const slope = compact(alibiSlopes(H)[h], { value: 'alibiSlope', h });
  const [qi, kj] = [indexQuote(i, 'S'), indexQuote(j, 'S_kv')];
  const distance = whole(i - j, derived('difference', qi.fact, kj.fact));
  if (step === 'alibiBias') {
    const fact = derived('negate', derived('product', slope.fact, distance.fact));
    return {
      lines: [
        headLine('alibiBias', qLabel(ctx, i), kLabel(ctx, j), bias),
        restyled(formula`−${slope} × (${qi} − ${kj}) = ${num(-slope.value * (i - j), fact)}`, 'result', {
          claims: [{ claim: 'equal', of: [fact, bias.fact] }],
        }),
        say(t, 'explain.alibi', { h: headQuote(h), m: slope, d: distance }),
      ],
      highlight: [],
    };
  }
  const input = T.capped ? 'capped' : 'scaled';
  const before = cell(input, b, h, i, j);
  const sum = num(before.value + bias.value, derived('sum', before.fact, bias.fact));
  return {
    lines: [
      headLine('biased', qLabel(ctx, i), kLabel(ctx, j), cell('biased', b, h, i, j)),
      restyled(formula`${input} + alibiBias = ${before} + ${bias} = ${sum}`, 'result', {
        claims: [{ claim: 'equal', of: [sum.fact, cellFact('biased', b, h, i, j)] }],
      }),
      say(t, 'explain.biased', { h: headQuote(h), d: distance }),
    ],
    highlight: [{ matrix: 'alibiBias', row: i, col: j }],
  };
}
