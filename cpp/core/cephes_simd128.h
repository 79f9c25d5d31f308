// The generator's float transforms four lanes at a time in WebAssembly
// SIMD128, as PyTorch's AVX2 kernels compute them eight at a time: each
// function here is lane for lane the scalar one named in its comment (same
// operations, same order, the same single rounding for every fused
// multiply-add), so the numbers are the same bits. tests/cpp/random_wasm_check.cpp
// compares the two in WebAssembly.
#pragma once

#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include "cephes.h"

namespace attention_lab {
namespace simd128 {

// fmaViaDouble (exact_fma.h) on two lanes of doubles that hold floats:
// a·b exact, the sum rounded to odd.
inline v128_t fmaRoundToOdd(v128_t a, v128_t b, v128_t c) {
  const v128_t product = wasm_f64x2_mul(a, b);
  const v128_t sum = wasm_f64x2_add(product, c);
  const v128_t addendPart = wasm_f64x2_sub(sum, product);
  const v128_t error =
      wasm_f64x2_add(wasm_f64x2_sub(product, wasm_f64x2_sub(sum, addendPart)), wasm_f64x2_sub(c, addendPart));
  const v128_t size = wasm_f64x2_abs(error);
  const v128_t inexact =
      wasm_v128_and(wasm_f64x2_gt(size, wasm_f64x2_splat(0.0)), wasm_f64x2_lt(size, wasm_f64x2_splat(HUGE_VAL)));
  const v128_t one = wasm_i64x2_splat(1);
  const v128_t even = wasm_i64x2_eq(wasm_v128_and(sum, one), wasm_i64x2_splat(0));
  // +1 ulp when the error has the sum's sign, else -1.
  const v128_t away = wasm_i64x2_shr(wasm_v128_xor(sum, error), 63);  // 0 or -1
  const v128_t step = wasm_v128_or(wasm_i64x2_shl(away, 1), one);     // 1 or -1
  return wasm_i64x2_add(sum, wasm_v128_and(step, wasm_v128_and(inexact, even)));
}

// fmaViaDouble on four float lanes.
inline v128_t fma(v128_t a, v128_t b, v128_t c) {
  auto high = [](v128_t x) { return wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(x, x, 2, 3, 2, 3)); };
  const v128_t low =
      fmaRoundToOdd(wasm_f64x2_promote_low_f32x4(a), wasm_f64x2_promote_low_f32x4(b), wasm_f64x2_promote_low_f32x4(c));
  const v128_t up = fmaRoundToOdd(high(a), high(b), high(c));
  return wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(low), wasm_f32x4_demote_f64x2_zero(up), 0, 1, 4, 5);
}

inline v128_t splat(float x) { return wasm_f32x4_splat(x); }
inline v128_t splatBits(uint32_t bits) { return wasm_i32x4_splat(static_cast<int32_t>(bits)); }

// Mt19937::temper on four words.
inline v128_t temper(v128_t y) {
  y = wasm_v128_xor(y, wasm_u32x4_shr(y, 11));
  y = wasm_v128_xor(y, wasm_v128_and(wasm_i32x4_shl(y, 7), splatBits(0x9d2c5680u)));
  y = wasm_v128_xor(y, wasm_v128_and(wasm_i32x4_shl(y, 15), splatBits(0xefc60000u)));
  return wasm_v128_xor(y, wasm_u32x4_shr(y, 18));
}

// uniform_real<float>: 24 random bits of four untempered words times 2^-24.
inline v128_t unitUniform(const uint32_t* words) {
  const v128_t bits = wasm_v128_and(temper(wasm_v128_load(words)), splatBits((1u << 24) - 1));
  return wasm_f32x4_mul(wasm_f32x4_convert_i32x4(bits), splat(1.0f / (1u << 24)));
}

