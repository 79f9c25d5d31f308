// fma(a, b, c) on floats, rounded once, without an FMA instruction.
//
// PyTorch's AVX2 kernels fuse multiply-adds (GCC -mfma); the generator must
// round the same way. Native x86 builds call the hardware through std::fma,
// but WebAssembly has no FMA instruction and std::fma there is musl's software
// fmaf, a library call with floating-point environment handling. This is the
// inlinable replacement, exact for every input:
//
//   1. a·b in double is exact (24 + 24 significant bits <= 53).
//   2. s = a·b + c in double rounds once; TwoSum gives its exact error e.
//   3. Rounding s to float would round twice, which goes wrong only when s
//      lands exactly halfway between two floats while the true sum does not.
//      Rounding the double sum *to odd* instead (when e != 0 and s is even,
//      step s one double ulp towards e) makes the second rounding exact,
//      because double carries more than float's 24 + 2 bits (Boldo and
//      Melquiond, "Emulation of FMA and correctly rounded sums: proved
//      algorithms using rounding to odd", IEEE TC 2008). This holds for
//      subnormal float results too: their precision is lower still.
//
// Checked against the hardware fma on adversarial and random triples in
// tests/cpp/exact_fma_test.cpp.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace attention_lab {

// The same bits read as another type of the same size (C++20's std::bit_cast).
template <typename To, typename From>
inline To bitCast(From from) {
  static_assert(sizeof(To) == sizeof(From), "bitCast needs types of one size");
  To to;
  std::memcpy(&to, &from, sizeof to);
  return to;
}

// round_to_float(a·b + c), computed through a double rounded to odd.
inline float fmaViaDouble(float a, float b, float c) {
  const double product = static_cast<double>(a) * static_cast<double>(b);  // exact
  const double addend = static_cast<double>(c);
  const double sum = product + addend;
  // TwoSum (Knuth): error = (product + addend) - sum, exactly.
  const double addendPart = sum - product;
  const double error = (product - (sum - addendPart)) + (addend - addendPart);
  uint64_t bits = bitCast<uint64_t>(sum);
  // Inexact (error neither 0 nor NaN, as it is with infinite inputs) and even:
  // the odd neighbour towards the true sum.
  if ((bits & 1) == 0 && std::fabs(error) > 0 && std::fabs(error) < HUGE_VAL)
    bits += ((bits ^ bitCast<uint64_t>(error)) >> 63) ? ~uint64_t{0} : uint64_t{1};
  return static_cast<float>(bitCast<double>(bits));
}

// The fused multiply-add of PyTorch's kernels: the hardware one where the
// compiler inlines it (FP_FAST_FMAF), std::fma natively (glibc dispatches to
// the FMA instruction when the CPU has one), the emulation in WebAssembly.
inline float fmaf32(float a, float b, float c) {
#if defined(FP_FAST_FMAF) || !defined(__wasm__)
  return std::fma(a, b, c);
#else
  return fmaViaDouble(a, b, c);
#endif
}

}  // namespace attention_lab
