// One matrix product for the engine's projections and per-head products.
#pragma once

#include <cstdint>

namespace attention_lab {

// C[m, n] = A[m, k] · B[k, n] (+ bias[n] on every row), all row-major with
// row strides lda, ldb, ldc (in floats). With bTransposed, B is stored as
// [n, k] (rows ldb apart) and used transposed: C = A · Bᵀ, as in q @ k.T.
// C must not overlap A, B or bias. The bias is added after the whole sum,
// as in `y = x @ W; y += b`.
//
// Under WebAssembly SIMD128: a register-tiled kernel over packed panels of B
// (gemm.cpp). Elsewhere: Eigen.
void gemm(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b, int64_t ldb, bool bTransposed,
          const float* bias, float* c, int64_t ldc);

}  // namespace attention_lab
