"""Measures a tiny model on the probes (probes.py) with the scores of scores.py, and
writes report.md. Used by train.py at every measuring step; the tests re-measure the
committed checkpoints with the engine and compare to report.json."""
import torch

from model import encode
from probes import PLAIN, SENTENCES, SEPARATED, fit, random_repeats, typed
from scores import induction_score, previous_token_score, second_copy


def run(model, text, ablate=()):
    keep = {}
    ids = encode(text)
    with torch.no_grad():
        if ablate:
            logits = model(ids, ablate=ablate)
            model(ids, keep)
        else:
            logits = model(ids, keep)
    return ids, logits, [layer["weights"] for layer in keep["layers"]]


def rounded(rows, digits=6):
    return [[round(float(x), digits) for x in row] for row in rows]


def copy_counts(model, texts, ablate=()):
    """Summed (correct, total, loss) of the second copies of `texts`, their per-text accuracies,
    and the summed induction scores (L, nh)."""
    induction, correct, total, loss, each = 0, 0, 0, 0.0, []
    for text in texts:
        ids, logits, weights = run(model, text, ablate)
        induction = induction + torch.stack([induction_score(w, ids.tolist()) for w in weights])
        c, n, l = second_copy(logits, ids)
        correct, total, loss = correct + c, total + n, loss + l
        each.append(c / n)
    return induction, correct, total, loss, each


def measure(model, ablate_previous=False):
    plain = [fit(t) for t in PLAIN]
    repeats = random_repeats()
    previous = torch.stack([torch.stack([previous_token_score(w) for w in run(model, t)[2]]) for t in plain]).mean(0)
    induction, correct, total, loss, each = copy_counts(model, repeats)
    induction = induction / len(repeats)
    sentences = {}
    texts = {key: typed(s) for key, s in SENTENCES.items()} | {key: typed(*v) for key, v in SEPARATED.items()}
    for key, text in texts.items():
        ids, logits, _ = run(model, text)
        c, n, l = second_copy(logits, ids)
        sentences[key] = dict(text=text, correct=c, total=n, loss=round(l, 6))
    natural = [s["correct"] / s["total"] for s in sentences.values()]
    out = dict(
        previousToken=rounded(previous),
        induction=rounded(induction),
        secondCopy=dict(correct=correct, total=total, accuracy=round(correct / total, 6), loss=round(loss / len(repeats), 6),
                        meanPerText=round(sum(each) / len(each), 6), worstText=round(min(each), 6)),
        naturalCopy=dict(meanPerText=round(sum(natural) / len(natural), 6), worstText=round(min(natural), 6)),
        sentences=sentences,
        probes=dict(plain=plain, randomRepeats=repeats, sentences=texts),
    )
    if ablate_previous:
        # Zero layer 1's best previous-token head: the layer-2 induction heads lose what their keys read.
        head = int(previous[0].argmax())
        _, ab_correct, ab_total, _, _ = copy_counts(model, repeats, ablate=[(0, head)])
        # Attention weights of layer 2 with the head ablated: recompute by hand.
        out["ablation"] = dict(layer=1, head=head + 1, secondCopyAccuracy=round(ab_correct / ab_total, 6),
                               induction=rounded(ablated_induction(model, repeats, head)))
    return out


def ablated_induction(model, repeats, head):
    """Layer 2's induction scores when layer 1's head `head` writes nothing."""
    from model import ablated

    total = 0
    for s in repeats:
        ids = encode(s)
        with torch.no_grad():
            T = ids.shape[0]
            x = model.tok_emb(ids) + model.pos_emb(torch.arange(T))
            x = x + ablated(model.layers[0], x, [head])
            keep = {}
            model.layers[1](x, keep)
        total = total + induction_score(keep["weights"], ids.tolist())
    return (total / len(repeats)).unsqueeze(0)


def write_markdown(report, path):
    f = report["final"]
    lines = ["# The tiny model's training report", "",
             f"Seed {report['training']['seed']}, {report['training']['steps']} steps, "
             f"{report['training']['seconds']} s on one thread with {report['training']['blas']}; "
             f"{report['model']['parameters']:,} parameters.", "",
             "## Head scores of the final weights", "", "| head | previous-token | induction |", "|---|---|---|"]
    for l, (prev, ind) in enumerate(zip(f["previousToken"], f["induction"])):
        for h in range(len(prev)):
            lines.append(f"| L{l + 1}H{h + 1} | {prev[h]:.3f} | {ind[h]:.3f} |")
    lines += ["", "## Second copy (text typed twice)", "", "| text | correct | loss |", "|---|---|---|"]
    for key, s in f["sentences"].items():
        shown = s["text"].replace("\n", "↵")
        lines.append(f"| {shown} | {s['correct']}/{s['total']} | {s['loss']:.3f} |")
    a, c, n = f["ablation"], f["secondCopy"], f["naturalCopy"]
    lines += ["", f"Natural sentences: {n['meanPerText']:.3f} mean accuracy per text (worst {n['worstText']:.3f}).",
              "", f"Random strings typed twice ({len(report['probes']['randomRepeats'])} texts, 15 to 24 letters, "
              f"4 with a separator or a third copy): {c['correct']}/{c['total']} correct, {c['meanPerText']:.3f} mean per text "
              f"(worst {c['worstText']:.3f}). "
              f"With L{a['layer']}H{a['head']} zeroed: {a['secondCopyAccuracy']:.3f} accuracy, layer-2 induction "
              + ", ".join(f"{x:.3f}" for x in a["induction"][0]) + ".", "",
              "## Curve", "", "| step | train loss | best induction | second-copy loss |", "|---|---|---|---|"]
    for c in report["curve"]:
        loss = "" if c["trainLoss"] is None else f"{c['trainLoss']:.3f}"
        lines.append(f"| {c['step']} | {loss} | {max(max(r) for r in c['induction']):.3f} | {c['secondCopy']['loss']:.3f} |")
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")
