// "How this number is computed" for differential attention (steps "diffmaps", "diffweights", "diffnorm"):
// a map's masked score as (q_s·d^−½)·k_s, its weight as a softmax of that row, A as A₁ − λ·A₂, what the
// subtraction removes, and the head output as RMSNorm(context)·subln·(1 − λ_init).
import { compact, constant, formula, restyled, say } from '../../model/words.js';
import { maskBlocks } from '../../model/run-settings.js';
import { lambdaInitOf } from '../../model/variant-math.js';
import { cellFact, d, derived, headLine, reader, termList } from './lines.js';
import { kLabel, qLabel } from './names.js';
import { productTerms } from './input-cells.js';
import { softmaxTerms } from './softmax-cells.js';
import { mapFigureName, mapOfFigure } from '../figures/figure-names.js';

/** λ·A₂ at (i, j) of head h, in float32 as the engine takes it off map 1: {lambda, second, product}, quoted. */
function removedAt(ctx, i, j) {
  const { num, cell } = reader(ctx);
  const second = cell('halfWeights', ctx.b, 2 * ctx.h + 1, i, j);
  const lambda = cell('lambdaFull');
  const product = num(Math.fround(lambda.value * second.value), derived('product', lambda.fact, second.fact));
  return { lambda, second, product };
}

// halfMasked_s: the mask over (q_s · d^−½) · k_s, the d products of half-head 2h + s.
function explainHalfMasked(step, i, j, ctx) {
  const { t, rs, b, h, dk } = ctx;
  const { num, cell, value } = reader(ctx);
  const { s } = mapOfFigure(step);
  const half = dk / 2;
  const at = 2 * h + s;
  const masked = cell('halfMasked', b, at, i, j);
  const lines = [headLine('halfMasked', qLabel(ctx, i), kLabel(ctx, j), masked)];
  const blocked = maskBlocks(value('mask', b, i, j), rs.maskConvention);
  const claims = [{ claim: 'masks', b, i, j, blocked }];
  if (blocked && rs.maskConvention !== 'additive') {
    lines.push(say(t, 'explain.masked.blocked', { fill: compact(rs.fill, { setting: 'maskFill' }) }, { claims }));
    return { lines, highlight: [{ matrix: 'mask', row: i, col: j }] };
  }
  const scale = num(1 / Math.sqrt(half), derived('quotient', { constant: 1 }, derived('sqrt', { size: 'd_k/2' })));
  const column = (k) => h * dk + s * half + k;
  const { items, sum } = productTerms(
    half,
    (k) => {
      const q = cell('Q', b, i, column(k));
      return num(Math.fround(q.value * scale.value), derived('product', q.fact, scale.fact));
    },
    (k) => cell('K', b, j, column(k)),
    ctx,
    (k) => `${d(column(k))}: `,
  );
  lines.push(
    say(t, 'explain.diff.score', { s: constant(s + 1), scale }, { kind: 'formula' }),
    termList(items, { size: 'd_k/2' }, t),
    restyled(formula`Σ = ${sum}`, 'result', {
      claims: [{ claim: 'equal', of: [sum.fact, cellFact('halfScaled', b, at, i, j)] }],
    }),
  );
  if (rs.maskConvention === 'additive') {
    const mask = cell('mask', b, i, j);
    const total = num(sum.value + mask.value, derived('sum', sum.fact, mask.fact));
    lines.push(
      restyled(formula`+ M = ${total}`, 'result', {
        claims: [...claims, { claim: 'equal', of: [total.fact, masked.fact] }],
      }),
    );
  }
  return { lines, highlight: [{ matrix: 'Q', row: i }] };
}

// halfWeights_s: the softmax of row i of map s.
function explainHalfWeight(step, i, j, ctx) {
  const { t, b, h } = ctx;
  const { s } = mapOfFigure(step);
  const at = 2 * h + s;
  const weight = reader(ctx).cell('halfWeights', b, at, i, j);
  const terms = softmaxTerms(i, ctx, { masked: 'halfMasked', head: at });
  const ratio = derived('quotient', terms.exps[j].fact, terms.total.fact);
  return {
    lines: [
      headLine('halfWeights', qLabel(ctx, i), kLabel(ctx, j), weight),
      say(t, 'explain.diff.softmax', { s: constant(s + 1), i: qLabel(ctx, i), j: kLabel(ctx, j) }, { kind: 'formula' }),
      termList(terms.items, { size: 'S_kv' }, t),
      restyled(formula`Σ exp = ${terms.total};  ${terms.exps[j]} / ${terms.total} = ${weight}`, 'result', {
        math: true,
        claims: [{ claim: 'equal', of: [ratio, weight.fact] }],
      }),
    ],
    highlight: [{ matrix: mapFigureName('halfMasked', s), row: i }],
  };
}

