# Multi-head attention for d_model 512 and 8 heads, every projection an
# nn.Linear with its bias; the forward takes separate query, key and value and
# an optional mask (a 0 in it blocks the score with -1e9). The test builds the
# module, then draws x = torch.randn(2, 5, 512), calls it as self-attention with
# no mask and prints the two shapes. It sets no seed; here both draws start
# from torch.manual_seed(0).
import math

import torch
import torch.nn as nn

from _fixture import save


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        assert d_model % num_heads == 0
        self.d_model = d_model
        self.num_heads = num_heads
        self.d_k = d_model // num_heads
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_o = nn.Linear(d_model, d_model)

    def forward(self, query, key, value, mask=None):
        b = query.shape[0]
        Q, K, V = self.w_q(query), self.w_k(key), self.w_v(value)
        trace = dict(Q=Q, K=K, V=V)  # kept for the fixture

        def heads(t):
            return t.view(b, -1, self.num_heads, self.d_k).transpose(1, 2)

        scores = heads(Q) @ heads(K).transpose(-2, -1) / math.sqrt(self.d_k)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, -1e9)
        weights = torch.softmax(scores, dim=-1)
        context = (weights @ heads(V)).transpose(1, 2).contiguous().view(b, -1, self.d_model)
        trace.update(scaled=scores, weights=weights, concat=context)
        self.trace = trace
        return self.w_o(context)


torch.manual_seed(0)
mha = MultiHeadAttention(512, 8)
torch.manual_seed(0)
x = torch.randn(2, 5, 512)
output = mha(x, x, x)
print(f"input shape: {x.shape}")
print(f"output shape: {output.shape}")

save({"x": x, **mha.trace, "output": output})
