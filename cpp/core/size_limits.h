// Sizes the engine accepts. They are checked before anything is allocated,
// so an oversized request is a clear error instead of an out-of-memory trap
// (wasm memory is capped at 2 GiB and a failed allocation aborts the module).
#pragma once

#include <cstdint>

namespace attention_lab {

constexpr int64_t kMaxTokensPerSequence = 2048;  // S and S_kv, after padding/truncation
constexpr int64_t kMaxBatch = 64;                // B
constexpr int64_t kMaxDModel = 4096;             // D
constexpr int64_t kMaxHeads = 64;                // H
constexpr int64_t kMaxVocab = 100000;            // rows of the embedding table
constexpr int64_t kMaxAdditiveHidden = 1024;     // additiveHidden
// The additive score's tanh terms, B·H·S·S_kv·additiveHidden (each a few
// floating-point operations and a tanh): about a second of work.
constexpr int64_t kMaxAdditiveTerms = int64_t{1} << 26;
// What one run allocates together (intermediateBytes in attention.h): X,
// the embedding table, the weights, Q|K|V, the tensors it keeps (a
// [B,H,S,S_kv] stage only when asked for) and the scratch its kernels work in
// (one head's [S,S_kv] scores, the mask, the concat, ...).
constexpr int64_t kMaxIntermediateBytes = int64_t{512} << 20;
// The config itself: its JSON text, the values in that text (each becomes a
// parsed node of about 100 bytes), and the explicit values given as typed arrays.
constexpr int64_t kMaxConfigTextBytes = int64_t{16} << 20;
constexpr int64_t kMaxJsonValues = 1000000;
constexpr int64_t kMaxGivenBytes = int64_t{512} << 20;

// A checkpoint's config.json (gpt2_config.h): its sizes, and its weights as
// float32 together (GPT-2 small's 124M are 475 MiB; medium's 355M would not fit
// beside the rest in 2 GiB of wasm memory). A run's kept tensors are bounded by
// kMaxIntermediateBytes, its tokens by the model's n_positions.
constexpr int64_t kMaxModelLayers = 64;
constexpr int64_t kMaxModelPositions = 8192;
constexpr int64_t kMaxModelVocab = int64_t{1} << 18;
constexpr int64_t kMaxModelInner = 4 * kMaxDModel;
constexpr int64_t kMaxModelWeightBytes = int64_t{1} << 30;

}  // namespace attention_lab
