// The WebAssembly SIMD128 mul+add peak of this machine, in GFLOP/s: what a
// float32 kernel without FMA (wasm has none) could reach at best. Built for
// wasm (build.sh wasm-bench) and run under Node by npm run bench.
//
//   node build/wasm/simd_peak.js [seconds]
//
// N independent chains acc = acc * a + b of f32x4 (8 flops per chain step)
// keep the multiply and add pipes busy when N covers their latency; a few N
// are tried (more chains than registers would spill) and the best is printed
// as {"gflops": ..., "chains": N}.
#include <wasm_simd128.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace {

volatile float gSeed = 1.0f, gFactor = 0.999999f, gTerm = 1e-7f;
volatile float gSink = 0.0f;

template <int N>
void chains(int iterations) {
  v128_t acc[N];
  for (int i = 0; i < N; ++i) acc[i] = wasm_f32x4_splat(gSeed + static_cast<float>(i));
  const v128_t a = wasm_f32x4_splat(gFactor), b = wasm_f32x4_splat(gTerm);
  for (int it = 0; it < iterations; ++it)
    for (int i = 0; i < N; ++i) acc[i] = wasm_f32x4_add(wasm_f32x4_mul(acc[i], a), b);
  v128_t sum = acc[0];
  for (int i = 1; i < N; ++i) sum = wasm_f32x4_add(sum, acc[i]);
  gSink = wasm_f32x4_extract_lane(sum, 0);
}

// Through pointers the optimizer cannot see through: V8 optimizes a wasm
// function for its later calls, so the loop must be a function called often.
using Kernel = void (*)(int);
Kernel volatile gKernels[] = {chains<8>, chains<10>, chains<12>, chains<14>};
const int kChains[] = {8, 10, 12, 14};

double seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The best rate of short slices over `budget` seconds.
double bestGflops(int which, double budget) {
  const int iterations = 200000;
  const double flopsPerSlice = 8.0 * kChains[which] * iterations;
  double best = 0;
  const auto start = std::chrono::steady_clock::now();
  while (seconds(start) < budget) {
    const auto t0 = std::chrono::steady_clock::now();
    gKernels[which](iterations);
    const double rate = flopsPerSlice / seconds(t0) / 1e9;
    if (rate > best) best = rate;
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const double budget = argc > 1 ? std::atof(argv[1]) : 0.5;
  double best = 0;
  int bestChains = 0;
  for (int which = 0; which < 4; ++which) {
    const double rate = bestGflops(which, budget / 4);
    if (rate > best) best = rate, bestChains = kChains[which];
  }
  std::printf("{\"gflops\": %.3f, \"chains\": %d}\n", best, bestChains);
  return 0;
}
