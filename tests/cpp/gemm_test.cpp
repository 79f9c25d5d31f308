// gemm against a double-precision naive product (the native build: the Eigen path).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "gemm_cases.h"

namespace attention_lab {
namespace {

TEST(Gemm, MatchesDoublePrecisionReference) {
  double worst = 0;
  for (const auto& g : gemm_checks::gemmCases()) {
    const gemm_checks::GemmCheck check = gemm_checks::checkGemm(g);
    gemm_checks::printCheck(g, check);
    EXPECT_LE(check.worstRelative, check.bound) << g.m << "x" << g.n << "x" << g.k << " transposed " << g.transposed;
    EXPECT_EQ(check.paddingWrites, 0) << g.m << "x" << g.n << "x" << g.k;
    worst = std::max(worst, check.worstRelative / check.bound);
  }
  std::printf("gemm: worst error %.3g of the float32 accumulation bound\n", worst);
}

}  // namespace
}  // namespace attention_lab