// cephes::logPositive on four lanes.
inline v128_t logPositive(v128_t x) {
  using namespace cephes;
  x = wasm_f32x4_pmax(x, splatBits(kMinNormalBits));  // x < min ? min : x
  const v128_t exponentBits = wasm_u32x4_shr(x, 23);
  v128_t m = wasm_v128_or(wasm_v128_andnot(x, splatBits(kExponentMask)), splatBits(kHalfBits));
  v128_t e =
      wasm_f32x4_add(wasm_f32x4_convert_i32x4(wasm_i32x4_sub(exponentBits, wasm_i32x4_splat(0x7f))), splat(1.0f));
  const v128_t below = wasm_f32x4_lt(m, splat(kSqrtHalf));
  const v128_t shifted = wasm_v128_and(m, below);
  m = wasm_f32x4_sub(m, splat(1.0f));
  e = wasm_f32x4_sub(e, wasm_v128_and(splat(1.0f), below));  // e - 0 is e: the scalar's untaken branch
  m = wasm_f32x4_add(m, shifted);

  const v128_t z = wasm_f32x4_mul(m, m);
  v128_t y = splat(kLogPoly[0]);
  for (int k = 1; k < 9; ++k) y = fma(y, m, splat(kLogPoly[k]));
  y = wasm_f32x4_mul(y, m);
  y = fma(y, z, wasm_f32x4_mul(e, splat(kLogQ1)));
  y = fma(wasm_f32x4_neg(z), splat(0.5f), y);
  m = wasm_f32x4_add(m, y);
  return fma(e, splat(kLogQ2), m);
}

// cephes::sinCos on four lanes of x >= 0.
inline void sinCos(v128_t x, v128_t* sinOut, v128_t* cosOut) {
  using namespace cephes;
  v128_t octant = wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_mul(x, splat(kFourOverPi)));
  octant = wasm_v128_and(wasm_i32x4_add(octant, wasm_i32x4_splat(1)), wasm_i32x4_splat(~1));
  const v128_t y = wasm_f32x4_convert_i32x4(octant);
  const v128_t zero = wasm_i32x4_splat(0);
  const v128_t flipSin = wasm_i32x4_ne(wasm_v128_and(octant, wasm_i32x4_splat(4)), zero);
  const v128_t flipCos =
      wasm_i32x4_eq(wasm_v128_and(wasm_i32x4_sub(octant, wasm_i32x4_splat(2)), wasm_i32x4_splat(4)), zero);
  const v128_t useCosPolyForSin = wasm_i32x4_ne(wasm_v128_and(octant, wasm_i32x4_splat(2)), zero);

  for (float minusPart : kMinusPiOver4) x = fma(y, splat(minusPart), x);

  const v128_t z = wasm_f32x4_mul(x, x);
  v128_t cosPoly = fma(splat(kCosPoly[0]), z, splat(kCosPoly[1]));
  cosPoly = fma(cosPoly, z, splat(kCosPoly[2]));
  cosPoly = wasm_f32x4_mul(cosPoly, z);
  cosPoly = fma(cosPoly, z, wasm_f32x4_neg(wasm_f32x4_mul(z, splat(0.5f))));
  cosPoly = wasm_f32x4_add(cosPoly, splat(1.0f));

  v128_t sinPoly = fma(splat(kSinPoly[0]), z, splat(kSinPoly[1]));
  sinPoly = fma(sinPoly, z, splat(kSinPoly[2]));
  sinPoly = wasm_f32x4_mul(sinPoly, z);
  sinPoly = fma(sinPoly, x, x);

  const v128_t s = wasm_v128_bitselect(cosPoly, sinPoly, useCosPolyForSin);
  const v128_t c = wasm_v128_bitselect(sinPoly, cosPoly, useCosPolyForSin);
  const v128_t signBit = splatBits(0x80000000u);
  *sinOut = wasm_v128_xor(s, wasm_v128_and(flipSin, signBit));
  *cosOut = wasm_v128_xor(c, wasm_v128_and(flipCos, signBit));
}

// cephes::normalFill16, four lanes of the cosine half and of the sine half at a time.
inline void normalFill16(float* data, float mean, float std) {
  for (int j = 0; j < 8; j += 4) {
    const v128_t u1 = wasm_f32x4_sub(splat(1.0f), wasm_v128_load(data + j));
    const v128_t u2 = wasm_v128_load(data + j + 8);
    const v128_t radius = wasm_f32x4_sqrt(wasm_f32x4_mul(splat(-2.0f), logPositive(u1)));
    const v128_t theta = wasm_f32x4_mul(splat(cephes::kTwoPi), u2);
    v128_t sinTheta, cosTheta;
    sinCos(theta, &sinTheta, &cosTheta);
    wasm_v128_store(data + j, fma(wasm_f32x4_mul(radius, cosTheta), splat(std), splat(mean)));
    wasm_v128_store(data + j + 8, fma(wasm_f32x4_mul(radius, sinTheta), splat(std), splat(mean)));
  }
}

}  // namespace simd128
}  // namespace attention_lab

#endif  // __wasm_simd128__
