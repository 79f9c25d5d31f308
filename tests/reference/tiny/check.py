#!/usr/bin/python3
"""Checks the committed tiny model against its training script and report, in PyTorch
(no training: CI runs this through tests/js/tiny-training.test.js).

1. step-0000 holds exactly the weights train.py initialises with its seed (model.py's init).
2. Every checkpoint file matches the sha256 and size report.json and index.json record.
3. The final weights, re-measured here with report.py on Debian's BLAS, give the report's
   head scores (within 1e-4: training ran on OpenBLAS) and its second-copy counts exactly.
Prints one JSON line with the worst differences; exits 1 on a mismatch.
"""
import hashlib
import json
import os
import sys
import tempfile

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from model import TinyConfig, TinyModel, load_safetensors, save_safetensors  # noqa: E402
from report import measure  # noqa: E402

WEIGHTS = os.path.normpath(os.path.join(HERE, "..", "..", "..", "web", "api", "tiny"))


def main():
    report = json.load(open(os.path.join(HERE, "report.json")))
    index = json.load(open(os.path.join(WEIGHTS, "index.json")))
    problems = []
    if index["checkpoints"] != report["checkpoints"]:
        problems.append("index.json and report.json list different checkpoints")
    for c in report["checkpoints"]:
        data = open(os.path.join(WEIGHTS, c["file"]), "rb").read()
        if len(data) != c["bytes"] or hashlib.sha256(data).hexdigest() != c["sha256"]:
            problems.append(f"{c['file']} is not the file the report measured")

    torch.manual_seed(report["training"]["seed"])
    init = TinyModel(TinyConfig())
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "init.safetensors")
        save_safetensors(init, path, {"step": 0, "seed": report["training"]["seed"]})
        if open(path, "rb").read() != open(os.path.join(WEIGHTS, "step-0000.safetensors"), "rb").read():
            problems.append("step-0000.safetensors is not train.py's initialisation")

    final = report["final"]
    again = measure(load_safetensors(os.path.join(WEIGHTS, report["checkpoints"][-1]["file"])))
    worst = 0.0
    for key in ("previousToken", "induction"):
        for row_a, row_b in zip(again[key], final[key]):
            worst = max(worst, *(abs(a - b) for a, b in zip(row_a, row_b)))
    if worst > 1e-4:
        problems.append(f"head scores differ from the report by {worst:.2e}")
    for key, s in final["sentences"].items():
        if (again["sentences"][key]["correct"], again["sentences"][key]["total"]) != (s["correct"], s["total"]):
            problems.append(f"second copy of {key}: {again['sentences'][key]['correct']} != {s['correct']}")
    print(json.dumps(dict(worstScoreDifference=worst, problems=problems,
                          sentences={k: f"{s['correct']}/{s['total']}" for k, s in again["sentences"].items()})))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
