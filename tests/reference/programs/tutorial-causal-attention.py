# The tutorial's single causal head on a random batch. torch.manual_seed(123)
# comes once, before torch.randn: the module's nn.Linear layers draw from the
# generator where the batch left it.
# (torch.randn of 40 numbers takes 56 of the generator's 32-bit outputs: the 40, then 16 more
# that redo its last 16-wide block; the weights' draws start after those 56.)
import torch

import _tutorial_heads
from _fixture import save
from _tutorial_heads import CausalHead

torch.manual_seed(123)
batch = torch.randn(2, 5, 4)  # (batch, seq_len, d_in)
_tutorial_heads.script_d_out = 4

ca = CausalHead(4, 4, context_length=batch.shape[1], dropout=0.0)  # no new seed
context_vecs = ca(batch)
print("context_vecs.shape:", context_vecs.shape)
print("context_vecs:\n", context_vecs)

save({"batch": batch, "mask": ca.mask.float(), **{k: v for k, v in ca.state_dict().items() if k != "mask"}, **ca.trace,
      "context_vecs": context_vecs})
