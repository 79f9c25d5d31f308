# A self-attention module with trainable weights: three nn.Linear(d_in, d_out, bias=False).
import torch
import torch.nn as nn

from _fixture import save


class SimpleSelfAttention(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=False)
        self.W_key = nn.Linear(d_in, d_out, bias=False)
        self.W_value = nn.Linear(d_in, d_out, bias=False)

    def forward(self, x):
        keys = self.W_key(x)
        queries = self.W_query(x)
        values = self.W_value(x)
        attn_scores = queries @ keys.T  # omega
        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)
        context_vec = attn_weights @ values
        self.trace = dict(queries=queries, keys=keys, values=values, attn_scores=attn_scores,
                          attn_weights=attn_weights)  # kept for the fixture
        return context_vec


sentence = "Your journey starts with one step"
tokens = sentence.split()
vocab = {word: i for i, word in enumerate(dict.fromkeys(tokens))}
ids = torch.tensor([vocab[word] for word in tokens])

torch.manual_seed(123)
embedding = nn.Embedding(len(vocab), 4)
inputs = embedding(ids).detach()  # (6, 4)

torch.manual_seed(789)
sa = SimpleSelfAttention(d_in=4, d_out=4)
context_vecs = sa(inputs)
print(context_vecs)

save({"ids": ids, "inputs": inputs, **sa.state_dict(), **sa.trace, "context_vecs": context_vecs})
