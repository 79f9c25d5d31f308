// runSettings is the one reader of a run's settings (the view, the explanations,
// the PyTorch script): the schema's defaults for what is not reported, and a
// flag per mask kind for every mask choice, taken from the schema's `kinds` and
// matching what the engine's mask tensor blocks.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { MASK_KINDS, maskKindsOf } from '../../web/model/mask-kinds.js';
import { blockReasons, maskBlocks, runSettings } from '../../web/model/run-settings.js';
import { fieldByPath } from '../../web/model/schema.js';

const MASK_CHOICES = fieldByPath.get('mask').choices;

describe('mask flags per choice', () => {
  test('each choice of the schema has its flags (written by hand here)', () => {
    const expected = {
      none: { causal: false, padding: false },
      causal: { causal: true, padding: false },
      padding: { causal: false, padding: true },
      'causal+padding': { causal: true, padding: true },
    };
    expect(MASK_KINDS).toEqual(['causal', 'padding']);
    expect([...MASK_CHOICES].sort()).toEqual(Object.keys(expected).sort());
    for (const mask of MASK_CHOICES) {
      expect(maskKindsOf(mask), mask).toEqual(expected[mask]);
      expect(runSettings({ mask }).maskKinds, mask).toEqual(expected[mask]);
    }
    // a name that is no choice holds nothing, however it reads
    expect(maskKindsOf('anti-causal')).toEqual({ causal: false, padding: false });
    expect(runSettings({}).maskKinds).toEqual(expected.none);
  });

  test("every choice's flags are what the engine's mask blocks: the future (causal), <pad> keys (padding)", async () => {
    const lab = await loadAttentionLab();
    for (const mask of MASK_CHOICES) {
      for (const maskConvention of fieldByPath.get('maskConvention').choices) {
        const result = lab.run(
          { texts: ['a b c d', 'e f'], dModel: 4, numHeads: 1, mask, maskConvention },
          { tensors: ['mask'] },
        );
        const rs = runSettings(result.settings);
        const [B, S, Skv] = result.tensors.mask.shape;
        expect(B * S * Skv).toBe(2 * 4 * 4);
        let blocked = 0;
        for (let b = 0; b < B; b++)
          for (let i = 0; i < S; i++)
            for (let j = 0; j < Skv; j++) {
              const value = result.tensors.mask.data[(b * S + i) * Skv + j];
              const pad = result.tokens[b][j] === '<pad>';
              const want = (rs.maskKinds.causal && j > i) || (rs.maskKinds.padding && pad);
              expect(maskBlocks(value, rs.maskConvention), `${mask} ${maskConvention} [${b}, ${i}, ${j}]`).toBe(want);
              expect(blockReasons(mask, i, j, result.tokens[b][j]).length > 0).toBe(want);
              blocked += want;
            }
        // none: 0; causal: 6 future pairs per sentence; padding: 4 queries × the 2 <pad> keys of sentence 2;
        // causal+padding: 6 + (6 ∪ 8 in sentence 2, 5 pairs both) = 6 + 9
        expect(blocked, `${mask} ${maskConvention}`).toBe(
          { none: 0, causal: 12, padding: 8, 'causal+padding': 15 }[mask],
        );
      }
    }
  });

  test('no code reads the mask kinds out of a mask name', () => {
    const web = fileURLToPath(new URL('../../web/', import.meta.url));
    const files = readdirSync(web, { recursive: true }).filter(
      (f) => f.endsWith('.js') && !f.startsWith('api/generated'),
    );
    const parsing = /includes\(\s*['"](causal|padding)['"]\s*\)|split\(\s*['"]\+['"]\s*\)/;
    expect(files.length).toBeGreaterThan(50);
    expect(files.filter((f) => parsing.test(readFileSync(`${web}${f}`, 'utf8')))).toEqual([]);
  });
});

describe('runSettings, the one reader of result.settings', () => {
  test('what a run does not report is the schema default (written by hand here)', () => {
    const rs = runSettings({});
    expect(rs).toMatchObject({
      maskConvention: 'blocked',
      score: 'dot',
      init: 'torch-linear',
      layout: 'fused',
      outProj: true,
      qkvBias: false,
      p: 0,
      positional: 'none',
      scale: 'head-dim',
      mask: 'none',
      fill: -Infinity,
      seed: 0,
      weightsSeed: null,
      dropoutSeed: null,
      additiveHidden: 8,
      heads: 2,
      kvHeads: 2,
      gqa: false,
      qkNorm: false,
      rope: null,
      ropeBase: 10000,
      ropeScaling: null,
      window: null,
      sinkTokens: 0,
      sinkLogits: null,
      sinkPerHead: false,
      alibi: false,
      softcap: null,
    });
  });

  test("reads a run's settings: seeds, the fill, grouped-query heads, the variants", async () => {
    const lab = await loadAttentionLab();
    const { settings, sizes } = lab.run(
      {
        text: 'a b c d',
        dModel: 8,
        numHeads: 4,
        numKVHeads: 2,
        weights: { seed: 5 },
        dropout: { p: 0.25, seed: 3 },
        mask: 'causal',
        maskFill: -1e9,
        window: 2,
        rope: { style: 'interleaved', base: 500 },
        softcap: 30,
      },
      { tensors: ['output'] },
    );
    const rs = runSettings(settings);
    expect(rs).toMatchObject({ weightsSeed: 5, dropoutSeed: 3, p: 0.25, fill: -1e9, window: 2, softcap: 30 });
    expect(rs).toMatchObject({ heads: 4, kvHeads: 2, gqa: true, rope: 'interleaved', ropeBase: 500 });
    expect([rs.heads, rs.kvHeads]).toEqual([sizes.H, sizes.H_kv]);
    expect(rs.maskKinds).toEqual({ causal: true, padding: false });
  });

  test('the sink logit: one number is every head’s, a list is one per head (gpt-oss)', async () => {
    const lab = await loadAttentionLab();
    const run = (sinkLogit) =>
      runSettings(lab.run({ text: 'a b', dModel: 8, numHeads: 2, sinkLogit }, { tensors: ['output'] }).settings);
    expect(run(0.5)).toMatchObject({ sinkLogits: [0.5, 0.5], sinkPerHead: false });
    expect(run([0.5, -1])).toMatchObject({ sinkLogits: [0.5, -1], sinkPerHead: true });
  });

  test('the PyTorch script and the views read settings through it, not from result.settings', () => {
    const read = (path) => readFileSync(fileURLToPath(new URL(`../../web/${path}`, import.meta.url)), 'utf8');
    for (const file of ['model/pytorch-script.js', 'model/pytorch-variants.js', 'view/teach/step-by-step.js']) {
      expect(read(file), file).not.toMatch(/(?<![-\w])settings(\[|\.[a-zA-Z])/);
    }
    expect(read('model/pytorch-script.js')).toContain('runSettings(result.settings)');
    expect(read('model/pytorch-variants.js')).not.toContain('variantsOf');
  });
});
