// "How this number is computed" for multi-head latent attention's figures (DeepSeek's model.py MLA): the
// latent and its RMSNorm, the rope parts and their angles, each path's keys, values and scores, the context
// on the path the run chose, and where each of its seven weights comes from. cells.js dispatches here first
// when the run has MLA. c = kvRank, n = nopeDim, r = ropeDim, vd = valueDim, qk = n + r.
import { compact, constant, formula, restyled, say, whole } from '../../model/words.js';
import { cellFact, d, derived, headLine, reader, termList } from './lines.js';
import { headQuote, indexQuote, kLabel, qLabel } from './names.js';
import { explainProjection, productTerms, ropeAngleLines, sumLine } from './input-cells.js';
import { explainConcat, explainContext, explainOutput } from './output-cells.js';
import { pathScores, ropePairOf } from '../../model/variant-math.js';

const sizesOf = (ctx) => {
  const { kvRank: kv, nopeDim: n, ropeDim: r, valueDim: vd } = ctx.rs.mla;
  return { kv, n, r, vd, qk: n + r };
};
// The width of a tensor's last axis as the claims read it (MLA's sizes are no size letters of the run).
const widthOf = (tensor, axis = 2) => ({ shape: [tensor, axis] });

/** cell = Σ_k x(k)·w(k): the opening line, what is multiplied, the terms and their sum. */
function dotLines(ctx, { figure, row, col, target, n, count, x, w, sentence, termLabel }) {
  const { cell } = reader(ctx);
  const { items, sum } = productTerms(n, x, w, ctx, termLabel);
  return [
    headLine(figure, row, col, cell(...target)),
    sentence,
    termList(items, count, ctx.t),
    sumLine(sum, null, cellFact(...target), ctx),
  ];
}

// latent = X·W_DKV, K_pe = X·W_KR: row i of X times a column of the weight (D terms).
const projection = (name, weight) => (figure, i, c, ctx) => ({
  lines: dotLines(ctx, {
    figure,
    row: qLabel(ctx, i),
    col: d(c),
    target: [name, ctx.b, i, c],
    n: ctx.D,
    count: { size: 'D' },
    x: (k) => reader(ctx).cell('X', ctx.b, i, k),
    w: (k) => reader(ctx).cell(`W_${weight}`, k, c),
    sentence: say(ctx.t, 'explain.qkv', { name: weight, x: 'X', i: qLabel(ctx, i), c: d(c) }),
  }),
  highlight: [
    { matrix: 'X', row: i },
    { matrix: `W_${weight}`, col: c },
  ],
});

// latentNorm = latent / √(mean(latent²) + 1e-6) · kv_norm over the c numbers of row i.
function explainLatentNorm(figure, i, c, ctx) {
  const { t, b } = ctx;
  const { num, cell } = reader(ctx);
  const { kv } = sizesOf(ctx);
  const squares = [];
  let total = 0;
  for (let m = 0; m < kv; m++) {
    const x = cell('latent', b, i, m);
    squares.push(derived('square', x.fact));
    total += x.value * x.value;
  }
  const sq = num(total, derived('sum', ...squares));
  const size = whole(kv, widthOf('latent'));
  const eps = constant(1e-6, '1e-6');
  const rms = num(
    Math.sqrt(total / kv + 1e-6),
    derived('sqrt', derived('sum', derived('quotient', sq.fact, size.fact), eps.fact)),
  );
  const x = cell('latent', b, i, c);
  const weight = cell('kv_norm', c);
  const out = num(
    (x.value / rms.value) * weight.value,
    derived('product', derived('quotient', x.fact, rms.fact), weight.fact),
  );
  return {
    lines: [
      headLine(figure, qLabel(ctx, i), d(c), cell('latentNorm', b, i, c)),
      say(t, 'explain.mla.norm', { kv: size }),
      formula`RMS = √(${sq} / ${size} + ${eps}) = ${rms}`,
      restyled(formula`${x} / ${rms} × ${weight} = ${out}`, 'result', {
        claims: [{ claim: 'equal', of: [out.fact, cellFact('latentNorm', b, i, c)] }],
      }),
    ],
    highlight: [
      { matrix: 'latent', row: i },
      { matrix: 'kv_norm', col: c },
    ],
  };
}

