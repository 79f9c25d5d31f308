#!/usr/bin/python3
"""Writes the prepared runs' fixtures: a config's attention in PyTorch with X replaced by
a new one (lab.prepare(config).run({x})), from generate.py's reference with the same
draws. The new X comes from a generator of its own, so the config's draws (embedding,
weights, dropout) are untouched. Nothing here is read from our engine.

    /usr/bin/python3 tests/reference/prepared.py

Writes tests/reference/fixtures/prepared/<name>.json and index.json: {config, x: {shape,
data}, expected} with expected as generate.py's.
"""
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from generate import encode_number, reference, write_fixture, write_index  # noqa: E402

OUT = os.path.join(HERE, "fixtures", "prepared")

# (name, what it exercises, config, the new X's draw: "randn" or "rand", its seed)
CASES = [
    ("causal-dropout", "mask and dropout: the dropout draws start where the config's draws left the generator",
     {"text": "The cat sat on the mat", "dModel": 8, "numHeads": 2, "mask": "causal", "dropout": {"p": 0.25}},
     "randn", 7),
    ("batch-padding-positional", "two sentences, padding mask, sinusoidal positions (added before X is replaced), "
     "torch-mha weights with biases",
     {"texts": ["He sat by the bank", "The river bank"], "dModel": 12, "numHeads": 3, "mask": "causal+padding",
      "embedding": {"positional": "sinusoidal"}, "weights": {"init": "torch-mha"}},
     "rand", 11),
    ("cross-attention", "cross-attention: x replaces the queries' X, the context's stays",
     {"text": "le chat", "contextText": "the black cat sat", "dModel": 8, "numHeads": 4},
     "randn", 3),
]


def main():
    assert torch.__version__.startswith("1.13"), f"use Debian's PyTorch 1.13, not {torch.__version__}"
    os.makedirs(OUT, exist_ok=True)
    index = []
    for name, description, config, draw, seed in CASES:
        shape = reference(config)[0]["tensors"]["X"]["shape"]
        generator = torch.Generator().manual_seed(seed)
        x = (torch.randn if draw == "randn" else torch.rand)(*shape, generator=generator)
        expected, _ = reference(config, x=x)
        write_fixture(os.path.join(OUT, name + ".json"),
                      {"name": name, "description": description, "config": config,
                       "x": {"shape": shape, "data": [encode_number(v) for v in x.flatten().tolist()]},
                       "expected": expected})
        index.append(name)
    write_index(OUT, index)
    print(f"wrote {len(index)} prepared-run fixtures to {OUT}")


if __name__ == "__main__":
    sys.exit(main())
