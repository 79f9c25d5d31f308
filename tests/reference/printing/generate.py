#!/usr/bin/python3
"""Writes what print(tensor) shows in PyTorch 1.13 for float32 tensors of every
printing regime, the reference of web/model/torch-print.js.

Run with Debian's PyTorch 1.13 (python3-torch):
    /usr/bin/python3 tests/reference/printing/generate.py
Each case keeps the tensor's float32 values (as the doubles they widen to, which
JSON holds exactly) and the text repr() gives, from PyTorch itself.
"""
import json
import math
import os

import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def number(x):
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return x


def cases():
    torch.manual_seed(0)
    tril = torch.tril(torch.ones(5, 5))
    scores = torch.randn(5, 5) * 4
    yield "randn 5x4 (fixed, signed)", torch.randn(5, 4)
    yield "rand 4x4 (fixed, unsigned)", torch.rand(4, 4)
    yield "softmax of large scores (scientific: min < 1e-4)", torch.softmax(scores * 3, dim=-1)
    yield "causal weights with zeros (scientific; zeros do not count)", torch.softmax(
        scores.masked_fill(tril == 0, float("-inf")) * 3, dim=-1
    )
    yield "ones and zeros (integers: 1. 0.)", tril
    yield "0 and -inf (no finite non-zero value)", torch.zeros(5, 5).masked_fill(tril == 0, float("-inf"))
    yield "masked scores (fixed with -inf)", scores.masked_fill(tril == 0, float("-inf"))
    yield "dropout scale 1.25 (fixed)", torch.full((2, 5), 1.25)
    yield "ratio over 1000 (scientific)", torch.tensor([[1500.0, 1.0], [-2.0, 0.5]])
    yield "integers with a ratio over 1000 (scientific)", torch.tensor([[2000.0, 1.0], [-3.0, 0.0]])
    yield "all below 1e-4, a small ratio (scientific)", torch.tensor([[5e-5, 2e-5], [-3e-5, 9e-5]])
    yield "integers over 1e8 (scientific)", torch.tensor([2.0e8, 1.0, -7.0])
    yield "NaN beside numbers", torch.tensor([[float("nan"), 0.25], [-1.5, float("inf")]])
    yield "negative zero and a tiny negative", torch.tensor([[-0.0, 0.5], [-0.00004, 2.0]])
    yield "exact halves in fixed: 1/32 (round half to even)", torch.full((2, 3), 1.0 / 32)
    yield "exact halves in fixed: 3/32, -5/32", torch.tensor([3.0 / 32, -5.0 / 32, 0.5])
    yield "exact halves in scientific: 1 + 1/32, 1/2048", torch.tensor([1.0 + 1.0 / 32, 1.0 / 2048, 1.0e-5])
    yield "a long vector (lines of 80 characters)", torch.randn(30)
    yield "a wide matrix (rows wrap)", torch.randn(3, 14)
    yield "three dimensions", torch.randn(2, 3, 4)
    yield "over 1000 numbers (summarized)", torch.randn(40, 40)
    yield "over 1000 numbers, a long vector (summarized)", torch.rand(1200)
    yield "summarized with a tiny value outside the edges", torch.cat(
        [torch.rand(10, 200) + 0.5, torch.full((1, 200), 1e-6), torch.rand(10, 200) + 0.5]
    )
    yield "a single number", torch.tensor([3.14159265])
    yield "all zeros", torch.zeros(2, 2)


def main():
    out = []
    for name, tensor in cases():
        tensor = tensor.to(torch.float32)
        out.append(
            {
                "name": name,
                "shape": list(tensor.shape),
                "data": [number(x) for x in tensor.reshape(-1).tolist()],
                "text": repr(tensor),
            }
        )
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