/** A pair of a rope part turned by θ: the cell `target` from numbers xa, xb (`first`: the pair's first number). */
function rotationLines(ctx, { figure, row, col, target, xa, xb, angle, first, params }) {
  const { num, cell } = reader(ctx);
  const cos = num(Math.cos(angle.value), derived('cos', angle.fact));
  const sin = num(Math.sin(angle.value), derived('sin', angle.fact));
  const f1 = derived('product', xa.fact, first ? cos.fact : sin.fact);
  const f2 = derived('product', xb.fact, first ? sin.fact : cos.fact);
  const out = first
    ? num(xa.value * cos.value - xb.value * sin.value, derived('difference', f1, f2))
    : num(xa.value * sin.value + xb.value * cos.value, derived('sum', f1, f2));
  const claims = [{ claim: 'equal', of: [out.fact, cellFact(...target)] }];
  return [
    headLine(figure, row, col, cell(...target)),
    say(ctx.t, 'explain.mla.rope', { ...params, angle }),
    first
      ? formula`${xa}·cos(${angle}) − ${xb}·sin(${angle}) = ${xa}·${cos} − ${xb}·${sin}`
      : formula`${xa}·sin(${angle}) + ${xb}·cos(${angle}) = ${xa}·${sin} + ${xb}·${cos}`,
    restyled(formula`= ${out}`, 'result', { claims }),
  ];
}

// Q_pe_rope_h: number c of head h's rope part, from Q's columns h·qk + n + (the pair's numbers).
function explainQueryRope(figure, i, c, ctx) {
  const { b, h, rs } = ctx;
  const { cell } = reader(ctx);
  const { n, r, qk } = sizesOf(ctx);
  const {
    i: pair,
    pair: [a, bb],
  } = ropePairOf(c, r, rs.rope);
  const base = h * qk + n;
  return {
    lines: rotationLines(ctx, {
      figure,
      row: qLabel(ctx, i),
      col: d(h * r + c),
      target: ['Q_pe_rope', b, i, h * r + c],
      xa: cell('Q', b, i, base + a),
      xb: cell('Q', b, i, base + bb),
      angle: cell('ropeAngles', i, pair),
      first: c === a,
      params: { x: 'Q', a: d(base + a), b: d(base + bb), m: indexQuote(i, 'S') },
    }),
    highlight: [
      { matrix: 'ropeAngles', row: i, col: pair },
      { matrix: 'Q', row: i },
    ],
  };
}

// K_pe_rope (and the cache's copy): number c of the shared key part, from K_pe's pair.
function explainKeyRope(figure, i, c, ctx) {
  const { b, rs } = ctx;
  const { cell } = reader(ctx);
  const { r } = sizesOf(ctx);
  const {
    i: pair,
    pair: [a, bb],
  } = ropePairOf(c, r, rs.rope);
  return {
    lines: rotationLines(ctx, {
      figure,
      row: kLabel(ctx, i),
      col: d(c),
      target: ['K_pe_rope', b, i, c],
      xa: cell('K_pe', b, i, a),
      xb: cell('K_pe', b, i, bb),
      angle: cell('ropeAngles', i, pair),
      first: c === a,
      params: { x: 'K_pe', a: d(a), b: d(bb), m: indexQuote(i, 'S') },
    }),
    highlight: [
      { matrix: 'ropeAngles', row: i, col: pair },
      { matrix: 'K_pe_before_rope', row: i },
    ],
  };
}

// θ[m, i] = m · base^(−2i/r): the angles run over the rope part's r numbers.
function explainRopeAngle(figure, m, i, ctx) {
  const { r } = sizesOf(ctx);
  return ropeAngleLines(m, i, ctx, {
    widthQuote: whole(r, widthOf('K_pe_rope')),
    pairOf: 'd_rope/2',
    freqFact: { value: 'ropeFrequency', i, width: r },
    key: 'explain.mla.ropeAngle',
    widthParam: 'r',
  });
}

// A head's key or value on the naive path, from the cached latent: c · W_UK or c · W_UV, head h's columns.
const expanded = (name, weight, width) => (figure, i, c, ctx) => {
  const { t, b, h } = ctx;
  const { cell } = reader(ctx);
  const sizes = sizesOf(ctx);
  const { qk, n } = sizes;
  const w = sizes[width];
  const stride = name === 'K' ? qk : w;
  // The key's rope part: the shared K_pe_rope, the same number in every head.
  if (name === 'K' && c >= n) {
    const value = cell('K', b, i, h * qk + c);
    const claims = [{ claim: 'same', of: [value.fact, cellFact('K_pe_rope', b, i, c - n)] }];
    return {
      lines: [
        headLine(figure, kLabel(ctx, i), d(h * qk + c), value),
        say(t, 'explain.mla.keyRope', { h: headQuote(h), c: d(c - n) }, { claims }),
      ],
      highlight: [{ matrix: 'K_pe_rope', row: i, col: c - n }],
    };
  }
  const column = h * w + c;
  return {
    lines: dotLines(ctx, {
      figure,
      row: kLabel(ctx, i),
      col: d(h * stride + c),
      target: [name, b, i, h * stride + c],
      n: sizes.kv,
      count: widthOf('latentNorm'),
      x: (m) => cell('latentNorm', b, i, m),
      w: (m) => cell(weight, m, column),
      sentence: say(t, 'explain.mla.expand', { name, h: headQuote(h), i: kLabel(ctx, i), w: weight, c: d(column) }),
    }),
    highlight: [
      { matrix: 'latentNorm', row: i },
      { matrix: weight, col: column },
    ],
  };
};

