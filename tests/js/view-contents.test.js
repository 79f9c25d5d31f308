// The pure parts of the pipeline view's step contents: how numbers are
// written, the formulas each setting gets, the measured variance of q·k, the
// softmax saturation curve, what dropout did, the average over heads.
import { compactNumber, formatNumber } from '../../web/model/format.js';
import { describe, expect, test } from 'vitest';
import { loadLanguage, translator } from '../../web/i18n/index.js';
import { UNKNOWN, dropoutSummary } from '../../web/model/dropout.js';
import { formulaText, parseFormula, scaleFactorText } from '../../web/view/steps/formulas.js';
import { loadAllSteps, stepByKey, stepFormula } from '../../web/view/steps/registry.js';
import { blockReasons, maskBlocks, runSettings } from '../../web/model/run-settings.js';
import {
  VARIANCE_DIMS,
  VARIANCE_PAIRS,
  measureDotVariance,
  rowSpread,
  saturationCurve,
  seededNormal,
} from '../../web/view/steps/scaling-figures.js';
import { meanOverHeads, runContext } from '../../web/view/steps/run-context.js';
import { loadAttentionLab } from '../../web/api/index.js';
import { presetByKey, presetSettings } from '../../web/model/presets.js';
import { configFromSettings } from '../../web/model/settings.js';

// MLA's steps: their code is loaded with the first MLA run (registry.js); these tests word every step.
await loadAllSteps();

const en = translator('en');
const zh = await loadLanguage('zh');

describe('formatNumber', () => {
  test('fixed decimals, − for minus, ∞ and NaN', () => {
    expect(formatNumber(0.12345, 4)).toBe('0.1235');
    expect(formatNumber(-1.5, 4)).toBe('−1.5000');
    expect(formatNumber(0, 4)).toBe('0.0000');
    expect(formatNumber(-0, 4)).toBe('0.0000');
    expect(formatNumber(NaN, 4)).toBe('NaN');
    expect(formatNumber(Infinity, 4)).toBe('∞');
    expect(formatNumber(-Infinity, 4)).toBe('−∞');
  });

  test('a non-zero number that would round to 0 is written as PyTorch prints it', () => {
    expect(formatNumber(1.0494e-7, 4)).toBe('1.0494e-07');
    expect(formatNumber(-3e-9, 4)).toBe('−3.0000e-09');
    expect(formatNumber(4.9e-5, 4)).toBe('4.9000e-05');
    expect(formatNumber(1e-30, 2)).toBe('1.00e-30');
    expect(formatNumber(Math.fround(1e-40), 4)).toMatch(/^9\.99\d\de-41$/); // a float32 subnormal
    // Numbers that show a non-zero digit stay fixed.
    expect(formatNumber(5e-5, 4)).toBe('0.0001');
    expect(formatNumber(0.004, 2)).toBe('4.00e-03');
    expect(formatNumber(0.006, 2)).toBe('0.01');
  });

  test('compactNumber: up to 4 significant digits for sentences', () => {
    expect(compactNumber(0.5)).toBe('0.5');
    expect(compactNumber(1 / Math.sqrt(8))).toBe('0.3536');
    expect(compactNumber(Math.fround(0.3))).toBe('0.3');
    expect(compactNumber(-1e9)).toBe('−1e9');
    expect(compactNumber(-Infinity)).toBe('−∞');
  });
});

/** The formula context for a run with these settings (defaults: 8 wide, 2 heads, every tensor the engine gives by default). */
function formulas(settings, { t = en, bias = {}, hasWO = true, factor = 0.5 } = {}) {
  const rs = runSettings({ 'weights.outProj': hasWO, ...settings });
  const f = { t, rs, bias: { Q: false, K: false, V: false, O: hasWO, ...bias }, hasWO, factor, dk: 4, D: 8 };
  return (step) => {
    const text = stepFormula(step, f);
    return text === null ? null : formulaText(text);
  };
}

