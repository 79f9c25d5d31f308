# The most basic self-attention: no weights at all. Every output vector is a
# weighted average of the input vectors, weighted by softmax(X Xᵀ).
import torch
import torch.nn as nn
import torch.nn.functional as F

from _fixture import save

sentence = "I love my cat"
tokens = sentence.split()
vocab = {word: i for i, word in enumerate(dict.fromkeys(tokens))}
ids = torch.tensor([vocab[word] for word in tokens])

torch.manual_seed(5)
embedding = nn.Embedding(len(vocab), 4)
x = embedding(ids[None]).detach()  # (b, t, k) = (1, 4, 4)

raw_weights = torch.bmm(x, x.transpose(1, 2))  # (b, t, t)
weights = F.softmax(raw_weights, dim=2)
y = torch.bmm(weights, x)  # (b, t, k)
print(weights)
print(y)

save({"ids": ids, "x": x, "raw_weights": raw_weights, "weights": weights, "y": y})
