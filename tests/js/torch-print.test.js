// print(tensor) as PyTorch 1.13 writes it: tests/reference/printing/cases.json
// holds, for tensors of every printing regime (fixed, scientific, whole
// numbers, ±inf and NaN, -0, exact halves, wrapped lines, summaries), their
// float32 values and the text repr() gave in PyTorch itself.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { fixedText, scientificText, torchPrint } from '../../web/model/torch-print.js';

const decode = (v) => (v === 'NaN' ? NaN : v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : v);
const CASES = JSON.parse(readFileSync(new URL('../reference/printing/cases.json', import.meta.url), 'utf8'));

describe("torchPrint writes PyTorch 1.13's print(tensor), character for character", () => {
  test.each(CASES.map((c) => [c.name, c]))('%s', (_, c) => {
    expect(torchPrint(c.shape, Float32Array.from(c.data, decode))).toBe(c.text);
  });
});

describe("Python's float formats, rounding the exact binary value half to even", () => {
  test.each([
    [1 / 32, '0.0312', '3.1250e-02'],
    [3 / 32, '0.0938', '9.3750e-02'],
    [1 + 1 / 32, '1.0312', '1.0312e+00'],
    [-0, '-0.0000', '-0.0000e+00'],
    [9.99996, '10.0000', '1.0000e+01'],
    [-1234.5678, '-1234.5678', '-1.2346e+03'],
    [5e-324, '0.0000', '4.9407e-324'],
  ])('%s', (v, fixed, scientific) => {
    expect(fixedText(v)).toBe(fixed);
    expect(scientificText(v)).toBe(scientific);
  });
});
