// npm run bench starts and prints every section and row: its tiny mode
// (node web/scripts/bench.js --tiny) on the built dist/, the native
// contestants (build.sh native-bench) and the wasm benchmarks (build.sh wasm-bench).
// The figures themselves are not asserted: speed is measured, not tested.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
let output = '';

beforeAll(async () => {
  const run = await promisify(execFile)(process.execPath, ['web/scripts/bench.js', '--tiny'], {
    cwd: repo,
    encoding: 'utf8',
    timeout: 240_000,
  });
  output = run.stdout;
  console.log(output);
}, 300_000);

// A figure: a decimal number, e.g. 12, 0.35, 1.2e-7.
const NUMBER = String.raw`\d+(?:\.\d+)?(?:e[-+]?\d+)?`;
const line = (pattern) => {
  const found = output.split('\n').find((l) => new RegExp(pattern).test(l));
  expect(found, `a line matching /${pattern}/ in\n${output}`).toBeDefined();
  return found;
};

describe('npm run bench --tiny', () => {
  test('prints the wasm SIMD128 peak', () => {
    line(String.raw`^wasm SIMD128 mul\+add peak: ${NUMBER} GFLOP/s`);
  });

  test('checks every contestant against our output before timing, within 1e-4 relative', () => {
    for (const size of ['5/4/1', '16/32/2']) {
      const found = line(String.raw`^  ${size} +onnxruntime-web ${NUMBER}`);
      const relative = Number(found.match(new RegExp(String.raw`relative (${NUMBER})`))[1]);
      expect(relative).toBeLessThanOrEqual(1e-4);
      expect(found).toMatch(new RegExp(String.raw`Eigen -msse4.2 ${NUMBER}, -march=native ${NUMBER}`));
    }
  });

  test('times all six contestants at every size, with GFLOP/s and the fraction of the peak', () => {
    const header = line('^  S/D/H +GFLOP');
    for (const name of ['ours', 'onnxruntime-web', 'Eigen -msse4.2', 'Eigen -march=native', 'engine -msse4.2'])
      expect(header).toContain(name);
    expect(header).toContain('engine -march=native');
    const cell = String.raw` +${NUMBER} (?:ms|µs) +${NUMBER} +${NUMBER}%`;
    for (const size of ['5/4/1', '16/32/2']) line(String.raw`^  ${size} +${NUMBER}(?:${cell}){6}`);
  });

  test('prints the speed ratios with their targets', () => {
    const row = line(String.raw`^  16/32/2 +vs onnxruntime-web ${NUMBER}×`);
    expect(row).toMatch(/target ≥ 1\.5×: (holds|MISSED)/);
    expect(row).toMatch(new RegExp(String.raw`vs Eigen -msse4.2 ${NUMBER}×.*vs Eigen -march=native ${NUMBER}×`));
  });

  test('prints the GEMM figures and the weight edit', () => {
    line(String.raw`gemm +${NUMBER} GFLOP/s +Eigen +${NUMBER} GFLOP/s`);
    line(String.raw`run ${NUMBER} (?:ms|µs) vs ${NUMBER} (?:ms|µs) without`);
  });

  test('prints the page figures, each with its target and verdict', () => {
    const verdict = '(holds|MISSED)';
    line(String.raw`cold load to the first result: median ${NUMBER} ms .*target < 300 ms: ${verdict}`);
    line(
      String.raw`edit W_Q\[0\]\[0\] to layout.*median ${NUMBER} ms .*target < 16 ms: ${verdict}.*p90 ${NUMBER} ms \(target < 25 ms: ${verdict}`,
    );
    line(
      String.raw`keystroke at 512 tokens.*: ${NUMBER} ms .*target < 250 ms: ${verdict}.*longest main-thread task .*${NUMBER} ms .*\(target ≤ 50 ms: ${verdict}`,
    );
    line(String.raw`main page JS \+ wasm \+ CSS: ${NUMBER} KB .*target ≤ 150 KB: ${verdict}`);
  });
});
