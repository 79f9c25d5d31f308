# Two of the tutorial's causal heads, each 6 -> 3, side by side; their outputs
# are concatenated. One torch.manual_seed(123) before torch.randn(2, 5, 6): the
# heads draw after the batch, head 0's Q, K, V, then head 1's. Each head divides
# by √6, the script's d_out, not by its own 3 columns.
# (torch.randn of 60 numbers takes 76 of the generator's 32-bit outputs: the 60, then 16 more
# that redo its last 16-wide block; the weights' draws start after those 76.)
import torch
import torch.nn as nn

import _tutorial_heads
from _fixture import save
from _tutorial_heads import CausalHead


class StackedHeads(nn.Module):
    def __init__(self, d_in, d_out, context_length, num_heads):
        super().__init__()
        self.heads = nn.ModuleList([CausalHead(d_in, d_out // num_heads, context_length) for _ in range(num_heads)])

    def forward(self, x):
        return torch.cat([head(x) for head in self.heads], dim=-1)


torch.manual_seed(123)
batch = torch.randn(2, 5, 6)
_tutorial_heads.script_d_out = 6

stacked = StackedHeads(6, 6, context_length=batch.shape[1], num_heads=2)  # no new seed
context_vecs = stacked(batch)
print("context_vecs.shape:", context_vecs.shape)
print("context_vecs:\n", context_vecs)

weights = {k: v for k, v in stacked.state_dict().items() if not k.endswith("mask")}
traces = {f"heads.{h}.{name}": t for h, head in enumerate(stacked.heads) for name, t in head.trace.items()}
save({"batch": batch, **weights, **traces, "context_vecs": context_vecs})
