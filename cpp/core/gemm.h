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
// (gemm.cpp), every element summed over k in order, whatever m and n.
// Elsewhere: Eigen, except C = A · Bᵀ, summed in that same order, so that a
// product of one row (a KV-cache decode step, q_t · Kᵀ) gives a larger
// product's row bit for bit in both builds.
void gemm(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b, int64_t ldb, bool bTransposed,
          const float* bias, float* c, int64_t ldc);

// C[m, count·n] = A[m, k] · [B_0 | B_1 | ... ] (+ [bias_0 | bias_1 | ...]):
// `count` products sharing A, side by side in C, e.g. X·[W_Q | W_K | W_V].
// Each B_i is [k, n], row-major with row stride ldb; `biases` is null or
// holds `count` pointers, all null or none. Under SIMD128 one product packs
// the blocks together; every element of C is the same sum, added in the same
// order, as gemm(m, n, k, a, lda, bs[i], ldb, false, biases[i], ...) gives it.
void gemmSideBySide(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* const* bs, int64_t count,
                    int64_t ldb, const float* const* biases, float* c, int64_t ldc);

// The floats of scratch a product of n columns (all blocks of gemmSideBySide
// together) over depth k keeps from call to call (grown, never shrunk), for
// the memory budget: under SIMD128 the packed block of B and the side-by-side
// biases; elsewhere the packed slice of Bᵀ and one row's sums of C = A · Bᵀ
// (Eigen's own blocking buffers, of cache size, aside).
int64_t gemmScratchFloats(int64_t n, int64_t k, bool bTransposed);

}  // namespace attention_lab
