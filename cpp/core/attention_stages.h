// runAttention's stages as two halves, so that a prepared run (prepared.h)
// does the first once and the second per call:
//
//   describe + drawInputs: validate, tokenize, measure (B, S, S_kv), embed -> X [B, S, D], draw the weights
//   compute:              Q, K, V = X·W + b -> heads -> output, and the tensors asked for into the result
//
// attention.cpp runs them back to back (runAttention); nothing here is
// called from JS directly.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "attention.h"
#include "buffers.h"
#include "tokens.h"
#include "torch_random.h"
#include "validate.h"
#include "weights.h"

namespace attention_lab::stages {

// The sizes of one run: Hkv key/value heads (H without grouped-query
// attention), Dkv = Hkv·dk the width of K and V.
struct Dims {
  int64_t B = 0, S = 0, Skv = 0, D = 0, H = 0, dk = 0, Hkv = 0, Dkv = 0;
};

// The tokens of both sides and the embedding table's vocab. A side given as
// a random input (or an absent context) has no tokens.
struct Tokens {
  bool hasQuery = false, hasContext = false;
  TokenizedSide query, context;
  Vocabulary vocab;
  bool any() const { return hasQuery || hasContext; }
};

// Every intermediate, named as in kTensorNames.
struct Intermediates {
  Tensor x, xContext;                 // [B, S, D], [B, S_kv, D] (cross-attention only)
  WeightSet w;                        // W_* [D, D], b_* [D]; W_a, U_a [dk, hidden], v_a [hidden]
  Tensor q, k, v;                     // [B, S, D], [B, S_kv, Dkv], [B, S_kv, Dkv]
  Tensor qNorm, kNorm, qRope, kRope;  // as q and k (qkNorm, RoPE)
  Tensor ropeAngles;                  // [S, dk/2]
  // rope.scaling: the frequencies before and after [dk/2], YaRN's extrapolation factors [dk/2], and the
  // attention factor and dynamic NTK base [] (rope_scaling.h); ropeScale multiplies cos and sin.
  Tensor ropeInvFreqBase, ropeInvFreq, ropeExtrapolationFactor, ropeAttentionFactor, ropeNtkBase;
  float ropeScale = 1.0f;
  Tensor mask;                                             // [B, S, S_kv]
  Tensor scores, scaled, masked, weights, dropped;         // [B, H, S, S_kv]
  Tensor capped, biased;                                   // [B, H, S, S_kv] (softcap, ALiBi)
  Tensor alibiBias;                                        // [H, S, S_kv]
  Tensor sinkWeights;                                      // [B, H, S]
  Tensor averagedWeights;                                  // [B, S, S_kv]
  Tensor halfScores, halfScaled, halfMasked, halfWeights;  // [B, 2H, S, S_kv] (differential attention)
  Tensor lambdaFull;                                       // [] (differential attention)
  // MLA (mla_attention.h): latent, latentNorm [B, S, kvRank]; kPe, kPeRope [B, S, ropeDim]; qPeRope
  // [B, S, H·ropeDim]; qAbsorbed, latentContext [B, S, H·kvRank] (its absorbed path); the path not chosen's
  // scores [B, H, S, S_kv] and output [B, S, D].
  Tensor latent, latentNorm, kPe, qPeRope, kPeRope, qAbsorbed, latentContext, otherPathScores, otherPathOutput;
  Tensor context;                     // [B, H, S, dk] (MLA: [B, H, S, valueDim])
  Tensor contextNorm, contextScaled;  // [B, H, S, dk] (differential attention)
  Tensor concat;                      // [B, S, D]
  Tensor gateLogits, gate, gated;     // [B, S, D] (outputGate)
  Tensor output;                      // [B, S, D]

  const Tensor* bias(const char* name) const {
    const auto found = w.find(name);
    return found == w.end() ? nullptr : &found->second;
  }
};

// The projections of a prepared X, kept from run to run (prepared.h): the
// rows Q, K, V had before QK-norm and RoPE rewrote them, as the workspace
// holds them. An edit of W_Q or b_Q stales Q, of W_K, b_K K, of W_V, b_V V,
// an embedding edit all three; what still holds is reused, the rest projected
// again (each element the same sum as the fused product makes it).
struct ProjectionCache {
  std::vector<float> rows;               // self-attention: [B·S, D + 2·Dkv] Q | K | V; cross: Q [B·S, D]
  std::vector<float> kvRows;             // cross-attention: [B·S_kv, 2·Dkv] K | V
  bool q = false, k = false, v = false;  // which of them hold
};

// Validates the config, tokenizes both sides and measures the run: the
// result's tokens, ids, vocab, unknownTokens, sizes, headDim and scaleFactor.
Status describe(const AttentionConfig& c, Tokens& t, AttentionResult& r, RunSizes& sizes, Dims& d);

// The selection within the sizes, and the run's memory budget (kMaxIntermediateBytes) for `wanted`.
Status checkRun(const AttentionConfig& c, const Dims& d, const RunSizes& sizes, TensorSet wanted,
                const Selection& selection);

// The draws, in PyTorch's order: the embedding table (kept in `table` [V, D],
// empty without tokens), the random inputs, the weights. Fills m.x, m.xContext, m.w.
Status drawInputs(const AttentionConfig& c, const Tokens& t, const AttentionResult& r, const Dims& d,
                  TorchGenerator& gen, Intermediates& m, Tensor& table);

// X (and X_context) of the sides given as tokens, from the table again (after an embedding edit):
//   x = emb(ids) (+ pe[:S] with positional "sinusoidal")
void embedTokenSides(const AttentionConfig& c, const Tokens& t, const AttentionResult& r, const Tensor& table,
                     Intermediates& m);

// From the projections on: the tensors `wanted` (with `selection`) into r.tensors
// and r.aliases, the warnings into r.warnings. `gen` draws the dropout. With
// `lendInputs`, X, X_context and the weights are copied into the result and
// stay in m (a prepared run keeps them); otherwise they move. With `cache`,
// the projections it holds are reused and it holds all three afterwards.
void compute(const AttentionConfig& c, const Dims& d, const Tokens& t, TensorSet wanted, const Selection& selection,
             TorchGenerator& gen, BufferPool& pool, Intermediates& m, bool lendInputs, AttentionResult& r,
             ProjectionCache* cache = nullptr);

// The weights projected so far by runs that had a cache (for tests: a reused projection adds nothing).
int64_t& projectedWithCache();

}  // namespace attention_lab::stages
