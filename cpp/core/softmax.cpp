// softmax.h. Each loop has a WebAssembly SIMD128 body over 4 lanes and a
// scalar tail that does the same float operations, so the wasm and native
// builds agree bit for bit.
#include "softmax.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace attention_lab {
namespace {

// exp(x) = 2^n · exp(r), n = x·log2(e) rounded to the nearest integer (by
// adding and subtracting 1.5·2^23, whose float has n in its low mantissa
// bits), r = x - n·ln2 with ln2 split in two (kLn2High has few bits, so
// n·kLn2High is exact).
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kRoundMagic = 12582912.0f;  // 1.5 · 2^23
constexpr float kLn2High = 0.693359375f;
constexpr float kLn2Low = -2.12194440e-4f;
// Cephes expf: exp(r) ≈ 1 + r + r²·P(r) on |r| <= ln2 / 2.
constexpr float kP0 = 1.9875691500e-4f, kP1 = 1.3981999507e-3f, kP2 = 8.3334519073e-3f, kP3 = 4.1665795894e-2f,
                kP4 = 1.6666665459e-1f, kP5 = 5.0000001201e-1f;
// x is clamped to [kMinInput, kMaxInput], where the arithmetic itself rounds
// to 0 and overflows to +inf (exp(-104) < 2^-150 / 2, exp(88.8) > FLT_MAX):
// no special case for ±inf, and a NaN passes through the clamp and the sums.
constexpr float kMaxInput = 88.8f;
constexpr float kMinInput = -104.0f;
constexpr float kInf = std::numeric_limits<float>::infinity();

// 2^e as a float, for -126 <= e <= 127.
float powerOfTwo(int32_t e) {
  const uint32_t bits = static_cast<uint32_t>(e + 127) << 23;
  float out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}

float maskOne(const ScoreRowSteps& s, float value, float maskValue) {
  switch (s.mask) {
    case MaskStep::None: return value;
    case MaskStep::Fill: return maskValue == s.blockedValue ? s.fill : value;
    case MaskStep::Add: return value + maskValue;
  }
  return value;
}

#ifdef __wasm_simd128__

v128_t powerOfTwo(v128_t e) { return wasm_i32x4_shl(wasm_i32x4_add(e, wasm_i32x4_splat(127)), 23); }

// softmaxExp on 4 lanes: the same operations as the scalar softmaxExp below
// (pmax/pmin are std::max/std::min, NaN-preserving the same way).
v128_t expLanes(v128_t x) {
  const v128_t xc = wasm_f32x4_pmin(wasm_f32x4_pmax(x, wasm_f32x4_splat(kMinInput)), wasm_f32x4_splat(kMaxInput));
  const v128_t rounded = wasm_f32x4_add(wasm_f32x4_mul(xc, wasm_f32x4_splat(kLog2e)), wasm_f32x4_splat(kRoundMagic));
  const v128_t n = wasm_f32x4_sub(rounded, wasm_f32x4_splat(kRoundMagic));
  const v128_t ni = wasm_i32x4_sub(rounded, wasm_f32x4_splat(kRoundMagic));  // the integer n, from the bits
  v128_t r = wasm_f32x4_sub(xc, wasm_f32x4_mul(n, wasm_f32x4_splat(kLn2High)));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(n, wasm_f32x4_splat(kLn2Low)));
  v128_t p = wasm_f32x4_splat(kP0);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(kP1));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(kP2));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(kP3));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(kP4));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(kP5));
  p = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_mul(p, wasm_f32x4_mul(r, r)), r), wasm_f32x4_splat(1.0f));
  const v128_t n1 = wasm_i32x4_shr(ni, 1);
  const v128_t n2 = wasm_i32x4_sub(ni, n1);
  return wasm_f32x4_mul(wasm_f32x4_mul(p, powerOfTwo(n1)), powerOfTwo(n2));
}

