// "How this number is computed" for the inputs and their projections: the
// embeddings (and the sinusoidal position term), Q/K/V = X·W (+ b), a head's
// columns, QK-norm and RoPE with its angles.
import { compact, constant, formula, restyled, say, whole } from '../../model/words.js';
import { ropePairOf } from '../../model/variant-math.js';
import { cellFact, cellName, d, derived, headLine, reader, termList } from './lines.js';
import { headQuote, indexQuote, kvHead } from './names.js';

// PE[pos, c] = sin(pos · 10000^(−2k/D)) for c = 2k, cos(…) for c = 2k + 1.
function sinusoid(pos, c, D) {
  const k = c - (c % 2);
  return (c % 2 ? Math.cos : Math.sin)(pos * Math.exp(k * (-Math.log(10000) / D)));
}

function positionalLines(i, c, ctx, x, embedding) {
  const { t, D } = ctx;
  const { num } = reader(ctx);
  const pe = num(sinusoid(i, c, D), { value: 'positional', pos: i, c });
  const even = derived('difference', { index: c, of: 'D' }, derived('mod', { index: c, of: 'D' }, { constant: 2 }));
  const at = formula`${c % 2 ? 'cos' : 'sin'}(${indexQuote(i, 'S')} / ${constant(10000)}^(${whole(c - (c % 2), even)}/${whole(D, { size: 'D' })}))`;
  return [
    formula`PE[${i},${c}] = ${at} = ${pe}`,
    say(t, 'explain.X.positional'),
    restyled(formula`${embedding} + ${pe} = ${x}`, 'result', {
      claims: [{ claim: 'equal', of: [derived('sum', embedding.fact, pe.fact), x.fact] }],
    }),
  ];
}

export function explainEmbedding(step, i, c, ctx) {
  const { t, result, rs, b } = ctx;
  const { num, cell } = reader(ctx);
  const context = step === 'X_context';
  const x = cell(step, b, i, c);
  const labels = context ? ctx.keyLabels : ctx.queryLabels;
  const lines = [headLine(step, labels[i], d(c), x)];
  const ids = context ? result.contextIds : result.ids;
  if (!ids || ids.length === 0) {
    const side = context ? 'contextInput' : 'input';
    const draw = (context ? rs.contextDraw : rs.inputDraw) === 'rand' ? 'rand' : 'randn';
    const shape = context ? 'B, S_kv, D' : 'B, S, D';
    const seed = whole(result.settings.seed ?? 0, { setting: 'seed' });
    lines.push(say(t, `explain.X.${draw}`, { seed, shape }, { claims: [{ claim: 'drawn', side, draw }] }));
    return { lines, highlight: [] };
  }
  const token = labels[i];
  const sinus = rs.positional === 'sinusoidal';
  const peFact = { value: 'positional', pos: i, c };
  const embedding = sinus ? num(x.value - sinusoid(i, c, ctx.D), derived('difference', x.fact, peFact)) : x;
  const id = whole(ids[b][i], { tokenId: [context ? 'contextIds' : 'ids', b, i] });
  lines.push(say(t, 'explain.X.embedding', { token, id, c: d(c), value: embedding }));
  if (sinus) lines.push(...positionalLines(i, c, ctx, x, embedding));
  if (ctx.embeddingEdited?.(token, c)) lines.push(say(t, 'explain.edited'));
  return { lines, highlight: [] };
}

/** Σ_k x_k·w_k as terms: {items, sum: quote}; x(k) and w(k) quote the two factors of term k. */
export function productTerms(n, x, w, ctx, label = (k) => `${d(k)}: `) {
  const { num } = reader(ctx);
  const items = [];
  const facts = [];
  let sum = 0;
  for (let k = 0; k < n; k++) {
    const [a, b] = [x(k), w(k)];
    const fact = derived('product', a.fact, b.fact);
    items.push(formula`${label(k)}${a} × ${b} = ${num(a.value * b.value, fact)}`);
    facts.push(fact);
    sum += a.value * b.value;
  }
  return { items, sum: num(sum, derived('sum', ...facts)) };
}

