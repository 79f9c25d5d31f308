"""Writes a tiny random GPT-2 as Hugging Face checkpoints and the forward PyTorch 1.13
computes on them, for tests/cpp/gpt2_test.cpp.

    /usr/bin/python3 tests/reference/gpt2/generate.py

checkpoints/NAME/{config.json, model.safetensors}:
    f32                  float32, keys as in the gpt2 repository (wte.weight, h.0.attn.c_attn.weight, ...),
                         with the h.N.attn.bias causal-mask buffers that repository's file holds too
    f16, bf16            the same weights rounded to float16 / bfloat16 (the engine converts on read)
    f32-transformer      float32, every key under "transformer.", and a tied lm_head.weight
fixtures/NAME.json       per id sequence, every tensor model.py's trace keeps, computed from the
                         weights as the file holds them (float16/bfloat16 converted by torch)
fixtures/conversions.json  float16 and bfloat16 bit patterns and the float32 bits torch converts them to

The safetensors files are written here by hand (PyTorch 1.13 has no safetensors package):
an 8-byte little-endian header length, the JSON header {name: {dtype, shape, data_offsets}},
then the tensors' little-endian bytes, in the header's order.
"""
import json
import os
import struct

import torch

from model import Gpt2Config, forward

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIG = Gpt2Config(n_layer=2, n_head=2, n_embd=16, n_positions=32, vocab_size=64, layer_norm_epsilon=1e-5)
DTYPES = {torch.float32: "F32", torch.float16: "F16", torch.bfloat16: "BF16"}


def random_params(cfg):
    """GPT-2's tensors (shapes as GPT2LMHeadModel holds them; Conv1D weights are [in, out]),
    drawn wider than GPT-2's own initialisation (std 0.02, LayerNorm 1 and 0, zero biases),
    so that every weight, bias and LayerNorm parameter moves the output."""
    torch.manual_seed(0)
    d, inner, V = cfg.n_embd, cfg.n_inner, cfg.vocab_size

    def draw(*shape, std=1.0, mean=0.0):
        return mean + std * torch.randn(*shape)

    p = {"wte.weight": draw(V, d, std=0.5), "wpe.weight": draw(cfg.n_positions, d, std=0.3)}
    for i in range(cfg.n_layer):
        h = f"h.{i}."
        p[h + "ln_1.weight"] = draw(d, std=0.2, mean=1.0)
        p[h + "ln_1.bias"] = draw(d, std=0.1)
        p[h + "attn.c_attn.weight"] = draw(d, 3 * d, std=0.5)
        p[h + "attn.c_attn.bias"] = draw(3 * d, std=0.1)
        p[h + "attn.c_proj.weight"] = draw(d, d, std=0.3)
        p[h + "attn.c_proj.bias"] = draw(d, std=0.1)
        p[h + "ln_2.weight"] = draw(d, std=0.2, mean=1.0)
        p[h + "ln_2.bias"] = draw(d, std=0.1)
        p[h + "mlp.c_fc.weight"] = draw(d, inner, std=0.4)
        p[h + "mlp.c_fc.bias"] = draw(inner, std=0.1)
        p[h + "mlp.c_proj.weight"] = draw(inner, d, std=0.2)
        p[h + "mlp.c_proj.bias"] = draw(d, std=0.1)
    p["ln_f.weight"] = draw(d, std=0.2, mean=1.0)
    p["ln_f.bias"] = draw(d, std=0.1)
    return p


def tensor_bytes(t):
    """A tensor's little-endian bytes, row-major (bfloat16 through its int16 view: numpy has no bfloat16)."""
    t = t.contiguous()
    if t.dtype == torch.bfloat16:
        t = t.view(torch.int16)
    return t.numpy().astype(t.numpy().dtype.newbyteorder("<")).tobytes()


