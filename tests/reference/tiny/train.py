#!/usr/bin/python3
"""Trains the tiny model the page's "Trained model" mode shows, and writes its report.

    /usr/bin/python3 tests/reference/tiny/train.py     # about 25 to 40 minutes on one core

11,000 steps of 2,048 bytes: the first 1,500 in 32 rows of 64 bytes, where the heads form
sooner and cost less, then 8 rows of the whole 256-byte context (corpus.py's mix of natural
text and segments typed twice or three times, with or without a separator).

Needs python3-torch, fortunes, fortunes-zh and libopenblas0-pthread (web/scripts/setup.sh
--with-training). It loads OpenBLAS itself (LD_PRELOAD, one thread) and leaves the system's BLAS
as it is: Debian's reference BLAS, which the fixtures come from. --blas reference trains without it.
Deterministic from --seed on one thread: two runs write the same bytes. The BLAS changes the last
bits, so the committed weights come from one recorded run (report.json names its BLAS, seed, time).
Writes web/api/tiny/step-NNNN.safetensors (float16) for each checkpoint, and
tests/reference/tiny/report.json and report.md (loss curve, head scores, accuracy).
"""
import argparse
import hashlib
import json
import math
import os
import sys
import time

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus import Batches, load_texts  # noqa: E402
from model import TinyConfig, TinyModel, encode, load_safetensors, save_safetensors  # noqa: E402
from report import measure, write_markdown  # noqa: E402

ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
OPENBLAS = "/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3"
# The steps whose weights ship: the slider's stops. The induction head forms between 1250 and 1500.
CHECKPOINTS = [0, 500, 750, 1000, 1250, 1500, 3000, 11000]


def blas_name():
    maps = open("/proc/self/maps").read()
    return "OpenBLAS" if "openblas" in maps else "reference BLAS"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--steps", type=int, default=11000)
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--lr", type=float, default=1e-2)
    p.add_argument("--out", default=os.path.join(ROOT, "web", "api", "tiny"))
    p.add_argument("--report", default=HERE)
    p.add_argument("--every", type=int, default=50, help="measure the heads every this many steps")
    p.add_argument("--blas", choices=("openblas", "reference"), default="openblas")
    p.add_argument("--short-steps", type=int, default=1500,
                   help="the first this many steps read rows of --short-context bytes, --batch x context / short-context of them")
    p.add_argument("--short-context", type=int, default=64)
    p.add_argument("--checkpoints", default=",".join(map(str, CHECKPOINTS)),
                   help="the steps whose weights are saved (multiples of --every, so that the curve does not depend on them)")
    args = p.parse_args()
    saved = [int(x) for x in args.checkpoints.split(",")]
    if args.blas == "openblas" and "openblas" not in os.environ.get("LD_PRELOAD", ""):
        if not os.path.exists(OPENBLAS):
            raise SystemExit("train: OpenBLAS is missing: web/scripts/setup.sh --with-training, or --blas reference")
        env = dict(os.environ, LD_PRELOAD=OPENBLAS, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
        os.execve(sys.executable, [sys.executable] + sys.argv, env)

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    cfg = TinyConfig()
    model = TinyModel(cfg)
    english, chinese = load_texts()
    batches = Batches(english, chinese, cfg.context, args.seed)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.99), weight_decay=0.01)
    warmup = 100
    schedule = lambda s: min(1.0, (s + 1) / warmup) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * s / max(1, args.steps))))
    lr_of = torch.optim.lr_scheduler.LambdaLR(opt, schedule)
    os.makedirs(args.out, exist_ok=True)
    tmp = os.path.join(args.out, ".measure.safetensors")

    curve, checkpoints, window = [], [], []
    start = time.time()
    for step in range(args.steps + 1):
        if step % args.every == 0 or step in saved:
            # Measured on the float16 weights a checkpoint file holds, as the page sees them.
            save_safetensors(model, tmp)
            point = measure(load_safetensors(tmp, cfg))
            point.update(step=step, trainLoss=sum(window) / len(window) if window else None)
            window = []
            curve.append(point)
            print(f"step {step:5d}  loss {point['trainLoss'] or float('nan'):.3f}  "
                  f"induction {max(max(r) for r in point['induction']):.3f}  "
                  f"second copy {point['secondCopy']['loss']:.3f}  {time.time() - start:.0f} s", flush=True)
            if step in saved:
                name = f"step-{step:04d}.safetensors"
                path = os.path.join(args.out, name)
                save_safetensors(model, path, {"step": step, "seed": args.seed})
                data = open(path, "rb").read()
                checkpoints.append(dict(step=step, file=name, bytes=len(data), sha256=hashlib.sha256(data).hexdigest()))
        if step == args.steps:
            break
        if step < args.short_steps:  # the same bytes per step in shorter rows: the heads form sooner
            ids = batches.next(args.batch * cfg.context // args.short_context, args.short_context)  # (B', T')
        else:
            ids = batches.next(args.batch)  # (B, T)
        logits = model(ids)  # (B, T, vocab)
        loss = F.cross_entropy(logits[:, :-1].reshape(-1, cfg.vocab), ids[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        lr_of.step()
        window.append(loss.item())
    os.remove(tmp)

    report = dict(
        model=vars(cfg) | {"parameters": sum(p.numel() for p in model.parameters())},
        training=dict(seed=args.seed, steps=args.steps, batch=args.batch, lr=args.lr,
                      shortSteps=args.short_steps, shortContext=args.short_context, shortBatch=args.batch * cfg.context // args.short_context, optimizer="AdamW(betas=(0.9, 0.99), weight_decay=0.01), 100 warm-up steps, cosine to 10%",
                      seconds=round(time.time() - start), blas=blas_name(), torch=torch.__version__, threads=1),
        probes=curve[-1]["probes"],
        curve=[{k: v for k, v in c.items() if k != "probes"} for c in curve],
        checkpoints=checkpoints,
        final={k: v for k, v in curve[-1].items() if k not in ("probes",)},
    )
    report["final"]["ablation"] = measure(load_safetensors(os.path.join(args.out, checkpoints[-1]["file"]), cfg), ablate_previous=True)["ablation"]
    with open(os.path.join(args.report, "report.json"), "w") as f:
        json.dump(report, f, indent=1, ensure_ascii=False)
        f.write("\n")
    write_markdown(report, os.path.join(args.report, "report.md"))
    # What the page's checkpoint slider reads: the files and the curve, without the probes.
    repeats = report["probes"]["randomRepeats"]
    separated = sum(1 for r in repeats if r[: len(r) // 2] != r[len(r) // 2 :])
    index = dict(checkpoints=checkpoints, measured=dict(every=args.every, texts=len(repeats), separated=separated), curve=[
        dict(step=c["step"], trainLoss=None if c["trainLoss"] is None else round(c["trainLoss"], 4), induction=max(c["induction"][-1]), previousToken=max(c["previousToken"][0]),
             secondCopyLoss=c["secondCopy"]["loss"], secondCopyAccuracy=c["secondCopy"]["accuracy"]) for c in report["curve"]])
    with open(os.path.join(args.out, "index.json"), "w") as f:
        json.dump(index, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {len(checkpoints)} checkpoints to {args.out} and the report to {args.report}")


if __name__ == "__main__":
    main()