describe('formulas follow the settings', () => {
  test('a random input names its draw: torch.rand or torch.randn, as result.settings reports it', () => {
    expect(formulas({ input: { rand: [1, 5, 8] } })('X')).toBe('X = torch.rand(B, S, D)');
    expect(formulas({ input: { randn: [1, 5, 8] } })('X')).toBe('X = torch.randn(B, S, D)');
    expect(formulas({ contextInput: { rand: [1, 3, 8] } })('X_context')).toBe('X_ctx = torch.rand(B, S_kv, D)');
    expect(formulas({})('X')).toBe('X = Embedding(ids)');
  });

  test('the mini markup becomes sub- and superscripts, nested', () => {
    expect(parseFormula('W_{Q} ∈ ℝ^{d_{model}}')).toEqual([
      'W',
      { sub: ['Q'] },
      ' ∈ ℝ',
      { sup: ['d', { sub: ['model'] }] },
    ]);
    expect(formulaText('W_{Q}·X^{⊤}')).toBe('W_Q·X^⊤');
  });

  test('biases only where they exist', () => {
    expect(formulas({})('qkv')).toBe('Q = X·W_Q,  K = X·W_K,  V = X·W_V');
    const withBias = formulas({ 'weights.qkvBias': true }, { bias: { Q: true, K: true, V: true } });
    expect(withBias('qkv')).toBe('Q = X·W_Q + b_Q,  K = X·W_K + b_K,  V = X·W_V + b_V');
    expect(withBias('weights')).toContain('b_Q, b_K, b_V ∈ ℝ^d_model');
    expect(formulas({})('weights')).not.toContain('b_Q');
    expect(formulas({}, { bias: { Q: true } })('qkv')).toBe('Q = X·W_Q + b_Q,  K = X·W_K,  V = X·W_V');
  });

  test('no W_O without the output projection; b_O only with its bias', () => {
    expect(formulas({})('output')).toBe('output = concat · W_O + b_O');
    expect(formulas({}, { bias: { O: false } })('output')).toBe('output = concat · W_O');
    const noProj = formulas({ 'weights.outProj': false }, { hasWO: false });
    expect(noProj('output')).toBe('output = concat');
    expect(noProj('wo')).toBeNull();
  });

  test('the scaled step shows the actual factor', () => {
    expect(formulas({ scale: 'head-dim' })('scaled')).toBe('scaled = Q_hK_h^⊤ · s, s = 1/√d_k = 1/√4 = 0.5');
    expect(formulas({ scale: 'd-model' }, { factor: 1 / Math.sqrt(8) })('scaled')).toBe(
      'scaled = Q_hK_h^⊤ · s, s = 1/√d_model = 1/√8 = 0.3536',
    );
    expect(formulas({ scale: 'none' }, { factor: 1 })('scaled')).toBe('scaled = Q_hK_h^⊤ (s = 1)');
    expect(formulas({ scale: 0.3 }, { factor: 0.3 })('scaled')).toBe('scaled = Q_hK_h^⊤ · s, s = 0.3');
    expect(formulas({ scale: 'none' }, { factor: 1 })('attnweights')).toBe('A = softmax(Q_hK_h^⊤, dim=−1)');
  });

  test('the factor in words: ÷√d, none, custom', () => {
    const text = (scale, factor) => scaleFactorText({ scale, factor, dk: 4, D: 8 }, en);
    expect(text('head-dim', 0.5)).toBe('÷√4 = ×0.5 (1/√d_k)');
    expect(text('d-model', 1 / Math.sqrt(8))).toBe('÷√8 = ×0.3536 (1/√dModel)');
    expect(text('none', 1)).toBe('none: × 1');
    expect(text(0.3, 0.3)).toBe('× 0.3 (custom)');
    expect(scaleFactorText({ scale: 'none', factor: 1, dk: 4, D: 8 }, zh)).toBe('不缩放：× 1');
  });

  test('the mask as the mask step shows it, per convention', () => {
    const causal = (convention, fill = '-inf') =>
      formulas({ mask: 'causal', maskConvention: convention, maskFill: fill });
    expect(causal('blocked')('masked')).toBe('masked = scaled.masked_fill(M, −∞)');
    expect(causal('blocked')('attnweights')).toBe('A = softmax((Q_hK_h^⊤ · s).masked_fill(M, −∞), dim=−1)');
    expect(causal('blocked')('mask')).toBe('M_ij = 1 if query i may not see key j, else 0');
    expect(causal('keep')('masked')).toBe('masked = scaled.masked_fill(M == 0, −∞)');
    expect(causal('keep')('mask')).toContain('torch.tril');
    expect(causal('additive', -1e9)('masked')).toBe('masked = scaled + M');
    expect(causal('additive', -1e9)('attnweights')).toBe('A = softmax(Q_hK_h^⊤ · s + M, dim=−1)');
    expect(causal('additive', -1e9)('mask')).toBe('M_ij = −1e9 if query i may not see key j, else 0');
    // No "+ M" anywhere in the default convention; no M at all without a mask.
    for (const step of ['masked', 'attnweights']) expect(causal('blocked')(step)).not.toContain('+ M');
    expect(formulas({ mask: 'none' })('attnweights')).toBe('A = softmax(Q_hK_h^⊤ · s, dim=−1)');
  });

  test('additive scores, clones, dropout', () => {
    expect(formulas({ score: 'additive' })('scores')).toBe('score_ij = v_a^⊤ tanh(q_iW_a + k_jU_a)');
    expect(formulas({ score: 'additive' })('attnweights')).toBe('A = softmax(score · s, dim=−1)');
    const clones = formulas({ 'weights.init': 'torch-linear-clones' })('weights');
    expect(clones).toContain('W_Q = W_K = W_V = W_O = linear.weight^⊤');
    expect(clones).toContain('clones(nn.Linear(D, D), 4)');
    expect(formulas({ 'dropout.p': 0 })('dropped')).toBe('dropout(A) = A (p = 0)');
    expect(formulas({ 'dropout.p': 0.2 })('dropped')).toContain('1/(1 − p) = 1.25');
    expect(formulas({ 'dropout.p': 0.2 })('context')).toBe('context_h = dropout(A_h) · V_h');
  });

  test('the mask value blocks per convention; the reasons', () => {
    expect([maskBlocks(1, 'blocked'), maskBlocks(0, 'blocked')]).toEqual([true, false]);
    expect([maskBlocks(1, 'keep'), maskBlocks(0, 'keep')]).toEqual([false, true]);
    expect([maskBlocks(-Infinity, 'additive'), maskBlocks(-1e9, 'additive'), maskBlocks(0, 'additive')]).toEqual([
      true,
      true,
      false,
    ]);
    expect(blockReasons('causal+padding', 1, 3, '<pad>')).toEqual(['future', 'pad']);
    expect(blockReasons('padding', 1, 3, 'cat')).toEqual([]);
    expect(runSettings({}).maskConvention).toBe('blocked');
    expect(runSettings({}).score).toBe('dot');
  });
});