// weights (A): map 1's weight minus λ times map 2's.
function explainDiffWeight(step, i, j, ctx) {
  const { t, b, h } = ctx;
  const { num, cell } = reader(ctx);
  const first = cell('halfWeights', b, 2 * h, i, j);
  const { lambda, second, product } = removedAt(ctx, i, j);
  const weight = cell('weights', b, h, i, j);
  const fact = derived('difference', first.fact, product.fact);
  return {
    lines: [
      headLine('weights', qLabel(ctx, i), kLabel(ctx, j), weight),
      restyled(
        formula`A₁ − λ × A₂ = ${first} − ${lambda} × ${second} = ${num(first.value - product.value, fact)}`,
        'result',
        {
          claims: [{ claim: 'equal', of: [fact, weight.fact] }],
        },
      ),
      say(t, 'explain.diff.weight', { i: qLabel(ctx, i), j: kLabel(ctx, j) }),
    ],
    highlight: [
      { matrix: mapFigureName('halfWeights', 0), row: i, col: j },
      { matrix: mapFigureName('halfWeights', 1), row: i, col: j },
    ],
  };
}

// diffNoise: λ · A₂, what the subtraction takes off map 1.
function explainNoise(step, i, j, ctx) {
  const { lambda, second, product } = removedAt(ctx, i, j);
  return {
    lines: [
      restyled(formula`λ × A₂[${qLabel(ctx, i)},${kLabel(ctx, j)}] = ${lambda} × ${second} = ${product}`, 'result'),
      say(ctx.t, 'explain.diff.noise', { j: kLabel(ctx, j) }),
    ],
    highlight: [{ matrix: mapFigureName('halfWeights', 1), row: i, col: j }],
  };
}

// contextNorm and contextScaled: RMSNorm of the context row, subln, then 1 − λ_init.
function explainHeadNorm(step, i, c, ctx) {
  const { t, rs, b, h, dk } = ctx;
  const { num, cell } = reader(ctx);
  const row = Array.from({ length: dk }, (_, k) => cell('context', b, h, i, k));
  const squares = row.map((x) => num(x.value * x.value, derived('square', x.fact)));
  const mean = num(
    squares.reduce((a, x) => a + x.value, 0) / dk,
    derived('quotient', derived('sum', ...squares.map((x) => x.fact)), { size: 'd_k' }),
  );
  const eps = constant(1e-5, '1e-5');
  const rms = num(Math.sqrt(mean.value + 1e-5), derived('sqrt', derived('sum', mean.fact, eps.fact)));
  const weight = cell('subln', c);
  const normed = cell('contextNorm', b, h, i, c);
  const normFact = derived('product', derived('quotient', row[c].fact, rms.fact), weight.fact);
  const lines = [
    headLine(step, qLabel(ctx, i), d(c), cell(step, b, h, i, c)),
    restyled(formula`√(mean(context²) + ${eps}) = √(${mean} + ${eps}) = ${rms}`, 'result', { math: true }),
    restyled(
      formula`${row[c]} / ${rms} × ${weight} = ${num((row[c].value / rms.value) * weight.value, normFact)}`,
      'result',
      {
        claims: [{ claim: 'equal', of: [normFact, normed.fact] }],
      },
    ),
  ];
  if (step === 'contextScaled') {
    const init = num(lambdaInitOf(rs.diffDepth), { value: 'lambdaInit' });
    const factor = num(1 - init.value, derived('difference', { constant: 1 }, init.fact));
    const fact = derived('product', normed.fact, factor.fact);
    lines.push(
      restyled(
        formula`× (${constant(1)} − λ_init) = ${normed} × ${factor} = ${num(normed.value * factor.value, fact)}`,
        'result',
        {
          claims: [{ claim: 'equal', of: [fact, cellFact('contextScaled', b, h, i, c)] }],
        },
      ),
    );
  }
  lines.push(say(t, 'explain.diff.norm', { i: qLabel(ctx, i) }));
  return { lines, highlight: [{ matrix: 'context', row: i }] };
}

/** The explainers by figure name. */
export const DIFF_EXPLAIN = {
  ...Object.fromEntries([0, 1].map((s) => [mapFigureName('halfMasked', s), explainHalfMasked])),
  ...Object.fromEntries([0, 1].map((s) => [mapFigureName('halfWeights', s), explainHalfWeight])),
  diffNoise: explainNoise,
  contextNorm: explainHeadNorm,
  contextScaled: explainHeadNorm,
  diffWeights: explainDiffWeight,
};
