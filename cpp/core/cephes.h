// The Box-Muller block of PyTorch 1.13's normal_fill_16_AVX2 and the cephes
// log/sin/cos it calls (log256_ps, sincos256_ps of avx_mathfun.h), one lane at
// a time. torch_random.cpp draws with these; cephes_simd128.h computes the
// same lanes four at a time in WebAssembly and must round exactly like them.
#pragma once

#include <cmath>
#include <cstdint>

#include "exact_fma.h"

namespace attention_lab {
namespace cephes {

inline uint32_t floatBits(float x) { return bitCast<uint32_t>(x); }
inline float bitsFloat(uint32_t bits) { return bitCast<float>(bits); }

constexpr uint32_t kMinNormalBits = 0x00800000u, kExponentMask = 0x7f800000u, kHalfBits = 0x3f000000u;
constexpr float kSqrtHalf = 0.707106781186547524f;
constexpr float kLogPoly[9] = {7.0376836292E-2f,  -1.1514610310E-1f, 1.1676998740E-1f,
                               -1.2420140846E-1f, +1.4249322787E-1f, -1.6668057665E-1f,
                               +2.0000714765E-1f, -2.4999993993E-1f, +3.3333331174E-1f};
constexpr float kLogQ1 = -2.12194440e-4f, kLogQ2 = 0.693359375f;

constexpr float kFourOverPi = 1.27323954473516f;
// pi/4 as a sum of three floats, for an extended-precision reduction.
constexpr float kMinusPiOver4[3] = {-0.78515625f, -2.4187564849853515625e-4f, -3.77489497744594108e-8f};
constexpr float kCosPoly[3] = {2.443315711809948E-005f, -1.388731625493765E-003f, 4.166664568298827E-002f};
constexpr float kSinPoly[3] = {-1.9515295891E-4f, 8.3321608736E-3f, -1.6666654611E-1f};

const float kTwoPi = static_cast<float>(2.0f * 3.14159265358979323846);

// Natural log of x > 0, cephes logf as log256_ps computes it: split
// x = m * 2^e with m in [sqrt(1/2), sqrt(2)), then a degree-9 polynomial in (m - 1).
inline float logPositive(float x) {
  if (x < bitsFloat(kMinNormalBits)) x = bitsFloat(kMinNormalBits);
  const int32_t exponentBits = static_cast<int32_t>(floatBits(x) >> 23);
  float m = bitsFloat((floatBits(x) & ~kExponentMask) | kHalfBits);  // [0.5, 1)
  float e = static_cast<float>(exponentBits - 0x7f) + 1.0f;
  // Below sqrt(1/2): use 2m - 1 and one less in the exponent.
  const bool below = m < kSqrtHalf;
  const float shifted = below ? m : 0.0f;
  m = m - 1.0f;
  if (below) e = e - 1.0f;
  m = m + shifted;

  const float z = m * m;
  float y = kLogPoly[0];
  for (int k = 1; k < 9; ++k) y = fmaf32(y, m, kLogPoly[k]);
  y = y * m;
  y = fmaf32(y, z, e * kLogQ1);
  y = fmaf32(-z, 0.5f, y);
  m = m + y;
  return fmaf32(e, kLogQ2, m);
}

// sin and cos of x >= 0 together, cephes sinf/cosf as sincos256_ps computes
// them: reduce by multiples of pi/4 in three extended-precision steps, then
// pick the sine or cosine polynomial by octant.
inline void sinCos(float x, float* sinOut, float* cosOut) {
  int32_t octant = static_cast<int32_t>(x * kFourOverPi);
  octant = (octant + 1) & ~1;
  const float y = static_cast<float>(octant);
  const bool flipSin = (octant & 4) != 0;
  const bool flipCos = ((octant - 2) & 4) == 0;
  const bool useCosPolyForSin = (octant & 2) != 0;

  for (float minusPart : kMinusPiOver4) x = fmaf32(y, minusPart, x);

  const float z = x * x;
  float cosPoly = fmaf32(kCosPoly[0], z, kCosPoly[1]);
  cosPoly = fmaf32(cosPoly, z, kCosPoly[2]);
  cosPoly = cosPoly * z;
  cosPoly = fmaf32(cosPoly, z, -(z * 0.5f));
  cosPoly = cosPoly + 1.0f;

  float sinPoly = fmaf32(kSinPoly[0], z, kSinPoly[1]);
  sinPoly = fmaf32(sinPoly, z, kSinPoly[2]);
  sinPoly = sinPoly * z;
  sinPoly = fmaf32(sinPoly, x, x);

  const float s = useCosPolyForSin ? cosPoly : sinPoly;
  const float c = useCosPolyForSin ? sinPoly : cosPoly;
  *sinOut = flipSin ? -s : s;
  *cosOut = flipCos ? -c : c;
}

// normal_fill_16_AVX2: turns 16 uniforms in place into 16 normals, the first
// 8 as radius*cos and the second 8 as radius*sin.
inline void normalFill16(float* data, float mean, float std) {
  for (int j = 0; j < 8; ++j) {
    const float u1 = 1.0f - data[j];  // [0, 1) -> (0, 1] for the log
    const float u2 = data[j + 8];
    const float radius = std::sqrt(-2.0f * logPositive(u1));
    const float theta = kTwoPi * u2;
    float sinTheta, cosTheta;
    sinCos(theta, &sinTheta, &cosTheta);
    data[j] = fmaf32(radius * cosTheta, std, mean);
    data[j + 8] = fmaf32(radius * sinTheta, std, mean);
  }
}

}  // namespace cephes
}  // namespace attention_lab
