# The same walk-through with a causal (look-ahead) mask and dropout on the weights.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from _fixture import save

sentence = "Once upon a time there"
tokens = sentence.split()
vocab = {}
for word in tokens:
    if word not in vocab:
        vocab[word] = len(vocab)
ids = torch.tensor([vocab[word] for word in tokens])

d_model = 4
torch.manual_seed(123)
embedding = nn.Embedding(len(vocab), d_model)
X = embedding(ids).detach()  # (5, 4)

torch.manual_seed(123)
W_q = torch.rand(d_model, d_model)
W_k = torch.rand(d_model, d_model)
W_v = torch.rand(d_model, d_model)

Q = X @ W_q
K = X @ W_k
V = X @ W_v

scores = Q @ K.T
scaled_scores = scores / math.sqrt(d_model)

# A token may not look ahead: 1 above the diagonal = blocked.
seq_len = len(tokens)
mask = torch.triu(torch.ones(seq_len, seq_len), diagonal=1)
masked_scores = scaled_scores.masked_fill(mask.bool(), float("-inf"))
attention_weights = F.softmax(masked_scores, dim=-1)

torch.manual_seed(123)
dropout = nn.Dropout(0.2)  # a new module is in training mode: drop, then scale by 1 / 0.8
dropped_weights = dropout(attention_weights)
output = dropped_weights @ V

print("Attention weights:\n", attention_weights)
print("After dropout:\n", dropped_weights)
print("Output:\n", output)

save({"ids": ids, "X": X, "W_q": W_q, "W_k": W_k, "W_v": W_v, "Q": Q, "K": K, "V": V, "scores": scores,
      "scaled_scores": scaled_scores, "mask": mask, "masked_scores": masked_scores,
      "attention_weights": attention_weights, "dropped_weights": dropped_weights, "output": output})
