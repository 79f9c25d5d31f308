"""The self-attention notes' example (one head): batch 1, seq_len 4, d_model 6,
so k_dim = v_dim = d_model // num_heads = 6. The notes draw it as figures with
no seed: here torch.manual_seed(0) comes first, then X = torch.randn(1, 4, 6),
then W^Q, W^K, W^V = torch.rand(6, 6) in that order (the generator goes on from
X), used as Q = X W^Q. Entries of q and k then spread enough that the unscaled
dot products are large, the case the notes' sqrt(d_k) argument is about.
One head has no W^O: the output is weights @ V."""
import math

import torch

d_model, seq_len, num_heads = 6, 4, 1
k_dim = d_model // num_heads

torch.manual_seed(0)
X = torch.randn(1, seq_len, d_model)  # (batch, seq_len, d_model)
W_Q = torch.rand(d_model, k_dim)
W_K = torch.rand(d_model, k_dim)
W_V = torch.rand(d_model, k_dim)
Q, K, V = X @ W_Q, X @ W_K, X @ W_V  # (1, 4, 6) each


def dot_scores():
    """alpha*_ij = q_i . k_j: (1, 4, 4)."""
    return Q @ K.transpose(-2, -1)


def scaled_scores():
    """The Transformer's choice: q_i . k_j / sqrt(d_k), d_k = 6."""
    return dot_scores() / math.sqrt(k_dim)


def attend(scores):
    """softmax over the keys, then the weighted sum of the values."""
    weights = torch.softmax(scores, dim=-1)  # each row sums to 1
    return weights, weights @ V  # (1, 4, 4), (1, 4, 6)


def projections():
    return {"X": X, "W_Q": W_Q, "W_K": W_K, "W_V": W_V,
            "Q": Q, "K": K, "V": V}
