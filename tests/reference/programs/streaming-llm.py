# StreamingLLM's attention pattern (Xiao et al., "Efficient Streaming Language Models with
# Attention Sinks"): a sliding window of recent keys, plus the first 4 tokens ("attention
# sinks") that stay visible to every later query. Plain torch 1.13, printing each tensor.
import math

import torch
import torch.nn as nn

from _fixture import save


def streaming_mask(seq_len, window, n_sink):
    """True = blocked: the future, and keys that left the window unless they are sinks."""
    i = torch.arange(seq_len)[:, None]
    j = torch.arange(seq_len)[None, :]
    return (j > i) | ((i - j >= window) & (j >= n_sink))


class StreamingAttention(nn.Module):
    def __init__(self, d_model, num_heads, window, n_sink):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = d_model // num_heads
        self.window = window
        self.n_sink = n_sink
        self.W_query = nn.Linear(d_model, d_model, bias=False)
        self.W_key = nn.Linear(d_model, d_model, bias=False)
        self.W_value = nn.Linear(d_model, d_model, bias=False)
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        b, n, d = x.shape
        heads = lambda t: t.view(b, n, self.num_heads, self.head_dim).transpose(1, 2)  # (b, heads, n, head_dim)
        queries, keys, values = heads(self.W_query(x)), heads(self.W_key(x)), heads(self.W_value(x))
        attn_scores = queries @ keys.transpose(2, 3)
        scaled_scores = attn_scores / math.sqrt(self.head_dim)
        mask = streaming_mask(n, self.window, self.n_sink)
        masked_scores = scaled_scores.masked_fill(mask, float("-inf"))
        attn_weights = torch.softmax(masked_scores, dim=-1)
        context = attn_weights @ values  # (b, heads, n, head_dim)
        self.trace = dict(attn_scores=attn_scores, scaled_scores=scaled_scores, mask=mask.int(),
                          masked_scores=masked_scores, attn_weights=attn_weights, context=context)
        return self.out_proj(context.transpose(1, 2).reshape(b, n, d))


sentence = "four sink tokens keep attention steady while a short window slides along"
tokens = sentence.split()
vocab = {}
for word in tokens:
    if word not in vocab:
        vocab[word] = len(vocab)
ids = torch.tensor([[vocab[word] for word in tokens]])  # (1, 12)

torch.manual_seed(0)
embedding = nn.Embedding(len(vocab), 16)
attention = StreamingAttention(d_model=16, num_heads=2, window=4, n_sink=4)
with torch.no_grad():
    x = embedding(ids)
    output = attention(x)

print("Window 4 + 4 sink tokens (1 = blocked):\n", attention.trace["mask"])
print("Attention weights of head 0:\n", attention.trace["attn_weights"][0, 0])
print("Output:\n", output)

save({"ids": ids, "x": x, **attention.state_dict(), **attention.trace, "output": output})
