// Checks that involve several fields or the run's sizes: divisibility,
// option combinations, shapes of explicit values, edit indices, limits.
// Ranges of single fields are checked once, by the schema's readers.
// Runs before anything large is allocated.
#pragma once

#include <string>
#include <vector>

#include "config.h"

namespace attention_lab {

// Checks that do not depend on the tokens.
Status validateConfig(const AttentionConfig& config);

// The sizes a run will have once the sentences are tokenized.
struct RunSizes {
  int64_t batch = 0;      // B
  int64_t queryLen = 0;   // S
  int64_t keyLen = 0;     // S_kv
  int64_t vocabSize = 0;  // rows of the embedding table (0 without tokens)
};

// The shape of a weight tensor ("W_Q", "v_a", ...) in the x·W convention:
// W_* [dModel, dModel], b_* [dModel], W_a and U_a [headDim, additiveHidden],
// v_a [additiveHidden].
std::vector<int64_t> weightShape(const AttentionConfig& config, const std::string& name);

// The tanh terms of the additive score, B·H·S·S_kv·additiveHidden (0 for dot scores).
int64_t additiveTerms(const AttentionConfig& config, const RunSizes& sizes);

// Limits on B, S, S_kv, the vocab and the additive score's work;
// embedding.values shape.
Status validateSizes(const AttentionConfig& config, const RunSizes& sizes);

// Edits to apply to a run of `config` (a prepared run's update): `edits`'
// weightEdits and embeddingEdits checked as validateConfig and validateSizes
// check the config's own (weights it has, indices within their shapes and
// the vocab, embedding edits only with tokens). Nothing else of `edits` is read.
Status validateEdits(const AttentionConfig& config, const AttentionConfig& edits, const RunSizes& sizes);

// The memory budget: `bytes` (a run's, intermediateBytes in attention.h)
// within kMaxIntermediateBytes, else the error that says what it needs.
Status checkIntermediateBytes(int64_t bytes);

}  // namespace attention_lab
