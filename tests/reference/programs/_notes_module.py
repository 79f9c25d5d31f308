"""The self-attention notes' multi-head module, as their code writes it: ONE
nn.Linear(d_model, d_model) (with its bias) deep-copied four times for W^Q,
W^K, W^V and W^O, so all four start equal; heads of k_dim = d_model // num_heads;
scores / sqrt(k_dim); a mask, when given, is 1 = may attend and fills the 0s with
-1e10; nn.Dropout on the softmax weights (active while the module trains)."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def clones(module, n):
    return nn.ModuleList([copy.deepcopy(module) for _ in range(n)])


def attention(query, key, value, mask=None, dropout=None, trace=None):
    # query, key, value: (batch, heads, seq_len, k_dim); mask: (1, 1, seq_len, seq_len)
    scores = query @ key.transpose(-2, -1) / math.sqrt(query.size(-1))
    masked = scores if mask is None else scores.masked_fill(mask == 0, -1e10)
    weights = F.softmax(masked, dim=-1)
    dropped = weights if dropout is None else dropout(weights)
    if trace is not None:
        trace.update(scores=scores, masked=masked, weights=weights)
    return dropped @ value, dropped


class MultiHeadedAttention(nn.Module):
    def __init__(self, num_heads, d_model, dropout=0.1):
        super().__init__()
        assert d_model % num_heads == 0
        self.k_dim = d_model // num_heads
        self.num_heads = num_heads
        self.proj_weights = clones(nn.Linear(d_model, d_model), 4)  # W^Q, W^K, W^V, W^O
        self.dropout = nn.Dropout(p=dropout)
        self.attention_score = None
        self.trace = {}  # kept for the fixture

    def forward(self, query, key, value, mask=None):
        if mask is not None:
            mask = mask.unsqueeze(1)  # the same mask for every head
        b = query.size(0)
        # (b, seq_len, d_model) -> (b, heads, seq_len, k_dim)
        query, key, value = [w(x).view(b, -1, self.num_heads, self.k_dim).transpose(1, 2)
                             for w, x in zip(self.proj_weights, (query, key, value))]
        heads, self.attention_score = attention(query, key, value, mask, self.dropout, self.trace)
        concat = heads.transpose(1, 2).contiguous().view(b, -1, self.num_heads * self.k_dim)
        self.trace.update(query=query, key=key, value=value, heads=heads, concat=concat)
        return self.proj_weights[-1](concat)

    def parameters_saved(self):
        """W^Q, W^K, W^V, W^O as the module holds them ([out, in] weights and biases)."""
        return {f"proj_weights.{i}.{p}": t for i, w in enumerate(self.proj_weights) for p, t in w.named_parameters()}
