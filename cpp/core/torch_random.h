// A random generator that reproduces PyTorch's CPU generator bit for bit.
//
// PyTorch's default CPU generator is a 32-bit Mersenne Twister (mt19937,
// exactly specified by the C++ standard) plus PyTorch's own transforms from
// raw 32/64-bit words to floats. The C++ standard distributions are not
// specified exactly, so every transform here is written from PyTorch 1.13's
// documented algorithms (ATen/core/TransformationHelper.h,
// ATen/core/DistributionsHelper.h, ATen/native/cpu/DistributionTemplates.h),
// as built by Debian's python3-torch (AVX2 kernels, no MKL).
//
// Each public method is named after, and documented with, the PyTorch call it
// mirrors, so a draw order here reads like the PyTorch script it reproduces.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

namespace attention_lab {

class TorchGenerator {
 public:
  explicit TorchGenerator(uint64_t seed = 67280421310721ULL) { manualSeed(seed); }

  // torch.manual_seed(seed): re-seeds mt19937 with the low 32 bits and drops
  // the cached second Box-Muller sample.
  void manualSeed(uint64_t seed);

  // CPUGeneratorImpl::random(): one 32-bit word.
  uint32_t random32() { return static_cast<uint32_t>(engine_()); }
  // CPUGeneratorImpl::random64(): two words, the first one is the high half.
  uint64_t random64();

  // tensor.uniform_(from, to) on a float32 tensor (torch.rand is from=0, to=1).
  // `from`/`to` arrive as Python floats (double) and are cast to float first.
  void uniform(float* out, int64_t count, double from, double to);

  // tensor.normal_(mean, std) on a contiguous float32 tensor; torch.randn is
  // mean=0, std=1. Tensors with >= 16 elements use the AVX2 Box-Muller kernel
  // (normal_fill_AVX2); smaller ones the scalar double path with its cached
  // second sample.
  void normal(float* out, int64_t count, double mean, double std);

  // tensor.bernoulli_(p) on a float32 tensor without MKL: one
  // uniform double per element, 1 when u < p.
  void bernoulli(float* out, int64_t count, double p);

  // F.dropout(input, p, training=True) on CPU:
  //   noise = torch.empty_like(input).bernoulli_(1 - p); noise.div_(1 - p)
  //   output = input * noise
  // p == 0 copies and p == 1 zeroes without drawing, as PyTorch does.
  void dropout(const float* input, float* output, int64_t count, double p);

  // The kaiming_uniform_(w, a=sqrt(5)) that nn.Linear.reset_parameters() uses
  // on its [out, in] weight: uniform_(-1/sqrt(fanIn), 1/sqrt(fanIn)), with the
  // bound computed through the same double arithmetic as torch.nn.init.
  void kaimingUniformLinearWeight(float* out, int64_t count, int64_t fanIn);
  // nn.Linear's bias: uniform_(-1/sqrt(fanIn), 1/sqrt(fanIn)).
  void linearBias(float* out, int64_t count, int64_t fanIn);
  // nn.init.xavier_uniform_(w, gain=1) on a [fanOut, fanIn] weight.
  void xavierUniform(float* out, int64_t count, int64_t fanIn, int64_t fanOut);

 private:
  // uniform_real_distribution<float>: the low 24 bits of one word.
  float uniformFloat(float from, float to);
  // uniform_real_distribution<double>: the low 53 bits of random64().
  double uniformDouble();
  // normal_distribution<double>: Box-Muller on two doubles, caching sin.
  double normalDouble(double mean, double std);

  std::mt19937 engine_;
  std::optional<double> nextDoubleNormal_;
};

}  // namespace attention_lab
