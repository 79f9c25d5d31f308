# The self-attention notes' masked attention: a MASK matrix with 1 where a token
# may not look (the keys to its right) and 0 where it may (itself and the left),
# so the lower triangle is kept; the scaled scores under a 1 become -1e9.
import torch

from _fixture import save
from _notes_scores import attend, projections, scaled_scores, seq_len

mask = torch.triu(torch.ones(seq_len, seq_len), diagonal=1)  # 1 = blocked
scores = scaled_scores()
masked = scores.masked_fill(mask.bool(), -1e9)
weights, out = attend(masked)
print(mask)
print(weights)

save({**projections(), "mask": mask, "scores": scores, "masked": masked, "weights": weights, "out": out})
