# nn.MultiheadAttention(512, 8) over a padded batch: word_to_index, nn.Embedding,
# a <pad> id and key_padding_mask. It returns the attention weights averaged
# over the heads (average_attn_weights=True, the default).
import torch
import torch.nn as nn

from _fixture import save

word_to_index = {"<pad>": 0, "I": 1, "love": 2, "cats": 3, "and": 4, "dogs": 5, "you": 6}
sentences = ["I love cats and dogs", "dogs love you"]
max_len = 10
pad_id = word_to_index["<pad>"]

batch_ids = []
for sentence in sentences:
    ids = [word_to_index[word] for word in sentence.split()]
    batch_ids.append(ids + [pad_id] * (max_len - len(ids)))
batch_ids = torch.tensor(batch_ids)  # (N, L) = (2, 10)
key_padding_mask = batch_ids == pad_id  # True = a <pad> key, ignored

embed_dim, num_heads = 512, 8
torch.manual_seed(0)
embedding = nn.Embedding(len(word_to_index), embed_dim)
mha = nn.MultiheadAttention(embed_dim, num_heads)

x = embedding(batch_ids).transpose(0, 1)  # (L, N, E): batch_first=False
attn_output, attn_weights = mha(x, x, x, key_padding_mask=key_padding_mask)
print(attn_output.shape)  # (L, N, E) = (10, 2, 512)
print(attn_weights.shape)  # (N, L, S) = (2, 10, 10), averaged over the 8 heads
print(attn_weights[0])

# The parameters are 512 x 512: the fixture keeps the inputs and what the module returns.
save({"batch_ids": batch_ids, "key_padding_mask": key_padding_mask.int(), "x": x.detach(),
      "attn_output": attn_output.detach(), "attn_weights": attn_weights.detach()})
