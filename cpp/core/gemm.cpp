// C = A·B (+ bias) for row-major strided operands; see gemm.h.
//
// WebAssembly SIMD128 (Eigen 3.4 has no wasm packet path and falls back to its
// scalar kernel there): the GotoBLAS / XNNPACK layout.
//   for each block of kNC columns of B
//     for each block of kKC rows of B (the sum over k in slices)
//       pack B[kc, nc] into panels of kNR = 8 columns (zero-padded), ~256 KB: stays in L2
//       for each kMR = 4 rows of A (read in place; 4 × kc floats stay in L1)
//         for each panel: the 4×8 micro-kernel, 8 f32x4 accumulators in registers
// Wasm has no fused multiply-add: every step is add(acc, mul(a, b)).
#include "gemm.h"

#include <algorithm>

#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include <vector>
#else
#include <Eigen/Dense>
#include <vector>
#endif

namespace attention_lab {

#ifdef __wasm_simd128__
namespace {

constexpr int64_t kMR = 4;    // rows of C per micro-kernel call
constexpr int64_t kNR = 8;    // columns of C per micro-kernel call: two f32x4
constexpr int64_t kKC = 256;  // depth of one packed block
constexpr int64_t kNC = 256;  // columns of one packed block

// B as the kernel reads it: `count` blocks of `blockCols` columns side by
// side (one block for a plain product), each [k, blockCols] with rows ldb
// apart, or stored [blockCols, k] when transposed.
struct BMatrix {
  const float* const* blocks;
  int64_t blockCols;
  int64_t ldb;
  bool transposed;

