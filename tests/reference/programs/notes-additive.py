# The self-attention notes' other score, additive: alpha*_ij = w^T tanh(W q_i + U k_j),
# a small network with its own weights (here hidden size 6, no biases), not scaled.
# Its layers are drawn right after W^Q, W^K, W^V: W, then U, then w.
import torch
import torch.nn as nn

from _fixture import save
from _notes_scores import Q, K, attend, k_dim, projections

hidden = 6
W = nn.Linear(k_dim, hidden, bias=False)  # applied to the queries
U = nn.Linear(k_dim, hidden, bias=False)  # applied to the keys
w = nn.Linear(hidden, 1, bias=False)
features = torch.tanh(W(Q).unsqueeze(2) + U(K).unsqueeze(1))  # (1, 4 queries, 4 keys, hidden)
scores = w(features).squeeze(-1)  # (1, 4, 4)
weights, out = attend(scores)
print(scores)
print(weights)

save({**projections(), "W.weight": W.weight, "U.weight": U.weight, "w.weight": w.weight,
      "scores": scores, "weights": weights, "out": out})
