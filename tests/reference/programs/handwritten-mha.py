# The hand-written multi-head attention: four nn.Linear(512, 512) with biases
# (query, key, value, out, created in that order), 8 heads of 64, scores / 64 ** 0.5,
# softmax, weighted sum, heads concatenated, then out. No mask: the five padding
# rows (id 0) are queries and keys like the words.
import torch
import torch.nn as nn

from _fixture import save
from _handwritten_input import embedded_sentence, embedding_dim, encoded_sentence, num_heads


class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.query = nn.Linear(embed_dim, embed_dim)
        self.key = nn.Linear(embed_dim, embed_dim)
        self.value = nn.Linear(embed_dim, embed_dim)
        self.out = nn.Linear(embed_dim, embed_dim)

    def forward(self, X):
        batch_size, seq_len, embed_dim = X.size()
        q, k, v = self.query(X), self.key(X), self.value(X)  # (1, 10, 512)
        print("q1 shape:", q.shape)
        print("k1 shape:", k.shape)
        self.trace = dict(q1=q, k1=k, v1=v)  # kept for the fixture

        def heads(t):  # (1, 10, 512) -> (1, 8, 10, 64)
            return t.view(batch_size, seq_len, self.num_heads, self.head_dim).transpose(1, 2)

        q, k, v = heads(q), heads(k), heads(v)
        print("q shape:", q.shape)
        print("k shape:", k.shape)
        scores = q @ k.transpose(-2, -1) / self.head_dim ** 0.5  # (1, 8, 10, 10)
        attn_weights = torch.softmax(scores, dim=-1)
        attn_output = (attn_weights @ v).transpose(1, 2).contiguous().view(batch_size, seq_len, embed_dim)
        self.trace.update(scores=scores, attn_weights=attn_weights, attn_output=attn_output)
        return self.out(attn_output)


attention_layer = MultiHeadAttention(embed_dim=embedding_dim, num_heads=num_heads)
attention_output = attention_layer(embedded_sentence.unsqueeze(0))  # a batch of one
print("Encoded Sentence:", encoded_sentence)
print("Embedded Sentence Shape:", embedded_sentence.shape)
print("Attention Output Shape:", attention_output.shape)

# The 512 x 512 parameters stay unsaved: the inputs and everything the forward computes are compared.
save({"encoded_sentence": encoded_sentence, "embedded_sentence": embedded_sentence,
      **attention_layer.trace, "attention_output": attention_output})