  // Column j of B: its block's start, shifted to the column (not transposed)
  // or to the column's row (transposed).
  const float* column(int64_t j) const {
    const float* block = blocks[j / blockCols];
    const int64_t col = j % blockCols;
    return transposed ? block + col * ldb : block + col;
  }
  float at(int64_t kk, int64_t j) const { return transposed ? column(j)[kk] : column(j)[kk * ldb]; }
};

// B[k0 : k0 + kc, n0 : n0 + nc] -> panels of kNR columns, one after another:
// element (kk, j) of panel p at packed[p * kc * kNR + kk * kNR + j], zero past nc.
void packB(const BMatrix& b, int64_t k0, int64_t kc, int64_t n0, int64_t nc, float* packed) {
  for (int64_t p0 = 0; p0 < nc; p0 += kNR) {
    const int64_t cols = std::min(kNR, nc - p0), j0 = n0 + p0;
    float* panel = packed + p0 * kc;
    if (b.transposed) {
      // Column j of the panel is a contiguous row of the stored B.
      for (int64_t j = 0; j < cols; ++j) {
        const float* src = b.column(j0 + j) + k0;
        for (int64_t kk = 0; kk < kc; ++kk) panel[kk * kNR + j] = src[kk];
      }
      for (int64_t j = cols; j < kNR; ++j)
        for (int64_t kk = 0; kk < kc; ++kk) panel[kk * kNR + j] = 0.0f;
    } else if (cols == kNR && j0 % b.blockCols + kNR <= b.blockCols) {
      // A whole panel inside one block: two vector copies per row.
      const float* src = b.column(j0) + k0 * b.ldb;
      for (int64_t kk = 0; kk < kc; ++kk, src += b.ldb) {
        wasm_v128_store(panel + kk * kNR, wasm_v128_load(src));
        wasm_v128_store(panel + kk * kNR + 4, wasm_v128_load(src + 4));
      }
    } else {
      for (int64_t kk = 0; kk < kc; ++kk)
        for (int64_t j = 0; j < kNR; ++j) panel[kk * kNR + j] = j < cols ? b.at(k0 + kk, j0 + j) : 0.0f;
    }
  }
}

// One row of a C tile: c[0 : cols] = (accumulate ? c : 0) + acc (+ bias).
inline void storeRow(float* c, v128_t lo, v128_t hi, int64_t cols, bool accumulate, const float* bias) {
  if (cols == kNR) {
    if (accumulate) {
      lo = wasm_f32x4_add(wasm_v128_load(c), lo);
      hi = wasm_f32x4_add(wasm_v128_load(c + 4), hi);
    }
    if (bias) {
      lo = wasm_f32x4_add(lo, wasm_v128_load(bias));
      hi = wasm_f32x4_add(hi, wasm_v128_load(bias + 4));
    }
    wasm_v128_store(c, lo);
    wasm_v128_store(c + 4, hi);
    return;
  }
  float lanes[kNR];
  wasm_v128_store(lanes, lo);
  wasm_v128_store(lanes + 4, hi);
  for (int64_t j = 0; j < cols; ++j) {
    float value = accumulate ? c[j] + lanes[j] : lanes[j];
    if (bias) value = value + bias[j];
    c[j] = value;
  }
}

// C[rows, cols] (+)= A[rows, kc] · panel[kc, kNR] (+ bias); rows <= kMR, cols <= kNR.
// The kMR × 2 accumulators live in registers (the loops over rows unroll).
// Rows past `rows` read row 0 again and are never stored.
void microKernel(int64_t rows, int64_t cols, int64_t kc, const float* a, int64_t lda, const float* panel, float* c,
                 int64_t ldc, bool accumulate, const float* bias) {
  const float* aRow[kMR];
  v128_t lo[kMR], hi[kMR];
#pragma clang loop unroll(full)
  for (int64_t i = 0; i < kMR; ++i) {
    aRow[i] = a + (i < rows ? i : 0) * lda;
    lo[i] = hi[i] = wasm_f32x4_splat(0.0f);
  }
  for (int64_t kk = 0; kk < kc; ++kk, panel += kNR) {
    const v128_t b0 = wasm_v128_load(panel);
    const v128_t b1 = wasm_v128_load(panel + 4);
#pragma clang loop unroll(full)
    for (int64_t i = 0; i < kMR; ++i) {
      const v128_t x = wasm_v128_load32_splat(aRow[i] + kk);
      lo[i] = wasm_f32x4_add(lo[i], wasm_f32x4_mul(x, b0));
      hi[i] = wasm_f32x4_add(hi[i], wasm_f32x4_mul(x, b1));
    }
  }
#pragma clang loop unroll(full)
  for (int64_t i = 0; i < kMR; ++i)
    if (i < rows) storeRow(c + i * ldc, lo[i], hi[i], cols, accumulate, bias);
}

// C = A·B (+ bias), B as described by `b`.
void multiply(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const BMatrix& b, const float* bias,
              float* c, int64_t ldc) {
  if (k == 0) {  // an empty sum, as Eigen gives it: 0 (+ bias)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) c[i * ldc + j] = bias ? bias[j] : 0.0f;
    return;
  }
  // One buffer for the packed block, reused across calls (one thread per
  // instance); only grown, so a call after a smaller one fills nothing.
  static std::vector<float> packed;
  const int64_t ncMax = (std::min(n, kNC) + kNR - 1) / kNR * kNR;
  const size_t packedSize = static_cast<size_t>(std::min(k, kKC) * ncMax);
  if (packed.size() < packedSize) packed.resize(packedSize);
  for (int64_t n0 = 0; n0 < n; n0 += kNC) {
    const int64_t nc = std::min(kNC, n - n0);
    for (int64_t k0 = 0; k0 < k; k0 += kKC) {
      const int64_t kc = std::min(kKC, k - k0);
      const bool accumulate = k0 > 0, lastSlice = k0 + kc == k;
      packB(b, k0, kc, n0, nc, packed.data());
      for (int64_t m0 = 0; m0 < m; m0 += kMR)
        for (int64_t p0 = 0; p0 < nc; p0 += kNR)
          microKernel(std::min(kMR, m - m0), std::min(kNR, nc - p0), kc, a + m0 * lda + k0, lda,
                      packed.data() + p0 * kc, c + m0 * ldc + n0 + p0, ldc, accumulate,
                      bias && lastSlice ? bias + n0 + p0 : nullptr);
    }
  }
}

}  // namespace

int64_t gemmScratchFloats(int64_t n, int64_t k, bool) {
  const int64_t ncMax = (std::min(n, kNC) + kNR - 1) / kNR * kNR;
  return std::min(k, kKC) * ncMax + n;
}

void gemm(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b, int64_t ldb, bool bTransposed,
          const float* bias, float* c, int64_t ldc) {
  multiply(m, n, k, a, lda, BMatrix{&b, std::max<int64_t>(n, 1), ldb, bTransposed}, bias, c, ldc);
}

void gemmSideBySide(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* const* bs, int64_t count,
                    int64_t ldb, const float* const* biases, float* c, int64_t ldc) {
  if (n == 0 || count == 0) return;
  // The biases side by side, like the blocks.
  static std::vector<float> bias;
  const bool withBias = biases && biases[0];
  if (withBias) {
    if (bias.size() < static_cast<size_t>(count * n)) bias.resize(static_cast<size_t>(count * n));
    for (int64_t i = 0; i < count; ++i) std::copy(biases[i], biases[i] + n, bias.begin() + i * n);
  }
  multiply(m, count * n, k, a, lda, BMatrix{bs, n, ldb, false}, withBias ? bias.data() : nullptr, c, ldc);
}

#else

namespace {

constexpr int64_t kKC = 256;  // the SIMD128 kernel's depth of one slice of the sum

// C = A·Bᵀ (+ bias) with every element summed as the SIMD128 kernel sums it:
// over k in order, in slices of kKC (each slice from 0, then added to C), the
// bias last. Eigen's order depends on the product's sizes (a one-row product
// is a matrix-vector product), so a row computed alone (one decode step's
// q_t·Kᵀ) would not be the full product's row bit for bit.
void multiplyTransposedInOrder(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
                               int64_t ldb, const float* bias, float* c, int64_t ldc) {
  thread_local std::vector<float> packed, sum;  // Bᵀ[k0 : k0 + kc, :] row-major; one row's sums
  if (k == 0) {
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) c[i * ldc + j] = bias ? bias[j] : 0.0f;
    return;
  }
  for (int64_t k0 = 0; k0 < k; k0 += kKC) {
    const int64_t kc = std::min(kKC, k - k0);
    const bool accumulate = k0 > 0, lastSlice = k0 + kc == k;
    packed.resize(static_cast<size_t>(kc * n));
    sum.resize(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j)
      for (int64_t kk = 0; kk < kc; ++kk) packed[static_cast<size_t>(kk * n + j)] = b[j * ldb + k0 + kk];
    for (int64_t i = 0; i < m; ++i) {
      std::fill(sum.begin(), sum.end(), 0.0f);
      for (int64_t kk = 0; kk < kc; ++kk) {
        const float x = a[i * lda + k0 + kk];
        const float* row = packed.data() + kk * n;
        for (int64_t j = 0; j < n; ++j) sum[static_cast<size_t>(j)] += x * row[j];
      }
      float* out = c + i * ldc;
      for (int64_t j = 0; j < n; ++j) {
        float value = accumulate ? out[j] + sum[static_cast<size_t>(j)] : sum[static_cast<size_t>(j)];
        if (bias && lastSlice) value = value + bias[j];
        out[j] = value;
      }
    }
  }
}

}  // namespace

