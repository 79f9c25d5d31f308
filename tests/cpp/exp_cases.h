// The softmax's exp (softmax.h) against std::exp, shared by the GoogleTest
// suite (native: the scalar path) and the wasm check run under Node (the
// SIMD128 lanes): every 2039th float from -104 to 89 (~1 million values,
// subnormal results included) and the special values.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "softmax.h"

namespace attention_lab::exp_checks {

struct ExpCheck {
  int64_t values = 0;
  int64_t worstUlp = 0;  // max distance in representable floats from std::exp
  float worstUlpAt = 0;
  double worstRelative = 0;  // max |ours - std::exp| / std::exp over normal results
  float worstRelativeAt = 0;
  int64_t specialFailures = 0;  // exp(±inf), NaN, 0, overflow and underflow
  int64_t rowMismatches = 0;    // softmaxExpRow (the lanes) differing from softmaxExp
};

// A float's position on the number line of floats (adjacent floats differ by 1).
inline int64_t floatOrdinal(float f) {
  int32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits < 0 ? -static_cast<int64_t>(bits & 0x7fffffff) : bits;
}

// The float at that position (floatOrdinal's inverse).
inline float floatAt(int64_t ordinal) {
  const uint32_t bits = ordinal < 0 ? 0x80000000u | static_cast<uint32_t>(-ordinal) : static_cast<uint32_t>(ordinal);
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

inline ExpCheck checkExp() {
  ExpCheck check;
  std::vector<float> xs;
  for (int64_t k = floatOrdinal(-104.0f); k <= floatOrdinal(89.0f); k += 2039) xs.push_back(floatAt(k));
  std::vector<float> lanes(xs.size());
  softmaxExpRow(xs.data(), lanes.data(), static_cast<int64_t>(xs.size()));
  for (size_t i = 0; i < xs.size(); ++i) {
    const float x = xs[i], ours = softmaxExp(x), reference = std::exp(x);
    check.rowMismatches += std::memcmp(&ours, &lanes[i], sizeof ours) != 0;
    const int64_t ulp = std::llabs(floatOrdinal(ours) - floatOrdinal(reference));
    if (ulp > check.worstUlp) check.worstUlp = ulp, check.worstUlpAt = x;
    if (reference >= std::numeric_limits<float>::min()) {
      const double relative = std::fabs(static_cast<double>(ours) - reference) / reference;
      if (relative > check.worstRelative) check.worstRelative = relative, check.worstRelativeAt = x;
    }
  }
  check.values = static_cast<int64_t>(xs.size());
  const float inf = std::numeric_limits<float>::infinity();
  const float special[][2] = {{0.0f, 1.0f}, {-0.0f, 1.0f}, {-inf, 0.0f}, {inf, inf}, {-200.0f, 0.0f}, {100.0f, inf}};
  std::vector<float> specialIn, specialOut(sizeof special / sizeof special[0] + 1);
  for (const auto& s : special) specialIn.push_back(s[0]);
  specialIn.push_back(std::numeric_limits<float>::quiet_NaN());
  softmaxExpRow(specialIn.data(), specialOut.data(), static_cast<int64_t>(specialIn.size()));
  for (size_t i = 0; i < specialIn.size(); ++i) {
    const float want = i < specialIn.size() - 1 ? special[i][1] : specialIn[i];
    for (float got : {softmaxExp(specialIn[i]), specialOut[i]})
      check.specialFailures += std::isnan(want) ? !std::isnan(got) : got != want;
  }
  return check;
}

inline void printCheck(const ExpCheck& c) {
  std::printf(
      "exp: %lld values, worst %lld ulp (at %.9g), worst relative error %.3g (at %.9g); "
      "%lld special values wrong, %lld lanes differing from the scalar path\n",
      static_cast<long long>(c.values), static_cast<long long>(c.worstUlp), c.worstUlpAt, c.worstRelative,
      c.worstRelativeAt, static_cast<long long>(c.specialFailures), static_cast<long long>(c.rowMismatches));
}

}  // namespace attention_lab::exp_checks
