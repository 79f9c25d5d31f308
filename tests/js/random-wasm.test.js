// The generator's WebAssembly SIMD128 transforms against its scalar ones, bit
// for bit: build/wasm/random_wasm_check.js, built by `build.sh wasm`, runs
// every possible uniform through the Box-Muller block and the nn.Linear
// uniform_ transform, and fused multiply-adds on halfway and random triples,
// and exits 1 when any value differs. (The scalar transforms match PyTorch's
// numbers in tests/cpp/torch_random_test.cpp, and the FMA emulation the
// hardware fma in tests/cpp/exact_fma_test.cpp.)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const check = fileURLToPath(new URL('../../build/wasm/random_wasm_check.js', import.meta.url));

test('the wasm SIMD128 generator transforms equal the scalar ones bit for bit', () => {
  const run = spawnSync(process.execPath, [check], { encoding: 'utf8' });
  console.log(run.stdout.trim());
  expect(run.stderr).toBe('');
  expect(run.stdout).not.toContain('FAILED');
  expect(run.stdout).toMatch(/normal_fill_16: 33554432 values, 0 differ/);
  expect(run.stdout.trim().split('\n').at(-1)).toBe('random: 0 checks failed');
  expect(run.status).toBe(0);
}, 120_000);
