// "How this number is computed" for the softmax and what follows it: a
// weight as exp(s − max) / Σ exp, the sink's share, the average over heads,
// and dropout's keep mask and dropped weights.
import { compact, constant, formula, restyled, say, whole } from '../../model/words.js';
import { maskBlocks, sinkLogitFact, sinkLogitQuote } from '../../model/run-settings.js';
import { UNKNOWN } from '../../model/dropout.js';
import { cellFact, derived, headLine, reader, termList } from './lines.js';
import { headQuote, kLabel, qLabel } from './names.js';

// Row i of the softmax: its terms exp(s − max) → weight, each a sentence, and the figures they share.
// `masked` at head index `head`: the masked scores of head h, or a differential attention map (halfMasked 2h + s).
export function softmaxTerms(i, ctx, { masked = 'masked', head = ctx.h } = {}) {
  const { t, rs, b, h, Skv } = ctx;
  const T = ctx.result.tensors;
  const { num, cell, value } = reader(ctx);
  const row = Array.from({ length: Skv }, (_, jj) => cell(masked, b, head, i, jj));
  const sink = T.sinkWeights ? num(rs.sinkLogits[h], sinkLogitFact(rs, h)) : null;
  const logits = sink ? [...row, sink] : row;
  const top = num(Math.max(...logits.map((x) => x.value).filter((v) => !Number.isNaN(v))), {
    value: 'max',
    of: logits.map((x) => x.fact),
  });
  const exps = logits.map((x) =>
    num(Math.exp(x.value - top.value), derived('exp', derived('difference', x.fact, top.fact))),
  );
  const total = num(
    exps.reduce((a, e) => a + e.value, 0),
    derived('sum', ...exps.map((e) => e.fact)),
  );
  const share = (e) => num(e.value / total.value, derived('quotient', e.fact, total.fact));
  const blocked = (jj) => maskBlocks(value('mask', b, i, jj), rs.maskConvention);
  const items = row.map((x, jj) =>
    blocked(jj)
      ? formula`${kLabel(ctx, jj)}: exp(${x} − ${top}) = ${exps[jj]} → ${share(exps[jj])} (${say(t, 'explain.masked', {}, { claims: [{ claim: 'masks', b, i, j: jj, blocked: true }] })})`
      : formula`${kLabel(ctx, jj)}: exp(${x} − ${top}) = ${exps[jj]} → ${share(exps[jj])}`,
  );
  if (sink) items.push(formula`${say(t, 'sink.column')}: exp(${sink} − ${top}) = ${exps[Skv]} → ${share(exps[Skv])}`);
  return { row, sink, items, exps, total, blocked };
}

export function explainWeight(step, i, j, ctx) {
  const { t, rs, b, h, Skv } = ctx;
  const { num, cell } = reader(ctx);
  const weight = cell('weights', b, h, i, j);
  const lines = [headLine('weights', qLabel(ctx, i), kLabel(ctx, j), weight)];
  const highlight = [{ matrix: 'masked', row: i }];
  const s = softmaxTerms(i, ctx);
  const values = s.row.map((x) => x.value);
  if (!s.sink && values.every((v) => v === -Infinity)) {
    lines.push(say(t, 'explain.weights.nan', {}, { claims: [{ claim: 'rowMinusInfinity', b, h, i }] }));
    return { lines, highlight };
  }
  if (values.some((v) => v === Infinity || Number.isNaN(v))) {
    lines.push(say(t, 'explain.weights.overflow', {}, { claims: [{ claim: 'rowOverflow', b, h, i }] }));
    return { lines, highlight };
  }
  const weights = Array.from({ length: Skv }, (_, jj) => cell('weights', b, h, i, jj));
  const rowSum = num(
    weights.reduce((a, w) => a + w.value, 0),
    derived('sum', ...weights.map((w) => w.fact)),
  );
  const count = s.sink ? derived('sum', { size: 'S_kv' }, { constant: 1 }) : { size: 'S_kv' };
  const ratio = derived('quotient', s.exps[j].fact, s.total.fact);
  lines.push(
    say(t, 'explain.softmax', { i: qLabel(ctx, i), j: kLabel(ctx, j) }, { kind: 'formula' }),
    termList(s.items, count, t),
    restyled(formula`Σ exp = ${s.total};  ${s.exps[j]} / ${s.total} = ${weight}`, 'result', {
      math: true,
      claims: [{ claim: 'equal', of: [ratio, weight.fact] }],
    }),
    say(t, 'explain.sum', { sum: rowSum }, { kind: 'result' }),
  );
  if (s.sink) lines.push(say(t, 'explain.softmax.sink', { logit: sinkLogitQuote(rs, h) }));
  if (rs.mask !== 'none' && Number.isFinite(rs.fill) && values.every((v, jj) => s.blocked(jj))) {
    const claims = [
      { claim: 'rowBlocked', b, i },
      { claim: 'equalWeights', b, h, i },
    ];
    const fill = compact(rs.fill, { setting: 'maskFill' });
    lines.push(say(t, 'explain.weights.allFilled', { fill, n: whole(Skv, { size: 'S_kv' }) }, { claims }));
  }
  return { lines, highlight };
}