float maxLane(v128_t v) {
  return std::max(std::max(wasm_f32x4_extract_lane(v, 0), wasm_f32x4_extract_lane(v, 1)),
                  std::max(wasm_f32x4_extract_lane(v, 2), wasm_f32x4_extract_lane(v, 3)));
}

#endif

// max(x[0, n)), NaNs skipped as std::max skips them.
float rowMax(const float* x, int64_t n) {
  float best = -kInf;
  int64_t c = 0;
#ifdef __wasm_simd128__
  v128_t lanes = wasm_f32x4_splat(-kInf);
  for (; c + 4 <= n; c += 4) lanes = wasm_f32x4_pmax(lanes, wasm_v128_load(x + c));  // pmax = std::max
  best = maxLane(lanes);
#endif
  for (; c < n; ++c) best = std::max(best, x[c]);
  return best;
}

// y = softmax of a row whose max is `max`, y already holding the row:
//   y = exp(y - max); sum = y[0] + y[1] + ... (left to right); y *= 1 / sum
void normalizeRow(float* y, int64_t n, float max) {
  float sum = 0.0f;
  int64_t c = 0;
#ifdef __wasm_simd128__
  const v128_t shift = wasm_f32x4_splat(max);
  for (; c + 4 <= n; c += 4) {
    const v128_t e = expLanes(wasm_f32x4_sub(wasm_v128_load(y + c), shift));
    wasm_v128_store(y + c, e);
    // Lane by lane: the same left-to-right sum as the scalar loop.
    sum += wasm_f32x4_extract_lane(e, 0);
    sum += wasm_f32x4_extract_lane(e, 1);
    sum += wasm_f32x4_extract_lane(e, 2);
    sum += wasm_f32x4_extract_lane(e, 3);
  }
#endif
  for (; c < n; ++c) sum += (y[c] = softmaxExp(y[c] - max));
  const float inverse = 1.0f / sum;
  c = 0;
#ifdef __wasm_simd128__
  const v128_t scale = wasm_f32x4_splat(inverse);
  for (; c + 4 <= n; c += 4) wasm_v128_store(y + c, wasm_f32x4_mul(wasm_v128_load(y + c), scale));
#endif
  for (; c < n; ++c) y[c] *= inverse;
}

// weights = masked = mask(scale(scores)), storing scaled and masked when asked;
// returns the row's max. One instance per mask step keeps the loop branch-free.
template <MaskStep kMask>
float scaleAndMask(const ScoreRowSteps& s, const float* scores, const float* maskRow, int64_t n, float* scaled,
                   float* masked, float* weights) {
  float best = -kInf;
  int64_t c = 0;
#ifdef __wasm_simd128__
  const v128_t divisor = wasm_f32x4_splat(s.divisor), factor = wasm_f32x4_splat(s.factor);
  const v128_t blocked = wasm_f32x4_splat(s.blockedValue), fill = wasm_f32x4_splat(s.fill);
  v128_t lanes = wasm_f32x4_splat(-kInf);
  for (; c + 4 <= n; c += 4) {
    const v128_t x = wasm_v128_load(scores + c);
    const v128_t sd = s.divide ? wasm_f32x4_div(x, divisor) : wasm_f32x4_mul(x, factor);
    if (scaled) wasm_v128_store(scaled + c, sd);
    v128_t mk = sd;
    if (kMask == MaskStep::Fill)
      mk = wasm_v128_bitselect(fill, sd, wasm_f32x4_eq(wasm_v128_load(maskRow + c), blocked));
    else if (kMask == MaskStep::Add)
      mk = wasm_f32x4_add(sd, wasm_v128_load(maskRow + c));
    if (masked) wasm_v128_store(masked + c, mk);
    wasm_v128_store(weights + c, mk);
    lanes = wasm_f32x4_pmax(lanes, mk);
  }
  best = maxLane(lanes);
#endif
  for (; c < n; ++c) {
    const float sd = s.divide ? scores[c] / s.divisor : scores[c] * s.factor;
    if (scaled) scaled[c] = sd;
    const float mk = kMask == MaskStep::None ? sd : maskOne(s, sd, maskRow[c]);
    if (masked) masked[c] = mk;
    weights[c] = mk;
    best = std::max(best, mk);
  }
  return best;
}

}  // namespace

