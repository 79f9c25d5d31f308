# The self-attention notes' scaled dot-product score, the Transformer's:
# softmax(Q K^T / sqrt(d_k)) V with d_k = 6.
import torch

from _fixture import save
from _notes_scores import attend, dot_scores, projections, scaled_scores

scores = scaled_scores()
weights, out = attend(scores)
print(scores)
print(weights)

save({**projections(), "dot": dot_scores(), "scores": scores, "weights": weights, "out": out})
