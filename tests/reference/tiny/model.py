"""The tiny trained model: a 2-layer attention-only transformer over UTF-8 bytes.

Read by train.py (training), fixtures.py (the engine's reference forward) and the
"Copy as PyTorch" program the page writes, which repeats this forward line by line.

    x0 = tok_emb[ids] + pos_emb[:T]                 # (T, d)
    for each layer:
        q, k, v = x W_Q^T, x W_K^T, x W_V^T          # (T, d) -> (nh, T, hs)
        weights = softmax(causal(q k^T / sqrt(hs)))  # (nh, T, T)
        x = x + concat(weights v) W_O^T              # residual stream (T, d)
    logits = x tok_emb^T                            # tied unembedding (T, 256)

No LayerNorm, no MLP, no biases: every number the page shows is one of these lines.
"""
import json
import math
import struct
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn


@dataclass
class TinyConfig:
    vocab: int = 256  # bytes: UTF-8 text of any language, 3 bytes per Han character
    context: int = 256  # positions (bytes) the model reads: 256 x 64 position weights, 131 KB of float16 in all
    d_model: int = 64  # width of the residual stream
    n_heads: int = 4  # heads per layer; head size d_model / n_heads = 16
    n_layers: int = 2  # a 1-layer model cannot form an induction head


class Attention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.n_heads = cfg.n_heads
        self.W_Q = nn.Linear(cfg.d_model, cfg.d_model, bias=False)
        self.W_K = nn.Linear(cfg.d_model, cfg.d_model, bias=False)
        self.W_V = nn.Linear(cfg.d_model, cfg.d_model, bias=False)
        self.W_O = nn.Linear(cfg.d_model, cfg.d_model, bias=False)

    def forward(self, x, keep=None):
        *B, T, d = x.shape  # (T, d), or (B, T, d) in training: the same lines over a batch
        nh, hs = self.n_heads, d // self.n_heads
        q = self.W_Q(x)  # (T, d)
        k = self.W_K(x)
        v = self.W_V(x)
        heads = lambda t: t.view(*B, T, nh, hs).transpose(-3, -2)  # (nh, T, hs)
        scores = heads(q) @ heads(k).transpose(-2, -1)  # (nh, T, T)
        scaled = scores / math.sqrt(hs)
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        masked = scaled.masked_fill(~causal, float("-inf"))
        weights = F.softmax(masked, dim=-1)  # (nh, T, T)
        head_out = weights @ heads(v)  # (nh, T, hs)
        concat = head_out.transpose(-3, -2).reshape(*B, T, d)  # (T, d)
        out = self.W_O(concat)  # (T, d)
        if keep is not None:
            keep.update(Q=q, K=k, V=v, scores=scores, scaled=scaled, weights=weights, headOutputs=head_out, concat=concat, attnOut=out)
        return out


class TinyModel(nn.Module):
    def __init__(self, cfg=TinyConfig()):
        super().__init__()
        self.cfg = cfg
        self.tok_emb = nn.Embedding(cfg.vocab, cfg.d_model)
        self.pos_emb = nn.Embedding(cfg.context, cfg.d_model)
        self.layers = nn.ModuleList(Attention(cfg) for _ in range(cfg.n_layers))
        # GPT-2's 0.02 rather than nn.Embedding's N(0, 1): the unembedding is tied, and
        # N(0, 1) rows would start every logit near |e|^2 = 64.
        nn.init.normal_(self.tok_emb.weight, std=0.02)
        nn.init.normal_(self.pos_emb.weight, std=0.02)

    def forward(self, ids, keep=None, ablate=()):
        """ids (T,) or (B, T) -> logits (..., T, vocab). `keep` (a dict) receives every
        intermediate of a (T,) input; `ablate` lists (layer, head) pairs whose output is zeroed."""
        if ids.dim() == 2 and ablate:
            return torch.stack([self.forward(row, ablate=ablate) for row in ids])
        T = ids.shape[-1]
        tokens = self.tok_emb(ids)  # (T, d)
        positions = self.pos_emb(torch.arange(T))  # (T, d)
        x = tokens + positions  # (T, d), or (B, T, d) broadcast
        if keep is not None:
            keep.update(tokenEmbeddings=tokens, positionEmbeddings=positions, residual0=x, layers=[])
        for l, layer in enumerate(self.layers):
            inner = {} if keep is not None or ablate else None
            if ablate:
                x = x + ablated(layer, x, [h for (al, h) in ablate if al == l])
            else:
                x = x + layer(x, inner)
            if keep is not None:
                inner["residual"] = x
                keep["layers"].append(inner)
        logits = x @ self.tok_emb.weight.T  # (T, vocab) or (B, T, vocab): tied unembedding
        if keep is not None:
            keep.update(logits=logits, probs=F.softmax(logits, dim=-1))
        return logits


def ablated(layer, x, heads):
    """The layer's output with the given heads' outputs set to zero (for the ablation check)."""
    T, d = x.shape
    nh, hs = layer.n_heads, d // layer.n_heads
    keep = {}
    layer(x, keep)
    head_out = keep["headOutputs"].clone()
    for h in heads:
        head_out[h] = 0
    return layer.W_O(head_out.transpose(0, 1).reshape(T, d))


# ---- the weights file: safetensors, float16 -------------------------------------------
# Layout: 8-byte little-endian header length, a JSON header {name: {dtype, shape,
# data_offsets}}, then the raw little-endian float16 data. The page and the engine
# read the same file; torch 1.13 has no safetensors package, so it is written here.

def tensor_names(cfg=TinyConfig()):
    names = ["tok_emb.weight", "pos_emb.weight"]
    for l in range(cfg.n_layers):
        names += [f"layers.{l}.{w}.weight" for w in ("W_Q", "W_K", "W_V", "W_O")]
    return names


def save_safetensors(model, path, metadata=None):
    state = model.state_dict()
    header, blobs, offset = {}, [], 0
    for name in tensor_names(model.cfg):
        data = state[name].detach().to(torch.float16).contiguous().numpy().tobytes()
        header[name] = {"dtype": "F16", "shape": list(state[name].shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    if metadata:
        header["__metadata__"] = {k: str(v) for k, v in metadata.items()}
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)  # the data starts 8-byte aligned
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def load_safetensors(path, cfg=TinyConfig()):
    """A float32 TinyModel holding the file's float16 weights (exactly: every float16 is a float32)."""
    import numpy as np

    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    model = TinyModel(cfg)
    state = {}
    for name in tensor_names(cfg):
        a, b = header[name]["data_offsets"]
        half = np.frombuffer(raw[8 + n + a : 8 + n + b], dtype="<f2").reshape(header[name]["shape"])
        state[name] = torch.from_numpy(half.astype(np.float32))
    model.load_state_dict(state)
    return model.eval()


def encode(text, cfg=TinyConfig()):
    """UTF-8 bytes as token ids (T,); at most cfg.context of them."""
    ids = list(text.encode("utf-8"))
    assert 0 < len(ids) <= cfg.context, f"text is {len(ids)} bytes; the model reads 1 to {cfg.context}"
    return torch.tensor(ids, dtype=torch.long)
