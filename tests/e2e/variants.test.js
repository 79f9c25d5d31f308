// The modern attention variants on the page, each turned on through the form:
// its step appears (qk-norm, rope, softcap, alibi) or shows in its step (GQA in
// qkv and split, window and sinks in mask, the sink column in weights), with
// PyTorch 1.13's numbers (tests/reference/fixtures), in English and Chinese;
// and the element's steps="rope alibi". Against the built dist/ in Chromium.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import en from '../../web/i18n/en.js';
import mlaStrings from '../../web/i18n/mla.js';
import diffStrings from '../../web/i18n/diff.js';
import variantStrings from '../../web/i18n/variants.js';
import { openPage, waitForIdle } from './browser.js';
import { shot, useBrowserSuite } from './suite.js';
import { expectNoEnglish } from './english-left.js';
import { readFixture } from '../js/fixtures.js';

const suite = useBrowserSuite();
vi.setConfig({ testTimeout: 120_000 });
let page;
const problems = [];

beforeEach(async () => {
  problems.length = 0;
  // The heads' steps (split: a head's K) and the variants' open: the page opens the basics only.
  page = await openPage(suite.browser, `${suite.server.url}?chapters=heads,variants`, { problems });
  await waitForIdle(page);
});
afterEach(async () => {
  expect(problems).toEqual([]);
  await page?.context().close();
});

// The form's control of each config field (form.js: control-<attribute name>).
const CONTROLS = {
  dModel: '#control-d-model',
  numHeads: '#control-heads',
  seed: '#control-seed',
  numKVHeads: '#control-kv-heads',
  window: '#control-window',
  sinkTokens: '#control-sink-tokens',
  sinkLogit: '#control-sink-logit',
  softcap: '#control-softcap',
};

/** Sets the page's form to a fixture's config: its sentence, sizes, seed, mask and variants. */
async function applyConfig(config) {
  await page.fill('#input-text', config.text);
  await waitForIdle(page);
  for (const [key, selector] of Object.entries(CONTROLS))
    if (config[key] !== undefined) {
      await page.fill(selector, String(config[key]));
      await waitForIdle(page);
    }
  if (config.diff) {
    await page.fill('#control-diff-depth', String(config.diff.depth));
    await waitForIdle(page);
  }
  if (config.mask) await page.selectOption('#control-mask', config.mask);
  if (config.rope) await page.selectOption('#control-rope', config.rope.style);
  // MLA's four sizes (an error names the next one until all are in), then its path.
  if (config.mla) {
    const fields = {
      kvRank: 'mla-kv-rank',
      nopeDim: 'mla-nope-dim',
      ropeDim: 'mla-rope-dim',
      valueDim: 'mla-value-dim',
    };
    for (const [key, name] of Object.entries(fields)) {
      await page.fill(`#control-${name}`, String(config.mla[key]));
      await waitForIdle(page);
    }
    if (config.mla.absorb) await page.check('#control-mla-absorb');
  }
  if (config.rope?.base) await page.fill('#control-rope-base', String(config.rope.base));
  const scaling = config.rope?.scaling;
  if (scaling) {
    await page.selectOption('#control-rope-scaling', scaling.type);
    await waitForIdle(page);
    const fields = { factor: 'rope-factor', originalMaxPositions: 'rope-original-max' };
    Object.assign(fields, { betaFast: 'rope-beta-fast', betaSlow: 'rope-beta-slow' });
    for (const [key, name] of Object.entries(fields))
      if (scaling[key] !== undefined) {
        await page.fill(`#control-${name}`, String(scaling[key]));
        await waitForIdle(page);
      }
  }
  if (config.qkNorm) await page.setChecked('#control-qk-norm', true);
  if (config.alibi) await page.setChecked('#control-alibi', true);
  if (config.outputGate) await page.setChecked('#control-output-gate', true);
  await waitForIdle(page);
  expect(await page.$$eval('.field-error:not([hidden])', (e) => e.map((x) => x.textContent))).toEqual([]);
}

