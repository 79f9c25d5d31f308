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
function scaleValue(scale, { factor, dk, D }) {
  const x = compactNumber(factor);
  if (scale === 'head-dim') return `1/√d_{k} = 1/√${dk} = ${x}`;
  if (scale === 'd-model') return `1/√d_{model} = 1/√${D} = ${x}`;
  return x;
}

// Q_hK_hᵀ for dot-product scores; "score" for additive ones.
const rawScores = (rs) => (rs.score === 'additive' ? 'score' : 'Q_{h}K_{h}^{⊤}');

/** The last of scaled, capped and biased the run has: what the mask applies to. */
const maskInput = (rs) => (rs.alibi ? 'biased' : rs.softcap !== null && rs.softcap !== undefined ? 'capped' : 'scaled');

/** Whether a variant changes the scores after scaling (softcap, ALiBi) or the softmax (a sink logit). */
const variantScores = (rs) => maskInput(rs) !== 'scaled' || (rs.sinkLogit !== null && rs.sinkLogit !== undefined);

/** The dot-product scores with the variants' q and k: Q_{rope,h}K_{rope,g}ᵀ, g = h // (H / H_kv). */
function variantScoresFormula(rs, { H, Hkv }) {
  const which = rs.rope ? 'rope,' : rs.qkNorm ? 'norm,' : '';
  const gqa = Hkv && Hkv < H;
  const text = `scores = Q_{${which}h}K_{${which}${gqa ? 'g' : 'h'}}^{⊤}`;
  return gqa ? `${text}, g = h // (H / H_{kv}) = h // ${H / Hkv}` : text;
}

/** ALiBi's slopes as a formula: 2^(−8h/H), or the paper's rule for H not a power of two. */
function alibiSlopeFormula(H) {
  const n = 2 ** Math.floor(Math.log2(H));
  if (n === H) return `m_{h} = 2^{−8h/${H}}`;
  return `m_{h} = 2^{−8h/${n}} (h ≤ ${n}), 2^{−8(2(h−${n})−1)/${2 * n}} (h > ${n})`;
}

/** RoPE on q at position m, in the run's style. */
const ROPE_FORMULA = {
  'rotate-half': 'q′ = q·cos(mθ) + rotate_half(q)·sin(mθ), rotate_half(q) = [−q_{d_k/2:}, q_{:d_k/2}]',
  interleaved: 'q′_{2i} = q_{2i}cos(mθ_{i}) − q_{2i+1}sin(mθ_{i}), q′_{2i+1} = q_{2i}sin(mθ_{i}) + q_{2i+1}cos(mθ_{i})',
};

/** The scores times s, or the scores alone when there is no scale (s = 1). */
const scaledScores = (rs) => (rs.scale === 'none' ? rawScores(rs) : `${rawScores(rs)} · s`);

/** The masked scores as the mask step shows M: masked_fill(M, …), masked_fill(M == 0, …) or + M. */
function maskedExpression(rs, inner) {
  if (rs.mask === 'none') return inner;
  const fill = fillText(rs.fill);
  if (rs.maskConvention === 'additive') return `${inner} + M`;
  const condition = rs.maskConvention === 'keep' ? 'M == 0' : 'M';
  const operand = /^\w+$/.test(inner) ? inner : `(${inner})`;
  return `${operand}.masked_fill(${condition}, ${fill})`;
}

// M as the mask step shows it, per maskConvention.
const MASK_FORMULA = { blocked: 'formula.mask.blocked', keep: 'formula.mask.keep', additive: 'formula.mask.additive' };

const dropoutOf = (rs, a) => (rs.p > 0 ? `dropout(${a})` : a);

function projectionFormula(f) {
  const { rs, bias } = f;
  const biases = ['Q', 'K', 'V'].filter((n) => bias[n]);
  const w = 'W_{Q}, W_{K}, W_{V}';
  let text;
  switch (rs.init) {
    case 'identity':
      text = 'W_{Q} = W_{K} = W_{V} = I';
      break;
    case 'torch-rand':
      text = rs.layout === 'per-head' ? `${w} = [torch.rand(D, d_{k}) per head]` : `${w} = torch.rand(D, D)`;
      break;
    case 'torch-mha':
      text = '[W_{Q} W_{K} W_{V}] = mha.in_proj_weight^{⊤}';
      break;
    case 'torch-linear-clones':
      text = `W_{Q} = W_{K} = W_{V}${f.hasWO ? ' = W_{O}' : ''} = linear.weight^{⊤}, ${f.t('formula.clones')}`;
      break;
    default:
      text =
        rs.layout === 'per-head'
          ? 'W_{Q} = [heads[h].query.weight^{⊤}]_{h}, …'
          : 'W_{Q} = q_proj.weight^{⊤}, W_{K} = k_proj.weight^{⊤}, W_{V} = v_proj.weight^{⊤}';
  }
  const sizes = `${w} ∈ ℝ^{d_{model}×d_{model}}`;
  const biasText = biases.length ? `, ${biases.map((n) => `b_{${n}}`).join(', ')} ∈ ℝ^{d_{model}}` : '';
  return `${text}; ${sizes}${biasText}`;
}