// Q_absorbed_h[i, c] = Σ_j q_nope[i, j] · W_UK[c, h·n + j]: W_UK moved to the query side.
function explainAbsorbedQuery(figure, i, c, ctx) {
  const { t, b, h } = ctx;
  const { cell } = reader(ctx);
  const { kv, n, qk } = sizesOf(ctx);
  return {
    lines: dotLines(ctx, {
      figure,
      row: qLabel(ctx, i),
      col: d(h * kv + c),
      target: ['Q_absorbed', b, i, h * kv + c],
      n,
      count: { setting: 'mla.nopeDim' },
      x: (j) => cell('Q', b, i, h * qk + j),
      w: (j) => cell('W_UK', c, h * n + j),
      sentence: say(t, 'explain.mla.absorbQuery', { h: headQuote(h), i: qLabel(ctx, i), c: d(c) }),
    }),
    highlight: [
      { matrix: 'Q', row: i },
      { matrix: 'W_UK', row: c },
    ],
  };
}

// A path's score of query i against key j, head h: naive q·k over qk numbers, or absorbed Q_absorbed·c + q_pe·k_pe.
function explainPathScore(figure, i, j, ctx) {
  const { t, b, h } = ctx;
  const { num, cell } = reader(ctx);
  const { kv, n, r, qk } = sizesOf(ctx);
  const absorbed = pathScores(ctx).absorbed === figure;
  const head = headLine(figure, qLabel(ctx, i), kLabel(ctx, j), cell(figure, b, h, i, j));
  const target = cellFact(figure, b, h, i, j);
  if (!absorbed) {
    const q = (k) => (k < n ? cell('Q', b, i, h * qk + k) : cell('Q_pe_rope', b, i, h * r + k - n));
    const { items, sum } = productTerms(qk, q, (k) => cell('K', b, j, h * qk + k), ctx);
    return {
      lines: [
        head,
        say(t, 'explain.mla.naiveScore', { h: headQuote(h), i: qLabel(ctx, i), j: kLabel(ctx, j) }),
        termList(items, { size: 'd_k' }, t),
        sumLine(sum, null, target, ctx),
      ],
      highlight: [{ matrix: 'K_h', row: j }],
    };
  }
  const latent = productTerms(
    kv,
    (m) => cell('Q_absorbed', b, i, h * kv + m),
    (m) => cell('latentNorm', b, j, m),
    ctx,
  );
  const rope = productTerms(
    r,
    (m) => cell('Q_pe_rope', b, i, h * r + m),
    (m) => cell('K_pe_rope', b, j, m),
    ctx,
  );
  const total = num(latent.sum.value + rope.sum.value, derived('sum', latent.sum.fact, rope.sum.fact));
  return {
    lines: [
      head,
      say(t, 'explain.mla.absorbedScore', { h: headQuote(h), i: qLabel(ctx, i), j: kLabel(ctx, j) }),
      termList(latent.items, widthOf('latentNorm'), t),
      formula`Σ₁ = ${latent.sum}`,
      termList(rope.items, widthOf('K_pe_rope'), t),
      formula`Σ₂ = ${rope.sum}`,
      restyled(formula`Σ₁ + Σ₂ = ${latent.sum} + ${rope.sum} = ${total}`, 'result', {
        claims: [{ claim: 'equal', of: [total.fact, target] }],
      }),
    ],
    highlight: [{ matrix: 'Q_absorbed_h', row: i }],
  };
}

// scaled = scores · (n + r) ** -0.5: the chosen path's scores times the softmax scale.
function explainScaled(figure, i, j, ctx) {
  const { t, result, b, h } = ctx;
  const { num, cell } = reader(ctx);
  const scores = cell('scores', b, h, i, j);
  const factor = compact(result.scaleFactor, { value: 'scaleFactor' });
  const scaled = num(scores.value * result.scaleFactor, derived('product', scores.fact, factor.fact));
  return {
    lines: [
      headLine('scaled', qLabel(ctx, i), kLabel(ctx, j), cell('scaled', b, h, i, j)),
      restyled(formula`${scores} × ${factor} = ${scaled}`, 'result', {
        claims: [{ claim: 'equal', of: [scaled.fact, cellFact('scaled', b, h, i, j)] }],
      }),
      say(t, 'explain.mla.scale', { qk: whole(sizesOf(ctx).qk, { size: 'd_k' }) }),
    ],
    highlight: [{ matrix: 'scores', row: i, col: j }],
  };
}