int64_t gemmScratchFloats(int64_t n, int64_t k, bool bTransposed) { return bTransposed ? std::min(k, kKC) * n + n : 0; }

void gemm(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b, int64_t ldb, bool bTransposed,
          const float* bias, float* c, int64_t ldc) {
  if (bTransposed) return multiplyTransposedInOrder(m, n, k, a, lda, b, ldb, bias, c, ldc);
  using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using ConstView = Eigen::Map<const RowMatrix, 0, Eigen::OuterStride<> >;
  using View = Eigen::Map<RowMatrix, 0, Eigen::OuterStride<> >;
  const ConstView am(a, m, k, Eigen::OuterStride<>(lda));
  View cm(c, m, n, Eigen::OuterStride<>(ldc));
  cm.noalias() = am * ConstView(b, k, n, Eigen::OuterStride<>(ldb));
  if (bias) cm.rowwise() += Eigen::Map<const Eigen::RowVectorXf>(bias, n);
}

// Eigen's blocking depends on each product's own sizes: one product per
// block keeps every element what gemm gives it.
void gemmSideBySide(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* const* bs, int64_t count,
                    int64_t ldb, const float* const* biases, float* c, int64_t ldc) {
  for (int64_t i = 0; i < count; ++i)
    gemm(m, n, k, a, lda, bs[i], ldb, false, biases ? biases[i] : nullptr, c + i * n, ldc);
}

#endif

}  // namespace attention_lab