/** "Σ = s" or "Σ = s + b = s + b", claiming it equals the cell `target`. */
export function sumLine(sum, bias, target, ctx) {
  const { num } = reader(ctx);
  if (!bias) return restyled(formula`Σ = ${sum}`, 'result', { claims: [{ claim: 'equal', of: [sum.fact, target] }] });
  const total = num(sum.value + bias.value, derived('sum', sum.fact, bias.fact));
  return restyled(formula`Σ = ${sum} + ${bias} = ${total}`, 'result', {
    claims: [{ claim: 'equal', of: [total.fact, target] }],
  });
}

export function explainProjection(name, i, c, ctx) {
  const { t, result, b, D } = ctx;
  const T = result.tensors;
  const { cell } = reader(ctx);
  const source = Boolean(T.X_context) && name !== 'Q' ? 'X_context' : 'X';
  const labels = name === 'Q' ? ctx.queryLabels : ctx.keyLabels;
  const bias = T[`b_${name}`] ? cell(`b_${name}`, c) : null;
  const { items, sum } = productTerms(
    D,
    (k) => cell(source, b, i, k),
    (k) => cell(`W_${name}`, k, c),
    ctx,
  );
  const sumText = `Σ_k ${cellName(source, labels[i], 'k')} · ${cellName(`W_${name}`, 'k', d(c))}`;
  const lines = [
    headLine(name, labels[i], d(c), cell(name, b, i, c)),
    formula`${cellName(name, labels[i], d(c))} = ${sumText}${bias ? ` + ${cellName(`b_${name}`, null, d(c))}` : ''}`,
    say(t, bias ? 'explain.qkv.bias' : 'explain.qkv', { name, x: source, i: labels[i], c: d(c) }),
    termList(items, { size: 'D' }, t),
    sumLine(sum, bias, cellFact(name, b, i, c), ctx),
  ];
  const highlight = [
    { matrix: source, row: i },
    { matrix: `W_${name}`, col: c },
  ];
  if (bias) highlight.push({ matrix: `b_${name}`, col: c });
  return { lines, highlight };
}

export function explainHeadSplit(step, i, c, ctx) {
  const { t, h, H, dk, b } = ctx;
  const name = step[0];
  const labels = name === 'Q' ? ctx.queryLabels : ctx.keyLabels;
  const head = name === 'Q' ? h : kvHead(ctx); // K and V: the K/V head head h reads
  const of = name === 'Q' ? 'H' : 'H_kv';
  const column = head * dk + c;
  const value = reader(ctx).cell(name, b, i, column);
  const lines = [
    formula`${cellName(step, labels[i], d(column))} = ${cellName(name, labels[i], d(column))} = ${value}`,
    say(t, 'explain.split', { name, h: headQuote(head, of), from: d(head * dk), to: d(head * dk + dk - 1) }),
  ];
  if (name !== 'Q' && ctx.Hkv < H) {
    const group = whole(H / ctx.Hkv, derived('quotient', { size: 'H' }, { size: 'H_kv' }));
    const claims = [{ claim: 'kvHead', h, g: head }];
    lines.push(say(t, 'explain.kvHead', { h: headQuote(h), g: headQuote(head, 'H_kv'), group }, { claims }));
  }
  return { lines, highlight: [{ matrix: name, row: i, col: column }] };
}

// The head (and its index's size) of a Q… or K… tensor's row: Q reads head h, K its K/V head.
const headOf = (name, ctx) => (name[0] === 'Q' ? [ctx.h, 'H'] : [kvHead(ctx), 'H_kv']);

