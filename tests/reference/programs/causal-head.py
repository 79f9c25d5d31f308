# One causal self-attention head (the GPT-style "CausalAttention" module) on a random batch.
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
        scaled_scores = attn_scores / keys.shape[-1] ** 0.5
        masked_scores = scaled_scores.masked_fill(self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
        attn_weights = torch.softmax(masked_scores, dim=-1)
        attn_weights = self.dropout(attn_weights)

        context_vec = attn_weights @ values
        self.trace = dict(queries=queries, keys=keys, values=values, attn_scores=attn_scores,
                          scaled_scores=scaled_scores, masked_scores=masked_scores,
                          attn_weights=attn_weights)  # kept for the fixture
        return context_vec


torch.manual_seed(123)
batch = torch.randn(2, 5, 4)  # (batch, tokens, d_in)

torch.manual_seed(123)
context_length = batch.shape[1]
ca = CausalAttention(d_in=4, d_out=4, context_length=context_length, dropout=0.0)
context_vecs = ca(batch)
print(context_vecs)
print("context_vecs.shape:", context_vecs.shape)

save({"batch": batch, **ca.state_dict(), **ca.trace, "context_vecs": context_vecs})
