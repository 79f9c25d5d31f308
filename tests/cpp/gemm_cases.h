// The gemm checks, shared by the GoogleTest suite (native: the Eigen path) and
// the wasm check run under Node (the SIMD128 kernel): every shape against a
// double-precision naive product.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "gemm.h"

namespace attention_lab::gemm_checks {

struct GemmCase {
  int64_t m, n, k;
  bool transposed, bias;
  int64_t padding;  // extra floats at the end of every row of A, B and C
};

struct GemmCheck {
  double worstRelative = 0;   // max |c - ref| / (sum_k |a·b| + |bias|)
  double bound = 0;           // (k + 1) float32 unit roundoffs: the accumulation bound
  int64_t paddingWrites = 0;  // cells outside C that changed
  bool passed() const { return worstRelative <= bound && paddingWrites == 0; }
};

// Edge sizes (1, below and above the 4×8 tile, the 256 blocks over k and n, an empty sum),
// the engine's shapes, each plain and transposed, with and without bias and strides.
inline std::vector<GemmCase> gemmCases() {
  const int64_t shapes[][3] = {{1, 1, 1},     {5, 4, 4},      {7, 13, 9},    {33, 65, 17},  {64, 256, 256},
                               {3, 257, 513}, {130, 40, 300}, {4, 8, 1},     {1, 9, 600},   {64, 64, 32},
                               {64, 32, 64},  {2, 520, 33},   {17, 3, 1000}, {9, 768, 768}, {3, 5, 0}};
  std::vector<GemmCase> cases;
  int variant = 0;
  for (const auto& s : shapes)
    for (bool transposed : {false, true})
      for (bool bias : {false, true}) cases.push_back({s[0], s[1], s[2], transposed, bias, (variant++ % 3) * 3});
  return cases;
}

// Numbers in [-1, 1) from a fixed linear congruential sequence.
inline std::vector<float> filled(size_t count, uint32_t seed) {
  std::vector<float> v(count);
  for (float& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(seed >> 8) / static_cast<float>(1u << 23) - 1.0f;
  }
  return v;
}

inline GemmCheck checkGemm(const GemmCase& g) {
  const int64_t lda = g.k + g.padding, ldc = g.n + g.padding;
  const int64_t bRows = g.transposed ? g.n : g.k, bCols = g.transposed ? g.k : g.n, ldb = bCols + g.padding;
  const std::vector<float> a = filled(static_cast<size_t>(g.m * lda), 1);
  const std::vector<float> b = filled(static_cast<size_t>(bRows * ldb), 2);
  const std::vector<float> bias = filled(static_cast<size_t>(g.n), 3);
  const float sentinel = 1234.5f;
  std::vector<float> c(static_cast<size_t>(g.m * ldc), sentinel);
  gemm(g.m, g.n, g.k, a.data(), lda, b.data(), ldb, g.transposed, g.bias ? bias.data() : nullptr, c.data(), ldc);

  GemmCheck check;
  check.bound = static_cast<double>(g.k + 1) * std::ldexp(1.0, -24);
  for (int64_t i = 0; i < g.m; ++i) {
    for (int64_t j = 0; j < g.n; ++j) {
      double sum = 0, magnitude = 0;
      for (int64_t kk = 0; kk < g.k; ++kk) {
        const double bValue =
            g.transposed ? b[static_cast<size_t>(j * ldb + kk)] : b[static_cast<size_t>(kk * ldb + j)];
        const double term = static_cast<double>(a[static_cast<size_t>(i * lda + kk)]) * bValue;
        sum += term;
        magnitude += std::fabs(term);
      }
      if (g.bias) {
        sum += bias[static_cast<size_t>(j)];
        magnitude += std::fabs(bias[static_cast<size_t>(j)]);
      }
      const double error = std::fabs(static_cast<double>(c[static_cast<size_t>(i * ldc + j)]) - sum);
      const double relative = magnitude > 0 ? error / magnitude : error;
      if (!(relative <= check.worstRelative)) check.worstRelative = relative;  // NaN counts as worst
    }
    for (int64_t j = g.n; j < ldc; ++j) check.paddingWrites += c[static_cast<size_t>(i * ldc + j)] != sentinel;
  }
  return check;
}

inline void printCheck(const GemmCase& g, const GemmCheck& check) {
  std::printf("gemm %3lldx%3lldx%4lld %s%s%s: worst relative error %.3g (bound %.3g)%s\n", static_cast<long long>(g.m),
              static_cast<long long>(g.n), static_cast<long long>(g.k), g.transposed ? "B^T" : "B  ",
              g.bias ? " +bias" : "      ", g.padding ? " strided" : "        ", check.worstRelative, check.bound,
              check.passed() ? "" : "  FAILED");
}

}  // namespace attention_lab::gemm_checks
