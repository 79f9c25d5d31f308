"""Writes a GPT-2-small-shaped checkpoint of random weights (124M parameters: 12 layers, 12 heads,
n_embd 768, 1024 positions, a vocabulary of 50257; about 500 MB as float32) in the Hugging Face
layout, for measuring how the page and the CLI open a real-sized model (npm run bench:checkpoint).

    /usr/bin/python3 tests/reference/gpt2/random_small.py OUT_DIR

The weights are drawn as generate.py draws its tiny model's (torch.manual_seed(0)); the file holds
the gpt2 repository's keys and its h.N.attn.bias buffers, which the engine does not read.
"""
import json
import os
import sys

import torch

from generate import random_params, write_safetensors
from model import Gpt2Config

SMALL = Gpt2Config(n_layer=12, n_head=12, n_embd=768, n_positions=1024, vocab_size=50257)


def main(folder):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(SMALL.to_json(), f, indent=2)
        f.write("\n")
    params = random_params(SMALL)
    T = SMALL.n_positions
    mask = torch.tril(torch.ones(T, T)).view(1, 1, T, T)
    params.update({f"h.{i}.attn.bias": mask for i in range(SMALL.n_layer)})
    write_safetensors(os.path.join(folder, "model.safetensors"), params, {"format": "pt"})


if __name__ == "__main__":
    main(sys.argv[1])