// QK-norm: x / √(mean(x²) + 1e-6) over the head's d_k numbers.
export function explainQkNorm(step, i, c, ctx) {
  const { t, dk, b } = ctx;
  const { num, cell } = reader(ctx);
  const source = step[0]; // Q or K
  const labels = source === 'Q' ? ctx.queryLabels : ctx.keyLabels;
  const [head, of] = headOf(source, ctx);
  const column = head * dk + c;
  const squares = [];
  let total = 0;
  for (let m = 0; m < dk; m++) {
    const x = cell(source, b, i, head * dk + m);
    squares.push(derived('square', x.fact));
    total += x.value * x.value;
  }
  const sq = num(total, derived('sum', ...squares));
  const size = whole(dk, { size: 'd_k' });
  const eps = constant(1e-6, '1e-6');
  const rms = num(
    Math.sqrt(total / dk + 1e-6),
    derived('sqrt', derived('sum', derived('quotient', sq.fact, size.fact), eps.fact)),
  );
  const x = cell(source, b, i, column);
  const out = num(x.value / rms.value, derived('quotient', x.fact, rms.fact));
  return {
    lines: [
      headLine(step, labels[i], d(column), cell(step, b, i, column)),
      say(t, 'explain.qkNorm', { h: headQuote(head, of), dk: size }),
      formula`RMS = √(${sq} / ${size} + ${eps}) = ${rms}`,
      restyled(formula`${x} / ${rms} = ${out}`, 'result', {
        claims: [{ claim: 'equal', of: [out.fact, cellFact(step, b, i, column)] }],
      }),
    ],
    highlight: [{ matrix: source, row: i }],
  };
}

// RoPE: feature c's pair (a, b) turned by θ = m·freq_i: a·cos θ − b·sin θ, or a·sin θ + b·cos θ.
export function explainRope(step, i, c, ctx) {
  const { t, result, rs, dk, b } = ctx;
  const { num, cell } = reader(ctx);
  const side = step[0]; // Q or K
  const source = result.tensors[`${side}_norm`] ? `${side}_norm` : side;
  const labels = side === 'Q' ? ctx.queryLabels : ctx.keyLabels;
  const [head, of] = headOf(side, ctx);
  const base = head * dk;
  const {
    i: pair,
    pair: [a, bb],
  } = ropePairOf(c, dk, rs.rope);
  const angle = cell('ropeAngles', i, pair);
  const [xa, xb] = [cell(source, b, i, base + a), cell(source, b, i, base + bb)];
  const cos = num(Math.cos(angle.value), derived('cos', angle.fact));
  const sin = num(Math.sin(angle.value), derived('sin', angle.fact));
  const first = c === a;
  const [p1, p2] = first
    ? [
        [xa, cos],
        [xb, sin],
      ]
    : [
        [xa, sin],
        [xb, cos],
      ];
  const f1 = derived('product', p1[0].fact, p1[1].fact);
  const f2 = derived('product', p2[0].fact, p2[1].fact);
  const out = first
    ? num(xa.value * cos.value - xb.value * sin.value, derived('difference', f1, f2))
    : num(xa.value * sin.value + xb.value * cos.value, derived('sum', f1, f2));
  // YaRN multiplies cos and sin by its attention factor: the rotated pair is that much longer.
  const factor = result.tensors.ropeAttentionFactor;
  const scale = factor && factor.data[0] !== 1 ? cell('ropeAttentionFactor') : null;
  const scaled = scale ? num(out.value * scale.value, derived('product', out.fact, scale.fact)) : out;
  const claims = [{ claim: 'equal', of: [scaled.fact, cellFact(step, b, i, base + c)] }];
  const params = { c: d(base + c), a: d(base + a), b: d(base + bb), h: headQuote(head, of), m: indexQuote(i, 'S') };
  return {
    lines: [
      headLine(step, labels[i], d(base + c), cell(step, b, i, base + c)),
      say(t, 'explain.rope', { ...params, angle }),
      first
        ? formula`${xa}·cos(${angle}) − ${xb}·sin(${angle}) = ${xa}·${cos} − ${xb}·${sin}`
        : formula`${xa}·sin(${angle}) + ${xb}·cos(${angle}) = ${xa}·${sin} + ${xb}·${cos}`,
      ...(scale
        ? [
            formula`= ${out}`,
            say(t, 'explain.rope.attentionFactor', { factor: scale }),
            restyled(formula`${out} × ${scale} = ${scaled}`, 'result', { claims }),
          ]
        : [restyled(formula`= ${out}`, 'result', { claims })]),
    ],
    highlight: [
      { matrix: 'ropeAngles', row: i, col: pair },
      { matrix: source === side ? `${side}_h` : `${side}_norm_h`, row: i },
    ],
  };
}

