# Self-attention from scratch, one head: torch.rand weights, no output projection.
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
print(vocab)

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

scores = Q @ K.T  # (5, 5)
scaled_scores = scores / math.sqrt(d_model)
attention_weights = F.softmax(scaled_scores, dim=-1)
output = attention_weights @ V  # (5, 4)

print("Attention weights:\n", attention_weights)
print("Output:\n", output)

save({"ids": ids, "X": X, "W_q": W_q, "W_k": W_k, "W_v": W_v, "Q": Q, "K": K, "V": V, "scores": scores,
      "scaled_scores": scaled_scores, "attention_weights": attention_weights, "output": output})
