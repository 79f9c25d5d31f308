#!/usr/bin/python3
"""Writes the tiny model's reference fixtures: model.py's forward in PyTorch on a few
texts at a few checkpoints, with every intermediate the engine returns, and the head
scores of scores.py. The C++ and JS tests compare the engine to them.

    /usr/bin/python3 tests/reference/tiny/fixtures.py

Run with Debian's PyTorch 1.13 and its reference BLAS (no LD_PRELOAD of OpenBLAS): the
reference BLAS sums every product in the order of its inner dimension, as the engine
does. Nothing here is read from our engine. Writes tests/reference/fixtures/tiny/
<name>.json and index.json.
"""
import json
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from model import encode, load_safetensors  # noqa: E402
from probes import PLAIN, SENTENCES, fit, random_repeats  # noqa: E402
from scores import induction_score, previous_token_score, repeat_positions, second_copy  # noqa: E402
from train import CHECKPOINTS  # noqa: E402

ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
OUT = os.path.join(HERE, "..", "fixtures", "tiny")

# (name, checkpoint, text, what it exercises): checkpoints by their place in train.py's CHECKPOINTS.
LAST, BEFORE = CHECKPOINTS[-1], CHECKPOINTS[2]
CASES = [
    (f"en-{LAST}", LAST, SENTENCES["en"], "an English sentence: no repeat"),
    (f"zh-{LAST}", LAST, SENTENCES["zh"], "a Chinese sentence: 3 bytes per character"),
    (f"mixed-{LAST}", LAST, SENTENCES["mixed"], "English and Chinese in one text"),
    (f"twice-{LAST}", LAST, "The cat sat." * 2, "a sentence typed twice: induction and the second copy"),
    (f"spaced-{LAST}", LAST, "the cat sat. the cat sat.", "typed twice with a space between: the repeat after it"),
    (f"random-{LAST}", LAST, random_repeats()[0], "random letters typed twice"),
    (f"one-byte-{LAST}", LAST, "a", "one byte: no previous-token score"),
    (f"context-{LAST}", LAST, fit(" ".join(PLAIN) * 4), "256 bytes, the whole context, with repeats"),
    (f"twice-{BEFORE}", BEFORE, "The cat sat." * 2, "the same text before the induction head has formed"),
]
# (The longer texts typed twice are measured by the tests against report.json's second copies.)

LAYER_TENSORS = ("Q", "K", "V", "scores", "scaled", "weights", "headOutputs", "concat", "attnOut", "residual")


def tensor(t):
    """{shape, data}: each float32 as the shortest text that reads back as it (9 digits)."""
    data = [float(f"{x:.9g}") for x in t.detach().flatten().tolist()]
    return {"shape": list(t.shape), "data": data}


def reference(model, text):
    ids = encode(text)
    keep = {}
    with torch.no_grad():
        logits = model(ids, keep)
    weights = [layer["weights"] for layer in keep["layers"]]
    T = len(ids)
    rounded = lambda rows: [[float(x) for x in row] for row in rows]
    positions, targets = repeat_positions(ids.tolist())
    induction = [induction_score(w, ids.tolist()) for w in weights]
    head_scores = {
        "previousToken": rounded(torch.stack([previous_token_score(w) for w in weights])) if T >= 2 else None,
        "induction": rounded(torch.stack(induction)) if positions else None,
        "repeatTargets": [targets[i] if i in positions else -1 for i in range(T)],
    }
    copy = second_copy(logits, ids)
    if copy:
        correct, total, loss = copy
        copy = {"correct": correct, "total": total, "loss": loss}
    return {
        "ids": ids.tolist(),
        "tensors": {name: tensor(keep[name]) for name in
                    ("tokenEmbeddings", "positionEmbeddings", "residual0", "logits", "probs")},
        "layers": [{name: tensor(layer[name]) for name in LAYER_TENSORS} for layer in keep["layers"]],
        "headScores": head_scores,
        "secondCopy": copy,
    }


def main():
    assert torch.__version__.startswith("1.13"), f"use Debian's PyTorch 1.13, not {torch.__version__}"
    assert "openblas" not in open("/proc/self/maps").read(), "run without OpenBLAS (no LD_PRELOAD)"
    torch.set_num_threads(1)
    os.makedirs(OUT, exist_ok=True)
    models = {}
    for name, step, text, description in CASES:
        if step not in models:
            models[step] = load_safetensors(os.path.join(ROOT, "web", "api", "tiny", f"step-{step:04d}.safetensors"))
        fixture = {"name": name, "description": description, "checkpoint": step, "text": text,
                   "expected": reference(models[step], text)}
        with open(os.path.join(OUT, name + ".json"), "w") as f:
            json.dump(fixture, f, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
            f.write("\n")
    with open(os.path.join(OUT, "index.json"), "w") as f:
        json.dump([name for name, *_ in CASES], f, indent=1)
        f.write("\n")
    print(f"wrote {len(CASES)} tiny-model fixtures to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    sys.exit(main())
