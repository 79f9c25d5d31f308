# Mistral-style attention as Hugging Face's MistralAttention writes it: Llama's attention
# (rotary embedding, grouped-query heads through repeat_kv) with a sliding window: query i
# sees key j only when 0 <= i - j < sliding_window. Plain torch 1.13, printing each tensor.
import math

import torch
import torch.nn as nn

from _fixture import save


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def rotary_cos_sin(seq_len, dim, base=10000.0):
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
    freqs = torch.outer(torch.arange(seq_len).float(), inv_freq)  # (seq_len, dim/2)
    emb = torch.cat((freqs, freqs), dim=-1)
    return freqs, emb.cos(), emb.sin()


def repeat_kv(hidden_states, n_rep):
    """Each KV head repeated n_rep times in a row (= repeat_interleave(n_rep, dim=1))."""
    batch, num_key_value_heads, slen, head_dim = hidden_states.shape
    hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
    return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)


def sliding_window_causal_mask(q_len, sliding_window):
    """True = blocked: the future (j > i) and keys that left the window (i - j >= sliding_window)."""
    ones = torch.ones(q_len, q_len, dtype=torch.bool)
    return torch.triu(ones, diagonal=1) | torch.tril(ones, diagonal=-sliding_window)


class MistralAttention(nn.Module):
    def __init__(self, hidden_size, num_heads, num_key_value_heads, sliding_window):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = hidden_size // num_heads
        self.num_key_value_heads = num_key_value_heads
        self.sliding_window = sliding_window
        self.q_proj = nn.Linear(hidden_size, num_heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(hidden_size, num_key_value_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(hidden_size, num_key_value_heads * self.head_dim, bias=False)
        # Mistral's o_proj has no bias; this one keeps nn.Linear's default bias=True, as the lab's output projection does.
        self.o_proj = nn.Linear(num_heads * self.head_dim, hidden_size)

    def forward(self, hidden_states):
        bsz, q_len, _ = hidden_states.size()
        query_states = self.q_proj(hidden_states).view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)
        key_states = self.k_proj(hidden_states).view(bsz, q_len, self.num_key_value_heads, self.head_dim).transpose(1, 2)
        value_states = self.v_proj(hidden_states).view(bsz, q_len, self.num_key_value_heads, self.head_dim).transpose(1, 2)

        angles, cos, sin = rotary_cos_sin(q_len, self.head_dim)
        query_states = query_states * cos + rotate_half(query_states) * sin
        key_states = key_states * cos + rotate_half(key_states) * sin
        trace = dict(query_states=query_states, key_states=key_states, value_states=value_states)

        key_states = repeat_kv(key_states, self.num_heads // self.num_key_value_heads)
        value_states = repeat_kv(value_states, self.num_heads // self.num_key_value_heads)
        attn_scores = torch.matmul(query_states, key_states.transpose(2, 3))
        scaled_scores = attn_scores / math.sqrt(self.head_dim)
        mask = sliding_window_causal_mask(q_len, self.sliding_window)
        masked_scores = scaled_scores.masked_fill(mask, float("-inf"))
        attn_weights = nn.functional.softmax(masked_scores, dim=-1, dtype=torch.float32)
        attn_output = torch.matmul(attn_weights, value_states)
        trace.update(attn_scores=attn_scores, scaled_scores=scaled_scores, mask=mask.int(), masked_scores=masked_scores,
                     attn_weights=attn_weights)

        attn_output = attn_output.transpose(1, 2).contiguous().reshape(bsz, q_len, -1)
        self.trace = trace
        return self.o_proj(attn_output)


sentence = "a sliding window lets each word see only its few recent neighbours"
tokens = sentence.split()
vocab = {}
for word in tokens:
    if word not in vocab:
        vocab[word] = len(vocab)
ids = torch.tensor([[vocab[word] for word in tokens]])  # (1, 12)

torch.manual_seed(0)
embed_tokens = nn.Embedding(len(vocab), 16)
attention = MistralAttention(hidden_size=16, num_heads=4, num_key_value_heads=2, sliding_window=3)
with torch.no_grad():
    hidden_states = embed_tokens(ids)
    attn_output = attention(hidden_states)

print("Sliding-window causal mask (1 = blocked):\n", attention.trace["mask"])
print("Attention weights of head 0:\n", attention.trace["attn_weights"][0, 0])
print("Output:\n", attn_output)

save({"ids": ids, "hidden_states": hidden_states, **attention.state_dict(), **attention.trace,
      "attn_output": attn_output})
