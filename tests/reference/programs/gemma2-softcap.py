# Gemma 2's attention as Hugging Face's Gemma2Attention writes it: rotary embedding,
# grouped-query heads, and logit soft-capping: the scaled scores pass through
# attn_logit_softcapping * tanh(scores / attn_logit_softcapping) (50 in Gemma 2) before
# the mask. Plain torch 1.13, printing each tensor.
import torch
import torch.nn as nn

from _fixture import save


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def rotary_cos_sin(seq_len, dim, base=10000.0):
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
    freqs = torch.outer(torch.arange(seq_len).float(), inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin()


def repeat_kv(hidden_states, n_rep):
    """Each KV head repeated n_rep times in a row (= repeat_interleave(n_rep, dim=1))."""
    batch, num_key_value_heads, slen, head_dim = hidden_states.shape
    hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
    return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)


class Gemma2Attention(nn.Module):
    def __init__(self, hidden_size, num_heads, num_key_value_heads, attn_logit_softcapping=50.0):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = hidden_size // num_heads
        self.num_key_value_heads = num_key_value_heads
        self.scaling = self.head_dim**-0.5  # query_pre_attn_scalar = head_dim
        self.attn_logit_softcapping = attn_logit_softcapping
        self.q_proj = nn.Linear(hidden_size, num_heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(hidden_size, num_key_value_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(hidden_size, num_key_value_heads * self.head_dim, bias=False)
        # Gemma's o_proj has no bias; this one keeps nn.Linear's default bias=True, as the lab's output projection does.
        self.o_proj = nn.Linear(num_heads * self.head_dim, hidden_size)

    def forward(self, hidden_states):
        bsz, q_len, _ = hidden_states.size()
        query_states = self.q_proj(hidden_states).view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2)
        key_states = self.k_proj(hidden_states).view(bsz, q_len, self.num_key_value_heads, self.head_dim).transpose(1, 2)
        value_states = self.v_proj(hidden_states).view(bsz, q_len, self.num_key_value_heads, self.head_dim).transpose(1, 2)
        cos, sin = rotary_cos_sin(q_len, self.head_dim)
        query_states = query_states * cos + rotate_half(query_states) * sin
        key_states = key_states * cos + rotate_half(key_states) * sin
        key_states = repeat_kv(key_states, self.num_heads // self.num_key_value_heads)
        value_states = repeat_kv(value_states, self.num_heads // self.num_key_value_heads)

        attn_scores = torch.matmul(query_states, key_states.transpose(2, 3))
        scaled_scores = attn_scores / self.head_dim**0.5  # Gemma2 multiplies by self.scaling: the same to rounding
        capped_scores = scaled_scores / self.attn_logit_softcapping
        capped_scores = torch.tanh(capped_scores)
        capped_scores = capped_scores * self.attn_logit_softcapping
        causal_mask = torch.triu(torch.ones(q_len, q_len, dtype=torch.bool), diagonal=1)
        masked_scores = capped_scores.masked_fill(causal_mask, float("-inf"))
        attn_weights = nn.functional.softmax(masked_scores, dim=-1, dtype=torch.float32)
        attn_output = torch.matmul(attn_weights, value_states)
        self.trace = dict(query_states=query_states, attn_scores=attn_scores, scaled_scores=scaled_scores,
                          capped_scores=capped_scores, masked_scores=masked_scores, attn_weights=attn_weights)
        attn_output = attn_output.transpose(1, 2).contiguous().reshape(bsz, q_len, -1)
        return self.o_proj(attn_output)


sentence = "soft capping keeps every attention logit safely below fifty"
tokens = sentence.split()
vocab = {}
for word in tokens:
    if word not in vocab:
        vocab[word] = len(vocab)
ids = torch.tensor([[vocab[word] for word in tokens]])  # (1, 9)

torch.manual_seed(0)
embed_tokens = nn.Embedding(len(vocab), 16)
attention = Gemma2Attention(hidden_size=16, num_heads=4, num_key_value_heads=2, attn_logit_softcapping=50.0)
with torch.no_grad():
    hidden_states = embed_tokens(ids)
    attn_output = attention(hidden_states)

print("Scaled scores of head 0:\n", attention.trace["scaled_scores"][0, 0])
print("Capped at 50 (small scores barely change):\n", attention.trace["capped_scores"][0, 0])
print("Output:\n", attn_output)

save({"ids": ids, "hidden_states": hidden_states, **attention.state_dict(), **attention.trace,
      "attn_output": attn_output})
