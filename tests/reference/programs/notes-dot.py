# The self-attention notes' dot-product score, unscaled: alpha*_ij = q_i . k_j,
# softmax over each row, then the rows of V weighted and summed.
import torch

from _fixture import save
from _notes_scores import attend, dot_scores, projections

scores = dot_scores()
weights, out = attend(scores)
print(weights)
print(weights.sum(-1))  # every row sums to 1

save({**projections(), "scores": scores, "weights": weights, "out": out})