// context on the absorbed path: Σ_m latentContext[i, h·c + m] · W_UV[m, h·vd + col], latentContext = Σ_t w·c_t.
function explainContextOfPath(figure, i, c, ctx) {
  const { vd, kv } = sizesOf(ctx);
  if (!ctx.rs.mla.absorb) return explainContext(figure, i, c, { ...ctx, dk: vd });
  const { t, b, h } = ctx;
  const { cell } = reader(ctx);
  return {
    lines: dotLines(ctx, {
      figure: 'context',
      row: qLabel(ctx, i),
      col: d(c),
      target: ['context', b, h, i, c],
      n: kv,
      count: widthOf('latentNorm'),
      x: (m) => cell('latentContext', b, i, h * kv + m),
      w: (m) => cell('W_UV', m, h * vd + c),
      sentence: say(t, 'explain.mla.absorbedContext', { h: headQuote(h), i: qLabel(ctx, i), c: d(c) }),
    }),
    highlight: [{ matrix: 'W_UV', col: h * vd + c }],
  };
}

// The cache's figures: the same numbers as latentNorm and K_pe_rope, what a decoding model keeps per token.
const cached = (name) => (figure, i, c, ctx) => {
  if (name === 'K_pe_rope') return explainKeyRope(figure, i, c, ctx);
  return explainLatentNorm(figure, i, c, ctx);
};

// Where each of MLA's weights comes from in model.py, and what it multiplies.
const WEIGHT_SOURCE = {
  W_Q: (i, j) => `wq.weight[${j},${i}]`,
  W_DKV: (i, j) => `wkv_a.weight[${j},${i}]`,
  W_KR: (i, j, s) => `wkv_a.weight[${s.kv + j},${i}]`,
  W_UK: (i, j, s) => `wkv_b.weight[${Math.floor(j / s.n) * (s.n + s.vd) + (j % s.n)},${i}]`,
  W_UV: (i, j, s) => `wkv_b.weight[${Math.floor(j / s.vd) * (s.n + s.vd) + s.n + (j % s.vd)},${i}]`,
  W_O: (i, j) => `wo.weight[${j},${i}]`,
};
const ROLE = {
  W_Q: ['X', 'Q'],
  W_DKV: ['X', 'latent'],
  W_KR: ['X', 'K_pe'],
  W_UK: ['latentNorm', 'K'],
  W_UV: ['latentNorm', 'V'],
  W_O: ['concat', 'output'],
};

function explainMlaWeight(name, i, j, ctx) {
  const { t } = ctx;
  const { cell } = reader(ctx);
  if (name === 'kv_norm') {
    const value = cell(name, j);
    const lines = [formula`kv_norm[${d(j)}] = ${value}`, say(t, 'explain.mla.kvNorm', { j: d(j) })];
    if (ctx.edited?.(name, 0, j)) lines.push(say(t, 'explain.edited'));
    return { lines, highlight: [{ matrix: 'latentNorm', col: j }] };
  }
  const value = cell(name, i, j);
  const [input, out] = ROLE[name];
  const lines = [
    formula`${name}[d${i},d${j}] = ${value}`,
    formula`= ${WEIGHT_SOURCE[name](i, j, sizesOf(ctx))}`,
    say(t, 'explain.mla.weight'),
    say(t, 'explain.W.role', { i: `d${i}`, j: `d${j}`, x: input, out }),
  ];
  if (ctx.weightsGiven) lines.push(say(t, 'explain.W.given'));
  if (ctx.edited?.(name, i, j)) lines.push(say(t, 'explain.edited'));
  return { lines, highlight: [{ matrix: input, col: i }] };
}

/** MLA's explainers by figure name (cells.js tries these first when the run has MLA). */
export const MLA_EXPLAIN = {
  Q: (step, i, j, ctx) => explainProjection('Q', i, j, ctx),
  latent: projection('latent', 'DKV'),
  K_pe: projection('K_pe', 'KR'),
  K_pe_before_rope: projection('K_pe', 'KR'),
  latentNorm: explainLatentNorm,
  latentNorm_cache: cached('latentNorm'),
  ropeAngles: explainRopeAngle,
  Q_pe_rope_h: explainQueryRope,
  K_pe_rope: explainKeyRope,
  K_pe_rope_cache: cached('K_pe_rope'),
  K_h: expanded('K', 'W_UK', 'n'),
  V_h: expanded('V', 'W_UV', 'vd'),
  Q_absorbed_h: explainAbsorbedQuery,
  scores: explainPathScore,
  otherPathScores: explainPathScore,
  scaled: explainScaled,
  context: explainContextOfPath,
  concat: (step, i, c, ctx) => explainConcat(step, i, c, { ...ctx, dk: sizesOf(ctx).vd }),
  output: explainOutput,
  ...Object.fromEntries(
    ['W_Q', 'W_DKV', 'W_KR', 'W_UK', 'W_UV', 'W_O', 'kv_norm'].map((name) => [name, explainMlaWeight]),
  ),
};
