# The Annotated Transformer's MultiHeadedAttention: four clones of one
# nn.Linear(d_model, d_model) for Q, K, V and the output, a subsequent
# (look-ahead) `tril` mask where 1 = may attend, used as masked_fill(mask == 0, -1e10)
# (the tutorial version this preset mirrors; the original article writes -1e9),
# and dropout on the attention weights.
import copy
import math

import torch
import torch.nn as nn

from _fixture import save

trace = {}  # kept for the fixture


def clones(module, N):
    "Produce N identical layers."
    return nn.ModuleList([copy.deepcopy(module) for _ in range(N)])


def subsequent_mask(size):
    "Mask out subsequent positions."
    attn_shape = (1, size, size)
    subsequent_mask = torch.triu(torch.ones(attn_shape), diagonal=1).type(torch.uint8)
    return subsequent_mask == 0


def attention(query, key, value, mask=None, dropout=None):
    "Compute 'Scaled Dot Product Attention'"
    d_k = query.size(-1)
    scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
    trace["scores"] = scores
    if mask is not None:
        scores = scores.masked_fill(mask == 0, -1e10)
    trace["masked_scores"] = scores
    p_attn = scores.softmax(dim=-1)
    trace["p_attn"] = p_attn
    if dropout is not None:
        p_attn = dropout(p_attn)
    return torch.matmul(p_attn, value), p_attn


class MultiHeadedAttention(nn.Module):
    def __init__(self, h, d_model, dropout=0.1):
        "Take in model size and number of heads."
        super(MultiHeadedAttention, self).__init__()
        assert d_model % h == 0
        # We assume d_v always equals d_k
        self.d_k = d_model // h
        self.h = h
        self.linears = clones(nn.Linear(d_model, d_model), 4)
        self.attn = None
        self.dropout = nn.Dropout(p=dropout)

    def forward(self, query, key, value, mask=None):
        if mask is not None:
            # Same mask applied to all h heads.
            mask = mask.unsqueeze(1)
        nbatches = query.size(0)

        # 1) Do all the linear projections in batch from d_model => h x d_k
        query, key, value = [
            lin(x).view(nbatches, -1, self.h, self.d_k).transpose(1, 2)
            for lin, x in zip(self.linears, (query, key, value))
        ]

        # 2) Apply attention on all the projected vectors in batch.
        x, self.attn = attention(query, key, value, mask=mask, dropout=self.dropout)
        trace.update(query=query, key=key, value=value, heads=x)  # x of every head

        # 3) "Concat" using a view and apply a final linear.
        x = x.transpose(1, 2).contiguous().view(nbatches, -1, self.h * self.d_k)
        trace["concat"] = x
        del query
        del key
        del value
        return self.linears[-1](x)


torch.manual_seed(0)
x = torch.rand(6, 3, 8)  # (nbatches, seq, d_model)
mha = MultiHeadedAttention(h=2, d_model=8)
mask = subsequent_mask(3)
out = mha(x, x, x, mask)
print(mask.int())
print(mha.attn[0])
print(out[0])

save({"x": x, **mha.state_dict(), "mask": mask.int(), **trace, "attn": mha.attn, "out": out})