/** The numbers of the matrix `name` as shown (− read as minus). */
const tableNumbers = (name) =>
  page.$$eval(`#pipeline table[data-matrix="${name}"]:not(.sr-only) tbody tr`, (trs) =>
    trs.map((tr) =>
      Array.from(tr.querySelectorAll('td'), (td) => Number(td.textContent.replace('−', '-').split(' ')[0])),
    ),
  );

/** rows × cols numbers of a fixture tensor from `offset`, rows `stride` apart. */
function torchBlock(tensor, offset, rows, cols, stride = cols) {
  return Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => Number(tensor.data[offset + i * stride + j])),
  );
}

/** The page's matrix against PyTorch's numbers, shown at 4 decimals: within half the last digit. Returns the worst. */
async function expectTorch(name, want) {
  const shown = await tableNumbers(name);
  expect(shown.length, name).toBe(want.length);
  let worst = 0;
  want.forEach((row, i) =>
    row.forEach((x, j) => {
      worst = Math.max(worst, Math.abs(shown[i][j] - x));
    }),
  );
  expect(worst, name).toBeLessThanOrEqual(5e-5 + 1e-6);
  return worst;
}

const steps = () => page.$$eval('#pipeline section.step', (s) => s.map((e) => e.dataset.step));

/** Hovers a cell of `name` and returns the explanation. */
async function explain(name, i, j) {
  await page.hover(`#pipeline table[data-matrix="${name}"]:not(.sr-only) td[data-i="${i}"][data-j="${j}"]`);
  return page.locator('#explain-body').textContent();
}

