"""How the head labels are measured: the same definitions the engine uses
(cpp/core/head_scores.cpp and tiny_model.cpp) and the page explains.

induction target t(i) of position i: the byte after the earlier place j whose bytes best
    match those ending at i (the longest run ids[j-k .. j] = ids[i-k .. i], the latest j of
    equal runs, j + 1 < i), and r(i) the length of that run (head_scores.cpp).
repeat: the bytes of a later copy of a run of at least MIN_REPEAT bytes typed before:
    every position p with r(p) >= MIN_REPEAT puts p - r(p) + 1 .. p in it. A text typed
    twice (s + s), with a separator between ("s. s") or a third copy, has one; so has a
    span repeated anywhere inside other text.
previous-token score of a head: the mean over positions i >= 1 of weights[i, i-1],
    the weight a byte gives the byte just before it (1.0 = always the previous byte).
induction score of a head: the mean over the positions i of the repeat of weights[i, t(i)],
    the weight a byte gives the byte that followed its earlier copy (1.0 = always that byte).
second-copy accuracy: over the positions i of the repeat before the last byte, how many
    times the model's top prediction (argmax of the logits at i) is the byte at i + 1.
For s + s these are the positions n .. 2n-1, t(i) = i - n + 1 (unless the first byte of s
    recurs inside s), and the second copy after its first byte.
"""
import torch
import torch.nn.functional as F

MIN_REPEAT = 4  # bytes: "the " typed again is a repeat, two equal bytes are not


def induction_matches(ids):
    """ids (list of T ints) -> (targets, runs): t(i) or -1, and r(i) or 0, per position."""
    T = len(ids)
    targets, runs = [-1] * T, [0] * T
    previous = [0] * T
    for i in range(T):
        run, best = [0] * T, 0
        for j in range(i):
            run[j] = (previous[j - 1] if j > 0 else 0) + 1 if ids[j] == ids[i] else 0
            if j + 1 < i and run[j] > 0 and run[j] >= best:
                best, targets[i] = run[j], j + 1
        runs[i] = best
        previous = run
    return targets, runs


def repeat_positions(ids):
    """The positions of the repeat (sorted), each with its target t(i) >= 0."""
    targets, runs = induction_matches(ids)
    inside = [False] * len(ids)
    for p, r in enumerate(runs):
        if r >= MIN_REPEAT:
            for i in range(p - r + 1, p + 1):
                inside[i] = True
    return [i for i, x in enumerate(inside) if x], targets


def previous_token_score(weights):
    """weights (nh, T, T) -> (nh,)"""
    T = weights.shape[-1]
    i = torch.arange(1, T)
    return weights[:, i, i - 1].mean(dim=-1)


def induction_score(weights, ids):
    """weights (nh, T, T), ids (T ints) -> (nh,), or None when the text has no repeat."""
    positions, targets = repeat_positions(ids)
    if not positions:
        return None
    i = torch.tensor(positions)
    t = torch.tensor([targets[p] for p in positions])
    return weights[:, i, t].mean(dim=-1)


def second_copy(logits, ids):
    """(correct, total, mean cross-entropy in nats) over the repeat's positions before the last byte,
    or None when there is none."""
    positions, _ = repeat_positions(ids.tolist() if hasattr(ids, "tolist") else ids)
    positions = [p for p in positions if p + 1 < len(ids)]
    if not positions:
        return None
    i = torch.tensor(positions)
    ids = torch.as_tensor(ids)
    predicted = logits[i].argmax(dim=-1)
    target = ids[i + 1]
    loss = F.cross_entropy(logits[i], target).item()
    return int((predicted == target).sum()), len(i), loss
