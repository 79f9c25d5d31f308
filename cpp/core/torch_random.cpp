#include "torch_random.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "cephes.h"
#include "cephes_simd128.h"
#include "exact_fma.h"

namespace attention_lab {
namespace {

// PyTorch's AVX2 kernels are compiled by GCC with -mfma, where GCC contracts a
// multiply that feeds an add into one fused multiply-add. The transforms here
// and in cephes.h reproduce that contraction explicitly with fmaf32
// (exact_fma.h), so native x86 and wasm round exactly like Debian's
// python3-torch does.

constexpr uint32_t kUniformMask = (1u << 24) - 1;
constexpr float kUniformScale = 1.0f / (1u << 24);

// transformation::uniform_real<float>(word, from, from + range): 24 random
// bits times 2^-24, then x * range + from, fused (PyTorch is built with -mfma).
// The unit interval (range 1, from 0) is x itself.
float uniformFromWord(uint32_t untemperedWord, float range, float from) {
  const float x = static_cast<float>(Mt19937::temper(untemperedWord) & kUniformMask) * kUniformScale;
  return fmaf32(x, range, from);
}

// n floats from n untempered words; four lanes at a time in WebAssembly.
void uniformFromWords(const uint32_t* words, int64_t n, float range, float from, float* out) {
  int64_t i = 0;
#ifdef __wasm_simd128__
  const v128_t rangeLanes = wasm_f32x4_splat(range), fromLanes = wasm_f32x4_splat(from);
  for (; i + 4 <= n; i += 4)
    wasm_v128_store(out + i, simd128::fma(simd128::unitUniform(words + i), rangeLanes, fromLanes));
#endif
  for (; i < n; ++i) out[i] = uniformFromWord(words[i], range, from);
}

void unitUniformFromWords(const uint32_t* words, int64_t n, float* out) {
  int64_t i = 0;
#ifdef __wasm_simd128__
  for (; i + 4 <= n; i += 4) wasm_v128_store(out + i, simd128::unitUniform(words + i));
#endif
  for (; i < n; ++i) out[i] = static_cast<float>(Mt19937::temper(words[i]) & kUniformMask) * kUniformScale;
}

void normalFill16(float* data, float mean, float std) {
#ifdef __wasm_simd128__
  simd128::normalFill16(data, mean, std);
#else
  cephes::normalFill16(data, mean, std);
#endif
}

}  // namespace

void Mt19937::seed(uint32_t seed) {
  words_[0] = seed;
  for (int i = 1; i < kStateSize; ++i)
    words_[i] = 1812433253u * (words_[i - 1] ^ (words_[i - 1] >> 30)) + static_cast<uint32_t>(i);
  index_ = kStateSize;
}

void Mt19937::refill() {
  constexpr int kShift = 397;
  // word i from the upper bit of word i, the lower 31 of word i + 1, and word i + 397
  auto twist = [](uint32_t word, uint32_t nextWord, uint32_t farWord) {
    const uint32_t y = (word & 0x80000000u) | (nextWord & 0x7fffffffu);
    return farWord ^ (y >> 1) ^ ((0u - (nextWord & 1u)) & 0x9908b0dfu);
  };
  uint32_t* w = words_.data();
  int i = 0;
  for (; i < kStateSize - kShift; ++i) w[i] = twist(w[i], w[i + 1], w[i + kShift]);
  for (; i < kStateSize - 1; ++i) w[i] = twist(w[i], w[i + 1], w[i + kShift - kStateSize]);
  w[kStateSize - 1] = twist(w[kStateSize - 1], w[0], w[kShift - 1]);
  index_ = 0;
}

void TorchGenerator::manualSeed(uint64_t seed) {
  state_.engine.seed(static_cast<uint32_t>(seed & 0xffffffffu));
  state_.nextDoubleNormal.reset();
}

uint64_t TorchGenerator::random64() {
  const uint64_t high = random32();
  const uint64_t low = random32();
  return (high << 32) | low;
}

void TorchGenerator::uniformUnit(float* out, int64_t count) {
  state_.engine.forEachBlock(count, [&](const uint32_t* words, int64_t n) {
    unitUniformFromWords(words, n, out);
    out += n;
  });
}

double TorchGenerator::uniformDouble() {
  const uint64_t mask = (uint64_t{1} << 53) - 1;
  return static_cast<double>(random64() & mask) * (1.0 / static_cast<double>(uint64_t{1} << 53));
}

double TorchGenerator::normalDouble(double mean, double std) {
  if (state_.nextDoubleNormal) {
    const double cached = *state_.nextDoubleNormal;
    state_.nextDoubleNormal.reset();
    return cached * std + mean;
  }
  const double u1 = uniformDouble();
  const double u2 = uniformDouble();
  const double radius = std::sqrt(-2.0 * std::log1p(-u2));
  const double theta = 2.0 * 3.14159265358979323846 * u1;
  state_.nextDoubleNormal = radius * std::sin(theta);
  return radius * std::cos(theta) * std + mean;
}

void TorchGenerator::uniform(float* out, int64_t count, double from, double to) {
  // `from` and `to` are cast to float first, then to - from in float.
  const float fromF = static_cast<float>(from), rangeF = static_cast<float>(to) - fromF;
  state_.engine.forEachBlock(count, [&](const uint32_t* words, int64_t n) {
    uniformFromWords(words, n, rangeF, fromF, out);
    out += n;
  });
}

void TorchGenerator::normal(float* out, int64_t count, double mean, double std) {
  if (count < 16) {
    for (int64_t i = 0; i < count; ++i) out[i] = static_cast<float>(normalDouble(mean, std));
    return;
  }
  const float meanF = static_cast<float>(mean), stdF = static_cast<float>(std);
  uniformUnit(out, count);
  for (int64_t i = 0; i + 16 <= count; i += 16) normalFill16(out + i, meanF, stdF);
  if (count % 16 != 0) {
    // Like PyTorch: redraw the last 16 uniforms and recompute that block.
    float* tail = out + count - 16;
    uniformUnit(tail, 16);
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
