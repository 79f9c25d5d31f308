// The gemm checks of gemm_test.cpp and the softmax exp checks of
// softmax_mask_test.cpp, built for WebAssembly (the SIMD128 kernels) and run
// under Node by tests/js/gemm-wasm.test.js. Exit status 1 when any fails.
#include <algorithm>
#include <cstdio>

#include "exp_cases.h"
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
  const attention_lab::exp_checks::ExpCheck exp = attention_lab::exp_checks::checkExp();
  attention_lab::exp_checks::printCheck(exp);
  const bool expFailed = exp.worstUlp > 2 || exp.specialFailures > 0 || exp.rowMismatches > 0;
  if (expFailed) std::printf("exp: FAILED\n");
  std::printf("gemm: %d failed; worst error %.3g of the float32 accumulation bound\n", failures, worst);
  return failures || expFailed ? 1 : 0;
}