describe('a run whose projections are identities names the input in its formulas', () => {
  let lab;
  const formulasOf = (settings) => {
    const f = { ...runContext(lab.run(configFromSettings(settings))), t: en };
    return (step) => formulaText(stepFormula(step, f));
  };

  test('the softmax(XXᵀ)X preset: its formulas say XXᵀ and A · X, as it computes', async () => {
    lab = await loadAttentionLab();
    const xxt = formulasOf(presetSettings(presetByKey.get('xxt'), 'en'));
    expect(xxt('scores')).toBe('scores = XX^⊤');
    expect(xxt('scaled')).toBe('scaled = XX^⊤ (s = 1)');
    expect(xxt('attnweights')).toBe('A = softmax(XX^⊤, dim=−1)');
    expect(xxt('context')).toBe('context_h = A_h · X');
    expect(xxt('output')).toBe('output = concat');
  });

  test('two identity heads read their columns of X; an edited or random W_Q is Q again', async () => {
    lab ??= await loadAttentionLab();
    const base = { text: 'a b c', dModel: 4, numHeads: 2, 'weights.init': 'identity', 'weights.outProj': false };
    expect(formulasOf(base)('attnweights')).toBe('A = softmax(X_hX_h^⊤ · s, dim=−1)');
    expect(formulasOf({ ...base, contextText: 'd e' })('scores')).toBe('scores = X_hX_ctx,h^⊤');
    const edited = formulasOf({ ...base, 'weights.edits': { W_Q: [[0, 1, 0.5]] } });
    expect(edited('attnweights')).toBe('A = softmax(Q_hK_h^⊤ · s, dim=−1)');
    expect(formulasOf({ ...base, 'weights.init': 'torch-linear' })('scores')).toBe('scores = Q_hK_h^⊤');
    expect(formulasOf({ ...base, 'weights.init': 'torch-linear' })('context')).toBe('context_h = A_h · V_h');
  });
});

