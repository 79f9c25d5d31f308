// The memory budget's estimate against what a run really allocates, under
// WebAssembly (the engine's own allocator and kernels), for the runs of
// budget_cases.h; run under Node by tests/js/memory-budget.test.js, one case
// per process so that each allocates as a first run does.
//   memory_budget_wasm_check.js            the case names, one a line
//   memory_budget_wasm_check.js NAME       "NAME: estimate E, peak P, footprint F" (bytes): P, the peak
//                                          of operator new, and F, the growth of malloc's footprint
// Exit status 1 when the case is unknown, fails, or allocates more than its estimate.
#include <cstdio>
#include <cstring>

#include "allocation_counter.h"
#include "attention.h"
#include "budget_cases.h"
#include "schema.h"

extern "C" size_t malloc_footprint(void);

using namespace attention_lab;

int main(int argc, char** argv) {
  const std::vector<budget_checks::BudgetCase> cases = budget_checks::budgetCases();
  if (argc < 2) {
    for (const auto& c : cases) std::printf("%s\n", c.name);
    return 0;
  }
  for (const auto& c : cases) {
    if (std::strcmp(c.name, argv[1]) != 0) continue;
    AttentionConfig config;
    if (Status error = parseConfigText(c.json, config)) {
      std::printf("FAILED %s: %s\n", c.name, error->message.c_str());
      return 1;
    }
    AttentionResult result;
    Status error;
    const size_t footprint = malloc_footprint();
    const int64_t peak =
        allocation_counter::peakOf([&] { error = runAttention(config, result, c.wanted(), c.selection()); });
    if (error) {
      std::printf("FAILED %s: %s\n", c.name, error->message.c_str());
      return 1;
    }
    const int64_t estimate = intermediateBytes(config, budget_checks::sizesOf(result), c.wanted(), c.selection());
    std::printf("%s: estimate %lld, peak %lld, footprint %lld\n", c.name, static_cast<long long>(estimate),
                static_cast<long long>(peak), static_cast<long long>(malloc_footprint() - footprint));
    return peak <= estimate ? 0 : 1;
  }
  std::printf("FAILED: no case %s\n", argv[1]);
  return 1;
}
