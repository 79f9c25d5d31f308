// The committed tiny model against its training script and report, in PyTorch
// (tests/reference/tiny/check.py, Debian's torch 1.13; no training): step 0 is the
// script's seeded initialisation byte for byte, every checkpoint is the file the report
// measured, and the final weights re-measured give the report's head scores and counts.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const check = fileURLToPath(new URL('../reference/tiny/check.py', import.meta.url));
// What the issue asks of the model's copying (mean accuracy per text on the report's probes): 0.95 on
// random strings typed twice and 0.9 on natural sentences typed twice (the committed run: 0.993 and 0.906).
const [TARGET_RANDOM, TARGET_NATURAL] = [0.95, 0.9];
const report = JSON.parse(readFileSync(new URL('../reference/tiny/report.json', import.meta.url), 'utf8'));

test('the committed weights are what train.py and report.json say, re-measured in PyTorch', () => {
  const out = spawnSync('/usr/bin/python3', [check], { encoding: 'utf8' });
  expect(out.stderr).toBe('');
  const result = JSON.parse(out.stdout);
  console.log(`tiny model: worst head-score difference from the report ${result.worstScoreDifference}`);
  expect(result.problems).toEqual([]);
  expect(out.status).toBe(0);
  expect(result.worstScoreDifference).toBeLessThanOrEqual(1e-4);
});

test('the report shows what the issue asks of the model: a previous-token head feeding an induction head', () => {
  const [layer1, layer2] = [report.final.previousToken[0], report.final.induction[1]];
  expect(Math.max(...layer1)).toBeGreaterThan(0.9);
  expect(Math.max(...layer2)).toBeGreaterThan(0.6);
  // Zeroing the previous-token head removes the induction: the composition is real.
  expect(Math.max(...report.final.ablation.induction[0])).toBeLessThan(0.1);
  expect(report.curve[0].induction.flat().every((score) => score < 0.1)).toBe(true);
  for (const sentence of Object.values(report.final.sentences)) {
    expect(sentence.correct / sentence.total).toBeGreaterThan(0.8);
  }
  // 256 bytes of context: (256 + 256) × 64 embedding weights and 2 layers of 4 × 64 × 64.
  expect(report.model.context).toBe(256);
  expect(report.model.parameters).toBe((256 + 256) * 64 + 2 * 4 * 64 * 64);
  for (const checkpoint of report.checkpoints) expect(checkpoint.bytes).toBeLessThan(150 * 1024);
});

test('the report holds the copying it was trained for, measured per text as a learner would', () => {
  // Random letters typed twice (some with a separator or a third copy): 0.95 of the second copy's next bytes.
  expect(report.final.secondCopy.meanPerText).toBeGreaterThanOrEqual(TARGET_RANDOM);
  // Natural sentences typed twice (English, Chinese, mixed; spaced, on a new line, three times).
  expect(report.final.naturalCopy.meanPerText).toBeGreaterThanOrEqual(TARGET_NATURAL);
});