describe('why scale: the variance of q·k', () => {
  test('seeded normals have mean 0 and variance 1', () => {
    const normal = seededNormal(7);
    const n = 100_000;
    let sum = 0;
    let squares = 0;
    for (let k = 0; k < n; k++) {
      const x = normal();
      sum += x;
      squares += x * x;
    }
    // Standard errors: of the mean 1/√n; of the mean square √(2/n) (Var(x²) = 2 for a standard normal).
    expect(Math.abs(sum / n)).toBeLessThan(5 / Math.sqrt(n));
    expect(Math.abs(squares / n - 1)).toBeLessThan(5 * Math.sqrt(2 / n));
  });

  test('Var(q·k) ≈ d_k and Var(q·k/√d_k) ≈ 1, within 5 standard errors', () => {
    const rows = measureDotVariance();
    expect(rows.map((r) => r.dk)).toEqual(VARIANCE_DIMS);
    const n = VARIANCE_PAIRS;
    let worst = 0;
    for (const { dk, variance, scaledVariance } of rows) {
      // q·k = Σ q_m k_m has E[(q·k)⁴] = 3d² + 6d, so Var((q·k)²) = 2d² + 6d and the sample
      // variance has relative standard error √((2 + 6/d)/n).
      const relativeError = Math.sqrt((2 + 6 / dk) / n);
      const off = Math.abs(variance / dk - 1) / relativeError;
      worst = Math.max(worst, off);
      expect(off, `d_k = ${dk}: variance ${variance}`).toBeLessThan(5);
      expect(Math.abs(scaledVariance - 1) / relativeError).toBeLessThan(5);
    }
    console.log(`variance of q·k: worst deviation from d_k ${worst.toFixed(2)} standard errors`);
  });
});

describe('why scale: softmax saturation', () => {
  const curve = saturationCurve();

  test('σ(x) = softmax([x, 0])₀ over [−10, 10]: 1/2 at 0, symmetric, increasing', () => {
    expect(curve).toHaveLength(201);
    expect(curve[0].x).toBe(-10);
    expect(curve[200].x).toBe(10);
    const middle = curve[100];
    expect(middle.x).toBeCloseTo(0, 12);
    expect(middle.s).toBeCloseTo(0.5, 15);
    expect(middle.gradient).toBeCloseTo(0.25, 15);
    for (let k = 0; k < curve.length; k++) {
      expect(curve[k].s + curve[200 - k].s).toBeCloseTo(1, 14);
      expect(curve[k].s).toBeCloseTo(1 / (1 + Math.exp(-curve[k].x)), 14);
      if (k) expect(curve[k].s).toBeGreaterThan(curve[k - 1].s);
    }
  });

  test('the gradient is s(1 − s), the slope of σ, and vanishes at the ends', () => {
    // Central differences err by h²/6·max|σ'''| = h²/48 (max |σ'''| = 1/8), plus rounding ≈ 1e-16/h.
    const h = 1e-4;
    const sigma = (x) => 1 / (1 + Math.exp(-x));
    for (const { x, gradient } of curve) {
      const slope = (sigma(x + h) - sigma(x - h)) / (2 * h);
      expect(Math.abs(slope - gradient)).toBeLessThan((h * h) / 48 + 1e-11);
    }
    expect(curve[0].gradient).toBeLessThan(5e-5);
    expect(curve[200].gradient).toBeLessThan(5e-5);
    expect(Math.max(...curve.map((c) => c.gradient))).toBe(curve[100].gradient);
  });

  test('a row’s spread skips blocked and infinite scores', () => {
    expect(rowSpread([1, 3, -2, 100], 0.5, [0, 0, 0, 1])).toBe(2.5);
    expect(rowSpread([1, 3], 1, [0, 1])).toBe(0);
  });
});