float softmaxExp(float x) {
  const float xc = std::min(std::max(x, kMinInput), kMaxInput);
  const float rounded = xc * kLog2e + kRoundMagic;
  const float n = rounded - kRoundMagic;
  int32_t roundedBits, magicBits;
  std::memcpy(&roundedBits, &rounded, sizeof roundedBits);
  std::memcpy(&magicBits, &kRoundMagic, sizeof magicBits);
  const int32_t ni = roundedBits - magicBits;
  float r = xc - n * kLn2High;
  r = r - n * kLn2Low;
  float p = kP0;
  p = p * r + kP1;
  p = p * r + kP2;
  p = p * r + kP3;
  p = p * r + kP4;
  p = p * r + kP5;
  p = p * (r * r) + r + 1.0f;
  const int32_t n1 = ni >> 1;  // floor(ni / 2): both halves are normal exponents
  return p * powerOfTwo(n1) * powerOfTwo(ni - n1);
}

void softmaxExpRow(const float* x, float* y, int64_t n) {
  int64_t c = 0;
#ifdef __wasm_simd128__
  for (; c + 4 <= n; c += 4) wasm_v128_store(y + c, expLanes(wasm_v128_load(x + c)));
#endif
  for (; c < n; ++c) y[c] = softmaxExp(x[c]);
}

void softmaxRows(const float* in, float* out, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* x = in + r * cols;
    float* y = out + r * cols;
    const float max = rowMax(x, cols);
    if (y != x) std::copy(x, x + cols, y);
    normalizeRow(y, cols, max);
  }
}

void scaleMaskSoftmaxRow(const ScoreRowSteps& steps, const float* scores, const float* maskRow, int64_t n,
                         float* scaled, float* masked, float* weights) {
  float max = 0.0f;
  switch (steps.mask) {
    case MaskStep::None: max = scaleAndMask<MaskStep::None>(steps, scores, maskRow, n, scaled, masked, weights); break;
    case MaskStep::Fill: max = scaleAndMask<MaskStep::Fill>(steps, scores, maskRow, n, scaled, masked, weights); break;
    case MaskStep::Add: max = scaleAndMask<MaskStep::Add>(steps, scores, maskRow, n, scaled, masked, weights); break;
  }
  normalizeRow(weights, n, max);
}

float softcapOne(float x, float c) {
  const float inside = x / c;
  return c * static_cast<float>(std::tanh(static_cast<double>(inside)));
}

void variantRow(const ScoreRowSteps& steps, const float* scores, const float* biasRow, const float* maskRow, int64_t n,
                const RowStages& out) {
  float* probs = out.probs;
  float max = -kInf;
  for (int64_t c = 0; c < n; ++c) {
    const float sd = steps.divide ? scores[c] / steps.divisor : scores[c] * steps.factor;
    if (out.scaled) out.scaled[c] = sd;
    float x = sd;
    if (steps.cap) {
      x = softcapOne(x, steps.softcap);
      if (out.capped) out.capped[c] = x;
    }
    if (biasRow) {
      x = x + biasRow[c];
      if (out.biased) out.biased[c] = x;
    }
    if (steps.mask != MaskStep::None) x = maskOne(steps, x, maskRow[c]);
    if (out.masked) out.masked[c] = x;
    probs[c] = x;
    max = std::max(max, x);
  }
  const int64_t columns = n + (steps.sink ? 1 : 0);
  if (steps.sink) {
    probs[n] = steps.sinkLogit;
    max = std::max(max, steps.sinkLogit);
  }
  normalizeRow(probs, columns, max);
}

}  // namespace attention_lab
