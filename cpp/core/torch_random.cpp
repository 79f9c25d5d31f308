#include "torch_random.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace attention_lab {
namespace {

// PyTorch's AVX2 kernels are compiled by GCC with -mfma, where GCC contracts a
// multiply that feeds an add into one fused multiply-add. The cephes
// polynomials below reproduce that contraction explicitly with std::fma, so
// native x86 and wasm round exactly like Debian's python3-torch does.
inline float fmaf32(float a, float b, float c) { return std::fma(a, b, c); }

inline uint32_t floatBits(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}
inline float bitsFloat(uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

// Natural log of x > 0, the cephes logf algorithm used by PyTorch's
// log256_ps (one lane of it): split x = m * 2^e with m in [sqrt(1/2), sqrt(2)),
// then a degree-9 polynomial in (m - 1).
float cephesLog(float x) {
  const float kMinNormal = bitsFloat(0x00800000u);
  if (x < kMinNormal) x = kMinNormal;
  const int32_t exponentBits = static_cast<int32_t>(floatBits(x) >> 23);
  float m = bitsFloat((floatBits(x) & ~0x7f800000u) | floatBits(0.5f));  // [0.5, 1)
  float e = static_cast<float>(exponentBits - 0x7f) + 1.0f;
  const float kSqrtHalf = 0.707106781186547524f;
  // Below sqrt(1/2): use 2m - 1 and one less in the exponent.
  const bool below = m < kSqrtHalf;
  const float shifted = below ? m : 0.0f;
  m = m - 1.0f;
  if (below) e = e - 1.0f;
  m = m + shifted;

  const float z = m * m;
  static const float kLogPoly[9] = {7.0376836292E-2f,  -1.1514610310E-1f, 1.1676998740E-1f,
                                    -1.2420140846E-1f, +1.4249322787E-1f, -1.6668057665E-1f,
                                    +2.0000714765E-1f, -2.4999993993E-1f, +3.3333331174E-1f};
  float y = kLogPoly[0];
  for (int k = 1; k < 9; ++k) y = fmaf32(y, m, kLogPoly[k]);
  y = y * m;
  const float kLogQ1 = -2.12194440e-4f, kLogQ2 = 0.693359375f;
  y = fmaf32(y, z, e * kLogQ1);
  y = fmaf32(-z, 0.5f, y);
  m = m + y;
  return fmaf32(e, kLogQ2, m);
}

// sin and cos of x >= 0 together, the cephes sinf/cosf algorithm used by
// PyTorch's sincos256_ps (one lane): reduce by multiples of pi/4 in three
// extended-precision steps, then pick the sine or cosine polynomial.
void cephesSinCos(float x, float* sinOut, float* cosOut) {
  const float kFourOverPi = 1.27323954473516f;
  int32_t octant = static_cast<int32_t>(x * kFourOverPi);
  octant = (octant + 1) & ~1;
  const float y = static_cast<float>(octant);
  const bool flipSin = (octant & 4) != 0;
  const bool flipCos = ((octant - 2) & 4) == 0;
  const bool useCosPolyForSin = (octant & 2) != 0;

  x = fmaf32(y, -0.78515625f, x);
  x = fmaf32(y, -2.4187564849853515625e-4f, x);
  x = fmaf32(y, -3.77489497744594108e-8f, x);

  const float z = x * x;
  float cosPoly = fmaf32(2.443315711809948E-005f, z, -1.388731625493765E-003f);
  cosPoly = fmaf32(cosPoly, z, 4.166664568298827E-002f);
  cosPoly = cosPoly * z;
  cosPoly = fmaf32(cosPoly, z, -(z * 0.5f));
  cosPoly = cosPoly + 1.0f;

  float sinPoly = fmaf32(-1.9515295891E-4f, z, 8.3321608736E-3f);
  sinPoly = fmaf32(sinPoly, z, -1.6666654611E-1f);
  sinPoly = sinPoly * z;
  sinPoly = fmaf32(sinPoly, x, x);

  float s = useCosPolyForSin ? cosPoly : sinPoly;
  float c = useCosPolyForSin ? sinPoly : cosPoly;
  *sinOut = flipSin ? -s : s;
  *cosOut = flipCos ? -c : c;
}

// normal_fill_16_AVX2: turns 16 uniforms in place into 16 normals, the first
// 8 as radius*cos and the second 8 as radius*sin.
void normalFill16(float* data, float mean, float std) {
  const float kTwoPi = static_cast<float>(2.0f * 3.14159265358979323846);
  for (int j = 0; j < 8; ++j) {
    const float u1 = 1.0f - data[j];  // [0, 1) -> (0, 1] for the log
    const float u2 = data[j + 8];
    const float radius = std::sqrt(-2.0f * cephesLog(u1));
    const float theta = kTwoPi * u2;
    float sinTheta, cosTheta;
    cephesSinCos(theta, &sinTheta, &cosTheta);
    data[j] = std::fma(radius * cosTheta, std, mean);
    data[j + 8] = std::fma(radius * sinTheta, std, mean);
  }
}

}  // namespace

void TorchGenerator::manualSeed(uint64_t seed) {
  engine_.seed(static_cast<uint32_t>(seed & 0xffffffffu));
  nextDoubleNormal_.reset();
}

uint64_t TorchGenerator::random64() {
  const uint64_t high = random32();
  const uint64_t low = random32();
  return (high << 32) | low;
}

float TorchGenerator::uniformFloat(float from, float to) {
  // transformation::uniform_real<float>: 24 random bits times 2^-24.
  const float x = static_cast<float>(random32() & ((1u << 24) - 1)) * (1.0f / (1u << 24));
  // Compiled with -mfma in PyTorch, so x * (to - from) + from is fused.
  return fmaf32(x, to - from, from);
}

double TorchGenerator::uniformDouble() {
  const uint64_t mask = (uint64_t{1} << 53) - 1;
  return static_cast<double>(random64() & mask) * (1.0 / static_cast<double>(uint64_t{1} << 53));
}

double TorchGenerator::normalDouble(double mean, double std) {
  if (nextDoubleNormal_) {
    const double cached = *nextDoubleNormal_;
    nextDoubleNormal_.reset();
    return cached * std + mean;
  }
  const double u1 = uniformDouble();
  const double u2 = uniformDouble();
  const double radius = std::sqrt(-2.0 * std::log1p(-u2));
  const double theta = 2.0 * 3.14159265358979323846 * u1;
  nextDoubleNormal_ = radius * std::sin(theta);
  return radius * std::cos(theta) * std + mean;
}

void TorchGenerator::uniform(float* out, int64_t count, double from, double to) {
  const float fromF = static_cast<float>(from), toF = static_cast<float>(to);
  for (int64_t i = 0; i < count; ++i) out[i] = uniformFloat(fromF, toF);
}

void TorchGenerator::normal(float* out, int64_t count, double mean, double std) {
  if (count < 16) {
    for (int64_t i = 0; i < count; ++i) out[i] = static_cast<float>(normalDouble(mean, std));
    return;
  }
  const float meanF = static_cast<float>(mean), stdF = static_cast<float>(std);
  for (int64_t i = 0; i < count; ++i) out[i] = uniformFloat(0.0f, 1.0f);
  for (int64_t i = 0; i + 16 <= count; i += 16) normalFill16(out + i, meanF, stdF);
  if (count % 16 != 0) {
    // Like PyTorch: redraw the last 16 uniforms and recompute that block.
    float* tail = out + count - 16;
    for (int i = 0; i < 16; ++i) tail[i] = uniformFloat(0.0f, 1.0f);
    normalFill16(tail, meanF, stdF);
  }
}

void TorchGenerator::bernoulli(float* out, int64_t count, double p) {
  for (int64_t i = 0; i < count; ++i) out[i] = uniformDouble() < p ? 1.0f : 0.0f;
}

void TorchGenerator::dropout(const float* input, float* output, int64_t count, double p) {
  if (p <= 0) {
    std::copy(input, input + count, output);
    return;
  }
  if (p >= 1) {
    for (int64_t i = 0; i < count; ++i) output[i] = input[i] * 0.0f;
    return;
  }
  bernoulli(output, count, 1.0 - p);  // the noise, written in place
  const float keptScale = 1.0f / static_cast<float>(1.0 - p);
  for (int64_t i = 0; i < count; ++i) output[i] = input[i] * (output[i] * keptScale);
}

void TorchGenerator::kaimingUniformLinearWeight(float* out, int64_t count, int64_t fanIn) {
  // torch.nn.init.kaiming_uniform_(w, a=math.sqrt(5)), step by step in double.
  const double negativeSlope = std::sqrt(5.0);
  const double gain = std::sqrt(2.0 / (1 + negativeSlope * negativeSlope));
  const double std = gain / std::sqrt(static_cast<double>(fanIn));
  const double bound = std::sqrt(3.0) * std;
  uniform(out, count, -bound, bound);
}

void TorchGenerator::linearBias(float* out, int64_t count, int64_t fanIn) {
  const double bound = 1.0 / std::sqrt(static_cast<double>(fanIn));
  uniform(out, count, -bound, bound);
}

void TorchGenerator::xavierUniform(float* out, int64_t count, int64_t fanIn, int64_t fanOut) {
  const double std = 1.0 * std::sqrt(2.0 / static_cast<double>(fanIn + fanOut));
  const double bound = std::sqrt(3.0) * std;
  uniform(out, count, -bound, bound);
}

}  // namespace attention_lab
