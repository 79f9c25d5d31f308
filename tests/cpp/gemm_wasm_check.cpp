// The gemm checks of gemm_test.cpp, built for WebAssembly (SIMD128 kernel) and
// run under Node by tests/js/gemm-wasm.test.js. Exit status 1 when any fails.
#include <algorithm>
#include <cstdio>

#include "gemm_cases.h"

int main() {
  using namespace attention_lab::gemm_checks;
  int failures = 0;
  double worst = 0;
  for (const auto& g : gemmCases()) {
    const GemmCheck check = checkGemm(g);
    printCheck(g, check);
    failures += !check.passed();
    worst = std::max(worst, check.worstRelative / check.bound);
  }
  std::printf("gemm: %d failed; worst error %.3g of the float32 accumulation bound\n", failures, worst);
  return failures ? 1 : 0;
}