function outputProjectionFormula(f) {
  const { rs, bias } = f;
  const bO = bias.O ? ', b_{O} ∈ ℝ^{d_{model}}' : '';
  const source = {
    identity: 'W_{O} = I',
    'torch-rand': 'W_{O} = torch.rand(D, D)',
    'torch-mha': 'W_{O} = mha.out_proj.weight^{⊤}',
    'torch-linear-clones': 'W_{O} = linear.weight^{⊤}',
  };
  return `${source[rs.init] ?? 'W_{O} = o_proj.weight^{⊤}'}; W_{O} ∈ ℝ^{d_{model}×d_{model}}${bO}`;
}

function qkvFormula({ bias, cross }) {
  const kv = cross ? 'X_{ctx}' : 'X';
  const term = (n, x) => `${n} = ${x}·W_{${n}}${bias[n] ? ` + b_{${n}}` : ''}`;
  return [term('Q', 'X'), term('K', kv), term('V', kv)].join(',  ');
}

/**
 * The formula of `step` for a run. f: {t, rs (runSettings), bias: {Q, K, V, O},
 * hasWO, cross, factor, dk, D}. null: the step has none.
 */
export function stepFormula(step, f) {
  const { rs, t } = f;
  const pe = rs.positional === 'sinusoidal' ? ' + PE' : '';
  switch (step) {
    case 'X':
      return f.rs.inputDraw ? `X = torch.${f.rs.inputDraw}(B, S, D)` : `X = Embedding(ids)${pe}`;
    case 'X_context':
      return f.rs.contextDraw
        ? `X_{ctx} = torch.${f.rs.contextDraw}(B, S_{kv}, D)`
        : `X_{ctx} = Embedding(ids_{ctx})${pe}`;
    case 'weights':
      return projectionFormula(f);
    case 'qkv':
      return qkvFormula(f);
    case 'split':
      return f.Hkv && f.Hkv < f.H
        ? 'Q: [B, S, D] → [B, H, S, d_{k}];  K, V: [B, S_{kv}, H_{kv}·d_{k}] → [B, H_{kv}, S_{kv}, d_{k}]'
        : '[B, S, D] → [B, S, H, d_{k}] → [B, H, S, d_{k}]';
    case 'qkNorm':
      return 'q̂ = q / √(mean(q^{2}) + 10^{−6}),  k̂ = k / √(mean(k^{2}) + 10^{−6})';
    case 'rope':
      return `${ROPE_FORMULA[rs.rope] ?? ROPE_FORMULA['rotate-half']}, θ_{i} = ${compactNumber(rs.ropeBase ?? 10000)}^{−2i/d_{k}}`;
    case 'scores':
      return rs.score === 'additive'
        ? 'score_{ij} = v_{a}^{⊤} tanh(q_{i}W_{a} + k_{j}U_{a})'
        : variantScoresFormula(rs, f);
    case 'softcap':
      return `capped = c · tanh(scaled / c), c = ${compactNumber(rs.softcap)}`;
    case 'alibi':
      return `biased = ${rs.softcap !== null && rs.softcap !== undefined ? 'capped' : 'scaled'} + alibiBias_{h}, alibiBias_{h}[i, j] = −m_{h}·(i − j), ${alibiSlopeFormula(f.H ?? 1)}`;
    case 'scaled':
      return rs.scale === 'none'
        ? `scaled = ${rawScores(rs)} (s = 1)`
        : `scaled = ${rawScores(rs)} · s, s = ${scaleValue(rs.scale, f)}`;
    case 'mask':
      if (rs.mask === 'none') return t('formula.mask.none');
      return t(MASK_FORMULA[rs.maskConvention], { fill: fillText(rs.fill) });
    case 'masked':
      return `masked = ${maskedExpression(rs, maskInput(rs))}`;
    case 'attnweights':
      if (rs.sinkLogit !== null && rs.sinkLogit !== undefined)
        return `p = softmax([masked, ${compactNumber(rs.sinkLogit)}], dim=−1),  A = p[…, :S_{kv}],  sink = p[…, S_{kv}]`;
      return `A = softmax(${maskedExpression(rs, variantScores(rs) ? maskInput(rs) : scaledScores(rs))}, dim=−1)`;
    case 'averaged':
      return `Ā = (1/H) Σ_{h} ${dropoutOf(rs, 'A_{h}')}`;
    case 'scaling':
      return t('formula.scaling');
    case 'links':
      return t('formula.links');
    case 'dropped':
      return rs.p > 0
        ? `dropout(A) = A ⊙ m / (1 − p), m ~ Bernoulli(1 − p), 1/(1 − p) = ${compactNumber(1 / (1 - rs.p))}`
        : 'dropout(A) = A (p = 0)';
    case 'context':
      return `context_{h} = ${dropoutOf(rs, 'A_{h}')} · V_{h}`;
    case 'concat':
      return 'concat = Concat(head_{1}, …, head_{H})';
    case 'wo':
      return f.hasWO ? outputProjectionFormula(f) : null;
    case 'output':
      return f.hasWO ? `output = concat · W_{O}${f.bias.O ? ' + b_{O}' : ''}` : 'output = concat';
    case 'kvcache':
      return 'K_{cache} ← [K_{cache}; k_{t}], V_{cache} ← [V_{cache}; v_{t}];  a_{t} = softmax(q_{t}K_{cache}^{⊤} · s),  o_{t} = a_{t}V_{cache}';
    case 'flash':
      return 'm = max(m_{old}, max_{j} x_{ij}),  α = exp(m_{old} − m),  ℓ = α·ℓ + Σ_{j} exp(x_{ij} − m),  O = α·O + Σ_{j} exp(x_{ij} − m)·v_{j};  o_{i} = O / ℓ';
    default:
      return null;
  }
}

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
