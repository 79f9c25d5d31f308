// The generator's WebAssembly SIMD128 transforms (cephes_simd128.h) against
// the scalar ones (cephes.h, exact_fma.h) they must equal bit for bit, built
// for WebAssembly and run under Node by tests/js/random-wasm.test.js. Every
// float the generator's uniforms can take (the 2^24 multiples of 2^-24) goes
// through the Box-Muller block (as both u1 and u2) and through the uniform_
// transforms of the nn.Linear and xavier bounds; then fused multiply-adds on
// halfway and random triples. Exit status 1 on any difference.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "cephes.h"
#include "cephes_simd128.h"
#include "exact_fma.h"

using namespace attention_lab;

namespace {

uint32_t bitsOf(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

struct Count {
  const char* what;
  long long checked = 0, mismatches = 0;
  void compare(float scalar, float vector) {
    ++checked;
    const bool same = bitsOf(scalar) == bitsOf(vector) || (std::isnan(scalar) && std::isnan(vector));
    if (!same && mismatches++ < 5) std::printf("FAILED %s: scalar %a, simd128 %a\n", what, scalar, vector);
  }
  int report() const {
    std::printf("%s: %lld values, %lld differ\n", what, checked, mismatches);
    return mismatches ? 1 : 0;
  }
};

// Box-Muller on every uniform (stride 1): block k holds u = (8k .. 8k+7) / 2^24 in both halves.
int checkNormalFill(float mean, float std, uint32_t stride) {
  Count count{"normal_fill_16"};
  float scalar[16], vector[16];
  for (uint32_t first = 0; first < (1u << 24); first += 8 * stride) {
    for (int j = 0; j < 8; ++j)
      scalar[j] = scalar[j + 8] = static_cast<float>(first + static_cast<uint32_t>(j)) * (1.0f / (1u << 24));
    std::memcpy(vector, scalar, sizeof scalar);
    cephes::normalFill16(scalar, mean, std);
    simd128::normalFill16(vector, mean, std);
    for (int j = 0; j < 16; ++j) count.compare(scalar[j], vector[j]);
  }
  return count.report();
}

// uniform_(from, to): x * (to - from) + from for every x (stride 1).
int checkUniform(double bound, uint32_t stride) {
  Count count{"uniform_"};
  const float from = static_cast<float>(-bound), range = static_cast<float>(bound) - from;
  for (uint32_t first = 0; first < (1u << 24); first += 4 * stride) {
    float xs[4], vector[4];
    for (int j = 0; j < 4; ++j) xs[j] = static_cast<float>(first + static_cast<uint32_t>(j)) * (1.0f / (1u << 24));
    wasm_v128_store(vector, simd128::fma(wasm_v128_load(xs), wasm_f32x4_splat(range), wasm_f32x4_splat(from)));
    for (int j = 0; j < 4; ++j) count.compare(fmaViaDouble(xs[j], range, from), vector[j]);
  }
  return count.report();
}

// Halfway cases (as exact_fma_test.cpp builds them) and random bit patterns.
int checkFma() {
  Count count{"fma"};
  std::mt19937 rng(3);
  auto check4 = [&](const float* a, const float* b, const float* c) {
    float vector[4];
    wasm_v128_store(vector, simd128::fma(wasm_v128_load(a), wasm_v128_load(b), wasm_v128_load(c)));
    for (int j = 0; j < 4; ++j) count.compare(fmaViaDouble(a[j], b[j], c[j]), vector[j]);
  };
  for (int i = 0; i < 250000; ++i) {
    float a[4], b[4], c[4];
    for (int j = 0; j < 4; ++j) {
      const float sign = (rng() & 1) ? 1.0f : -1.0f;
      c[j] = sign * std::ldexp(static_cast<float>((rng() & 0x7fffff) | 0x800000), static_cast<int>(rng() % 230) - 173);
      const int halfUlpExponent = std::max(std::ilogb(c[j]) - 23, -149) - 1;
      const float u = std::ldexp(1.0f, -(15 + static_cast<int>(rng() % 9)));
      const int split = halfUlpExponent / 2 + static_cast<int>(rng() % 21) - 10;
      a[j] = std::ldexp(1.0f + u, split);
      b[j] = (rng() & 1 ? 1 : -1) * std::ldexp(1.0f - u, halfUlpExponent - split);
    }
    check4(a, b, c);
    for (int j = 0; j < 4; ++j) {
      uint32_t bits[3] = {rng(), rng(), rng()};
      std::memcpy(&a[j], &bits[0], 4);
      std::memcpy(&b[j], &bits[1], 4);
      std::memcpy(&c[j], &bits[2], 4);
    }
    check4(a, b, c);
  }
  return count.report();
}

}  // namespace

int main() {
  int failures = checkFma();
  failures += checkNormalFill(0.0f, 1.0f, 1);  // randn, nn.Embedding: every input
  failures += checkNormalFill(0.5f, 2.0f, 61);
  // nn.Linear's bound 1/sqrt(fanIn) at D 768 for every input; fan-ins 4, 64,
  // 4096 and xavier's bound for [3*768, 768] on a sample.
  failures += checkUniform(1.0 / std::sqrt(768.0), 1);
  for (double bound : {0.5, 0.125, 1.0 / 64, std::sqrt(3.0) * std::sqrt(2.0 / (4 * 768.0))})
    failures += checkUniform(bound, 17);
  std::printf("random: %d checks failed\n", failures);
  return failures ? 1 : 0;
}
