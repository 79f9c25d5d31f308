// The gemm checks of tests/cpp/gemm_test.cpp (and the softmax exp's of
// tests/cpp/exp_cases.h) on the WebAssembly SIMD128 kernels
// (the native suite runs the Eigen path): build/wasm/gemm_wasm_check.js, built
// by `build.sh wasm`, compares every shape with a double-precision product and
// exits 1 when an error passes the float32 accumulation bound.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const check = fileURLToPath(new URL('../../build/wasm/gemm_wasm_check.js', import.meta.url));

test('the wasm SIMD128 gemm matches a double-precision product on every shape', () => {
  const run = spawnSync(process.execPath, [check], { encoding: 'utf8' });
  const summary = run.stdout.trim().split('\n').at(-1);
  console.log(summary);
  // The softmax's SIMD exp against musl's expf: at most 2 ulp, the lanes equal to the scalar path.
  const exp = run.stdout.split('\n').find((line) => line.startsWith('exp: '));
  console.log(exp);
  const [, worstUlp, special, lanes] = exp.match(/worst (\d+) ulp.*; (\d+) special values wrong, (\d+) lanes/);
  expect(Number(worstUlp)).toBeLessThanOrEqual(2);
  expect(Number(special)).toBe(0);
  expect(Number(lanes)).toBe(0);
  expect(run.stderr).toBe('');
  expect(run.stdout).not.toContain('FAILED');
  expect(summary).toMatch(/^gemm: 0 failed; worst error/);
  expect(run.status).toBe(0);
});