def write_safetensors(path, tensors, metadata=None):
    header, chunks, offset = {}, [], 0
    if metadata:
        header["__metadata__"] = metadata
    for name, t in tensors.items():
        data = tensor_bytes(t)
        header[name] = {"dtype": DTYPES[t.dtype], "shape": list(t.shape), "data_offsets": [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for chunk in chunks:
            f.write(chunk)


def number(x):
    return "%.9g" % x  # 9 significant digits: a float32 read back is the same float32


def tensor_json(t):
    flat = t.detach().reshape(-1).tolist()
    return '{"shape": %s, "data": [%s]}' % (json.dumps(list(t.shape)), ", ".join(number(x) for x in flat))


def trace_json(ids, trace):
    parts = ['"%s": %s' % (k, tensor_json(v)) for k, v in trace.items() if k != "layers"]
    layers = ["{%s}" % ", ".join('"%s": %s' % (k, tensor_json(v)) for k, v in layer.items()) for layer in trace["layers"]]
    return '{"ids": %s, %s,\n "layers": [%s]}' % (json.dumps(ids), ", ".join(parts), ",\n  ".join(layers))


def write_checkpoint(name, params, dtype, prefix="", extra=None, sequences=()):
    folder = os.path.join(HERE, "checkpoints", name)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(CONFIG.to_json(), f, indent=2)
        f.write("\n")
    stored = {k: v.to(dtype) for k, v in params.items()}
    tensors = {prefix + k: v for k, v in stored.items()}
    tensors.update(extra or {})
    write_safetensors(os.path.join(folder, "model.safetensors"), tensors, {"format": "pt"})
    # The forward reads the file's numbers: float16 / bfloat16 converted to float32 by torch.
    read_back = {k: v.float() for k, v in stored.items()}
    runs = [trace_json(ids, forward(read_back, CONFIG, ids)) for ids in sequences]
    os.makedirs(os.path.join(HERE, "fixtures"), exist_ok=True)
    with open(os.path.join(HERE, "fixtures", name + ".json"), "w") as f:
        f.write('{"checkpoint": "%s", "dtype": "%s", "runs": [\n%s]}\n' % (name, DTYPES[dtype], ",\n".join(runs)))


def conversions():
    """Every 97th 16-bit pattern and the special ones (±0, subnormals, the largest, ±inf, NaNs):
    torch's float32 bits of each, as float16 and as bfloat16."""
    bits = sorted(set(range(0, 1 << 16, 97)) | {0x0000, 0x8000, 0x0001, 0x03FF, 0x0400, 0x7BFF, 0x7C00, 0xFC00,
                                                 0x7E00, 0x7C01, 0xFFFF, 0x0080, 0x007F, 0x7F7F, 0x7F80, 0xFF80,
                                                 0x7FC0, 0x7F81, 0x3C00, 0x3F80, 0xC000, 0x3555})
    raw = torch.tensor([b - (1 << 16) if b >= 1 << 15 else b for b in bits], dtype=torch.int16)
    as_f32_bits = lambda t: [x & 0xFFFFFFFF for x in t.float().view(torch.int32).tolist()]  # noqa: E731
    return {
        "bits": bits,
        "f16": as_f32_bits(raw.view(torch.float16)),
        "bf16": as_f32_bits(raw.view(torch.bfloat16)),
    }


def main():
    params = random_params(CONFIG)
    T = CONFIG.n_positions
    mask = torch.tril(torch.ones(T, T)).view(1, 1, T, T)  # the gpt2 repository's h.N.attn.bias buffers
    buffers = {f"h.{i}.attn.bias": mask for i in range(CONFIG.n_layer)}
    g = torch.Generator().manual_seed(1)
    random_ids = torch.randint(0, CONFIG.vocab_size, (12,), generator=g).tolist()
    eight = [0, 63, 7, 7, 21, 42, 1, 30]
    write_checkpoint("f32", params, torch.float32, extra=buffers, sequences=[[5], eight])
    write_checkpoint("f16", params, torch.float16, sequences=[eight])
    write_checkpoint("bf16", params, torch.bfloat16, sequences=[eight])
    lm_head = {"lm_head.weight": params["wte.weight"]}
    write_checkpoint("f32-transformer", params, torch.float32, prefix="transformer.", extra=lm_head,
                     sequences=[random_ids])
    with open(os.path.join(HERE, "fixtures", "conversions.json"), "w") as f:
        json.dump(conversions(), f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
