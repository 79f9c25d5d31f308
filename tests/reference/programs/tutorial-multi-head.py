# The tutorial's multi-head module: one nn.Linear(6, 6) each for Q, K, V (no
# bias), viewed as 2 heads of 3, causal, then an output nn.Linear(6, 6) with its
# bias. One torch.manual_seed(123) before torch.randn(2, 5, 6); the module draws
# after the batch. Its scores are divided by √d_out = √6 (the layer's width), not √3.
# (torch.randn of 60 numbers takes 76 of the generator's 32-bit outputs: the 60, then 16 more
# that redo its last 16-wide block; the weights' draws start after those 76.)
import torch
import torch.nn as nn

from _fixture import save

d_out = 6


class SplitHeads(nn.Module):
    def __init__(self, d_in, d_out, context_length, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_Q = nn.Linear(d_in, d_out, bias=False)
        self.W_K = nn.Linear(d_in, d_out, bias=False)
        self.W_V = nn.Linear(d_in, d_out, bias=False)
        self.W_O = nn.Linear(d_out, d_out)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        b, n, _ = x.shape
        Q, K, V = self.W_Q(x), self.W_K(x), self.W_V(x)
        trace = dict(Q=Q, K=K, V=V)  # kept for the fixture

        def heads(t):  # (b, n, d_out) -> (b, heads, n, head_dim)
            return t.view(b, n, self.num_heads, self.head_dim).transpose(1, 2)

        scores = heads(Q) @ heads(K).transpose(-2, -1)
        scaled = scores / d_out ** 0.5
        masked = scaled.masked_fill(self.mask[:n, :n], -torch.inf)
        weights = torch.softmax(masked, dim=-1)
        context = weights @ heads(V)
        concat = context.transpose(1, 2).contiguous().view(b, n, -1)
        trace.update(scores=scores, scaled=scaled, masked=masked, weights=weights, context=context, concat=concat)
        self.trace = trace
        return self.W_O(concat)


torch.manual_seed(123)
batch = torch.randn(2, 5, 6)

mha = SplitHeads(6, d_out, context_length=batch.shape[1], num_heads=2)  # no new seed
context_vecs = mha(batch)
print("context_vecs.shape:", context_vecs.shape)
print("context_vecs:\n", context_vecs)

save({"batch": batch, **{k: v for k, v in mha.state_dict().items() if k != "mask"}, **mha.trace,
      "context_vecs": context_vecs})
