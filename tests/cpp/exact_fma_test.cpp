// fmaViaDouble (the FMA emulation the generator uses in WebAssembly) against
// the hardware fma, bit for bit: halfway cases, subnormals, signs,
// cancellations, overflow, infinities and NaN, and many random triples.
#include "exact_fma.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace attention_lab {
namespace {

uint32_t bitsOf(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}
float floatOf(uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

// Same bits, or both NaN.
bool sameResult(float want, float got) { return (std::isnan(want) && std::isnan(got)) || bitsOf(want) == bitsOf(got); }

struct Tally {
  int64_t checked = 0, mismatches = 0, doubleRoundingCases = 0;
  void check(float a, float b, float c) {
    const float want = std::fma(a, b, c), got = fmaViaDouble(a, b, c);
    ++checked;
    // How often plain double rounding would have been wrong: the cases the fix exists for.
    const float naive = static_cast<float>(static_cast<double>(a) * b + c);
    doubleRoundingCases += !sameResult(want, naive);
    if (!sameResult(want, got) && mismatches++ < 5)
      ADD_FAILURE() << std::hexfloat << "fma(" << a << ", " << b << ", " << c << "): hardware " << want << ", emulated "
                    << got;
  }
};

TEST(ExactFma, SpecialValues) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const float tiny = std::numeric_limits<float>::denorm_min(), minNormal = std::numeric_limits<float>::min();
  const float big = std::numeric_limits<float>::max();
  const std::vector<float> values = {0.0f, -0.0f,  1.0f,  -1.0f,          0.5f,         3.0f,       inf,
                                     -inf, nan,    tiny,  -tiny,          minNormal,    -minNormal, big,
                                     -big, 1e-20f, 1e20f, 0x1.fffffep-1f, 0x1.000002p0f};
  Tally tally;
  for (float a : values)
    for (float b : values)
      for (float c : values) tally.check(a, b, c);
  EXPECT_EQ(tally.mismatches, 0) << "of " << tally.checked;
}

// a·b + c whose double sum lands exactly halfway between two floats while a
// tiny part of the true sum lies below double precision: the double rounding
// trap, just below and just above the midpoint, in every sign, for normal and
// subnormal results. a·b = h·(1 - u²) with h half an ulp of c, u = 2^-q:
//   c + h·(1 - u²)          just below the midpoint after c
//   next(c) - h·(1 - u²)    just above it
TEST(ExactFma, HalfwayCases) {
  std::mt19937 rng(1);
  Tally tally;
  for (int i = 0; i < 400000; ++i) {
    const float sign = (rng() & 1) ? 1.0f : -1.0f;
    const int exponent = static_cast<int>(rng() % 230) - 150;  // c from subnormal to 2^80
    const float c = sign * std::ldexp(static_cast<float>((rng() & 0x7fffff) | 0x800000), exponent - 23);
    const int halfUlpExponent = std::max(std::ilogb(c) - 23, -149) - 1;
    const float u = std::ldexp(1.0f, -(15 + static_cast<int>(rng() % 9)));  // u² below double precision of c
    const int split = halfUlpExponent / 2 + static_cast<int>(rng() % 21) - 10;
    const float a = std::ldexp(1.0f + u, split), b = std::ldexp(1.0f - u, halfUlpExponent - split);
    tally.check(a, sign * b, c);
    tally.check(sign * b, a, c);
    const float nextC = std::nextafter(c, sign * std::numeric_limits<float>::infinity());
    tally.check(a, -sign * b, nextC);
    tally.check(-sign * a, b, nextC);
  }
  EXPECT_EQ(tally.mismatches, 0) << "of " << tally.checked;
  std::printf("halfway: %lld triples, %lld where double rounding alone is wrong, %lld mismatches\n",
              static_cast<long long>(tally.checked), static_cast<long long>(tally.doubleRoundingCases),
              static_cast<long long>(tally.mismatches));
  EXPECT_GT(tally.doubleRoundingCases, tally.checked / 4);  // the test does reach the hard case
}

TEST(ExactFma, RandomBitPatterns) {
  std::mt19937 rng(2);
  Tally tally;
  auto anyFloat = [&] { return floatOf(rng()); };
  // Nearby exponents, so that products and addends overlap and cancel.
  auto nearFloat = [&](float like) {
    const uint32_t bits = (bitsOf(like) & 0xff800000u) ^ (rng() & 0x807fffffu) ^ ((rng() % 4) << 23);
    return floatOf(bits);
  };
  for (int i = 0; i < 2000000; ++i) {
    const float a = anyFloat(), b = anyFloat();
    tally.check(a, b, anyFloat());
    const float product = a * b;
    if (std::isfinite(product) && product != 0) {
      tally.check(a, b, -product);             // cancellation to the product's rounding error
      tally.check(a, b, nearFloat(-product));  // partial cancellation
      tally.check(a, b, nearFloat(product));
    }
  }
  // Small integers scaled: exact sums, ties and their neighbours.
  for (int i = 0; i < 1000000; ++i) {
    const float a = std::ldexp(static_cast<float>(rng() % 8192), static_cast<int>(rng() % 40) - 170);
    const float b = std::ldexp(static_cast<float>(rng() % 8192), static_cast<int>(rng() % 40));
    const float c =
        std::ldexp(static_cast<float>(static_cast<int>(rng() % 65536) - 32768), static_cast<int>(rng() % 60) - 149);
    tally.check(a, b, c);
  }
  EXPECT_EQ(tally.mismatches, 0) << "of " << tally.checked;
  std::printf("random: %lld triples, %lld where double rounding alone is wrong, %lld mismatches\n",
              static_cast<long long>(tally.checked), static_cast<long long>(tally.doubleRoundingCases),
              static_cast<long long>(tally.mismatches));
}

}  // namespace
}  // namespace attention_lab
