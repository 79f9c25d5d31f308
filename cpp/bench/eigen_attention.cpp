// Plain Eigen attention: npm run bench's native reference, built twice
// (-O3 -msse4.2 and -O3 -march=native). Straightforward Eigen, no tricks:
// one fused X·[W_Q | W_K | W_V] product, per-head products, a row softmax and
// W_O, in buffers allocated once and reused by every call.
//
//   bench_eigen_attention_<flags> case.bin milliseconds
//
// case.bin (written by web/scripts/bench.js, little-endian): int32 S, D, H,
// then float32 X [S, D], W_Q, W_K, W_V [D, D], b_Q, b_K, b_V [D], W_O [D, D],
// b_O [D] and the engine's output [S, D] for the same inputs. One warm-up
// call, then calls for at least `milliseconds` (3 or more); prints
// {"median": ms per call, "calls": n, "worstDiff": max |ours - engine output|}.
#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

namespace {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowVector = Eigen::Matrix<float, 1, Eigen::Dynamic>;

struct Case {
  int S = 0, D = 0, H = 0;
  RowMatrix x, wQkv, wO, expected;  // [S, D], [D, 3D], [D, D], [S, D]
  RowVector bQkv, bO;               // [3D], [D]
};

bool readCase(const char* path, Case& c) {
  std::ifstream file(path, std::ios::binary);
  int32_t sizes[3];
  if (!file.read(reinterpret_cast<char*>(sizes), sizeof sizes)) return false;
  c.S = sizes[0], c.D = sizes[1], c.H = sizes[2];
  const int S = c.S, D = c.D;
  const auto read = [&](float* to, int64_t count) {
    return static_cast<bool>(file.read(reinterpret_cast<char*>(to), count * static_cast<int64_t>(sizeof(float))));
  };
  c.x.resize(S, D), c.wQkv.resize(D, 3 * D), c.wO.resize(D, D), c.expected.resize(S, D);
  c.bQkv.resize(3 * D), c.bO.resize(D);
  if (!read(c.x.data(), c.x.size())) return false;
  RowMatrix w(D, D);
  for (int part = 0; part < 3; ++part) {  // W_Q, W_K, W_V side by side
    if (!read(w.data(), w.size())) return false;
    c.wQkv.middleCols(part * D, D) = w;
  }
  return read(c.bQkv.data(), c.bQkv.size()) && read(c.wO.data(), c.wO.size()) && read(c.bO.data(), c.bO.size()) &&
         read(c.expected.data(), c.expected.size());
}

// Every buffer of one call, sized once.
struct Buffers {
  RowMatrix qkv, scores, concat, output;  // [S, 3D], [S, S], [S, D], [S, D]
  Buffers(int S, int D) : qkv(S, 3 * D), scores(S, S), concat(S, D), output(S, D) {}
};

// x [S, D] -> output [S, D]
//   q, k, v = (x @ W_qkv + b_qkv).split(D, dim=-1)
//   per head h: concat[:, h] = softmax(q_h @ k_hᵀ / sqrt(dk), dim=-1) @ v_h
//   output = concat @ W_O + b_O
void attention(const Case& c, Buffers& m) {
  const int D = c.D, dk = D / c.H;
  const float sqrtDk = std::sqrt(static_cast<float>(dk));
  m.qkv.noalias() = c.x * c.wQkv;
  m.qkv.rowwise() += c.bQkv;
  for (int h = 0; h < c.H; ++h) {
    const auto q = m.qkv.middleCols(h * dk, dk);
    const auto k = m.qkv.middleCols(D + h * dk, dk);
    const auto v = m.qkv.middleCols(2 * D + h * dk, dk);
    m.scores.noalias() = q * k.transpose();
    m.scores /= sqrtDk;
    m.scores.colwise() -= m.scores.rowwise().maxCoeff();
    m.scores = m.scores.array().exp();
    m.scores.array().colwise() /= m.scores.array().rowwise().sum();
    m.concat.middleCols(h * dk, dk).noalias() = m.scores * v;
  }
  m.output.noalias() = m.concat * c.wO;
  m.output.rowwise() += c.bO;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: bench_eigen_attention case.bin milliseconds\n");
    return 2;
  }
  Case c;
  if (!readCase(argv[1], c)) {
    std::fprintf(stderr, "bench_eigen_attention: cannot read %s\n", argv[1]);
    return 2;
  }
  const double budget = std::atof(argv[2]);
  Buffers buffers(c.S, c.D);
  attention(c, buffers);  // warm-up: caches, pages, branch predictors
  const float worstDiff = (buffers.output - c.expected).cwiseAbs().maxCoeff();

  using Clock = std::chrono::steady_clock;
  std::vector<double> times;
  const auto start = Clock::now();
  while (times.size() < 3 || std::chrono::duration<double, std::milli>(Clock::now() - start).count() < budget) {
    const auto t0 = Clock::now();
    attention(c, buffers);
    times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  std::printf("{\"median\": %.9g, \"calls\": %zu, \"worstDiff\": %g}\n", times[times.size() / 2], times.size(),
              worstDiff);
  return 0;
}