// The sink column beside the weights: (i, 0) the sink's weight, (i, 1) the sum of row i's weights.
export function explainSink(step, i, col, ctx) {
  const { t, rs, b, h, Skv } = ctx;
  const { num, cell } = reader(ctx);
  const weights = Array.from({ length: Skv }, (_, jj) => cell('weights', b, h, i, jj));
  const sum = num(
    weights.reduce((a, w) => a + w.value, 0),
    derived('sum', ...weights.map((w) => w.fact)),
  );
  const sink = cell('sinkWeights', b, h, i);
  const rest = num(1 - sink.value, derived('difference', { constant: 1 }, sink.fact));
  const lines =
    col === 0
      ? [
          headLine('sinkWeights', null, qLabel(ctx, i), sink),
          say(t, 'explain.sink', { i: qLabel(ctx, i) }),
          say(t, 'explain.softmax.sink', { logit: sinkLogitQuote(rs, h) }),
        ]
      : [
          formula`Σ_j weights[${qLabel(ctx, i)}, j] = ${sum}`,
          restyled(formula`${constant(1)} − ${sink} = ${rest}`, 'result', {
            claims: [{ claim: 'equal', of: [rest.fact, sum.fact] }],
          }),
        ];
  return { lines, highlight: [{ matrix: 'weights', row: i }] };
}

export function explainAveraged(step, i, j, ctx) {
  const { t, rs, H, b } = ctx;
  const { num, cell } = reader(ctx);
  // nn.MultiheadAttention (PyTorch 1.13) averages the weights it used: after dropout.
  const source = rs.p > 0 ? 'dropped' : 'weights';
  const heads = Array.from({ length: H }, (_, h) => cell(source, b, h, i, j));
  const sum = num(
    heads.reduce((a, w) => a + w.value, 0),
    derived('sum', ...heads.map((w) => w.fact)),
  );
  const size = whole(H, { size: 'H' });
  const mean = num(sum.value / H, derived('quotient', sum.fact, size.fact));
  const fact = ctx.result.tensors.averagedWeights ? cellFact('averagedWeights', b, i, j) : mean.fact;
  const items = heads.map((w, h) => formula`${say(t, 'view.head', { h: headQuote(h) })}: ${w}`);
  return {
    lines: [
      headLine('averagedWeights', qLabel(ctx, i), kLabel(ctx, j), num(ctx.averaged[i * ctx.Skv + j], fact)),
      say(t, rs.p > 0 ? 'explain.averaged.dropout' : 'explain.averaged', { H: size }),
      termList(items, { size: 'H' }, t),
      restyled(formula`Σ / ${size} = ${sum} / ${size} = ${mean}`, 'result', {
        claims: [{ claim: 'equal', of: [mean.fact, fact] }],
      }),
    ],
    highlight: [],
  };
}

