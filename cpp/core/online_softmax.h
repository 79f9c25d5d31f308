// FlashAttention-2's online softmax over one head, tile by tile: the output
// is built without ever holding a whole row of weights. Query tiles outer,
// key tiles inner; per query row a running max m, a running sum ℓ and an
// unnormalised output O:
//
//   for each query tile Q_i:                   # rows [qs, qe)
//       m = -inf; l = 0; O = 0                 # (tq,), (tq,), (tq, dk)
//       for each key tile K_j, V_j:            # keys [ks, ke)
//           x = masked[qs:qe, ks:ke]           # the run's logits (after scale, mask and the variants)
//           if (x == -inf).all(): continue     # a fully masked tile is skipped, as with causal masks
//           m_new = torch.maximum(m, x.max(-1).values)
//           alpha = torch.exp(m - m_new)       # 0 when m = -inf
//           p = torch.exp(x - m_new[:, None])
//           l = alpha * l + p.sum(-1)
//           O = alpha[:, None] * O + p @ V_j
//           m = m_new
//       out[qs:qe] = O / l[:, None]
//
// With a sink logit, the softmax is over cat([masked, sinkLogit]): the sink
// is the last column of each row's last key tile (it takes weight in m and
// ℓ and carries no value), so that tile is never skipped.
//
// The logits are the run's own, so the only difference from the plain
// softmax's context (weights @ v) is the order of the float operations: the
// plain softmax divides each weight by the whole sum before multiplying by v,
// this loop rescales partial sums by α and divides once at the end. The
// results agree within float32 rounding, but not every entry bit for bit.
#pragma once

#include <cstdint>
#include <vector>

#include "attention.h"

namespace attention_lab {

class PreparedAttention;

struct FlashTile {
  int64_t queryStart = 0, queryEnd = 0, keyStart = 0, keyEnd = 0;
  bool skipped = false;  // every logit in it is masked (-inf)
};

struct FlashOptions {
  int64_t batch = 0, head = 0, tileQueries = 2, tileKeys = 2;
};

struct FlashResult {
  int64_t S = 0, Skv = 0, dk = 0, tileQueries = 0, tileKeys = 0;
  std::vector<FlashTile> tiles;  // T of them, query tiles outer
  // [T, tileQueries] per row of the tile's query block (NaN past S), after tile t:
  std::vector<float> runningMax;  // m
  std::vector<float> runningSum;  // ℓ
  std::vector<float> rescale;     // α = exp(m_old − m_new) applied in tile t (0 when m_old = −inf; 1 when skipped)
  std::vector<float> partialOutput;  // [T, tileQueries, dk]: O after tile t
  std::vector<float> output;         // [S, dk]: O / ℓ
  std::vector<float> plain;          // [S, dk]: weights @ v of the same head (before dropout)
  double maxAbsDifference = 0;       // over the entries that are numbers in both
  int64_t identical = 0, total = 0;  // entries of output bit-identical to plain, of S · dk
};

// At most this many floats of per-tile state (runningMax, runningSum,
// rescale, partialOutput): 1×1 tiles of a long sentence would be far more
// than anyone steps through.
inline constexpr int64_t kFlashStateLimit = 4 << 20;

// The online softmax of head `options.head` of sentence `options.batch`.
// Errors: the run's, tile-size ("options.tileQueries" / "options.tileKeys"),
// out-of-range ("options.batch", "options.head"), too-many-tiles.
Status onlineSoftmax(const AttentionConfig& config, const FlashOptions& options, FlashResult& out);
// The same from a prepared run (its config with its edits; its X and weights, drawn once).
Status onlineSoftmax(PreparedAttention& prepared, const FlashOptions& options, FlashResult& out);

}  // namespace attention_lab
