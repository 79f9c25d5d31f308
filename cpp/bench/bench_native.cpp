// Our engine, native: time per runAttention call, for npm run bench. Built
// twice (-O3 -msse4.2 and -O3 -march=native; CMakeLists.txt).
//
//   attention_lab_bench_<flags> '<config JSON>' milliseconds
//
// One warm-up call, then calls for at least `milliseconds` (3 or more), all
// into one AttentionResult; prints {"median": ms per call, "calls": n}.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "attention.h"
#include "schema.h"

using namespace attention_lab;

namespace {

int fail(const Status& error) {
  std::fprintf(stderr, "attention_lab_bench: %s: %s\n", error->field.c_str(), error->message.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: attention_lab_bench '<config JSON>' milliseconds\n");
    return 2;
  }
  const JsonParseResult json = parseJson(argv[1]);
  if (!json.ok) {
    std::fprintf(stderr, "attention_lab_bench: %s\n", json.error.c_str());
    return 2;
  }
  AttentionConfig config;
  if (const Status error = parseConfig(json.value, config)) return fail(error);
  const double budget = std::atof(argv[2]);

  // The one result every call writes into: its tensors lend their buffers to
  // the next call (runAttention's BufferPool), as the wasm module's last result does.
  AttentionResult result;
  if (const Status error = runAttention(config, result)) return fail(error);  // warm-up

  using Clock = std::chrono::steady_clock;
  std::vector<double> times;
  const auto start = Clock::now();
  while (times.size() < 3 || std::chrono::duration<double, std::milli>(Clock::now() - start).count() < budget) {
    const auto t0 = Clock::now();
    if (const Status error = runAttention(config, result)) return fail(error);
    times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  std::printf("{\"median\": %.9g, \"calls\": %zu}\n", times[times.size() / 2], times.size());
  return 0;
}
