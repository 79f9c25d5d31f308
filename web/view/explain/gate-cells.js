// "How this number is computed" for the output gate (step "gate"): a gate as the sigmoid of X's row
// times W_G's column, and a gated number as the joined heads' number times its gate.
//   gate = torch.sigmoid(X @ W_G);  gated = concat * gate
import { constant, formula, restyled, say } from '../../model/words.js';
import { cellFact, d, derived, headLine, reader, termList } from './lines.js';
import { qLabel } from './names.js';
import { productTerms, sumLine } from './input-cells.js';

export function explainGate(step, i, c, ctx) {
  const { t, b, D } = ctx;
  const { num, cell } = reader(ctx);
  const { items, sum } = productTerms(
    D,
    (k) => cell('X', b, i, k),
    (k) => cell('W_G', k, c),
    ctx,
  );
  const logit = cell('gateLogits', b, i, c);
  const fact = derived('sigmoid', logit.fact);
  const gate = num(1 / (1 + Math.exp(-logit.value)), fact);
  const negated = num(-logit.value, derived('negate', logit.fact));
  return {
    lines: [
      headLine('gate', qLabel(ctx, i), d(c), cell('gate', b, i, c)),
      say(t, 'explain.gate', { i: qLabel(ctx, i), c: d(c) }, { kind: 'formula' }),
      termList(items, { size: 'D' }, t),
      sumLine(sum, null, logit.fact, ctx),
      restyled(formula`σ(${logit}) = ${constant(1)} / (${constant(1)} + exp(${negated})) = ${gate}`, 'result', {
        claims: [{ claim: 'equal', of: [fact, cellFact('gate', b, i, c)] }],
      }),
    ],
    highlight: [{ matrix: 'W_G', col: c }],
  };
}

export function explainGated(step, i, c, ctx) {
  const { t, b } = ctx;
  const { num, cell } = reader(ctx);
  const concat = cell('concat', b, i, c);
  const gate = cell('gate', b, i, c);
  const fact = derived('product', concat.fact, gate.fact);
  return {
    lines: [
      headLine('gated', qLabel(ctx, i), d(c), cell('gated', b, i, c)),
      restyled(formula`${concat} × ${gate} = ${num(concat.value * gate.value, fact)}`, 'result', {
        claims: [{ claim: 'equal', of: [fact, cellFact('gated', b, i, c)] }],
      }),
      say(t, 'explain.gated', { i: qLabel(ctx, i), c: d(c) }),
    ],
    highlight: [
      { matrix: 'concat', row: i, col: c },
      { matrix: 'gate', row: i, col: c },
    ],
  };
}
