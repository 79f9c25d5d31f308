// The KV cache, token by token: one sentence decoded one query at a time, as
// a language model generates. Step t appends k_t and v_t to the cache and
// scores its one query against the t + 1 cached keys:
//
//   for t in range(S):
//       k_cache = torch.cat([k_cache, k[:, t:t+1]], dim=1)   # (H_kv, t+1, dk)
//       v_cache = torch.cat([v_cache, v[:, t:t+1]], dim=1)
//       scores = q[:, t:t+1] @ k_cache.repeat_interleave(H // H_kv, 0).transpose(-2, -1)   # (H, 1, t+1)
//       weights = torch.softmax(mask(scale(scores)), dim=-1)  # the run's row steps, no causal mask needed
//
// Each step's weights equal the full causal run's row t bit for bit: the same
// gemm for q·k and the same row softmax (scaleMaskSoftmaxRow), and the keys
// a causal mask blocks add exact zeros at the end of the full row's sum.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attention.h"

namespace attention_lab {

class PreparedAttention;

struct DecodeResult {
  std::vector<std::string> tokens;  // [S]
  int64_t S = 0, H = 0, Hkv = 0, dk = 0, D = 0;
  std::vector<float> newKeys, newValues;  // [S, H_kv, dk]: k_t, v_t (after qkNorm and RoPE)
  std::vector<float> scores;              // [S, H, S]: q_t · k_j for j <= t, NaN for j > t
  std::vector<float> weights;             // [S, H, S]: step t's softmax over its t + 1 keys, NaN for j > t
  std::vector<float> fullWeights;         // [S, H, S]: the full causal run's weights
  int64_t identicalRows = 0, rows = 0;    // rows of weights bit-identical to fullWeights' first t + 1 entries
  // [S, S]: head 0's step t with is_causal=True on its one query. PyTorch's
  // causal mask is top-left aligned (torch.ones(1, t+1).tril()), so the one
  // query sees key 0 only: its weights are 1, 0, ..., 0.
  std::vector<float> isCausalOneQuery;
  // The cache's bytes at length t + 1: 2 (k and v) · (t + 1) · heads · dk · 4 (float32).
  std::vector<double> cacheBytesMha, cacheBytesGqa, cacheBytesMqa;  // heads = H, H_kv, 1
};

// Decodes sentence `batch` of `config`. Errors: the run's, then
// decode-needs-self-attention (on the context field), decode-needs-causal
// ("mask"), decode-needs-dot-score ("score"), out-of-range ("options.batch").
Status decodeWithKvCache(const AttentionConfig& config, int64_t batch, DecodeResult& out);
// The same from a prepared run (its config with its edits; its X and weights, drawn once).
Status decodeWithKvCache(PreparedAttention& prepared, int64_t batch, DecodeResult& out);

}  // namespace attention_lab