/** The words for a weight that was 0 before dropout: those for a masked key, or for one softmax gave 0. */
const zeroWeightKey = (ctx, i, j, masked, softmax) => (ctx.blocked(i, j) ? masked : softmax);

/** Dropout's m for weight (i, j) of head h: 1 kept, 0 zeroed, UNKNOWN for a weight that was 0 already. */
const keepOf = (ctx, i, j) => ctx.dropout.keep[i * ctx.Skv + j];

export function explainKeep(step, i, j, ctx) {
  const { t, rs, dropout, b, h } = ctx;
  const m = keepOf(ctx, i, j);
  const nan = m === UNKNOWN && Number.isNaN(reader(ctx).value('weights', b, h, i, j));
  const state = nan ? 'nan' : m === UNKNOWN ? 'zeroWeight' : m ? 'kept' : 'zeroed';
  const key = nan
    ? 'explain.keep.nan'
    : m === UNKNOWN
      ? zeroWeightKey(ctx, i, j, 'explain.keep.unknown', 'explain.keep.unknown.softmax')
      : m
        ? 'explain.keep.kept'
        : 'explain.keep.zeroed';
  const shown = m === UNKNOWN ? '–' : whole(m, { value: 'keep', b, h, i, j });
  const p = compact(rs.p, { setting: 'dropout.p' });
  const factor = compact(dropout.factor, { value: 'dropoutFactor' });
  const params = m === UNKNOWN ? {} : m ? { factor } : { p };
  return {
    lines: [
      formula`keep[${qLabel(ctx, i)},${kLabel(ctx, j)}] = ${shown}`,
      say(t, key, params, { claims: [{ claim: 'dropout', b, h, i, j, state }] }),
    ],
    highlight: [{ matrix: 'dropped', row: i, col: j }],
  };
}

export function explainDropped(step, i, j, ctx) {
  const { t, rs, dropout, b, h } = ctx;
  const { num, cell } = reader(ctx);
  const w = cell('weights', b, h, i, j);
  const value = cell('dropped', b, h, i, j);
  const m = keepOf(ctx, i, j);
  const lines = [headLine('dropped', qLabel(ctx, i), kLabel(ctx, j), value)];
  const claim = (state) => ({ claims: [{ claim: 'dropout', b, h, i, j, state }] });
  if (Number.isNaN(w.value)) lines.push(say(t, 'explain.dropped.nan', {}, claim('nan')));
  else if (m === UNKNOWN)
    lines.push(
      say(
        t,
        zeroWeightKey(ctx, i, j, 'explain.dropped.zeroWeight', 'explain.dropped.zeroWeight.softmax'),
        {},
        claim('zeroWeight'),
      ),
    );
  else if (m) {
    const p = compact(rs.p, { setting: 'dropout.p' });
    const factor = compact(dropout.factor, { value: 'dropoutFactor' });
    const scaled = num(w.value * dropout.factor, derived('product', w.fact, factor.fact));
    lines.push(
      restyled(formula`${w} × ${constant(1)}/(${constant(1)} − ${p}) = ${w} × ${factor} = ${value}`, 'result', {
        claims: [{ claim: 'equal', of: [scaled.fact, value.fact] }],
      }),
      say(t, 'explain.dropped.kept', {}, claim('kept')),
    );
  } else {
    const zero = whole(0, value.fact);
    lines.push(
      restyled(formula`${w} × ${whole(0, { value: 'keep', b, h, i, j })} = ${zero}`, 'result'),
      say(t, 'explain.dropped.zeroed', { p: compact(rs.p, { setting: 'dropout.p' }) }, claim('zeroed')),
    );
  }
  return {
    lines,
    highlight: [
      { matrix: 'weights', row: i, col: j },
      { matrix: 'keep', row: i, col: j },
    ],
  };
}
