// "How this number is computed" for the attention's output: a head's
// context as the weighted sum of the values, the heads side by side
// (concat), and the output projection.
import { say } from '../../model/words.js';
import { cellFact, d, headLine, reader, termList } from './lines.js';
import { headQuote, kLabel, kvHead, qLabel } from './names.js';
import { productTerms, sumLine } from './input-cells.js';

export function explainContext(step, i, c, ctx) {
  const { t, b, h, Skv, dk } = ctx;
  const { cell } = reader(ctx);
  const vColumn = kvHead(ctx) * dk + c; // V of the K/V head head h reads
  const { items, sum } = productTerms(
    Skv,
    (jj) => cell('dropped', b, h, i, jj),
    (jj) => cell('V', b, jj, vColumn),
    ctx,
    (jj) => `${kLabel(ctx, jj)}: `,
  );
  return {
    lines: [
      headLine('context', qLabel(ctx, i), d(c), cell('context', b, h, i, c)),
      say(t, 'explain.weighted', { i: qLabel(ctx, i), c: d(c) }, { kind: 'formula' }),
      termList(items, { size: 'S_kv' }, t),
      sumLine(sum, null, cellFact('context', b, h, i, c), ctx),
    ],
    highlight: [
      { matrix: ctx.rs.p > 0 ? 'dropped' : 'weights', row: i },
      { matrix: 'V_h', col: vColumn },
    ],
  };
}

export function explainConcat(step, i, c, ctx) {
  const { t, dk, H, b } = ctx;
  const { cell } = reader(ctx);
  const head = Math.floor(c / dk);
  const column = c % dk;
  const value = cell('concat', b, i, c);
  // Differential attention joins the heads' normalized outputs (contextScaled), not their contexts.
  const source = ctx.result.tensors.contextScaled ? 'contextScaled' : 'context';
  const claims = [{ claim: 'same', of: [value.fact, cellFact(source, b, head, i, column)] }];
  const params = {
    h: headQuote(head),
    i: qLabel(ctx, i),
    c: d(column),
    from: d(head * dk),
    to: d(head * dk + dk - 1),
  };
  return {
    lines: [
      headLine('concat', qLabel(ctx, i), d(c), value),
      say(t, source === 'context' ? 'explain.concat' : 'explain.concat.diff', params, { claims }),
    ],
    // The selected head's matrix is on the page: point at its cell.
    highlight: head === ctx.h || H === 1 ? [{ matrix: source, row: i, col: column }] : [],
  };
}

export function explainOutput(step, i, c, ctx) {
  const { t, result, b } = ctx;
  const T = result.tensors;
  const { cell } = reader(ctx);
  const value = cell('output', b, i, c);
  const lines = [headLine('output', qLabel(ctx, i), d(c), value)];
  // What W_O reads: the concat, or the gated concat with the output gate.
  const input = T.gated ? 'gated' : 'concat';
  if (!T.W_O) {
    const claims = [{ claim: 'same', of: [value.fact, cellFact(input, b, i, c)] }];
    lines.push(say(t, 'explain.output.noProj', { input }, { claims }));
    return { lines, highlight: [{ matrix: input, row: i, col: c }] };
  }
  // W_O's rows: D, or MLA's H·valueDim.
  const { items, sum } = productTerms(
    T.W_O.shape[0],
    (k) => cell(input, b, i, k),
    (k) => cell('W_O', k, c),
    ctx,
  );
  const bias = T.b_O ? cell('b_O', c) : null;
  lines.push(
    say(
      t,
      bias ? 'explain.output' : 'explain.output.noBias',
      { i: qLabel(ctx, i), c: d(c), input },
      { kind: 'formula' },
    ),
    termList(items, { shape: ['W_O', 0] }, t),
    sumLine(sum, bias, value.fact, ctx),
  );
  const highlight = [
    { matrix: input, row: i },
    { matrix: 'W_O', col: c },
  ];
  if (bias) highlight.push({ matrix: 'b_O', col: c });
  return { lines, highlight };
}
