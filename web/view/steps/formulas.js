// The formula of each step, written for the settings of the run: only the
// terms that exist (no + b_Q without a Q bias, no W_O without the output
// projection), the actual scale factor, the mask as the mask step shows it.
// Formulas are plain strings with _{…} for subscripts, ^{…} for superscripts
// and «…» for words (the translated prose inside a formula), built here from
// constants and formatted numbers (never from user text), then turned into
// <sub>/<sup> elements and text nodes. A formula is code: the page marks it
// translate="no", all but its words.
import { compactNumber } from '../../model/format.js';

/** '−∞' or the fill number, as a mask fill is written in a formula. */
export const fillText = (fill) => compactNumber(fill);

/** "÷√4 = ×0.5", "÷√8 = ×0.3536", "none: × 1", "× 0.3 (custom)": the factor the scores are multiplied by. */
export function scaleFactorText({ scale, factor, dk, D }, t) {
  const x = compactNumber(factor);
  if (scale === 'head-dim') return t('scale.factor.headDim', { n: dk, factor: x });
  if (scale === 'd-model') return t('scale.factor.dModel', { n: D, factor: x });
  if (scale === 'none') return t('scale.factor.none');
  return t('scale.factor.custom', { factor: x });
}

// s as a formula: "1/√d_{k} = 1/√4 = 0.5", "1/√d_{model} = 1/√8 = 0.3536", or the custom number.
export function scaleValue(scale, { factor, dk, D }) {
  const x = compactNumber(factor);
  if (scale === 'head-dim') return `1/√d_{k} = 1/√${dk} = ${x}`;
  if (scale === 'd-model') return `1/√d_{model} = 1/√${D} = ${x}`;
  return x;
}

/** Whether the run's W_Q, W_K and W_V are identities (torch.eye, unedited) with no bias: Q, K, V are the input. */
export function inputIsQkv(f) {
  const { T, bias = {} } = f;
  if (!T?.W_Q || !T.W_K || !T.W_V || bias.Q || bias.K || bias.V || f.gqa) return false;
  const isEye = ({ shape: [rows, cols], data }) =>
    rows === cols && data.every((x, i) => x === (Math.floor(i / cols) === i % cols ? 1 : 0));
  return isEye(T.W_Q) && isEye(T.W_K) && isEye(T.W_V);
}

/** Head h's query, key or value ('Q', 'K', 'V'): Q_{h}, or the input's own (columns) when the projections are identities. */
export function headTerm(f, which) {
  if (!inputIsQkv(f)) return `${which}_{h}`;
  const x = which === 'Q' || !f.cross ? 'X' : 'X_{ctx}';
  if (f.H > 1) return x === 'X' ? 'X_{h}' : 'X_{ctx,h}';
  return x;
}

// Q_hK_hᵀ for dot-product scores (XXᵀ when Q, K are the input itself); "score" for additive ones.
export const rawScores = (f) => (f.rs.score === 'additive' ? 'score' : `${headTerm(f, 'Q')}${headTerm(f, 'K')}^{⊤}`);

/** The last of scaled, capped and biased the run has: what the mask applies to. */
export const maskInput = (rs) =>
  rs.alibi ? 'biased' : rs.softcap !== null && rs.softcap !== undefined ? 'capped' : 'scaled';

/** Whether a variant changes the scores after scaling (softcap, ALiBi) or the softmax (a sink logit). */
export const variantScores = (rs) =>
  maskInput(rs) !== 'scaled' || (rs.sinkLogits !== null && rs.sinkLogits !== undefined);

/** The dot-product scores with the variants' q and k: Q_{rope,h}K_{rope,g}ᵀ, g = h // (H / H_kv). */
export function variantScoresFormula(rs, f) {
  const { H, Hkv } = f;
  const which = rs.rope ? 'rope,' : rs.qkNorm ? 'norm,' : '';
  if (!which && inputIsQkv(f)) return `scores = ${rawScores(f)}`;
  const gqa = Hkv && Hkv < H;
  const text = `scores = Q_{${which}h}K_{${which}${gqa ? 'g' : 'h'}}^{⊤}`;
  return gqa ? `${text}, g = h // (H / H_{kv}) = h // ${H / Hkv}` : text;
}

/** ALiBi's slopes as a formula: 2^(−8h/H), or the paper's rule for H not a power of two. */
export function alibiSlopeFormula(H) {
  const n = 2 ** Math.floor(Math.log2(H));
  if (n === H) return `m_{h} = 2^{−8h/${H}}`;
  return `m_{h} = 2^{−8h/${n}} (h ≤ ${n}), 2^{−8(2(h−${n})−1)/${2 * n}} (h > ${n})`;
}

/** The scores times s, or the scores alone when there is no scale (s = 1). */
export const scaledScores = (f) => (f.rs.scale === 'none' ? rawScores(f) : `${rawScores(f)} · s`);

/** The masked scores as the mask step shows M: masked_fill(M, …), masked_fill(M == 0, …) or + M. */
export function maskedExpression(rs, inner) {
  if (rs.mask === 'none') return inner;
  const fill = fillText(rs.fill);
  if (rs.maskConvention === 'additive') return `${inner} + M`;
  const condition = rs.maskConvention === 'keep' ? 'M == 0' : 'M';
  const operand = /^\w+$/.test(inner) ? inner : `(${inner})`;
  return `${operand}.masked_fill(${condition}, ${fill})`;
}

// M as the mask step shows it, per maskConvention.
export const MASK_FORMULA = {
  blocked: 'formula.mask.blocked',
  keep: 'formula.mask.keep',
  additive: 'formula.mask.additive',
};

/** The formula as a tree: [text | {sub: tree} | {sup: tree} | {words: tree}], from its _{…}, ^{…} and «…» markup. */
export function parseFormula(text) {
  let at = 0;
  const parse = (closing) => {
    const parts = [];
    let run = '';
    while (at < text.length) {
      const c = text[at];
      if (c === closing) {
        at++;
        break;
      }
      if (c === '«') {
        if (run) parts.push(run);
        run = '';
        at++;
        parts.push({ words: parse('»') });
        continue;
      }
      if ((c === '_' || c === '^') && text[at + 1] === '{') {
        if (run) parts.push(run);
        run = '';
        at += 2;
        parts.push(c === '_' ? { sub: parse('}') } : { sup: parse('}') });
        continue;
      }
      run += c;
      at++;
    }
    if (run) parts.push(run);
    return parts;
  };
  return parse(null);
}

/** The formula as plain text ("W_Q" for W_{Q}), for labels and tests. */
export function formulaText(text) {
  const flat = (parts) =>
    parts
      .map((p) => (typeof p === 'string' ? p : p.words ? flat(p.words) : p.sub ? `_${flat(p.sub)}` : `^${flat(p.sup)}`))
      .join('');
  return flat(parseFormula(text));
}

/** The formula as DOM nodes: text nodes, <sub>/<sup> elements and its words in <span translate="yes">. */
export function renderFormula(text) {
  const build = (parts) =>
    parts.map((p) => {
      if (typeof p === 'string') return document.createTextNode(p);
      if (p.words) {
        const span = document.createElement('span');
        span.translate = true;
        span.append(...build(p.words));
        return span;
      }
      const el = document.createElement(p.sub ? 'sub' : 'sup');
      el.append(...build(p.sub ?? p.sup));
      return el;
    });
  const fragment = document.createDocumentFragment();
  fragment.append(...build(parseFormula(text)));
  return fragment;
}