describe('each variant through the form, with PyTorch’s numbers', () => {
  test('the output gate: its step, W_G, the gate and the gated concat (tests/reference/recent.py)', async () => {
    const { config, expected } = readFixture('recent/gate-plain');
    await applyConfig(config);
    expect(await steps()).toContain('gate');
    const T = expected.tensors;
    const [, S, D] = T.gate.shape;
    const worst = Math.max(
      await expectTorch('W_G', torchBlock(T.W_G, 0, D, D)),
      await expectTorch('gate', torchBlock(T.gate, 0, S, D)),
      await expectTorch('gated', torchBlock(T.gated, 0, S, D)),
      await expectTorch('output', torchBlock(T.output, 0, S, D)),
    );
    console.log(`output gate: worst |page − torch| = ${worst.toExponential(2)}`);
    expect(await explain('gate', 1, 2)).toMatch(/^gate\[[^\]]+\] = .*σ\(/);
    expect(await explain('gated', 1, 2)).toMatch(/^gated\[[^\]]+\] = .* × /);
    expect(await page.textContent('#step-gate h2')).toContain(variantStrings.en['step.gate.title']);
    await shot(page, 'variant-output-gate', { fullPage: false });
  });

  test('differential attention through the form: both maps, A = A₁ − λ·A₂, the head norm (tests/reference/recent.py)', async () => {
    const { config, expected } = readFixture('recent/diff-causal');
    await applyConfig(config);
    const shown = await steps();
    expect(shown).toEqual(expect.arrayContaining(['diffmaps', 'diffweights', 'diffnorm']));
    // The one-map steps stand aside: their head h would be half-head h.
    for (const step of ['scores', 'scaled', 'masked', 'weights', 'dropped', 'links']) expect(shown).not.toContain(step);
    const T = expected.tensors;
    const [, twoH, S, Skv] = T.halfWeights.shape;
    const dk = T.context.shape[3];
    const worst = Math.max(
      await expectTorch('halfWeights_1', torchBlock(T.halfWeights, 0, S, Skv)),
      await expectTorch('halfWeights_2', torchBlock(T.halfWeights, S * Skv, S, Skv)),
      await expectTorch('weights', torchBlock(T.weights, 0, S, Skv)),
      await expectTorch('contextNorm', torchBlock(T.contextNorm, 0, S, dk)),
      await expectTorch('contextScaled', torchBlock(T.contextScaled, 0, S, dk)),
      await expectTorch('output', torchBlock(T.output, 0, S, T.output.shape[2])),
    );
    expect(twoH).toBe(2 * config.numHeads);
    console.log(`differential attention: worst |page − torch| = ${worst.toExponential(2)}`);
    expect(await explain('weights', 2, 1)).toMatch(/^weights\[[^\]]+\] = .*A₁ − λ × A₂ = /);
    expect(await explain('halfWeights_2', 2, 1)).toMatch(/^halfWeights\[[^\]]+\] = .*exp\(/);
    expect(await explain('contextScaled', 1, 0)).toMatch(/λ_init/);
    expect(await page.textContent('#step-diffweights h2')).toContain(diffStrings.en['step.diffweights.title']);
    for (const step of ['diffmaps', 'diffweights', 'diffnorm'])
      await shot(page.locator(`#step-${step}`), `variants-${step}`);
  });

  test('MLA through the form: the latent, the decoupled RoPE, both paths, the cache (tests/reference/recent.py)', async () => {
    // With the inference chapter open too: MLA's cache step is there.
    await page.goto(`${suite.server.url}?chapters=heads,variants,inference`);
    await waitForIdle(page);
    const { config, expected } = readFixture('recent/mla-absorbed-causal');
    await applyConfig(config);
    await waitForIdle(page);
    const shown = await steps();
    expect(shown).toEqual(expect.arrayContaining(['mla-latent', 'mla-rope', 'mla-paths', 'mla-cache']));
    // The steps of plain heads stand aside: MLA's widths are its own, and the steppers step a K and V per head.
    for (const step of ['qkv', 'split', 'rope', 'scores', 'kv-cache', 'flash']) expect(shown).not.toContain(step);
    const T = expected.tensors;
    const [, S, D] = T.X.shape;
    const { kvRank, nopeDim, ropeDim, valueDim } = config.mla;
    const H = config.numHeads;
    const worst = Math.max(
      await expectTorch('latentNorm', torchBlock(T.latentNorm, 0, S, kvRank)),
      await expectTorch('Q_pe_rope_h', torchBlock(T.Q_pe_rope, 0, S, ropeDim, H * ropeDim)),
      await expectTorch('K_pe_rope', torchBlock(T.K_pe_rope, 0, S, ropeDim)),
      await expectTorch('Q_absorbed_h', torchBlock(T.Q_absorbed, 0, S, kvRank, H * kvRank)),
      // The absorbed path is the run's: its scores are PyTorch's; the naive path's are the same attention.
      await expectTorch('scores', torchBlock(T.scores, 0, S, S)),
      await expectTorch('otherPathScores', torchBlock(T.scores, 0, S, S)),
      await expectTorch('weights', torchBlock(T.weights, 0, S, S)),
      await expectTorch('context', torchBlock(T.context, 0, S, valueDim)),
      await expectTorch('output', torchBlock(T.output, 0, S, D)),
    );
    console.log(`MLA: worst |page − torch| = ${worst.toExponential(2)}`);
    expect(await explain('latentNorm', 2, 1)).toMatch(/^latentNorm\[[^\]]+\] = .*RMS = √/);
    expect(await explain('scores', 2, 1)).toMatch(/Σ₁ \+ Σ₂ = /);
    expect(await explain('otherPathScores', 2, 1)).toMatch(/Naive: head 1/);
    expect(await explain('K_h', 1, nopeDim)).toContain('K_pe_rope');
    // The cache: each token's latent and rotated key part (its words are the claims test's, in Node).
    await expectTorch('latentNorm_cache', torchBlock(T.latentNorm, 0, S, kvRank));
    await expectTorch('K_pe_rope_cache', torchBlock(T.K_pe_rope, 0, S, ropeDim));
    expect(await page.textContent('#step-mlapaths h2')).toContain(mlaStrings.en['step.mlapaths.title']);
    for (const step of ['weights', 'mlalatent', 'mlarope', 'mlapaths', 'mlacache'])
      await shot(page.locator(`#step-${step}`), `variants-mla-${step}`);
  });

  test('YaRN through the form: the frequencies before and after, Q and K rotated, the same score at one distance', async () => {
    const { config, expected } = readFixture('recent/rope-yarn-causal');
    await applyConfig(config);
    const T = expected.tensors;
    const [S, half] = T.ropeAngles.shape;
    const D = T.Q.shape[2];
    const dk = D / config.numHeads;
    // The table: per pair, θ before and after (4 significant digits), the kind of each pair.
    const rows = await page.$$eval('#step-rope table[data-figure="ropeFrequencies"] tbody tr', (trs) =>
      trs.map((tr) => ({
        kind: tr.dataset.kind,
        cells: Array.from(tr.querySelectorAll('td'), (td) => Number(td.textContent.replace('−', '-'))),
      })),
    );
    expect(rows.length).toBe(half);
    let worstRelative = 0;
    rows.forEach(({ cells }, i) => {
      for (const [k, tensor] of [
        [0, T.ropeInvFreqBase],
        [1, T.ropeInvFreq],
      ]) {
        const want = Number(tensor.data[i]);
        worstRelative = Math.max(worstRelative, Math.abs(cells[k] - want) / want);
      }
    });
    expect(worstRelative).toBeLessThan(5e-4); // 4 significant digits
    const extrapolation = T.ropeExtrapolationFactor.data.map(Number);
    expect(rows.map((r) => r.kind)).toEqual(
      extrapolation.map((e) => (e === 1 ? 'kept' : e === 0 ? 'interpolated' : 'blended')),
    );
    const worst = Math.max(
      await expectTorch('ropeAngles', torchBlock(T.ropeAngles, 0, S, half)),
      await expectTorch('Q_rope_h', torchBlock(T.Q_rope, 0, S, dk, D)),
      await expectTorch('K_rope_h', torchBlock(T.K_rope, 0, S, dk, D)),
      await expectTorch('scores', torchBlock(T.scores, 0, S, S)),
    );
    console.log(
      `yarn: worst |page − torch| = ${worst.toExponential(2)}, frequencies ${worstRelative.toExponential(2)} relative`,
    );
    // The same score at the same distance still holds, with cos and sin × the attention factor.
    const check = page.locator('#step-rope .rope-scores');
    const [i, j] = [S - 1, Math.floor((S - 1) / 2)];
    expect(Math.abs(Number(await check.getAttribute('data-first')) - Number(T.scores.data[i * S + j]))).toBeLessThan(
      1e-4,
    );
    const notes = await page.locator('#step-rope').textContent();
    expect(notes).toContain(`cos and sin are multiplied by ${Number(T.ropeAttentionFactor.data[0]).toFixed(4)}`);
    expect(await explain('Q_rope_h', 3, 1)).toContain('attention factor');
    expect(await explain('ropeAngles', 3, 1)).toContain('after YaRN scaling');
    await shot(page.locator('#step-rope'), 'variants-rope-yarn');
  });

  test('QK-norm: its step, Q_norm and K_norm of head 1', async () => {
    const { config, expected } = readFixture('qk-norm');
    await applyConfig(config);
    expect(await steps()).toContain('qk-norm');
    expect(await steps()).not.toContain('rope');
    const [, S, D] = expected.tensors.Q_norm.shape;
    const dk = D / config.numHeads;
    const worst = Math.max(
      await expectTorch('Q_norm_h', torchBlock(expected.tensors.Q_norm, 0, S, dk, D)),
      await expectTorch('K_norm_h', torchBlock(expected.tensors.K_norm, 0, S, dk, D)),
    );
    console.log(`qk-norm: worst |page − torch| = ${worst.toExponential(2)}`);
    expect(await explain('Q_norm_h', 1, 2)).toMatch(/^Q_norm\[[^\]]+\] = .*RMS = √/);
  });

  test('RoPE: the angles, Q and K rotated, and the same score at the same distance', async () => {
    const { config, expected } = readFixture('rope-rotate-half');
    await applyConfig(config);
    expect(await steps()).toContain('rope');
    const T = expected.tensors;
    const [S, half] = T.ropeAngles.shape;
    const D = T.Q.shape[2];
    const dk = D / config.numHeads;
    const worst = Math.max(
      await expectTorch('ropeAngles', torchBlock(T.ropeAngles, 0, S, half)),
      await expectTorch('Q_before_rope', torchBlock(T.Q, 0, S, dk, D)),
      await expectTorch('Q_rope_h', torchBlock(T.Q_rope, 0, S, dk, D)),
      await expectTorch('K_rope_h', torchBlock(T.K_rope, 0, S, dk, D)),
    );
    console.log(`rope: worst |page − torch| = ${worst.toExponential(2)}`);
    // q of the last token and k of the middle one, at their positions and moved to start at 0: one score.
    const check = page.locator('#step-rope .rope-scores');
    const [first, second] = [
      Number(await check.getAttribute('data-first')),
      Number(await check.getAttribute('data-second')),
    ];
    const [i, j] = [S - 1, Math.floor((S - 1) / 2)];
    const torchScore = Number(T.scores.data[i * S + j]);
    console.log(`rope same distance: (${i}, ${j}) ${first}, (${i - j}, 0) ${second}, torch ${torchScore}`);
    expect(Math.abs(first - torchScore)).toBeLessThan(1e-5);
    expect(Math.abs(second - first)).toBeLessThan(1e-5);
    expect(await check.textContent()).toContain(`(${i - j}, 0)`);
    expect(await explain('Q_rope_h', 3, 1)).toMatch(/^Q_rope\[[^\]]+\] = .*θ = /);
    expect(await explain('ropeAngles', 3, 1)).toMatch(/^ropeAngles\[3,θ1\] = 0\.0300/);
  });

  test('GQA 4 → 2: K and V with 2 heads, the grouping beside .repeat, head 3 reads K/V head 2', async () => {
    const { config, expected } = readFixture('gqa-4-to-2');
    await applyConfig(config);
    const T = expected.tensors;
    const [, S, width] = T.K.shape;
    expect(width).toBe(8);
    await expectTorch('K', torchBlock(T.K, 0, S, width));
    await expectTorch('V', torchBlock(T.V, 0, S, width));
    const grouping = (kind) =>
      page.$$eval(`.gqa-table tr[data-grouping="${kind}"] td`, (tds) => tds.map((td) => Number(td.dataset.kv) + 1));
    expect(await grouping('right')).toEqual([1, 1, 2, 2]);
    expect(await grouping('wrong')).toEqual([1, 2, 1, 2]);
    expect(await page.locator('.gqa-table td.gqa-wrong').count()).toBe(2);
    expect(await page.locator('#step-qkv').textContent()).toContain('h // 2');
    await page.click('#head-tab-2');
    await waitForIdle(page);
    // Head 3's K is K/V head 2: columns d4…d7 of K.
    await expectTorch('K_h', torchBlock(T.K, 4, S, 4, width));
    expect(await page.locator('#step-split').textContent()).toContain('d4…d7');
    const scores = torchBlock(T.scores, 2 * S * S, S, S);
    const worst = await expectTorch('scores', scores);
    console.log(`gqa: worst |page − torch| scores of head 3 = ${worst.toExponential(2)}`);
    expect(await explain('scores', 2, 1)).toContain('Σ');
    await shot(page.locator('#step-qkv'), 'variants-gqa');
  });

  test('a sliding window with sink tokens: the mask, the window’s and the sinks’ cells marked', async () => {
    const { config, expected } = readFixture('window-sinks');
    await applyConfig(config);
    const [, S] = expected.tensors.mask.shape;
    await expectTorch('mask', torchBlock(expected.tensors.mask, 0, S, S));
    // Window 3, sinks 2, 10 tokens: 1 + 2 + … + 7 = 28 cells behind the window, 13 of them keys 0 and 1 (kept).
    expect(await page.locator('#step-mask td.mask-window').count()).toBe(28 - 13);
    expect(await page.locator('#step-mask td.mask-sink').count()).toBe(13);
    expect(await page.locator('#step-mask').textContent()).toContain(
      en['mask.sinks'].replace('{n}', '2').replace('{kept}', '13'),
    );
    expect(await explain('mask', 9, 5)).toContain('Sliding window');
    expect(await explain('mask', 9, 1)).toContain('sink token');
  });

  test('the sink logit: its weight per row, and the rows summing to less than 1', async () => {
    const { config, expected } = readFixture('sink-logit-nonzero');
    await applyConfig(config);
    const T = expected.tensors;
    const [, , S] = T.sinkWeights.shape;
    const shown = await tableNumbers('sinkWeights');
    let worst = 0;
    for (let i = 0; i < S; i++) {
      worst = Math.max(worst, Math.abs(shown[i][0] - Number(T.sinkWeights.data[i])));
      expect(shown[i][1]).toBeLessThan(1);
      expect(Math.abs(shown[i][0] + shown[i][1] - 1)).toBeLessThanOrEqual(1e-4);
    }
    console.log(`sink logit: worst |page − torch| sinkWeights = ${worst.toExponential(2)}`);
    expect(worst).toBeLessThanOrEqual(5e-5 + 1e-6);
    await expectTorch('weights', torchBlock(T.weights, 0, S, S));
    expect(await explain('weights', 2, 1)).toContain('sink');
  });

  test('learned per-head sinks (gpt-oss): typed as a list, each head’s own logit and sink weights', async () => {
    const { config, expected } = readFixture('recent/sinks-per-head-causal');
    await applyConfig({ ...config, sinkLogit: config.sinkLogit.join(', ') });
    const T = expected.tensors;
    const [, H, S] = T.sinkWeights.shape;
    let worst = 0;
    for (const h of [0, 3]) {
      if (h > 0) {
        await page.click(`#head-tab-${h}`);
        await waitForIdle(page);
      }
      const shown = await tableNumbers('sinkWeights');
      for (let i = 0; i < S; i++)
        worst = Math.max(worst, Math.abs(shown[i][0] - Number(T.sinkWeights.data[h * S + i])));
      worst = Math.max(worst, await expectTorch('weights', torchBlock(T.weights, h * S * S, S, S)));
      const note = en['sink.note.perHead'].split('{head}')[0];
      expect(await page.locator('#step-attnweights').textContent()).toContain(note);
      expect(await page.locator('#step-attnweights .formula').first().textContent()).toContain(
        `s${h + 1} = ${config.sinkLogit[h]}`.replace('-', '−'),
      );
    }
    console.log(`per-head sinks: worst |page − torch| = ${worst.toExponential(2)} (heads 1 and 4, H = ${H})`);
    expect(worst).toBeLessThanOrEqual(5e-5 + 1e-6);
    expect(await explain('weights', 2, 1)).toContain(String(config.sinkLogit[3]));
    await shot(page.locator('#step-attnweights'), 'variants-per-head-sinks');
  });

  test('softcap and ALiBi: capped beside scaled, each head’s slope and bias, biased', async () => {
    const { config, expected } = readFixture('softcap-alibi');
    await applyConfig(config);
    const T = expected.tensors;
    const [, , S] = T.scores.shape;
    expect(await steps()).toEqual(expect.arrayContaining(['softcap', 'alibi']));
    const order = await steps();
    expect(
      order.indexOf('scaled') < order.indexOf('softcap') && order.indexOf('softcap') < order.indexOf('alibi'),
    ).toBe(true);
    const worst = Math.max(
      await expectTorch('scaled_beside_capped', torchBlock(T.scaled, 0, S, S)),
      await expectTorch('capped', torchBlock(T.capped, 0, S, S)),
      await expectTorch('alibiBias', torchBlock(T.alibiBias, 0, S, S)),
      await expectTorch('biased', torchBlock(T.biased, 0, S, S)),
    );
    console.log(`softcap + alibi: worst |page − torch| = ${worst.toExponential(2)}`);
    const slopes = await page.$$eval('.slope-list li', (lis) => lis.map((li) => Number(li.dataset.slope)));
    expect(slopes).toEqual([2 ** -4, 2 ** -8]); // 2 heads: 2^(−8h/2)
    expect(await page.locator('[data-heads="alibiBias"] .head-multiple').count()).toBe(2);
    expect(await explain('capped', 3, 1)).toMatch(/^capped\[[^\]]+\] = .*tanh/);
    expect(await explain('biased', 3, 1)).toContain('alibiBias');
  });
});

