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

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace attention_lab {

// The 32-bit Mersenne Twister, word for word std::mt19937 (and PyTorch's
// at::mt19937), written out so that whole blocks of words can be read at once
// and its state compared: refilled 624 words at a time by a loop without
// modulo (libc++'s std::mt19937, which Emscripten uses, updates one word per
// call with two modulo operations), tempered where the words are used.
class Mt19937 {
 public:
  static constexpr int kStateSize = 624;

  void seed(uint32_t seed);
  uint32_t next() {
    if (index_ == kStateSize) refill();
    return temper(words_[index_++]);
  }
  // Up to `count` untempered words, in order, without copying: calls
  // f(words, n) with n >= 1 until `count` words have been consumed.
  template <typename F>
  void forEachBlock(int64_t count, F&& f) {
    while (count > 0) {
      if (index_ == kStateSize) refill();
      const int64_t n = count < kStateSize - index_ ? count : kStateSize - index_;
      f(words_.data() + index_, n);
      index_ += static_cast<int>(n);
      count -= n;
    }
  }
  static uint32_t temper(uint32_t y) {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
  }
  // Word by word: std::array's == is a memcmp, which wasm's libc runs a byte
  // at a time (2.5 KB per draw-cache lookup); this loop vectorizes.
  bool operator==(const Mt19937& other) const {
    uint32_t differ = static_cast<uint32_t>(index_ ^ other.index_);
    for (int i = 0; i < kStateSize; ++i)
      differ |= words_[static_cast<size_t>(i)] ^ other.words_[static_cast<size_t>(i)];
    return differ == 0;
  }

 private:
  void refill();
  std::array<uint32_t, kStateSize> words_{};
  int index_ = kStateSize;
};

class TorchGenerator {
 public:
  explicit TorchGenerator(uint64_t seed = 67280421310721ULL) { manualSeed(seed); }

  // Everything that determines the numbers drawn from here on (2.5 KB): a
  // cache of drawn tensors keys on it and restores the state after drawing.
  struct State {
    Mt19937 engine;
    std::optional<double> nextDoubleNormal;
    bool operator==(const State& other) const {
      return engine == other.engine && nextDoubleNormal == other.nextDoubleNormal;
    }
  };
  const State& state() const { return state_; }
  void setState(const State& state) { state_ = state; }

  // torch.manual_seed(seed): re-seeds mt19937 with the low 32 bits and drops
  // the cached second Box-Muller sample.
  void manualSeed(uint64_t seed);

  // CPUGeneratorImpl::random(): one 32-bit word.
  uint32_t random32() { return state_.engine.next(); }
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
  // uniform_(0, 1) on count floats: the low 24 bits of one word each.
  void uniformUnit(float* out, int64_t count);
  // uniform_real_distribution<double>: the low 53 bits of random64().
  double uniformDouble();
  // normal_distribution<double>: Box-Muller on two doubles, caching sin.
  double normalDouble(double mean, double std);

  State state_;
};

}  // namespace attention_lab
