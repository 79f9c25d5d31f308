# The same sentence through PyTorch's own nn.MultiheadAttention(512, 8, batch_first=True),
# called with no mask: it returns the output and the weights averaged over the 8 heads.
import torch.nn as nn

from _fixture import save
from _handwritten_input import embedded_sentence, embedding_dim, encoded_sentence, num_heads

attention_layer = nn.MultiheadAttention(embed_dim=embedding_dim, num_heads=num_heads, batch_first=True)
x = embedded_sentence.unsqueeze(0)  # (1, 10, 512)
attention_output, attn_weights = attention_layer(x, x, x)
print("Encoded Sentence:", encoded_sentence)
print("Embedded Sentence Shape:", x.shape)
print("Attention Output Shape:", attention_output.shape)
print("Attention Weights Shape:", attn_weights.shape)

save({"encoded_sentence": encoded_sentence, "embedded_sentence": x, "attention_output": attention_output,
      "attn_weights": attn_weights})
