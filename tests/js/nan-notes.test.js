// The notes under NaN rows: the matrices computed from the weights (context, concat, output) say the
// NaN was carried over from the weights with the weights' cause, here a score that overflowed float32
// (they used to blame a −∞ mask the run did not have), in English and Chinese.
import { beforeAll, describe, expect, test } from 'vitest';
import { loadAttentionLab } from '../../web/api/index.js';
import { loadLanguage, translator } from '../../web/i18n/index.js';
import { carriedNanNote, nanNote } from '../../web/view/steps/nan-rows.js';
import { runContext } from '../../web/view/steps/run-context.js';

let lab;
let zh;
beforeAll(async () => {
  lab = await loadAttentionLab();
  zh = await loadLanguage('zh');
});

/** The rows of sentence 0 of a [B, S, D] tensor that hold a NaN. */
function nanRows(tensor) {
  const [, S, D] = tensor.shape;
  return Array.from({ length: S }, (_, i) => i).filter((i) =>
    tensor.data.subarray(i * D, (i + 1) * D).some(Number.isNaN),
  );
}

describe('NaN notes', () => {
  test('no mask, a scale that overflows: the output’s note blames the overflow, not a mask', () => {
    const result = lab.run({ input: { randn: [1, 4, 64] }, dModel: 64, numHeads: 1, scale: 1e38 });
    const rows = nanRows(result.tensors.output);
    expect(rows.length).toBeGreaterThan(0);
    const run = runContext(result);
    const en = translator('en');
    const carried = carriedNanNote(run, en)(rows);
    expect(carried).toContain('overflowed float32');
    expect(carried).not.toContain('masked');
    expect(carriedNanNote(run, zh)(rows)).toContain('溢出成 ∞');
    expect(carriedNanNote(run, zh)(rows)).not.toContain('掩码');
    expect(nanNote(run, en)(rows)).toContain('overflowed float32 to ∞');
  });
});
