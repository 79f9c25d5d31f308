# The walk-through's self-attention as a module: three nn.Linear(4, 4) without
# bias, built after torch.manual_seed(123), on the embedded "Once upon a time there".
import torch
import torch.nn as nn
import torch.nn.functional as F

from _fixture import save

words = "Once upon a time there".split()
vocab = {word: i for i, word in enumerate(dict.fromkeys(words))}
ids = torch.tensor([vocab[word] for word in words])

torch.manual_seed(123)
embedding = nn.Embedding(len(vocab), 4)
X = embedding(ids).detach()  # (5, 4)


class SelfAttention(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_Q = nn.Linear(d_in, d_out, bias=False)  # created in the order Q, K, V
        self.W_K = nn.Linear(d_in, d_out, bias=False)
        self.W_V = nn.Linear(d_in, d_out, bias=False)

    def forward(self, x):
        Q = self.W_Q(x)  # x @ weight.T
        K = self.W_K(x)
        V = self.W_V(x)
        scores = Q @ K.transpose(-2, -1)
        scaled = scores / K.shape[-1] ** 0.5
        weights = F.softmax(scaled, dim=-1)
        context = weights @ V
        self.trace = dict(Q=Q, K=K, V=V, scores=scores, scaled=scaled, weights=weights)  # kept for the fixture
        return context


torch.manual_seed(123)
sa = SelfAttention(4, 4)
output = sa(X)
print(output)

save({"ids": ids, "X": X, **sa.state_dict(), **sa.trace, "output": output})
