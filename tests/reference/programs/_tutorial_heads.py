"""The causal head the tutorial's later programs share. Its forward divides
the scores by the square root of the SCRIPT's d_out (a global the caller
sets), not by the head's own width: for two stacked heads of 3 columns in a
6-wide layer that is √6."""
import torch
import torch.nn as nn

script_d_out = None  # set by the program before it calls a head


class CausalHead(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout=0.0, qkv_bias=False):
        super().__init__()
        self.W_Q = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_K = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_V = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        _, seq_len, _ = x.shape
        Q = self.W_Q(x)
        K = self.W_K(x)
        V = self.W_V(x)
        scores = Q @ K.transpose(-2, -1)
        scaled = scores / script_d_out ** 0.5
        masked = scaled.masked_fill(self.mask[:seq_len, :seq_len], -torch.inf)
        weights = self.dropout(torch.softmax(masked, dim=-1))
        context = weights @ V
        self.trace = dict(Q=Q, K=K, V=V, scores=scores, scaled=scaled, masked=masked, weights=weights,
                          context=context)  # kept for the fixture
        return context
