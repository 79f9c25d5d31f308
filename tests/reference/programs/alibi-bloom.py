# ALiBi (Press et al., "Train Short, Test Long") as BLOOM uses it: no position embedding;
# each head h adds -m_h * (i - j) to its scaled scores, slopes m_h = 2^(-8h/H).
# BLOOM's build_alibi_tensor adds m_h * j instead: per row that differs by the constant
# m_h * i, which the softmax ignores (checked below). Plain torch 1.13, printing each tensor.
import math

import torch
import torch.nn as nn

from _fixture import save


def get_slopes(n_heads):
    """The paper's slopes; for a number of heads that is no power of two, its interleaving rule."""
    def get_slopes_power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start**i for i in range(n)]

    if math.log2(n_heads).is_integer():
        return get_slopes_power_of_2(n_heads)
    closest = 2 ** math.floor(math.log2(n_heads))
    return get_slopes_power_of_2(closest) + get_slopes_power_of_2(2 * closest)[0::2][: n_heads - closest]


def alibi_bias(n_heads, seq_len):
    slopes = torch.tensor(get_slopes(n_heads))  # (heads,) float32
    distance = (torch.arange(seq_len)[:, None] - torch.arange(seq_len)[None, :]).float()  # i - j
    return -slopes[:, None, None] * distance  # (heads, seq_len, seq_len)


class AlibiAttention(nn.Module):
    def __init__(self, hidden_size, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = hidden_size // num_heads
        # BLOOM fuses these into one query_key_value Linear(hidden, 3 * hidden); three Linears draw like the lab.
        self.query = nn.Linear(hidden_size, hidden_size)
        self.key = nn.Linear(hidden_size, hidden_size)
        self.value = nn.Linear(hidden_size, hidden_size)
        self.dense = nn.Linear(hidden_size, hidden_size)

    def forward(self, hidden_states):
        b, n, d = hidden_states.shape
        heads = lambda t: t.view(b, n, self.num_heads, self.head_dim).transpose(1, 2)
        q, k, v = heads(self.query(hidden_states)), heads(self.key(hidden_states)), heads(self.value(hidden_states))
        attn_scores = q @ k.transpose(-1, -2)
        scaled_scores = attn_scores / math.sqrt(self.head_dim)
        alibi = alibi_bias(self.num_heads, n)
        biased_scores = scaled_scores + alibi
        causal_mask = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)
        masked_scores = biased_scores.masked_fill(causal_mask, float("-inf"))
        attn_weights = torch.softmax(masked_scores, dim=-1)
        context = attn_weights @ v
        self.trace = dict(attn_scores=attn_scores, scaled_scores=scaled_scores, alibi=alibi,
                          biased_scores=biased_scores, masked_scores=masked_scores, attn_weights=attn_weights)
        # BLOOM's form: + slope * j (build_alibi_tensor). The same weights after the softmax.
        bloom_alibi = torch.tensor(get_slopes(self.num_heads))[:, None, None] * torch.arange(n).float()[None, None, :]
        bloom_weights = torch.softmax((scaled_scores + bloom_alibi).masked_fill(causal_mask, float("-inf")), dim=-1)
        assert torch.allclose(bloom_weights, attn_weights, atol=1e-6)
        return self.dense(context.transpose(1, 2).reshape(b, n, d))


sentence = "linear biases let the model read much longer texts than it saw"
tokens = sentence.split()
vocab = {}
for word in tokens:
    if word not in vocab:
        vocab[word] = len(vocab)
ids = torch.tensor([[vocab[word] for word in tokens]])  # (1, 12)

torch.manual_seed(0)
word_embeddings = nn.Embedding(len(vocab), 32)
attention = AlibiAttention(hidden_size=32, num_heads=8)
with torch.no_grad():
    hidden_states = word_embeddings(ids)
    output = attention(hidden_states)

print("Slopes:", get_slopes(8))
print("ALiBi bias of head 0:\n", attention.trace["alibi"][0])
print("Attention weights of head 0:\n", attention.trace["attn_weights"][0, 0])
print("Output:\n", output)

save({"ids": ids, "hidden_states": hidden_states, **attention.state_dict(), **attention.trace, "output": output})
