# The self-attention notes' per-head view: the score map of each head of their
# multi-head module, on the sentence they visualise. 2 heads of 4 on
# nn.Embedding(11, 8) rows (torch.manual_seed(0), then the module, whose cloned
# nn.Linear goes on from the generator); no mask, and eval() so the maps are the
# softmax weights themselves (no dropout). W^Q = W^K (clones), so each map is
# q_i . q_j: symmetric before the softmax.
import torch
import torch.nn as nn

from _fixture import save
from _notes_module import MultiHeadedAttention

sentence = "The animal didn't cross the street because it was too tired"
tokens = sentence.split()
vocab = {}
for word in tokens:
    vocab.setdefault(word, len(vocab))
ids = torch.tensor([[vocab[word] for word in tokens]])  # (1, 11)

d_model, num_heads = 8, 2
torch.manual_seed(0)
embedding = nn.Embedding(len(vocab), d_model)
x = embedding(ids).detach()  # (1, 11, 8)
attn = MultiHeadedAttention(num_heads=num_heads, d_model=d_model)
attn.eval()
out = attn(x, x, x)
for h in range(num_heads):
    print(f"head {h}:")
    print(attn.attention_score[0, h])

save({"ids": ids, "x": x, **attn.parameters_saved(), **attn.trace, "attention_score": attn.attention_score,
      "out": out})
