# The self-attention notes' own program: their multi-head module (one nn.Linear(8, 8)
# cloned for W^Q, W^K, W^V, W^O) on torch.rand(6, 3, 8), 2 heads, a lower-triangular
# mask (1 = may attend), dropout 0.1 in training mode. It prints only the output's
# shape. The notes set no seed: torch.manual_seed(0) here comes right before torch.rand.
import torch

from _fixture import save
from _notes_module import MultiHeadedAttention

d_model, seq_len, batch_size, num_heads = 8, 3, 6, 2
mask = torch.tril(torch.ones(seq_len, seq_len), diagonal=0).unsqueeze(0)  # (1, 3, 3), 1 = may attend
torch.manual_seed(0)
x = torch.rand(batch_size, seq_len, d_model)
attn = MultiHeadedAttention(num_heads=num_heads, d_model=d_model, dropout=0.1)  # a new module trains
out = attn(x, x, x, mask=mask)
print(out.shape)

save({"x": x, **attn.parameters_saved(), "mask": mask, **attn.trace, "attention_score": attn.attention_score,
      "out": out})
