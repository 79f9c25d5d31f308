"""How the head labels are measured: the same definitions the engine uses
(cpp/core/tiny_model.cpp) and the page explains.

previous-token score of a head: the mean over positions i >= 1 of weights[i, i-1],
    the weight a byte gives the byte just before it (1.0 = always the previous byte).
induction score of a head, on a text typed twice (bytes s + s, n = len(s)): the mean
    over positions i in the second copy of weights[i, i-n+1], the weight a byte gives
    to the byte that followed its own earlier copy (1.0 = always that byte).
second-copy accuracy: how many bytes of the second copy after its first are the
    model's top prediction (argmax of the logits at the byte before).
"""
import torch
import torch.nn.functional as F


def previous_token_score(weights):
    """weights (nh, T, T) -> (nh,)"""
    T = weights.shape[-1]
    i = torch.arange(1, T)
    return weights[:, i, i - 1].mean(dim=-1)


def induction_score(weights, n):
    """weights (nh, 2n, 2n) of a text typed twice -> (nh,)"""
    i = torch.arange(n, 2 * n)
    return weights[:, i, i - n + 1].mean(dim=-1)


def second_copy(logits, ids, n):
    """(correct, total, mean cross-entropy in nats) over bytes n+1 .. 2n-1 of ids = s + s."""
    i = torch.arange(n, 2 * n - 1)
    predicted = logits[i].argmax(dim=-1)
    target = ids[i + 1]
    loss = F.cross_entropy(logits[i], target).item()
    return int((predicted == target).sum()), len(i), loss
