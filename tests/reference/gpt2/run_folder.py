"""The peer of npm run bench:checkpoint: a GPT-2 checkpoint folder opened and run by PyTorch 1.13
(model.py, the reference the engine's fixtures come from), timed beside the engine's CLI.

    /usr/bin/python3 tests/reference/gpt2/run_folder.py DIR '[15496, 995]'

Reads config.json and model.safetensors (the header, then each tensor's bytes through numpy, the
way the engine reads only the tensors it needs), runs the forward and prints the likeliest next id.
"""
import json
import os
import struct
import sys

import numpy
import torch

from model import Gpt2Config, forward

NUMPY = {"F32": numpy.float32, "F16": numpy.float16}


def read_params(path):
    params = {}
    with open(path, "rb") as f:
        (length,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(length))
        for name, entry in header.items():
            if name == "__metadata__" or name.endswith(".attn.bias"):
                continue
            start, end = entry["data_offsets"]
            f.seek(8 + length + start)
            data = numpy.frombuffer(f.read(end - start), dtype=NUMPY[entry["dtype"]]).reshape(entry["shape"])
            params[name[len("transformer."):] if name.startswith("transformer.") else name] = torch.from_numpy(
                data.astype(numpy.float32))
    return params


def main(folder, ids):
    with open(os.path.join(folder, "config.json")) as f:
        c = json.load(f)
    cfg = Gpt2Config(c["n_layer"], c["n_head"], c["n_embd"], c["n_positions"], c["vocab_size"],
                     c.get("layer_norm_epsilon", 1e-5), c.get("n_inner"))
    trace = forward(read_params(os.path.join(folder, "model.safetensors")), cfg, ids)
    print(int(trace["probs"].argmax()))


if __name__ == "__main__":
    main(sys.argv[1], json.loads(sys.argv[2]))
