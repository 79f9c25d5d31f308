# Llama-style attention as Hugging Face's LlamaAttention writes it: q/k/v projections
# without bias, rotary position embedding (rotate_half), grouped-query attention
# (8 query heads share 2 key/value heads through repeat_kv) and a causal mask.
# Written out in plain torch 1.13 (no transformers), printing each tensor.
import math

import torch
import torch.nn as nn

from _fixture import save


def rotate_half(x):
    """Rotates half the hidden dims of the input."""
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


class LlamaRotaryEmbedding(nn.Module):
    def __init__(self, dim, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, seq_len):
        t = torch.arange(seq_len).float()
        freqs = torch.outer(t, self.inv_freq)  # (seq_len, dim/2): the angles
        emb = torch.cat((freqs, freqs), dim=-1)  # the frequencies repeated over both halves
        return freqs, emb.cos(), emb.sin()


def apply_rotary_pos_emb(q, k, cos, sin):
    return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin


def repeat_kv(hidden_states, n_rep):
    """(batch, num_key_value_heads, seq_len, head_dim) -> (batch, num_attention_heads, seq_len, head_dim),
    each KV head repeated n_rep times in a row: torch.repeat_interleave(x, n_rep, dim=1), not .repeat."""
    batch, num_key_value_heads, slen, head_dim = hidden_states.shape
    if n_rep == 1:
        return hidden_states
    hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
    return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)


class LlamaAttention(nn.Module):
    def __init__(self, hidden_size, num_heads, num_key_value_heads, rope_theta=10000.0):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = hidden_size // num_heads
        self.num_key_value_heads = num_key_value_heads
        self.num_key_value_groups = num_heads // num_key_value_heads
        self.q_proj = nn.Linear(hidden_size, num_heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(hidden_size, num_key_value_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(hidden_size, num_key_value_heads * self.head_dim, bias=False)
        # Llama's o_proj has no bias; this one keeps nn.Linear's default bias=True, as the lab's output projection does.
        self.o_proj = nn.Linear(num_heads * self.head_dim, hidden_size)
        self.rotary_emb = LlamaRotaryEmbedding(self.head_dim, base=rope_theta)

    def forward(self, hidden_states):
        bsz, q_len, _ = hidden_states.size()
        query_states = self.q_proj(hidden_states)  # (bsz, q_len, num_heads * head_dim)
        key_states = self.k_proj(hidden_states)  # (bsz, q_len, num_key_value_heads * head_dim)
        value_states = self.v_proj(hidden_states)
        trace = dict(query_proj=query_states, key_proj=key_states, value_proj=value_states)

        query_states = query_states.view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)
        key_states = key_states.view(bsz, q_len, self.num_key_value_heads, self.head_dim).transpose(1, 2)
        value_states = value_states.view(bsz, q_len, self.num_key_value_heads, self.head_dim).transpose(1, 2)

        angles, cos, sin = self.rotary_emb(q_len)
        query_states, key_states = apply_rotary_pos_emb(query_states, key_states, cos, sin)
        trace.update(rope_angles=angles, query_states=query_states, key_states=key_states)

        key_states = repeat_kv(key_states, self.num_key_value_groups)
        value_states = repeat_kv(value_states, self.num_key_value_groups)

        attn_scores = torch.matmul(query_states, key_states.transpose(2, 3))
        attn_weights = attn_scores / math.sqrt(self.head_dim)
        trace.update(attn_scores=attn_scores, scaled_scores=attn_weights)
        causal_mask = torch.triu(torch.ones(q_len, q_len, dtype=torch.bool), diagonal=1)
        attn_weights = attn_weights.masked_fill(causal_mask, float("-inf"))
        trace.update(masked_scores=attn_weights)
        attn_weights = nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32)
        attn_output = torch.matmul(attn_weights, value_states)  # (bsz, num_heads, q_len, head_dim)
        trace.update(attn_weights=attn_weights, attn_heads=attn_output)

        attn_output = attn_output.transpose(1, 2).contiguous().reshape(bsz, q_len, -1)
        attn_output = self.o_proj(attn_output)
        self.trace = trace
        return attn_output


sentence = "the llama reads one token at a time"
tokens = sentence.split()
vocab = {}
for word in tokens:
    if word not in vocab:
        vocab[word] = len(vocab)
ids = torch.tensor([[vocab[word] for word in tokens]])  # (1, 8)

torch.manual_seed(0)
embed_tokens = nn.Embedding(len(vocab), 32)
attention = LlamaAttention(hidden_size=32, num_heads=8, num_key_value_heads=2)
with torch.no_grad():
    hidden_states = embed_tokens(ids)
    attn_output = attention(hidden_states)

print("RoPE angles (position x frequency):\n", attention.trace["rope_angles"])
print("Attention weights of query head 0 and query head 4 (KV heads 0 and 1):")
print(attention.trace["attn_weights"][0, 0])
print(attention.trace["attn_weights"][0, 4])
print("Output:\n", attn_output)

save({"ids": ids, "hidden_states": hidden_states, **attention.state_dict(), **attention.trace,
      "attn_output": attn_output})