// θ[m, i] = m · base^(−2i/d_k), or m · ropeInvFreq[i] with rope.scaling.
export function explainRopeAngle(step, m, i, ctx) {
  const value = reader(ctx).cell('ropeAngles', m, i);
  if (ctx.result.tensors.ropeInvFreq) return explainScaledRopeAngle(m, i, value, ctx);
  const { dk } = ctx;
  return ropeAngleLines(m, i, ctx, {
    widthQuote: whole(dk, { size: 'd_k' }),
    pairOf: 'd_k/2',
    freqFact: { value: 'ropeFrequency', i },
    key: 'explain.ropeAngle',
    widthParam: 'dk',
  });
}

/**
 * θ[m, i] = m · base^(−2i/width), the angle of pair i at position m over the `width` numbers a rotation turns
 * (d_k, or MLA's rope part): widthQuote quotes that width, pairOf names the size pair i indexes, freqFact is the
 * frequency's fact, and the sentence `key` takes the width as its param `widthParam`.
 */
export function ropeAngleLines(m, i, ctx, { widthQuote, pairOf, freqFact, key, widthParam }) {
  const { t, rs } = ctx;
  const { num, cell } = reader(ctx);
  const value = cell('ropeAngles', m, i);
  const freq = num(1 / rs.ropeBase ** ((2 * i) / widthQuote.value), freqFact);
  const pos = indexQuote(m, 'S');
  const pair = indexQuote(i, pairOf);
  const twice = whole(2 * i, derived('product', { constant: 2 }, pair.fact));
  const angle = num(m * freq.value, derived('product', pos.fact, freq.fact));
  const ropeBase = compact(rs.ropeBase, { setting: 'rope.base' });
  return {
    lines: [
      headLine('ropeAngles', m, `θ${i}`, value),
      say(t, key, { m: pos, i: pair, [widthParam]: widthQuote, freq }),
      restyled(formula`${pos} × ${ropeBase}^(−${twice}/${widthQuote}) = ${pos} × ${freq} = ${angle}`, 'result', {
        claims: [{ claim: 'equal', of: [angle.fact, value.fact] }],
      }),
    ],
    highlight: [],
  };
}

// With rope.scaling, position m times pair i's frequency after the scaling (ropeInvFreq), beside the trained one.
function explainScaledRopeAngle(m, i, value, ctx) {
  const { t, rs } = ctx;
  const { num, cell } = reader(ctx);
  const pos = indexQuote(m, 'S');
  const freq = cell('ropeInvFreq', i);
  const angle = num(m * freq.value, derived('product', pos.fact, freq.fact));
  return {
    lines: [
      headLine('ropeAngles', m, `θ${i}`, value),
      say(t, 'explain.ropeAngle.scaled', {
        m: pos,
        i: indexQuote(i, 'd_k/2'),
        type: t(`rope.scaling.name.${rs.ropeScaling.type}`),
        freq,
        before: cell('ropeInvFreqBase', i),
      }),
      restyled(formula`${pos} × ${freq} = ${angle}`, 'result', {
        claims: [{ claim: 'equal', of: [angle.fact, value.fact] }],
      }),
    ],
    highlight: [],
  };
}
