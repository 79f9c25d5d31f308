// Input vectors: embedding lookup and the sinusoidal positional encoding.
#pragma once

#include <vector>

#include "config.h"
#include "torch_random.h"

namespace attention_lab {

// nn.Embedding(vocabSize, d).weight: normal_(0, 1) on [vocabSize, d], or the
// same numbers and generator state kept from a recent run (draw_cache.h).
Tensor drawEmbeddingTable(int64_t vocabSize, int64_t d, TorchGenerator& generator);

// X[b, s, :] = table[ids[b][s], :]   table [V, D] -> X [B, S, D]
Tensor embed(const Tensor& table, const std::vector<std::vector<int64_t>>& ids);

// table[row][col] = value for every edit; a row given as a token is that
// token's id in `vocab` (an error naming the edit when it has none, and then
// the table is left as it was).
Status applyEmbeddingEdits(const std::vector<CellEdit>& edits, const std::vector<std::string>& vocab, Tensor& table);

// x += PE, the encoding of "Attention Is All You Need", computed in float32
// the way the common PyTorch tutorial code does:
//   position = torch.arange(S).unsqueeze(1)
//   div_term = torch.exp(torch.arange(0, D, 2) * (-math.log(10000.0) / D))
//   pe[:, 0::2] = torch.sin(position * div_term)
//   pe[:, 1::2] = torch.cos(position * div_term)   # (div_term[:D//2] for odd D)
// x is [B, S, D].
void addSinusoidalPositions(Tensor& x);

}  // namespace attention_lab
