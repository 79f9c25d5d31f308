# Multi-head attention with weight splits: one nn.Linear each for Q, K and V,
# viewed as heads, and an output projection.
import torch
import torch.nn as nn

from _fixture import save


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)  # combines the heads
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, num_tokens, d_in = x.shape
        keys = self.W_key(x)  # (b, num_tokens, d_out)
        queries = self.W_query(x)
        values = self.W_value(x)
        trace = dict(queries=queries, keys=keys, values=values)  # kept for the fixture

        # Split d_out into heads: (b, num_tokens, d_out) -> (b, num_heads, num_tokens, head_dim)
        keys = keys.view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        queries = queries.view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        values = values.view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)

        attn_scores = queries @ keys.transpose(2, 3)  # each head
        scaled_scores = attn_scores / keys.shape[-1] ** 0.5  # keys.shape[-1] is head_dim
        mask_bool = self.mask.bool()[:num_tokens, :num_tokens]
        masked_scores = scaled_scores.masked_fill(mask_bool, -torch.inf)
        attn_weights = torch.softmax(masked_scores, dim=-1)
        attn_weights = self.dropout(attn_weights)

        context_vec = (attn_weights @ values).transpose(1, 2)  # (b, num_tokens, num_heads, head_dim)
        trace.update(attn_scores=attn_scores, scaled_scores=scaled_scores, masked_scores=masked_scores,
                     attn_weights=attn_weights, heads=context_vec.transpose(1, 2))
        context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)
        trace.update(concatenated=context_vec)
        context_vec = self.out_proj(context_vec)
        self.trace = trace
        return context_vec


torch.manual_seed(123)
batch = torch.randn(2, 5, 6)  # (batch, tokens, d_in)

torch.manual_seed(123)
context_length = batch.shape[1]
mha = MultiHeadAttention(d_in=6, d_out=6, context_length=context_length, dropout=0.0, num_heads=2)
context_vecs = mha(batch)
print(context_vecs)
print("context_vecs.shape:", context_vecs.shape)

save({"batch": batch, **mha.state_dict(), **mha.trace, "context_vecs": context_vecs})
