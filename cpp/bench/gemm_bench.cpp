// GFLOP/s of gemm (cpp/core/gemm.h) against Eigen's product, at the engine's
// shapes. Built for WebAssembly (build.sh wasm-bench) and run under Node by
// npm run bench; prints figures, asserts nothing.
//   node build/wasm/gemm_bench.js [seconds per shape, 1 by default]
#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "gemm.h"

namespace {

using Clock = std::chrono::steady_clock;
using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstView = Eigen::Map<const RowMatrix, 0, Eigen::OuterStride<>>;
using View = Eigen::Map<RowMatrix, 0, Eigen::OuterStride<>>;

struct Shape {
  const char* about;
  int64_t m, n, k;
  bool transposed;
};

// Called through a pointer the optimizer cannot see through: inlined into
// main (which runs once), the product would never leave V8's baseline tier,
// wasm code being optimized only for later calls.
void (*volatile gemmCall)(int64_t, int64_t, int64_t, const float*, int64_t, const float*, int64_t, bool, const float*,
                          float*, int64_t) = attention_lab::gemm;

double seconds(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Median GFLOP/s of the two products, alternating one call of each, for `budget` seconds.
void measure(const Shape& s, double budget) {
  std::vector<float> a(static_cast<size_t>(s.m * s.k), 0.5f), b(static_cast<size_t>(s.k * s.n), 0.25f);
  std::vector<float> c(static_cast<size_t>(s.m * s.n));
  const int64_t ldb = s.transposed ? s.k : s.n;
  const ConstView am(a.data(), s.m, s.k, Eigen::OuterStride<>(s.k));
  View cm(c.data(), s.m, s.n, Eigen::OuterStride<>(s.n));
  std::vector<double> ours, eigen;
  const auto start = Clock::now();
  while (ours.size() < 5 || seconds(start) < budget) {
    auto t0 = Clock::now();
    gemmCall(s.m, s.n, s.k, a.data(), s.k, b.data(), ldb, s.transposed, nullptr, c.data(), s.n);
    ours.push_back(seconds(t0));
    t0 = Clock::now();
    if (s.transposed)
      cm.noalias() = am * ConstView(b.data(), s.n, s.k, Eigen::OuterStride<>(s.k)).transpose();
    else
      cm.noalias() = am * ConstView(b.data(), s.k, s.n, Eigen::OuterStride<>(s.n));
    eigen.push_back(seconds(t0));
  }
  const auto gflops = [&](std::vector<double>& times) {
    std::sort(times.begin(), times.end());
    return 2.0 * static_cast<double>(s.m * s.n * s.k) / times[times.size() / 2] / 1e9;
  };
  const double oursRate = gflops(ours), eigenRate = gflops(eigen);
  std::printf("  %-34s gemm %5.1f GFLOP/s   Eigen %5.1f GFLOP/s   x%.2f  (%zu calls each)\n", s.about, oursRate,
              eigenRate, oursRate / eigenRate, ours.size());
}

}  // namespace

int main(int argc, char** argv) {
  const double budget = argc > 1 ? std::atof(argv[1]) : 1.0;
  const Shape shapes[] = {
      {"[512,768]·[768,768] projection", 512, 768, 768, false},
      {"[64,256]·[256,256] projection", 64, 256, 256, false},
      {"[512,64]·[512,64]^T scores/head", 512, 512, 64, true},
      {"[512,512]·[512,64] context/head", 512, 64, 512, false},
      {"[64,32]·[64,32]^T scores/head", 64, 64, 32, true},
  };
  std::printf("GEMM in WebAssembly (Node), median GFLOP/s: SIMD128 kernel vs Eigen\n");
  for (const Shape& s : shapes) measure(s, budget);
  return 0;
}
