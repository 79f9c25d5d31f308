// "Copy as PyTorch" for the tiny trained model: a torch 1.13 program that
// downloads the checkpoint's weights file (the page's download link), reads
// it with a few lines of safetensors parsing (torch 1.13 has no safetensors
// package), defines the model as tests/reference/tiny/model.py does, runs the
// text and prints what the page shows: each layer's attention weights per
// head, the head scores, the second-copy accuracy and the top-5 next bytes.
// Its `tensors` dict holds every printed tensor by the page's names.
import { MIN_REPEAT, TINY_CONTEXT, weightsFileName } from './tiny.js';

/**
 * The program: {text, checkpoint, url (of the weights file), query (the
 * position whose next bytes it prints; default the last)}.
 */
export function tinyPytorchScript({ text, checkpoint, url, query = null }) {
  const file = weightsFileName(checkpoint);
  const position = query === null ? 'len(ids) - 1' : String(query);
  return `# The tiny trained model of Attention Lab: 2 layers, 4 heads, attention only, on UTF-8 bytes.
# Weights: checkpoint ${checkpoint} (float16 safetensors). Runs with torch 1.13.
import json
import math
import os
import struct
import urllib.request

import torch
import torch.nn.functional as F
from torch import nn

TEXT = ${JSON.stringify(text)}
WEIGHTS = ${JSON.stringify(file)}
URL = ${JSON.stringify(url)}
if not os.path.exists(WEIGHTS):
    urllib.request.urlretrieve(URL, WEIGHTS)


def read_safetensors(path):
    """{name: float32 tensor}: an 8-byte little-endian header length, a JSON header, then the float16 data."""
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        a, b = info["data_offsets"]
        half = torch.frombuffer(bytearray(raw[8 + n + a : 8 + n + b]), dtype=torch.float16)
        tensors[name] = half.reshape(info["shape"]).float()  # every float16 is a float32 exactly
    return tensors


class Attention(nn.Module):
    def __init__(self, d_model=64, n_heads=4):
        super().__init__()
        self.n_heads = n_heads
        self.W_Q = nn.Linear(d_model, d_model, bias=False)
        self.W_K = nn.Linear(d_model, d_model, bias=False)
        self.W_V = nn.Linear(d_model, d_model, bias=False)
        self.W_O = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x, keep):
        T, d = x.shape  # (T, d)
        nh, hs = self.n_heads, d // self.n_heads
        q, k, v = self.W_Q(x), self.W_K(x), self.W_V(x)  # (T, d) each
        heads = lambda t: t.view(T, nh, hs).transpose(0, 1)  # (nh, T, hs)
        scores = heads(q) @ heads(k).transpose(-2, -1)  # (nh, T, T)
        scaled = scores / math.sqrt(hs)
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        weights = F.softmax(scaled.masked_fill(~causal, float("-inf")), dim=-1)  # (nh, T, T)
        head_out = weights @ heads(v)  # (nh, T, hs)
        concat = head_out.transpose(0, 1).reshape(T, d)  # (T, d)
        out = self.W_O(concat)  # (T, d)
        keep.update(Q=q, K=k, V=v, scores=scores, scaled=scaled, weights=weights, headOutputs=head_out, concat=concat, attnOut=out)
        return out


class TinyModel(nn.Module):
    def __init__(self, vocab=256, context=${TINY_CONTEXT}, d_model=64, n_heads=4, n_layers=2):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, d_model)
        self.pos_emb = nn.Embedding(context, d_model)
        self.layers = nn.ModuleList(Attention(d_model, n_heads) for _ in range(n_layers))

    def forward(self, ids, keep):
        T = ids.shape[0]
        x = self.tok_emb(ids) + self.pos_emb(torch.arange(T))  # (T, d)
        keep["layers"] = []
        for layer in self.layers:
            inner = {}
            x = x + layer(x, inner)  # the residual stream
            inner["residual"] = x
            keep["layers"].append(inner)
        logits = x @ self.tok_emb.weight.T  # (T, 256): tied unembedding
        return logits


model = TinyModel()
model.load_state_dict(read_safetensors(WEIGHTS))
model.eval()
ids = torch.tensor(list(TEXT.encode("utf-8")), dtype=torch.long)  # the bytes are the tokens
keep = {}
with torch.no_grad():
    logits = model(ids, keep)
probs = F.softmax(logits, dim=-1)  # (T, 256)
T = len(ids)
torch.set_printoptions(precision=4, sci_mode=False, linewidth=200)
print("bytes:", ids.tolist())

tensors = {"logits": logits, "probs": probs}
for l, layer in enumerate(keep["layers"]):
    tensors[f"layers.{l}.weights"] = layer["weights"]
    for h in range(4):
        print(f"layer {l + 1} head {h + 1} attention weights (T, T) = ({T}, {T}):")
        print(layer["weights"][h])

# Head scores (tests/reference/tiny/scores.py).
weights = torch.stack([layer["weights"] for layer in keep["layers"]])  # (2, 4, T, T)
if T >= 2:
    i = torch.arange(1, T)
    previous_token = weights[:, :, i, i - 1].mean(dim=-1)  # (2, 4): mean weight on the byte before
    tensors["previousToken"] = previous_token
    print("previous-token score (layer, head):")
    print(previous_token)
# The repeat: the later copy of a run of at least MIN_REPEAT bytes typed before, anywhere.
# t(i): the byte after the earlier place whose bytes best match those ending at i (the
# longest run, the latest of equal ones); a position p whose run is long enough puts
# p - run + 1 .. p in the repeat.
MIN_REPEAT = ${MIN_REPEAT}
b = ids.tolist()
target, run, previous = [-1] * T, [0] * T, [0] * T
for q in range(T):
    now = [0] * T
    for j in range(q):
        now[j] = (previous[j - 1] if j > 0 else 0) + 1 if b[j] == b[q] else 0
        if j + 1 < q and now[j] > 0 and now[j] >= run[q]:
            run[q], target[q] = now[j], j + 1
    previous = now
repeat = sorted({k for p in range(T) if run[p] >= MIN_REPEAT for k in range(p - run[p] + 1, p + 1)})
if repeat:
    i = torch.tensor(repeat)
    induction = weights[:, :, i, torch.tensor([target[k] for k in repeat])].mean(dim=-1)  # (2, 4): mean weight on the byte after the earlier copy
    tensors["induction"] = induction
    print(f"repeat: {len(repeat)} bytes, positions {repeat[0]} to {repeat[-1]}")
    print("induction score (layer, head):")
    print(induction)
    i = torch.tensor([k for k in repeat if k + 1 < T], dtype=torch.long)
    if len(i):
        correct = int((logits[i].argmax(dim=-1) == ids[i + 1]).sum())
        loss = F.cross_entropy(logits[i], ids[i + 1]).item()
        print(f"second copy: {correct}/{len(i)} next bytes right, loss {loss:.4f}")

position = ${position}
top = probs[position].topk(5)
print(f"next byte after position {position}:")
for p, b in zip(top.values.tolist(), top.indices.tolist()):
    print(f"  {b:3d} {bytes([b])!r:8} {p:.4f}")
`;
}
