// The explanations hold to the standard of the numbers: for every preset and
// a grid of configs, in English and Chinese, every cell of every matrix the
// page shows (a sample of a large one), and the steppers' cells, is explained
// and each sentence checked (claims.js): every number in it is a quote, every
// quote is written as its fact's true value, every claim holds.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { translator } from '../../web/i18n/index.js';
import { explainCell } from '../../web/view/explain/cells.js';
import { runContext } from '../../web/view/steps/run-context.js';
import { formula, shown, whole } from '../../web/model/words.js';
import { checkSentence, resetStats, stats } from './claims/explanation-check.js';
import { cellsOf, explainRuns } from './claims/explanation-runs.js';
import { loadAllSteps, stepsOf } from '../../web/view/steps/registry.js';

// MLA's steps: their code is loaded with the first MLA run (registry.js); these tests word every step.
await loadAllSteps();

const lab = await loadAttentionLab();
const DECIMALS = 4;

/** The problems of one explanation of `step` (i, j). */
function explainProblems(step, i, j, ctx, run) {
  const explanation = explainCell(step, i, j, ctx);
  if (!explanation) return [`${step}[${i},${j}] has no explanation`];
  return explanation.lines.flatMap((line) => checkSentence(line, run).map((p) => `${step}[${i},${j}]: ${p}`));
}

// The steppers' figures for sentence b and head h, when the run has them (decode needs a causal self-attention).
function steppersOf(config, b, h) {
  const figures = {};
  try {
    figures.decode = lab.decode(config, { batch: b });
  } catch {
    /* no KV cache stepper for this run */
  }
  try {
    figures.flash = { ...lab.flash(config, { batch: b, head: h }), b, h };
  } catch {
    /* no flash stepper for this run */
  }
  return figures;
}

function stepperProblems(ctx, run, figures) {
  const problems = [];
  const { S, dk } = ctx;
  if (figures.decode)
    for (const t of [0, Math.floor(S / 2), S - 1]) {
      const c = { ...ctx, steppers: { decode: { data: figures.decode, t } } };
      for (const step of ['kv-K', 'kv-V'])
        for (const [i, j] of cellsOf(t + 1, dk, 12)) problems.push(...explainProblems(step, i, j, c, run));
      for (const step of ['kv-scores', 'kv-weights', 'kv-full', 'kv-causal'])
        for (let j = 0; j <= t; j++) problems.push(...explainProblems(step, 0, j, c, run));
    }
  if (figures.flash) {
    const { tiles } = figures.flash;
    const rows = figures.flash.runningMax.length / tiles.length;
    for (const k of new Set([0, Math.floor(tiles.length / 2), tiles.length - 1])) {
      const c = { ...ctx, steppers: { flash: { data: figures.flash, k } } };
      for (const [i, j] of cellsOf(S, ctx.Skv, 24)) problems.push(...explainProblems('flash-logits', i, j, c, run));
      const tileRows = Math.min(rows, tiles[k].queryEnd - tiles[k].queryStart);
      for (let i = 0; i < tileRows; i++) {
        for (let j = 0; j < 4; j++) problems.push(...explainProblems('flash-stats', i, j, c, run));
        for (const [, j] of cellsOf(1, dk, 4)) problems.push(...explainProblems('flash-partial', i, j, c, run));
      }
      for (const step of ['flash-output', 'flash-plain'])
        for (const [i, j] of cellsOf(S, dk, 12)) problems.push(...explainProblems(step, i, j, c, run));
    }
  }
  return problems;
}

/**
 * Every problem of the explanations of one run, for sentence b and head h: up to `most` cells of each
 * matrix, and the steppers' cells when `steppers`.
 */
function runProblems(config, lang, { b, h, most, steppers }) {
  const result = lab.run(config);
  const run = { result, config, lang, decimals: DECIMALS };
  const shown = runContext(result, { b, h });
  const ctx = { ...shown, t: translator(lang), result, decimals: DECIMALS };
  const problems = [];
  // The matrices the page shows for this run: each step of the registry that applies, its figures.
  for (const { name, rows, cols } of stepsOf(shown).flatMap((step) => step.figures(shown)))
    for (const [i, j] of cellsOf(rows, cols, most)) problems.push(...explainProblems(name, i, j, ctx, run));
  if (!steppers) return problems;
  const figures = steppersOf(config, ctx.b, ctx.h);
  problems.push(...stepperProblems(ctx, { ...run, steppers: figures }, figures));
  return problems;
}

const report = () =>
  console.log(
    `explanation claims: ${stats.sentences} sentences checked (${stats.quotes} quotes, ${stats.claims} claims); ` +
      `worst quote difference ${stats.worstQuote.diff.toExponential(2)} (${stats.worstQuote.where}); ` +
      `worst relative claim difference ${stats.worstClaim.diff.toExponential(2)} (${stats.worstClaim.where})`,
  );

describe('every explanation says only what the run shows', () => {
  beforeAll(resetStats);
  afterAll(report);
  for (const lang of ['en', 'zh'])
    for (const { name, config } of explainRuns(lang))
      test(`${lang}: ${name}`, () => {
        // The first sentence and head in full; the last ones (another sentence, a later K/V head) sampled.
        const { B, H } = lab.run(config).sizes;
        const problems = runProblems(config, lang, { b: 0, h: 0, most: 16, steppers: true });
        if (B > 1 || H > 1) problems.push(...runProblems(config, lang, { b: B - 1, h: H - 1, most: 4 }));
        expect(problems.slice(0, 20), `${problems.length} problems`).toEqual([]);
      });
});

describe('the checker finds a wrong number', () => {
  const config = explainRuns('en').find((r) => r.name === 'tutorial').config;
  const result = lab.run(config);
  const run = { result, config, lang: 'en', decimals: DECIMALS };
  const ctx = { ...runContext(result), t: translator('en'), result, decimals: DECIMALS };
  const lines = explainCell('weights', 1, 2, ctx).lines;

  test('the explanation as it is passes', () => {
    expect(lines.flatMap((line) => checkSentence(line, run))).toEqual([]);
  });

  test('a quote written with another value fails', () => {
    const [head] = lines;
    const wrong = { ...head, quotes: head.quotes.map((q) => ({ ...q, text: '0.1234' })) };
    expect(checkSentence(wrong, run).join('\n')).toMatch(/"0\.1234" should read/);
  });

  test('a quote that states another cell fails', () => {
    const x = whole(1, { cell: ['weights', 0, 0, 0, 0] });
    expect(checkSentence(formula`w = ${x}`, run).join('\n')).toMatch(/should read/);
  });

  test('a number that is not quoted fails, one inside a name or an index does not', () => {
    expect(checkSentence(formula`Σ = 0.5 and ${'d3'} W[0,1]`, run)).toEqual([
      expect.stringMatching(/^unquoted number 0\.5/),
    ]);
  });

  test('a claim that does not hold fails', () => {
    const a = shown(result.tensors.weights.data[0], DECIMALS, { cell: ['weights', 0, 0, 0, 0] });
    const claims = [{ claim: 'equal', of: [a.fact, { cell: ['weights', 0, 0, 0, 1] }] }];
    expect(checkSentence({ ...formula`w = ${a}`, claims }, run).join('\n')).toMatch(/^claim/);
    const mask = [{ claim: 'reason', reason: 'future', b: 0, i: 2, j: 1 }];
    expect(checkSentence({ ...formula`w`, claims: mask }, run).join('\n')).toMatch(/no such reason/);
  });
});