describe('dropout and the average over heads', () => {
  test('the keep mask, the zero count and the factor', () => {
    const weights = new Float32Array([0.5, 0.5, 0, 1, 0.25, 0.75]);
    const dropped = new Float32Array([0.625, 0, 0, 1.25, 0, 0.9375]);
    const summary = dropoutSummary(weights, dropped, 0, 2, 3, 0.2);
    expect(Array.from(summary.keep)).toEqual([1, 0, UNKNOWN, 1, 0, 1]);
    expect(summary).toMatchObject({ zeroed: 2, nonZero: 5, zeroWeights: 1, zeroCause: null });
    expect(summary.factor).toBeCloseTo(1.25, 12);
    // Why the weight at [0, 2] was 0 already: its key is masked, or (not blocked) softmax gave it 0; a NaN row.
    const at = (cells) => (i, j) => cells.some(([a, b]) => a === i && b === j);
    expect(dropoutSummary(weights, dropped, 0, 2, 3, 0.2, at([[0, 2]])).zeroCause).toBe('masked');
    expect(dropoutSummary(weights, dropped, 0, 2, 3, 0.2, at([])).zeroCause).toBe('softmax');
    const nanRow = new Float32Array([0.5, 0.5, 0, NaN, NaN, NaN]);
    expect(dropoutSummary(nanRow, dropped, 0, 2, 3, 0.2, at([[0, 2]])).zeroCause).toBe('nan');
  });

  test('averaged weights are the mean over the heads', () => {
    // B = 1, H = 2, S = 1, S_kv = 2
    const weights = { shape: [1, 2, 1, 2], data: new Float32Array([0.2, 0.8, 0.6, 0.4]) };
    expect(Array.from(meanOverHeads(weights, 0, 2, 1, 2))).toEqual([Math.fround(0.4), Math.fround(0.6)]);
  });
});

describe('the scaling table’s words', () => {
  test('with a sink logit, ALiBi or a softcap, a note says the table leaves them out (its maxima are not the weights’)', async () => {
    const lab = await loadAttentionLab();
    const zh = await loadLanguage('zh');
    const en = translator('en');
    const scaling = stepByKey('scaling');
    const notesOf = (config, t) => scaling.words(runContext(lab.run(config)), t).notes.map((s) => s.text);
    const text = 'the cat sat on the mat';
    expect(notesOf({ text, mask: 'causal' }, en)).toEqual([]);
    const sink = notesOf({ text, mask: 'causal', sinkLogit: 2 }, en);
    expect(sink).toHaveLength(1);
    expect(sink[0]).toContain('leaves out the sink logit, which the weights include');
    expect(notesOf({ text, alibi: true, softcap: 5, numHeads: 2, dModel: 8 }, en)[0]).toContain(
      'leaves out softcap, ALiBi,',
    );
    expect(notesOf({ text, mask: 'causal', sinkLogit: 2 }, zh)[0]).toContain('不含 汇聚 logit');
  });
});
