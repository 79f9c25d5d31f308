// The runs the memory budget's estimate (intermediateBytes in attention.h) is
// checked on, against the bytes each really allocates: shared by the
// GoogleTest suite (native) and the wasm check run under Node
// (tests/js/memory-budget.test.js). Each keeps some tensors of one variant.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attention.h"

namespace attention_lab::budget_checks {

struct BudgetCase {
  const char* name;
  std::string json;
  std::vector<const char*> tensors;  // empty: every tensor
  int64_t batch = -1, head = -1;     // the selection

  TensorSet wanted() const {
    if (tensors.empty()) return TensorSet::all();
    TensorSet set;
    for (const char* name : tensors) set.add(name);
    return set;
  }
  Selection selection() const {
    Selection s;
    s.batch = batch;
    s.head = head;
    return s;
  }
};

// n words, all different: "w0 w1 ..."
inline std::string words(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) text += (i ? " w" : "w") + std::to_string(i);
  return text;
}

// The sizes a finished run had, as the estimate takes them.
inline RunSizes sizesOf(const AttentionResult& r) {
  return {r.sizes.B, r.sizes.S, r.sizes.Skv, static_cast<int64_t>(r.vocab.size())};
}

// The first two are the issue's case, 2,048 words at dModel 8 and 8 heads: output only (one head's
// [S, S_kv] scratch), and its weights (one [1, 8, 2048, 2048] stage kept, 128 MiB).
inline std::vector<BudgetCase> budgetCases() {
  const std::string issue = R"({"text": ")" + words(2048) + R"(", "dModel": 8, "numHeads": 8})";
  return {
      {"IssueOutputOnly", issue, {"output"}},
      {"IssueWeightsOnly", issue, {"weights"}},
      {"EveryTensorMaskDropout",
       R"({"text": ")" + words(512) + R"(", "dModel": 16, "numHeads": 4, "mask": "causal", "dropout": {"p": 0.1}})",
       {}},
      {"WeightsOfOneSentenceAndHead",
       R"({"texts": [")" + words(400) + R"(", ")" + words(300) +
           R"("], "dModel": 16, "numHeads": 4, "mask": "padding"})",
       {"weights", "output"},
       1,
       2},
      {"SinkSoftcapAlibi",
       R"({"text": ")" + words(256) +
           R"(", "dModel": 16, "numHeads": 4, "mask": "causal", "sinkLogit": 0.5, "softcap": 30,
               "alibi": true, "dropout": {"p": 0.2}})",
       {}},
      {"RopeQkNormGqa",
       R"({"text": ")" + words(300) +
           R"(", "dModel": 32, "numHeads": 4, "numKVHeads": 2, "qkNorm": true,
               "rope": {"style": "rotate-half"}})",
       {"Q_rope", "K_rope", "output"}},
      {"Additive",
       R"({"text": ")" + words(128) + R"(", "dModel": 16, "numHeads": 2, "score": "additive", "additiveHidden": 16})",
       {}},
      {"CrossAttention",
       R"({"text": ")" + words(200) + R"(", "contextText": ")" + words(300) +
           R"(", "dModel": 16, "numHeads": 4, "weights": {"qkvBias": true}})",
       {"weights", "context"}},
      {"MhaInitLargeDModel",
       R"({"text": ")" + words(64) + R"(", "dModel": 256, "numHeads": 4, "weights": {"init": "torch-mha"}})",
       {"output"}},
      {"ClonesInit",
       R"({"text": ")" + words(64) +
           R"(", "dModel": 128, "numHeads": 4, "weights": {"init": "torch-linear-clones"},
               "embedding": {"positional": "sinusoidal"}})",
       {}},
      {"RandomInputConcat",
       R"({"input": {"randn": [2, 300, 32]}, "dModel": 32, "numHeads": 4, "weights": {"outProj": false}})",
       {"concat", "output"}},
      {"ProjectionsOnly", R"({"text": ")" + words(1000) + R"(", "dModel": 64, "numHeads": 4})", {"Q", "K", "V"}},
      // Differential attention: every tensor (its four half-head maps kept), and one head of a padded batch.
      {"DiffEveryTensor",
       R"({"text": ")" + words(300) + R"(", "dModel": 32, "numHeads": 4, "mask": "causal", "diff": {"depth": 2}})",
       {}},
      {"DiffOneHead",
       R"({"texts": [")" + words(300) + R"(", ")" + words(200) +
           R"("], "dModel": 16, "numHeads": 2, "mask": "padding", "diff": {"depth": 1}})",
       {"halfWeights", "weights", "contextScaled", "output"},
       1,
       1},
      // MLA: every tensor of both paths, and the output of a padded batch (its stage computes everything).
      {"MlaEveryTensor",
       R"({"text": ")" + words(300) +
           R"(", "dModel": 32, "numHeads": 4, "mask": "causal", "rope": {"style": "interleaved"},
           "mla": {"kvRank": 16, "nopeDim": 8, "ropeDim": 4, "valueDim": 8, "absorb": true}})",
       {}},
      {"MlaOutputOnly",
       R"({"texts": [")" + words(300) + R"(", ")" + words(200) + R"("], "dModel": 16, "numHeads": 2,
           "mask": "padding", "rope": {"style": "rotate-half"}, "mla": {"kvRank": 6, "nopeDim": 4, "ropeDim": 4,
           "valueDim": 6}})",
       {"output"}},
  };
}

}  // namespace attention_lab::budget_checks
