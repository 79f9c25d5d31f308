# Multi-query attention (Shazeer, "Fast Transformer Decoding — One Write-Head is All You
# Need"): every query head reads one shared key head and one shared value head, so the
# KV cache is num_heads times smaller. The shared head broadcasts over the query heads.
# Plain torch 1.13, printing each tensor.
import math

import torch
import torch.nn as nn

from _fixture import save


class MultiQueryAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = d_model // num_heads
        self.q_proj = nn.Linear(d_model, d_model, bias=False)  # num_heads query heads
        self.k_proj = nn.Linear(d_model, self.head_dim, bias=False)  # one key head
        self.v_proj = nn.Linear(d_model, self.head_dim, bias=False)  # one value head
        self.o_proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        b, n, d = x.shape
        queries = self.q_proj(x).view(b, n, self.num_heads, self.head_dim).transpose(1, 2)  # (b, heads, n, head_dim)
        keys = self.k_proj(x).unsqueeze(1)  # (b, 1, n, head_dim): broadcast over the heads
        values = self.v_proj(x).unsqueeze(1)
        attn_scores = queries @ keys.transpose(-2, -1)  # (b, heads, n, n)
        scaled_scores = attn_scores / math.sqrt(self.head_dim)
        causal_mask = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)
        masked_scores = scaled_scores.masked_fill(causal_mask, float("-inf"))
        attn_weights = torch.softmax(masked_scores, dim=-1)
        heads = attn_weights @ values  # (b, heads, n, head_dim)
        self.trace = dict(queries=queries, keys=keys[:, 0], values=values[:, 0], attn_scores=attn_scores,
                          scaled_scores=scaled_scores, masked_scores=masked_scores, attn_weights=attn_weights,
                          heads=heads)
        return self.o_proj(heads.transpose(1, 2).reshape(b, n, d))


sentence = "every query head shares one small key and value cache"
tokens = sentence.split()
vocab = {}
for word in tokens:
    if word not in vocab:
        vocab[word] = len(vocab)
ids = torch.tensor([[vocab[word] for word in tokens]])  # (1, 10)

torch.manual_seed(0)
embedding = nn.Embedding(len(vocab), 16)
attention = MultiQueryAttention(d_model=16, num_heads=4)
with torch.no_grad():
    x = embedding(ids)
    output = attention(x)

n, head_dim = len(tokens), attention.head_dim
print(f"KV cache: {2 * n * 4 * head_dim * 4} bytes with 4 KV heads, {2 * n * head_dim * 4} bytes with one")
print("Attention weights of head 0:\n", attention.trace["attn_weights"][0, 0])
print("Output:\n", output)

save({"ids": ids, "x": x, **attention.state_dict(), **attention.trace, "output": output})