/** A preset program's saved tensors (tests/reference/fixtures/programs/<key>.json). */
const program = (key) =>
  JSON.parse(readFileSync(new URL(`../reference/fixtures/programs/${key}.json`, import.meta.url), 'utf8')).tensors;

describe('the presets show their variants with their programs’ numbers', () => {
  test('Llama-style: RoPE and GQA 8 → 2', async () => {
    await page.click('button[data-preset="llama"]');
    await waitForIdle(page);
    const T = program('llama');
    const [, S, width] = T.key_proj.shape;
    expect(await steps()).toEqual(expect.arrayContaining(['rope', 'qkv', 'split']));
    const worst = Math.max(
      await expectTorch('K', torchBlock(T.key_proj, 0, S, width)),
      await expectTorch('ropeAngles', torchBlock(T.rope_angles, 0, S, 2)),
      await expectTorch('Q_rope_h', torchBlock(T.query_states, 0, S, 4)), // head 1 after RoPE
      await expectTorch('scores', torchBlock(T.attn_scores, 0, S, S)),
    );
    console.log(`llama preset: worst |page − program| = ${worst.toExponential(2)}`);
    const right = await page.$$eval('.gqa-table tr[data-grouping="right"] td', (tds) => tds.map((td) => td.dataset.kv));
    expect(right.join('')).toBe('00001111');
  });

  test('ALiBi (BLOOM) and StreamingLLM: the bias and the sink tokens', async () => {
    await page.click('button[data-preset="alibi-bloom"]');
    await waitForIdle(page);
    let T = program('alibi-bloom');
    const [H, S] = T.alibi.shape;
    expect(await page.locator('.slope-list li').count()).toBe(H);
    await expectTorch('alibiBias', torchBlock(T.alibi, 0, S, S));
    await expectTorch('biased', torchBlock(T.biased_scores, 0, S, S));
    await page.click('button[data-preset="streaming-llm"]');
    await waitForIdle(page);
    T = program('streaming-llm');
    await expectTorch('mask', torchBlock(T.mask, 0, T.mask.shape[0], T.mask.shape[1]));
    expect(await page.locator('#step-mask td.mask-sink').count()).toBeGreaterThan(0);
  });
});

