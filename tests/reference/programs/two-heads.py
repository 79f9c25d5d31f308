# Multi-head attention by stacking single heads: a wrapper that runs two
# CausalAttention modules and concatenates what they return.
import torch
import torch.nn as nn

from _fixture import save


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.d_out = d_out
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, num_tokens, d_in = x.shape
        keys = self.W_key(x)
        queries = self.W_query(x)
        values = self.W_value(x)

        attn_scores = queries @ keys.transpose(1, 2)
        scaled_scores = attn_scores / self.d_out ** 0.5  # this head's d_out
        masked_scores = scaled_scores.masked_fill(self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
        attn_weights = torch.softmax(masked_scores, dim=-1)
        attn_weights = self.dropout(attn_weights)

        context_vec = attn_weights @ values
        self.trace = dict(queries=queries, keys=keys, values=values, attn_scores=attn_scores,
                          scaled_scores=scaled_scores, masked_scores=masked_scores,
                          attn_weights=attn_weights, context_vec=context_vec)  # kept for the fixture
        return context_vec


class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList(
            [CausalAttention(d_in, d_out, context_length, dropout, qkv_bias) for _ in range(num_heads)]
        )

    def forward(self, x):
        return torch.cat([head(x) for head in self.heads], dim=-1)


torch.manual_seed(123)
batch = torch.randn(2, 5, 6)  # (batch, tokens, d_in)

torch.manual_seed(123)
context_length = batch.shape[1]
mha = MultiHeadAttentionWrapper(d_in=6, d_out=3, context_length=context_length, dropout=0.0, num_heads=2)
context_vecs = mha(batch)
print(context_vecs)
print("context_vecs.shape:", context_vecs.shape)

traces = {f"heads.{h}.{name}": t for h, head in enumerate(mha.heads) for name, t in head.trace.items()}
save({"batch": batch, **mha.state_dict(), **traces, "context_vecs": context_vecs})