describe('in Chinese', () => {
  test('the variant steps’ titles, notes and numbers', async () => {
    await page.selectOption('#language', 'zh');
    await waitForIdle(page);
    const { config, expected } = readFixture('rope-rotate-half');
    await applyConfig({ ...config, softcap: 2, alibi: true, qkNorm: false });
    for (const [step, key] of [
      ['rope', 'step.rope.title'],
      ['softcap', 'step.softcap.title'],
      ['alibi', 'step.alibi.title'],
    ])
      expect(await page.locator(`section[data-step="${step}"] h2`).textContent()).toBe(variantStrings.zh[key]);
    expect(await page.locator('#step-rope').textContent()).toContain('距离相同，分数相同');
    const T = expected.tensors;
    const [S, half] = T.ropeAngles.shape;
    await expectTorch('ropeAngles', torchBlock(T.ropeAngles, 0, S, half));
    await expectTorch('Q_rope_h', torchBlock(T.Q_rope, 0, S, 4, 8));
    expect(await explain('ropeAngles', 2, 1)).toContain('位置 2');
    await shot(page.locator('#step-rope'), 'variants-rope-zh');
  });

  test('differential attention’s three steps in Chinese, with PyTorch’s numbers', async () => {
    await page.selectOption('#language', 'zh');
    await waitForIdle(page);
    const { config, expected } = readFixture('recent/diff-plain');
    await applyConfig(config);
    for (const step of ['diffmaps', 'diffweights', 'diffnorm'])
      expect(await page.locator(`section[data-step="${step}"] h2`).textContent()).toBe(
        diffStrings.zh[`step.${step}.title`],
      );
    const T = expected.tensors;
    const [, , S, Skv] = T.weights.shape;
    await expectTorch('weights', torchBlock(T.weights, 0, S, Skv));
    await expectTorch('halfWeights_2', torchBlock(T.halfWeights, S * Skv, S, Skv));
    // The three steps' words and the chapter bars': Chinese, but for the names kept as they are (before a
    // hovered number's explanation quotes the fixture's English tokens).
    await expectNoEnglish(page);
    expect(await explain('weights', 1, 0)).toContain('第一张图');
    await shot(page.locator('#step-diffweights'), 'variants-diffweights-zh');
  });

  test('MLA’s steps in Chinese, with PyTorch’s numbers', async () => {
    await page.goto(`${suite.server.url}?chapters=heads,variants,inference`);
    await waitForIdle(page);
    await page.selectOption('#language', 'zh');
    await waitForIdle(page);
    const { config, expected } = readFixture('recent/mla-naive');
    await applyConfig(config);
    await waitForIdle(page);
    for (const step of ['mlalatent', 'mlarope', 'mlapaths', 'mlacache'])
      expect(await page.locator(`section[data-step="${step.replace('mla', 'mla-')}"] h2`).textContent()).toBe(
        mlaStrings.zh[`step.${step}.title`],
      );
    const T = expected.tensors;
    const [, S] = T.X.shape;
    await expectTorch('scores', torchBlock(T.scores, 0, S, S));
    await expectTorch('V_h', torchBlock(T.V, 0, S, config.mla.valueDim, config.numHeads * config.mla.valueDim));
    await expectNoEnglish(page);
    expect(await explain('latentNorm', 1, 0)).toContain('均方根');
    for (const step of ['mlapaths', 'mlacache']) await shot(page.locator(`#step-${step}`), `variants-mla-${step}-zh`);
  });

  test('GQA, the window and the sinks say so in Chinese', async () => {
    await page.selectOption('#language', 'zh');
    await waitForIdle(page);
    await applyConfig({
      text: '我们今天在公园里散步',
      dModel: 16,
      numHeads: 4,
      numKVHeads: 1,
      mask: 'causal',
      window: 2,
      sinkTokens: 1,
    });
    expect(await page.locator('#step-qkv').textContent()).toContain('多查询注意力');
    expect(await page.locator('#step-mask').textContent()).toContain('滑动窗口 2');
    expect(await page.locator('#step-mask').textContent()).toContain('注意力汇聚');
  });
});

test('the element shows only the steps it is given: steps="rope alibi"', async () => {
  const html = `<!doctype html><html lang="en"><meta charset="utf-8"><title>steps</title>
    <attention-lab id="lab" text="a b c d e" heads="2" rope="rotate-half" alibi mask="causal" steps="rope alibi"></attention-lab>
    <script type="module" src="attention-lab-element.js"></script>`;
  await page.route(`${suite.server.url}__variants.html`, (route) =>
    route.fulfill({ contentType: 'text/html', body: html }),
  );
  await page.goto(`${suite.server.url}__variants.html`);
  await page.waitForFunction(() => document.getElementById('lab')?.result);
  const shown = await page.evaluate(() =>
    Array.from(document.getElementById('lab').shadowRoot.querySelectorAll('section.step'), (s) => s.dataset.step),
  );
  expect(shown).toEqual(['rope', 'alibi']);
  const titles = await page.evaluate(() =>
    Array.from(document.getElementById('lab').shadowRoot.querySelectorAll('section.step h2'), (h) => h.textContent),
  );
  expect(titles).toEqual([variantStrings.en['step.rope.title'], variantStrings.en['step.alibi.title']]);
});
