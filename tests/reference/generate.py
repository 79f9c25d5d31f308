#!/usr/bin/python3
"""Writes the PyTorch reference fixtures that the C++ and JS tests compare to.

Run with Debian's PyTorch 1.13 (python3-torch):  /usr/bin/python3 tests/reference/generate.py

Every expected tensor here comes from PyTorch itself: nn.Embedding, nn.Linear,
torch.rand, torch.randn, nn.MultiheadAttention, nn.Dropout and plain tensor ops,
following the engine's config schema; the tokens come from tokenize() below,
the Python statement of the engine's tokenizers. Nothing is read from our engine.
The fixtures are committed, so CI needs no PyTorch.
"""
import copy
import json
import math
import os
import subprocess
import sys

import torch
import torch.nn.functional as F
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fixtures")
PAD = "<pad>"


def encode_number(x):
    """JSON has no NaN or infinities: they are written as the strings "NaN",
    "Infinity" and "-Infinity", the same encoding the JS API uses."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return x


def write_fixture(path, record):
    """One fixture file: `record` as JSON (non-ASCII kept, NaN and infinities refused: encode_number writes
    them as strings first) and a newline."""
    with open(path, "w") as f:
        json.dump(record, f, ensure_ascii=False, allow_nan=False)
        f.write("\n")


def write_index(out_dir, names):
    """out_dir/index.json: the fixtures' names, in order, one per line."""
    with open(os.path.join(out_dir, "index.json"), "w") as f:
        json.dump(names, f, indent=1)
        f.write("\n")


def is_complete(values):
    """Explicit values without null entries: that stage draws nothing."""
    return all(is_complete(v) if isinstance(v, list) else v is not None for v in values) if values is not None else False


def override(tensor, values):
    """tensor[i] = values[i] wherever values[i] is not null (in place)."""
    for i, v in enumerate(values):
        if v is None:
            continue
        if isinstance(v, list):
            override(tensor[i], v)
        else:
            tensor[i] = v


# ---------------------------------------------------------------- tokens ----
def is_standalone_cjk(c):
    """A character that is a token of its own for tokenizer "auto": Han, Kana,
    Hangul, and CJK / fullwidth punctuation (the ranges of cpp/core/tokens.h)."""
    cp = ord(c)
    within = lambda *ranges: any(a <= cp <= b for a, b in ranges)
    han = within((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x3FFFF))
    kana = within((0x3040, 0x30FF), (0x31F0, 0x31FF), (0xFF66, 0xFF9F), (0x1B000, 0x1B16F))
    hangul = within((0xAC00, 0xD7AF), (0x1100, 0x11FF), (0x3130, 0x318F), (0xA960, 0xA97F),
                    (0xD7B0, 0xD7FF), (0xFFA0, 0xFFDC))
    fullwidth_alnum = within((0xFF10, 0xFF19), (0xFF21, 0xFF3A), (0xFF41, 0xFF5A))
    punctuation = within((0x3000, 0x303F)) or (within((0xFF01, 0xFF65)) and not fullwidth_alnum)
    return han or kana or hangul or punctuation


def tokenize(text, mode):
    """The engine's tokenizers (config "tokenizer"):
    "whitespace"  str.split()
    "chars"       every non-whitespace character: list(sentence) without the spaces
    "auto"        str.split(), then every Han/Kana/Hangul character and CJK punctuation
                  mark alone, as Chinese tutorials do with list(sentence), while runs of
                  other characters stay together: "我爱NLP和AI" -> 我 爱 NLP 和 AI"""
    if mode == "whitespace":
        return text.split()
    if mode == "chars":
        return [c for c in text if not c.isspace()]
    tokens = []
    for word in text.split():
        run = ""
        for c in word:
            if is_standalone_cjk(c):
                if run:
                    tokens.append(run)
                    run = ""
                tokens.append(c)
            else:
                run += c
        if run:
            tokens.append(run)
    return tokens


def tokenize_side(token_lists, max_len):
    """Token lists (one per sentence), padded to the longest (or cut and padded to max_len)."""
    if max_len is not None:
        token_lists = [t[:max_len] for t in token_lists]
    length = max_len if max_len is not None else max(len(t) for t in token_lists)
    padding = [[i >= len(t) for i in range(length)] for t in token_lists]
    padded = [t + [PAD] * (length - len(t)) for t in token_lists]
    return padded, padding


def build_vocab(sides):
    any_padding = any(p for _, padding in sides for row in padding for p in row)
    vocab = [PAD] if any_padding else []
    for tokens, padding in sides:
        for row, pad_row in zip(tokens, padding):
            for tok, is_pad in zip(row, pad_row):
                if not is_pad and tok not in vocab:
                    vocab.append(tok)
    return vocab


def token_ids(side, vocab, unknown):
    tokens, padding = side
    index = {t: i for i, t in enumerate(vocab)}
    pad_id = index.get(PAD, 0)
    ids = []
    for row, pad_row in zip(tokens, padding):
        out = []
        for tok, is_pad in zip(row, pad_row):
            if is_pad:
                out.append(pad_id)
            elif tok in index:
                out.append(index[tok])
            else:
                out.append(0)
                if tok not in unknown:
                    unknown.append(tok)
        ids.append(out)
    return ids


def token_lists_of(config, one, many, pre_split, mode):
    """The side's tokens: its sentences tokenized, or its pre-split tokens as given."""
    if pre_split in config:
        return config[pre_split]
    texts = [config[one]] if one in config else config.get(many)
    return [tokenize(t, mode) for t in texts] if texts is not None else None


def random_input(spec):
    """{"randn": [B, S, D]} -> torch.randn(B, S, D); {"rand": [B, S, D]} -> torch.rand(B, S, D)."""
    (key, shape), = spec.items()
    return torch.randn(*shape) if key == "randn" else torch.rand(*shape)


def sinusoidal(length, d):
    position = torch.arange(length).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d, 2) * (-math.log(10000.0) / d))
    pe = torch.zeros(length, d)
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term[: d // 2])
    return pe


# --------------------------------------------------------------- weights ----
class Head(nn.Module):
    """One head of the per-head layout: its own query/key/value projections."""

    def __init__(self, d_model, head_dim, bias):
        super().__init__()
        self.query = nn.Linear(d_model, head_dim, bias=bias)
        self.key = nn.Linear(d_model, head_dim, bias=bias)
        self.value = nn.Linear(d_model, head_dim, bias=bias)


WEIGHT_NAMES = ("W_Q", "W_K", "W_V", "b_Q", "b_K", "b_V", "W_a", "U_a", "v_a", "W_O", "b_O")


def weight_names(config, init, qkv_bias, out_proj, additive):
    names = ["W_Q", "W_K", "W_V"]
    if qkv_bias:
        names += ["b_Q", "b_K", "b_V"]
    if additive:
        names += ["W_a", "U_a", "v_a"]
    if out_proj:
        names.append("W_O")
        if init == "torch-linear" or (init in ("torch-mha", "torch-linear-clones") and qkv_bias):
            names.append("b_O")
    for name in config.get("weights", {}).get("values", {}):
        if name not in names:
            names.append(name)
    return names


def draw_additive(dk, hidden):
    """The additive score's layers, shared by the heads, in the x·W convention."""
    W_a = nn.Linear(dk, hidden, bias=False)
    U_a = nn.Linear(dk, hidden, bias=False)
    v_a = nn.Linear(hidden, 1, bias=False)
    return {"W_a": W_a.weight.detach().T.clone(), "U_a": U_a.weight.detach().T.clone(),
            "v_a": v_a.weight.detach()[0].clone()}


def draw_weights(D, H, init, layout, qkv_bias, out_proj, additive, hidden, KVH=None, add_zero_attn=False):
    """Returns (weights in the x·W convention, the nn.MultiheadAttention if any).
    Draw order: Q, K, V (and their biases), then the additive score's W_a, U_a,
    v_a, then W_O; nn.MultiheadAttention draws its out_proj first, in its
    constructor, so there the additive layers come after the whole module.
    Grouped-query attention (KVH < H) changes only the K and V shapes: [D, KVH·dk]
    (torch-linear: nn.Linear(D, KVH·dk); torch-rand: torch.rand(D, KVH·dk);
    identity: torch.eye(D)[:, :KVH·dk]); the other inits have no GQA form."""
    dk = D // H
    KVH = H if KVH is None else KVH
    kv_cols = KVH * dk
    kv_shape = lambda n: (D, kv_cols) if n in ("K", "V") else (D, D)
    w, mha = {}, None
    draw_additive_here = lambda: w.update(draw_additive(dk, hidden)) if additive else None
    zeros = lambda *shape: torch.zeros(*shape)
    if init == "identity":
        for n in ("Q", "K", "V"):
            w["W_" + n] = torch.eye(D)[:, :kv_shape(n)[1]]
        draw_additive_here()
        if out_proj:
            w["W_O"] = torch.eye(D)
    elif init == "torch-linear-clones":
        # The Annotated Transformer: self.linears = clones(nn.Linear(d_model, d_model), 4)
        linear = nn.Linear(D, D, bias=qkv_bias)
        linears = nn.ModuleList([copy.deepcopy(linear) for _ in range(4)])
        for n, lin in zip(("Q", "K", "V", "O"), linears):
            if n == "O" and not out_proj:
                continue
            w["W_" + n] = lin.weight.detach().T.clone()
            if qkv_bias:
                w["b_" + n] = lin.bias.detach().clone()
        draw_additive_here()
    elif init == "torch-rand" and layout == "fused":
        for n in ("Q", "K", "V"):
            w["W_" + n] = torch.rand(*kv_shape(n))
        draw_additive_here()
        if out_proj:
            w["W_O"] = torch.rand(D, D)
    elif init == "torch-rand":  # per-head
        cols = {n: [] for n in ("W_Q", "W_K", "W_V")}
        for _ in range(H):
            for n in ("W_Q", "W_K", "W_V"):
                cols[n].append(torch.rand(D, dk))
        for n in cols:
            w[n] = torch.cat(cols[n], dim=1)
        draw_additive_here()
        if out_proj:
            w["W_O"] = torch.rand(D, D)
    elif init == "torch-linear" and layout == "fused":
        q = nn.Linear(D, D, bias=qkv_bias)
        k = nn.Linear(D, kv_cols, bias=qkv_bias)
        v = nn.Linear(D, kv_cols, bias=qkv_bias)
        for n, lin in (("Q", q), ("K", k), ("V", v)):
            w["W_" + n] = lin.weight.detach().T.clone()
            if qkv_bias:
                w["b_" + n] = lin.bias.detach().clone()
        draw_additive_here()
        if out_proj:
            o = nn.Linear(D, D)
            w["W_O"] = o.weight.detach().T.clone()
            w["b_O"] = o.bias.detach().clone()
    elif init == "torch-linear":  # per-head
        heads = nn.ModuleList([Head(D, dk, qkv_bias) for _ in range(H)])
        for n, attr in (("Q", "query"), ("K", "key"), ("V", "value")):
            w["W_" + n] = torch.cat([getattr(h, attr).weight.detach().T for h in heads], dim=1)
            if qkv_bias:
                w["b_" + n] = torch.cat([getattr(h, attr).bias.detach() for h in heads])
        draw_additive_here()
        if out_proj:
            o = nn.Linear(D, D)
            w["W_O"] = o.weight.detach().T.clone()
            w["b_O"] = o.bias.detach().clone()
    elif init == "torch-mha":
        mha = nn.MultiheadAttention(D, H, bias=qkv_bias, batch_first=True, add_zero_attn=add_zero_attn)
        ip = mha.in_proj_weight.detach()
        for i, n in enumerate(("Q", "K", "V")):
            w["W_" + n] = ip[i * D:(i + 1) * D].T.clone()
            if qkv_bias:
                w["b_" + n] = mha.in_proj_bias.detach()[i * D:(i + 1) * D].clone()
        if out_proj:
            w["W_O"] = mha.out_proj.weight.detach().T.clone()
            if qkv_bias:
                w["b_O"] = mha.out_proj.bias.detach().clone()
        draw_additive_here()
    else:
        raise ValueError(init)
    return w, mha


# ------------------------------------------------------- modern variants ----
# Each stage written out as a tutorial would, on the per-head layout (B, heads, S, dk).
def rms_norm_heads(x):
    """QK-norm: RMSNorm of each head's vector over its dk features, eps 1e-6, weight ones."""
    # (B, heads, S, dk) -> same
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)


def rope_angles(length, dk, base):
    """The rotation angle of position s in frequency pair i: s / base^(2i/dk)."""
    # (S, dk/2)
    inv_freq = 1.0 / (base ** (torch.arange(0, dk, 2).float() / dk))
    return torch.outer(torch.arange(length).float(), inv_freq)


def rotate_half(x):
    """Hugging Face / GPT-NeoX: the second half, negated, then the first half."""
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def rope_rotate_half(x, angles):
    """x·cos + rotate_half(x)·sin, the frequencies repeated over both halves."""
    # (B, heads, S, dk), angles (S, dk/2)
    emb = torch.cat((angles, angles), dim=-1)  # (S, dk)
    return x * emb.cos() + rotate_half(x) * emb.sin()


def rope_interleaved(x, angles):
    """Meta's original form: pairs (2i, 2i+1) rotated by angle i, written out in reals."""
    # (B, heads, S, dk), angles (S, dk/2)
    even, odd = x[..., 0::2], x[..., 1::2]  # (B, heads, S, dk/2)
    cos, sin = angles.cos(), angles.sin()
    return torch.stack((even * cos - odd * sin, even * sin + odd * cos), dim=-1).flatten(-2)


def rope_meta_complex(x, angles):
    """Meta's llama code (precompute_freqs_cis / apply_rotary_emb): complex multiplication."""
    freqs_cis = torch.polar(torch.ones_like(angles), angles)  # (S, dk/2) complex64
    x_ = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
    return torch.view_as_real(x_ * freqs_cis).flatten(-2)


def alibi_slopes(H):
    """ALiBi's head slopes (Press et al., their get_slopes): 2^(-8h/H) for h = 1..H when H is a
    power of two; otherwise the n = 2^floor(log2 H) slopes, then every other slope of 2n."""
    def power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start ** i for i in range(n)]

    if math.log2(H).is_integer():
        slopes = power_of_2(H)
    else:
        n = 2 ** math.floor(math.log2(H))
        slopes = power_of_2(n) + power_of_2(2 * n)[0::2][: H - n]
    return torch.tensor(slopes, dtype=torch.float32)  # (H,)


def alibi_bias(H, S, Skv):
    """alibiBias[h, i, j] = -slope_h · (i - j): a float tensor added to the scores."""
    distance = (torch.arange(S)[:, None] - torch.arange(Skv)[None, :]).float()  # (S, S_kv)
    return -alibi_slopes(H)[:, None, None] * distance  # (H, S, S_kv)


def blocked_positions(B, S, Skv, causal, window, sink_tokens, key_padding):
    """1 where query i may not see key j: (causal and j > i) or (window and i - j >= window
    and j >= sinkTokens) or (key j is <pad>)."""
    # (B, S, S_kv)
    i = torch.arange(S)[:, None]
    j = torch.arange(Skv)[None, :]
    blocked = torch.zeros(S, Skv, dtype=torch.bool)
    if causal:
        blocked |= j > i
    if window is not None:
        blocked |= (i - j >= window) & (j >= sink_tokens)
    blocked = blocked.expand(B, S, Skv)
    if key_padding is not None:
        blocked = blocked | key_padding[:, None, :]
    return blocked.float()


# ------------------------------------------------------------- reference ----
def reference(config, keep=None, x=None):
    """The expected values of one config, and the cross-checks' lines. `keep` (a dict), when
    given, receives the torch tensors and the per-head q, k, v the scores used (after QK-norm,
    RoPE and the GQA repeat), for the steppers' references. `x` (B, S, D), when given, replaces
    X once the inputs are drawn (a prepared run's new X): the draws stay those of the config."""
    D = config.get("dModel", 8)
    H = config.get("numHeads", 2)
    dk = D // H
    max_len = config.get("maxLen")
    emb_cfg = config.get("embedding", {})
    wcfg = config.get("weights", {})
    init = wcfg.get("init", "torch-linear")
    layout = wcfg.get("layout", "fused")
    qkv_bias = wcfg.get("qkvBias", init in ("torch-mha", "torch-linear-clones"))
    out_proj = wcfg.get("outProj", True)
    additive = config.get("score", "dot") == "additive"
    hidden = config.get("additiveHidden", 8)
    mask_kind = config.get("mask", "none")
    convention = config.get("maskConvention", "blocked")
    fill = config.get("maskFill", "-inf")
    fill = float("-inf") if fill == "-inf" else float(fill)
    p = config.get("dropout", {}).get("p", 0.0)
    mode = config.get("tokenizer", "auto")
    KVH = config.get("numKVHeads") or H
    qk_norm = config.get("qkNorm", False)
    rope = config.get("rope", {})
    rope_style = rope.get("style", "none")
    rope_base = float(rope.get("base", 10000))
    window = config.get("window")
    sink_tokens = config.get("sinkTokens", 0)
    sink_logit = config.get("sinkLogit")
    alibi = config.get("alibi", False)
    softcap = config.get("softcap")

    q_tokens = token_lists_of(config, "text", "texts", "tokens", mode)
    c_tokens = token_lists_of(config, "contextText", "contextTexts", "contextTokens", mode)
    cross = c_tokens is not None or "contextInput" in config
    sides = []
    q_side = c_side = None
    if q_tokens is not None:
        q_side = tokenize_side(q_tokens, max_len)
        sides.append(q_side)
    if c_tokens is not None:
        c_side = tokenize_side(c_tokens, max_len)
        sides.append(c_side)
    vocab = config["vocab"] if "vocab" in config else (build_vocab(sides) if sides else [])
    unknown = []
    ids = token_ids(q_side, vocab, unknown) if q_side else []
    c_ids = token_ids(c_side, vocab, unknown) if c_side else []

    torch.manual_seed(config.get("seed", 0))
    # 1. inputs
    X = Xc = None
    if sides:
        if "values" in emb_cfg and is_complete(emb_cfg["values"]):
            emb = nn.Embedding.from_pretrained(torch.tensor(emb_cfg["values"], dtype=torch.float32))
        else:
            emb = nn.Embedding(len(vocab), D)
            if "values" in emb_cfg:  # nulls keep the drawn numbers
                with torch.no_grad():
                    override(emb.weight, emb_cfg["values"])
        with torch.no_grad():
            if q_side:
                X = emb(torch.tensor(ids))
            if c_side:
                Xc = emb(torch.tensor(c_ids))
    if "input" in config:
        X = random_input(config["input"])
    if "contextInput" in config:
        Xc = random_input(config["contextInput"])
    if emb_cfg.get("positional", "none") == "sinusoidal":
        X = X + sinusoidal(X.shape[1], D)
        if cross:
            Xc = Xc + sinusoidal(Xc.shape[1], D)
    if x is not None:
        assert x.shape == X.shape, f"x {tuple(x.shape)} must have X's shape {tuple(X.shape)}"
        X = x
    Xkv = Xc if cross else X
    B, S, _ = X.shape
    Skv = Xkv.shape[1]

    # 2. weights
    if "seed" in wcfg:
        torch.manual_seed(wcfg["seed"])
    values = wcfg.get("values", {})
    names = weight_names(config, init, qkv_bias, out_proj, additive)
    mha = None
    if all(n in values and is_complete(values[n]) for n in names):
        w = {}
    else:
        w, mha = draw_weights(D, H, init, layout, qkv_bias, out_proj, additive, hidden, KVH,
                              add_zero_attn=sink_logit == 0)
    shapes = {"W_a": (dk, hidden), "U_a": (dk, hidden), "v_a": (hidden,), "W_K": (D, KVH * dk),
              "W_V": (D, KVH * dk), "b_K": (KVH * dk,), "b_V": (KVH * dk,)}
    for n in names:
        if n not in w:
            w[n] = torch.zeros(*shapes.get(n, (D, D) if n.startswith("W") else (D,)))
        if n in values:
            override(w[n], values[n])

    def proj(x, n):
        y = x @ w["W_" + n]
        return y + w["b_" + n] if ("b_" + n) in w else y

    with torch.no_grad():
        Q, K, V = proj(X, "Q"), proj(Xkv, "K"), proj(Xkv, "V")  # (B, S, H·dk), (B, S_kv, KVH·dk) twice
        q = Q.view(B, S, H, dk).transpose(1, 2)  # (B, H, S, dk)
        k = K.view(B, Skv, KVH, dk).transpose(1, 2)  # (B, KVH, S_kv, dk)
        v = V.view(B, Skv, KVH, dk).transpose(1, 2)
        merged = lambda t: t.transpose(1, 2).reshape(B, t.shape[2], t.shape[1] * dk)  # back to (B, S, heads·dk)
        variant = {}  # the variants' tensors, in pipeline order
        checks = []  # the cross-checks' worst differences, printed by main()
        if qk_norm:
            q, k = rms_norm_heads(q), rms_norm_heads(k)
            variant.update(Q_norm=merged(q), K_norm=merged(k))
        if rope_style != "none":
            angles = rope_angles(S, dk, rope_base)  # (S, dk/2); self-attention: S_kv = S
            rotate = rope_rotate_half if rope_style == "rotate-half" else rope_interleaved
            if rope_style == "interleaved":
                checks.append(check_meta_rope(q, rope_interleaved(q, angles), angles))
            q, k = rotate(q, angles), rotate(k, angles)
            variant.update(ropeAngles=angles, Q_rope=merged(q), K_rope=merged(k))
        # GQA: query head h reads KV head h // (H // KVH)
        if 1 < KVH < H:
            checks.append(check_grouping(k, H, KVH))
        k = k.repeat_interleave(H // KVH, dim=1)  # (B, H, S_kv, dk)
        v = v.repeat_interleave(H // KVH, dim=1)
        if additive:
            # Bahdanau: score[b,h,i,j] = v_aᵀ tanh(q_i·W_a + k_j·U_a), the layers shared by the heads.
            # The nn.Linear forwards (F.linear) of the drawn (or given) weights; building new
            # modules here would draw again and move the dropout mask.
            W_a = lambda x: F.linear(x, w["W_a"].T)
            U_a = lambda x: F.linear(x, w["U_a"].T)
            v_a = lambda x: F.linear(x, w["v_a"][None, :])
            scores = v_a(torch.tanh(W_a(q).unsqueeze(-2) + U_a(k).unsqueeze(-3))).squeeze(-1)  # (B, H, S, S_kv)
        else:
            scores = q @ k.transpose(-2, -1)  # (B, H, S, S_kv)
        scale = config.get("scale", "head-dim")
        if scale == "head-dim":
            scaled, factor = scores / math.sqrt(dk), 1 / math.sqrt(dk)
        elif scale == "d-model":
            scaled, factor = scores / math.sqrt(D), 1 / math.sqrt(D)
        elif scale == "none":
            scaled, factor = scores * 1.0, 1.0
        else:
            scaled, factor = scores * scale, scale
        last = scaled  # the scores the mask applies to: the last of scaled / capped / biased
        if softcap is not None:
            capped = softcap * torch.tanh(scaled / softcap)  # (B, H, S, S_kv)
            variant["capped"] = last = capped
        if alibi:
            bias = alibi_bias(H, S, Skv)  # (H, S, S_kv)
            biased = last + bias  # (B, H, S, S_kv)
            variant.update(alibiBias=bias, biased=biased)
            last = biased
        key_padding = None
        if "padding" in mask_kind.split("+"):
            side = c_side if cross else q_side
            if side is not None:
                key_padding = torch.tensor(side[1])  # (B, S_kv) True = pad
        mask = blocked_positions(B, S, Skv, "causal" in mask_kind.split("+"), window, sink_tokens, key_padding)
        blocked = mask  # 1 = blocked
        if convention == "blocked":  # nn.MultiheadAttention's boolean masks
            masked = last.masked_fill(mask[:, None].bool(), fill)
        elif convention == "keep":  # 1 = keep: torch.tril(ones) and masked_fill(mask == 0, fill)
            mask = 1 - blocked
            masked = last.masked_fill(mask[:, None] == 0, fill)
        else:  # "additive": a float attn_mask of 0 and fill, added to the scores
            mask = torch.zeros(B, S, Skv).masked_fill(blocked.bool(), fill)
            masked = last + mask[:, None]
        if sink_logit is not None:
            # the sink: one more logit per row, the LAST column, with no value
            sink = torch.full((B, H, S, 1), float(sink_logit))
            probs = torch.softmax(torch.cat([masked, sink], dim=-1), dim=-1)  # (B, H, S, S_kv + 1)
        else:
            probs = torch.softmax(masked, dim=-1)  # (B, H, S, S_kv)
        weights = probs[..., :Skv]
        if sink_logit is not None:
            variant["sinkWeights"] = probs[..., Skv]  # (B, H, S)
        rng_before_dropout = torch.get_rng_state()
        if "seed" in config.get("dropout", {}) and 0 < p < 1:
            torch.manual_seed(config["dropout"]["seed"])
        dropout = nn.Dropout(p)
        dropout.train()
        dropped = dropout(probs)[..., :Skv]  # with a sink, dropout draws over S_kv + 1 columns per row
        averaged = dropped.sum(dim=1) / H  # (B, S, S_kv): MHA's average_attn_weights=True
        context = dropped @ v  # (B, H, S, dk)
        concat = context.transpose(1, 2).contiguous().view(B, S, D)
        output = concat @ w["W_O"] + w.get("b_O", 0) if out_proj else concat

    tensors = {"X": X}
    if cross:
        tensors["X_context"] = Xc
    for n in WEIGHT_NAMES:
        if n in w and n in names:
            tensors[n] = w[n]
    pre_scores = ("Q_norm", "K_norm", "ropeAngles", "Q_rope", "K_rope")
    tensors.update(Q=Q, K=K, V=V, **{n: t for n, t in variant.items() if n in pre_scores},
                   scores=scores, scaled=scaled,
                   **{n: variant[n] for n in ("capped", "alibiBias", "biased") if n in variant},
                   mask=mask, masked=masked, weights=weights,
                   **({"sinkWeights": variant["sinkWeights"]} if "sinkWeights" in variant else {}),
                   dropped=dropped, averagedWeights=averaged, context=context, concat=concat, output=output)

    plain_scores = not (qk_norm or rope_style != "none" or softcap is not None or alibi)
    mha_sink = sink_logit is None or sink_logit == 0  # add_zero_attn is the zero sink
    if mha is not None and not values and not additive and convention == "blocked" and plain_scores and mha_sink:
        attn_mask = blocked_positions(1, S, Skv, "causal" in mask_kind.split("+"), window, sink_tokens, None)[0].bool()
        checks.append(check_against_mha(mha, X, Xkv, attn_mask if attn_mask.any() else None, key_padding, Skv,
                                        p, config, tensors, out_proj, rng_before_dropout))
    expected = {
        "tokens": q_side[0] if q_side else [],
        "ids": ids,
        "vocab": vocab,
        "unknownTokens": unknown,
        "headDim": dk,
        "scaleFactor": factor,
        "tensors": {n: {"shape": list(t.shape), "data": [encode_number(x) for x in t.flatten().tolist()]}
                    for n, t in tensors.items()},
    }
    if c_side:
        expected["contextTokens"] = c_side[0]
        expected["contextIds"] = c_ids
    if keep is not None:
        keep.update(tensors=tensors, q=q, k=k, v=v, scaleFactor=factor, tokens=expected["tokens"], H_kv=KVH)
    return expected, checks


def check_meta_rope(q, written_out, angles):
    """Meta's complex-number RoPE equals the written-out interleaved form within float32 rounding."""
    worst = (rope_meta_complex(q, angles) - written_out).abs().max().item()
    assert worst < 1e-5, f"interleaved RoPE differs from Meta's torch.polar form by {worst}"
    return f"interleaved RoPE matches Meta's torch.polar / view_as_complex form (worst {worst:.2e})"


def check_grouping(k, H, KVH):
    """repeat_interleave (head h reads KV head h // (H // KVH)) is not .repeat (h reads h % KVH)."""
    right = k.repeat_interleave(H // KVH, dim=1)  # (B, H, S_kv, dk)
    wrong = k.repeat(1, H // KVH, 1, 1)
    assert torch.equal(right[:, 0], wrong[:, 0]) and not torch.equal(right, wrong), "repeat vs repeat_interleave"
    groups = [h // (H // KVH) for h in range(H)]
    assert all(torch.equal(right[:, h], k[:, g]) for h, g in enumerate(groups))
    return f"GQA {H} -> {KVH}: repeat_interleave groups {groups}, .repeat would give {[h % KVH for h in range(H)]}"


def check_alibi_slopes():
    """The slopes of the ALiBi paper: 8 heads 1/2 ... 1/256; 6 heads the 4 of 4, then 2 of 8's every other."""
    as_float32 = lambda exponents: torch.tensor([2.0 ** -e for e in exponents], dtype=torch.float32)
    assert torch.equal(alibi_slopes(8), as_float32(range(1, 9)))
    assert torch.equal(alibi_slopes(6), as_float32([2, 4, 6, 8, 1, 3]))
    assert torch.equal(alibi_slopes(12), as_float32([*range(1, 9), 0.5, 1.5, 2.5, 3.5]))


def check_against_mha(mha, X, Xkv, attn_mask, key_padding, Skv, p, config, tensors, out_proj,
                      rng_before_dropout):
    """Runs the real nn.MultiheadAttention forward on the same inputs, from the
    generator state the manual path's dropout started from, and puts its output
    (and, without dropout, its weights) into the fixture, after checking that
    the manual path agrees with it. With add_zero_attn=True (sinkLogit 0) its
    weights have S_kv + 1 columns: the last is the zero sink's."""
    torch.set_rng_state(rng_before_dropout)
    if "seed" in config.get("dropout", {}) and 0 < p < 1:
        torch.manual_seed(config["dropout"]["seed"])
    mha.dropout = p
    mha.train()
    state = torch.get_rng_state()
    with torch.no_grad():
        out, attn = mha(X, Xkv, Xkv, key_padding_mask=key_padding, attn_mask=attn_mask,
                        need_weights=True, average_attn_weights=False)
        torch.set_rng_state(state)  # the same dropout mask again, for the averaged weights
        out_again, averaged = mha(X, Xkv, Xkv, key_padding_mask=key_padding, attn_mask=attn_mask,
                                  need_weights=True)  # average_attn_weights=True, the default
    if mha.add_zero_attn:
        sink_weights, attn, averaged = attn[..., Skv], attn[..., :Skv], averaged[..., :Skv]
        if p == 0:
            worst_sink = (sink_weights - tensors["sinkWeights"]).abs().max().item()
            assert worst_sink < 1e-6, f"manual sink weights differ from add_zero_attn's by {worst_sink}"
            tensors["sinkWeights"] = sink_weights
    worst = (out - tensors["output"]).abs().max().item()
    assert worst < 1e-5, f"manual attention differs from nn.MultiheadAttention by {worst}"
    assert torch.equal(out, out_again)
    worst_averaged = (averaged - tensors["averagedWeights"]).abs().max().item()
    assert worst_averaged < 1e-6, f"manual averaged weights differ from nn.MultiheadAttention's by {worst_averaged}"
    assert out_proj
    tensors["output"] = out
    tensors["averagedWeights"] = averaged
    if p == 0:
        tensors["weights"] = attn
    return (f"nn.MultiheadAttention{'(add_zero_attn=True)' if mha.add_zero_attn else ''} output matches "
            f"the manual path (worst {worst:.2e}), "
            f"its averaged weights too (worst {worst_averaged:.2e})")


CONFIGS = [
    ("tutorial-once-upon", "The small tutorial case: torch.rand weights, scores / sqrt(dModel)",
     {"text": "Once upon a time there", "dModel": 4, "numHeads": 1, "seed": 123,
      "weights": {"init": "torch-rand", "seed": 123}, "scale": "d-model"}),
    ("defaults-bank", "Every default", {"text": "He sat by the bank of the river"}),
    ("cat-4-heads", "Four heads", {"text": "The cat that the dog chased was black", "numHeads": 4}),
    ("linear-qkv-bias", "nn.Linear with bias for Q, K, V",
     {"text": "the quick brown fox jumps", "dModel": 12, "numHeads": 3, "seed": 7,
      "weights": {"qkvBias": True}}),
    ("rand-per-head", "torch.rand, per-head layout",
     {"text": "a b c d", "dModel": 8, "numHeads": 2, "seed": 3,
      "weights": {"init": "torch-rand", "layout": "per-head"}}),
    ("linear-per-head-bias", "stacked single-head nn.Linear modules with bias",
     {"text": "one two three four five six", "dModel": 16, "numHeads": 4, "seed": 11,
      "weights": {"layout": "per-head", "qkvBias": True}}),
    ("identity-softmax-xxt-x", "softmax(X Xᵀ) X: identity weights, no scale, no output projection",
     {"text": "I love my cat", "dModel": 4, "numHeads": 1, "seed": 5,
      "weights": {"init": "identity", "outProj": False}, "scale": "none"}),
    ("mha", "nn.MultiheadAttention, checked against its forward",
     {"text": "attention is all you need", "dModel": 8, "numHeads": 2, "seed": 2,
      "weights": {"init": "torch-mha"}}),
    ("mha-padding-causal-dropout", "nn.MultiheadAttention with masks and dropout",
     {"texts": ["the cat sat on the mat", "dogs bark"], "dModel": 16, "numHeads": 4, "seed": 9,
      "weights": {"init": "torch-mha"}, "mask": "causal+padding", "dropout": {"p": 0.2, "seed": 4}}),
    ("mha-no-bias", "nn.MultiheadAttention(bias=False)",
     {"text": "no bias here at all", "dModel": 8, "numHeads": 4, "seed": 8,
      "weights": {"init": "torch-mha", "qkvBias": False}}),
    ("causal", "look-ahead mask", {"text": "I am a student of life", "mask": "causal", "seed": 1}),
    ("causal-fill-1e9", "look-ahead mask filled with -1e9",
     {"text": "I am a student of life", "mask": "causal", "maskFill": -1e9, "seed": 1}),
    ("padded-batch", "two sentences of unequal length with a padding mask",
     {"texts": ["the cat sat on the mat", "a dog ran"], "mask": "padding", "seed": 21}),
    ("padded-batch-causal", "causal + padding",
     {"texts": ["we were here", "they went home early today"], "mask": "causal+padding",
      "numHeads": 4, "seed": 22}),
    ("padded-no-mask", "padding without a mask: the pad keys are attended",
     {"texts": ["x y z w", "x"], "seed": 23}),
    ("dropout", "dropout p=0.1 drawn right after the weights",
     {"text": "dropout keeps some weights", "dropout": {"p": 0.1}, "seed": 31}),
    ("dropout-reseeded", "dropout p=0.5 with its own seed",
     {"text": "dropout keeps some weights", "dropout": {"p": 0.5, "seed": 7}, "seed": 31,
      "numHeads": 4}),
    ("dropout-one", "dropout p=1 zeroes everything and draws nothing",
     {"text": "all gone", "dropout": {"p": 1.0}, "seed": 2}),
    ("cross-attention", "queries from the decoder, keys/values from the encoder",
     {"text": "je suis étudiant", "contextText": "I am a student", "seed": 41, "dModel": 8,
      "numHeads": 2}),
    ("cross-attention-batch", "cross-attention over a padded batch with a padding mask",
     {"texts": ["wo ai ni", "ni hao"], "contextTexts": ["I love you so much", "hello"],
      "mask": "padding", "seed": 42, "dModel": 12, "numHeads": 3}),
    ("cross-causal", "cross-attention with a causal mask",
     {"text": "a b c d e", "contextText": "p q r", "mask": "causal", "maskFill": -1e9, "seed": 43}),
    ("maxlen-pad", "maxLen pads one sentence",
     {"text": "short one", "maxLen": 5, "mask": "padding", "seed": 51}),
    ("maxlen-truncate", "maxLen truncates",
     {"texts": ["this sentence is too long to keep", "short"], "maxLen": 4, "seed": 52}),
    ("positional", "sinusoidal positions added to the embeddings",
     {"text": "position matters in a sentence", "embedding": {"positional": "sinusoidal"},
      "dModel": 16, "numHeads": 2, "seed": 61}),
    ("positional-odd", "sinusoidal positions with an odd dModel",
     {"text": "odd sizes work too", "embedding": {"positional": "sinusoidal"}, "dModel": 5,
      "numHeads": 1, "seed": 62}),
    ("explicit-values", "every weight given: the weights stage draws nothing",
     {"text": "hand made weights", "dModel": 2, "numHeads": 1, "seed": 71,
      "weights": {"values": {"W_Q": [[1, 0], [0, 1]], "W_K": [[0.5, -1], [2, 0.25]],
                             "W_V": [[1, 2], [3, 4]], "W_O": [[0, 1], [1, 0]],
                             "b_O": [0.1, -0.2]}},
      "dropout": {"p": 0.3}}),
    ("explicit-partial", "one edited weight: the rest are drawn as usual",
     {"text": "edit one weight", "dModel": 4, "numHeads": 2, "seed": 72,
      "weights": {"values": {"W_Q": [[1, 0, 0, 0], [0, 2, 0, 0], [0, 0, 3, 0], [0, 0, 0, 4]]}},
      "dropout": {"p": 0.25}}),
    ("explicit-nulls", "edited single numbers: nulls keep the drawn values, so every draw stays put",
     {"text": "edit single numbers here", "dModel": 4, "numHeads": 2, "seed": 74,
      "embedding": {"values": [None, [None, 2.5, None, None], None, [0, 0, 0, 1]]},
      "weights": {"values": {"W_Q": [[None, None, None, None], [None, 1.5, None, None], None, None],
                             "b_O": [None, None, -3, None]}},
      "dropout": {"p": 0.2}}),
    ("explicit-embedding-vocab", "a given vocab and embedding table, with an unknown token",
     {"text": "the cat purrs", "vocab": ["<unk>", "the", "cat", "dog"], "dModel": 3, "numHeads": 1,
      "embedding": {"values": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]}, "seed": 73}),
    ("heads-8-dmodel-64", "eight heads, dModel 64, causal and dropout",
     {"text": "a longer sentence so that eight heads of size eight have something to do here",
      "dModel": 64, "numHeads": 8, "seed": 81, "mask": "causal", "dropout": {"p": 0.1}}),
    ("heads-1-dmodel-64-randn", "torch.randn input, one head of 64",
     {"input": {"randn": [2, 6, 64]}, "dModel": 64, "numHeads": 1, "seed": 82}),
    ("randn-cross", "torch.randn queries and context",
     {"input": {"randn": [1, 3, 8]}, "contextInput": {"randn": [1, 5, 8]}, "seed": 83}),
    ("scale-number", "a numeric scale like scaled_dot_product_attention(scale=0.25)",
     {"text": "scale me by a quarter", "scale": 0.25, "seed": 91}),
    ("weights-reseeded", "weights.seed re-seeds before the weights",
     {"text": "seeded twice", "seed": 92, "weights": {"seed": 5, "qkvBias": True}}),
    ("chinese", "Chinese tokens split on ASCII and full-width spaces",
     {"text": "我 爱 你\u3000我 爱 猫", "seed": 93, "dModel": 8, "numHeads": 2}),
    ("heads-2-dmodel-32", "two heads of 16 with padding",
     {"texts": ["attention lab reproduces pytorch", "exactly"], "dModel": 32, "numHeads": 2,
      "mask": "padding", "seed": 94, "weights": {"qkvBias": True}}),
    # torch.rand inputs: fewer and more than 16 numbers (torch.randn changes its kernel at 16).
    ("rand-input-small", "torch.rand(1, 3, 4) input: 12 numbers",
     {"input": {"rand": [1, 3, 4]}, "dModel": 4, "numHeads": 1, "seed": 101}),
    ("rand-input-large", "torch.rand(2, 5, 8) input: 80 numbers, causal",
     {"input": {"rand": [2, 5, 8]}, "mask": "causal", "seed": 102}),
    ("rand-cross", "torch.rand queries and context",
     {"input": {"rand": [1, 3, 8]}, "contextInput": {"rand": [1, 5, 8]}, "seed": 103}),
    ("rand-randn-cross", "torch.rand queries (15 numbers), torch.randn context (10 numbers)",
     {"input": {"rand": [1, 3, 5]}, "contextInput": {"randn": [1, 2, 5]}, "dModel": 5, "numHeads": 1,
      "seed": 104}),
    # The Annotated Transformer's clones(nn.Linear(d, d), 4).
    ("linear-clones", "one nn.Linear(D, D) deep-copied for Q, K, V and O",
     {"text": "the annotated transformer clones its linear layers", "weights": {"init": "torch-linear-clones"},
      "seed": 111}),
    ("linear-clones-no-bias", "cloned nn.Linear(D, D, bias=False), four heads, causal",
     {"text": "clones without a bias", "dModel": 16, "numHeads": 4, "mask": "causal", "seed": 112,
      "weights": {"init": "torch-linear-clones", "qkvBias": False}}),
    # Additive (Bahdanau) scores.
    ("additive-1-head", "additive scores, one head, no scale",
     {"text": "additive attention scores each pair", "dModel": 6, "numHeads": 1, "score": "additive",
      "additiveHidden": 5, "scale": "none", "seed": 121}),
    ("additive-2-heads-mask", "additive scores, two heads, causal + padding mask",
     {"texts": ["the decoder attends to the encoder", "short one"], "score": "additive", "scale": "none",
      "mask": "causal+padding", "seed": 122}),
    ("additive-mha-scaled", "additive scores after nn.MultiheadAttention's weights, scaled by 1/sqrt(dk)",
     {"text": "drawn after the module", "dModel": 8, "numHeads": 2, "score": "additive", "additiveHidden": 3,
      "weights": {"init": "torch-mha"}, "seed": 123}),
    ("additive-rand-cross", "additive scores in cross-attention with torch.rand weights and dropout",
     {"text": "query side", "contextText": "the keys and values side", "score": "additive",
      "additiveHidden": 4, "weights": {"init": "torch-rand"}, "dropout": {"p": 0.2}, "scale": "none",
      "seed": 124}),
    # nn.MultiheadAttention's averaged weights (every fixture has them; here after dropout).
    ("averaged-weights-dropout", "weights averaged over four heads after dropout",
     {"text": "average the heads after dropout", "numHeads": 4, "dropout": {"p": 0.3, "seed": 5},
      "seed": 131}),
    # Mask conventions.
    ("mask-keep", "1 = keep, masked_fill(mask == 0, -inf)",
     {"text": "keep what may be seen", "mask": "causal", "maskConvention": "keep", "seed": 141}),
    ("mask-keep-fill-1e9", "1 = keep with -1e9, padding",
     {"texts": ["a padded batch here", "short"], "mask": "padding", "maskConvention": "keep",
      "maskFill": -1e9, "seed": 142}),
    ("mask-additive", "a float mask of 0 and -inf added to the scores",
     {"text": "add the mask to the scores", "mask": "causal", "maskConvention": "additive", "seed": 143}),
    ("mask-additive-fill-1e10", "a float mask of 0 and -1e10, causal + padding",
     {"texts": ["scores plus a large negative number", "two words"], "mask": "causal+padding",
      "maskConvention": "additive", "maskFill": -1e10, "seed": 144}),
    ("mask-blocked-fill-1e10", "1 = blocked with -1e10",
     {"text": "blocked with minus ten billion", "mask": "causal", "maskFill": -1e10, "seed": 145}),
    # Tokenizers.
    ("tokenizer-auto-mixed", "tokenizer auto: Chinese characters alone, Latin runs together",
     {"text": "我爱NLP和AI", "seed": 151}),
    ("tokenizer-whitespace", "tokenizer whitespace: str.split()",
     {"text": "我爱 NLP 和 AI", "tokenizer": "whitespace", "seed": 152}),
    ("tokenizer-chars", "tokenizer chars: every non-whitespace character",
     {"text": "attn 注意", "tokenizer": "chars", "seed": 153}),
    ("tokens-pre-split", "pre-split tokens (a word segmenter's), padded",
     {"tokens": [["自然", "语言", "处理", "很", "有趣"], ["我", "爱", "你"]], "mask": "padding", "seed": 154}),
    ("tokens-cross", "pre-split queries and context tokens",
     {"tokens": [["我们", "学习"]], "contextTokens": [["注意力", "机制", "很", "重要"]], "seed": 155}),
    ("chinese-punctuation", "Chinese with full-width punctuation, tokenizer auto",
     {"text": "你好，世界！我爱学习。", "seed": 156}),
    ("japanese-kana", "Japanese kana and kanji, tokenizer auto",
     {"text": "私はコーヒーが好きです。", "seed": 157}),
    ("korean", "Korean Hangul syllables, tokenizer auto",
     {"text": "나는 학생입니다", "seed": 158}),
    # Modern variants (issue 12), each alone, then together.
    ("qk-norm", "QK-norm: RMSNorm of each head's q and k (eps 1e-6, weight ones)",
     {"text": "normalise each head of queries and keys", "dModel": 8, "numHeads": 2, "qkNorm": True,
      "seed": 201}),
    ("rope-rotate-half", "RoPE rotate-half (Hugging Face / GPT-NeoX), causal",
     {"text": "rotary positions turn each half of a head", "dModel": 8, "numHeads": 2,
      "rope": {"style": "rotate-half"}, "mask": "causal", "seed": 202}),
    ("rope-interleaved", "RoPE interleaved (Meta): pairs (2i, 2i+1), head size 6",
     {"text": "rotary positions turn each pair of a head", "dModel": 12, "numHeads": 2,
      "rope": {"style": "interleaved"}, "seed": 203}),
    ("rope-interleaved-base-100", "RoPE interleaved with base 100, a padded batch",
     {"texts": ["a smaller base turns faster here", "short one"], "dModel": 16, "numHeads": 2,
      "rope": {"style": "interleaved", "base": 100}, "mask": "causal+padding", "seed": 204}),
    ("rope-rotate-half-base-500000", "RoPE rotate-half with Llama 3's base 500000, head size 8",
     {"text": "a larger base turns slower", "dModel": 16, "numHeads": 2,
      "rope": {"style": "rotate-half", "base": 500000}, "mask": "causal", "seed": 205}),
    ("gqa-4-to-2", "grouped-query attention, 4 query heads share 2 KV heads (repeat_interleave)",
     {"text": "four query heads share two key value heads", "dModel": 16, "numHeads": 4, "numKVHeads": 2,
      "mask": "causal", "seed": 206}),
    ("gqa-4-to-2-rand", "grouped-query attention 4 -> 2 with torch.rand weights",
     {"text": "rand weights for grouped heads", "dModel": 8, "numHeads": 4, "numKVHeads": 2,
      "weights": {"init": "torch-rand"}, "seed": 207}),
    ("gqa-4-to-2-bias-dropout", "grouped-query attention 4 -> 2, biases, dropout, a padded batch",
     {"texts": ["grouped heads with a bias and dropout", "two words"], "dModel": 16, "numHeads": 4,
      "numKVHeads": 2, "weights": {"qkvBias": True}, "mask": "padding", "dropout": {"p": 0.2}, "seed": 208}),
    ("gqa-identity", "grouped-query attention 4 -> 2 with identity weights: W_K = eye(D)[:, :KVH·dk]",
     {"text": "identity keys keep eight columns", "dModel": 16, "numHeads": 4, "numKVHeads": 2,
      "weights": {"init": "identity"}, "seed": 209}),
    ("mqa", "multi-query attention: 4 query heads, 1 KV head",
     {"text": "every query head reads the same keys", "dModel": 16, "numHeads": 4, "numKVHeads": 1,
      "mask": "causal", "seed": 210}),
    ("mqa-cross", "multi-query cross-attention",
     {"text": "je suis étudiant", "contextText": "I am a student of life", "dModel": 8, "numHeads": 2,
      "numKVHeads": 1, "seed": 211}),
    ("window", "sliding window 3 with the causal mask (Mistral)",
     {"text": "each token sees itself and the two before it", "mask": "causal", "window": 3, "seed": 212}),
    ("window-sinks", "sliding window 3 and 2 sink tokens (StreamingLLM)",
     {"text": "the first two tokens stay visible to every later query", "mask": "causal", "window": 3,
      "sinkTokens": 2, "seed": 213}),
    ("window-padding-keep", "window 2 with causal + padding, 1 = keep, -1e9",
     {"texts": ["a window over a padded batch of words", "short"], "mask": "causal+padding", "window": 2,
      "maskConvention": "keep", "maskFill": -1e9, "seed": 214}),
    ("window-sinks-additive", "window 2 and 1 sink as an additive float mask",
     {"text": "an additive mask with a window and a sink", "mask": "causal", "window": 2, "sinkTokens": 1,
      "maskConvention": "additive", "seed": 215}),
    ("sink-logit-zero-mha", "sinkLogit 0 = nn.MultiheadAttention(add_zero_attn=True), checked against it",
     {"text": "a zero sink takes some weight", "dModel": 8, "numHeads": 2, "weights": {"init": "torch-mha"},
      "sinkLogit": 0, "mask": "causal", "seed": 216}),
    ("sink-logit-zero-mha-dropout", "add_zero_attn with dropout over S_kv + 1 columns, padded batch",
     {"texts": ["dropout draws over the sink column too", "a pad"], "dModel": 8, "numHeads": 2,
      "weights": {"init": "torch-mha"}, "sinkLogit": 0, "mask": "causal+padding", "dropout": {"p": 0.3},
      "seed": 217}),
    ("sink-logit-nonzero", "a sink logit of 1.5: the rows sum to less than 1",
     {"text": "the sink column soaks up weight", "sinkLogit": 1.5, "mask": "causal", "seed": 218}),
    ("sink-logit-negative-dropout", "a sink logit of -0.5 with dropout p 0.25 over S_kv + 1 columns",
     {"text": "negative sink with dropout", "sinkLogit": -0.5, "dropout": {"p": 0.25}, "numHeads": 4,
      "seed": 219}),
    ("alibi-8-heads", "ALiBi, 8 heads (a power of two): slopes 2^(-8h/8), causal",
     {"text": "linear biases replace position embeddings", "dModel": 16, "numHeads": 8, "alibi": True,
      "mask": "causal", "seed": 220}),
    ("alibi-6-heads", "ALiBi, 6 heads: the paper's rule for a non-power of two",
     {"text": "six heads take every other slope of eight", "dModel": 12, "numHeads": 6, "alibi": True,
      "mask": "causal", "seed": 221}),
    ("alibi-no-mask", "ALiBi without a mask: later keys get a positive bias",
     {"text": "bias both ways", "dModel": 8, "numHeads": 4, "alibi": True, "seed": 222}),
    ("softcap", "logit soft-capping at 0.5: 0.5·tanh(scaled / 0.5)",
     {"text": "cap the scaled scores", "softcap": 0.5, "seed": 223}),
    ("softcap-rand-causal", "soft-capping at 5 of large torch.rand scores, causal",
     {"text": "large scores are capped near five", "dModel": 16, "numHeads": 2, "softcap": 5,
      "weights": {"init": "torch-rand"}, "mask": "causal", "seed": 224}),
    ("softcap-alibi", "softcap 2 then the ALiBi bias",
     {"text": "cap first then add the bias", "dModel": 8, "numHeads": 2, "softcap": 2, "alibi": True,
      "mask": "causal", "seed": 225}),
    ("qknorm-rope-gqa-softcap-alibi", "QK-norm, RoPE rotate-half, GQA 4 -> 2, softcap 3, ALiBi together",
     {"text": "every modern variant at once in one sentence", "dModel": 16, "numHeads": 4, "numKVHeads": 2,
      "qkNorm": True, "rope": {"style": "rotate-half"}, "softcap": 3, "alibi": True, "mask": "causal",
      "seed": 226}),
    ("llama-like", "Llama-like: RoPE rotate-half, GQA 8 -> 2, causal",
     {"text": "the llama reads one token at a time", "dModel": 16, "numHeads": 8, "numKVHeads": 2,
      "rope": {"style": "rotate-half"}, "mask": "causal", "seed": 227}),
    ("mistral-like", "Mistral-like: window 4, GQA 4 -> 2, RoPE, causal",
     {"text": "a sliding window over grouped heads moves along", "dModel": 16, "numHeads": 4,
      "numKVHeads": 2, "rope": {"style": "rotate-half"}, "window": 4, "mask": "causal", "seed": 228}),
    ("all-variants-dropout", "every variant: QK-norm, interleaved RoPE, MQA, softcap, ALiBi, window, "
     "sinks, a sink logit and dropout, a padded batch",
     {"texts": ["all of the variants work together in one run", "and a short one"], "dModel": 16,
      "numHeads": 4, "numKVHeads": 1, "qkNorm": True, "rope": {"style": "interleaved", "base": 1000},
      "softcap": 4, "alibi": True, "window": 3, "sinkTokens": 1, "sinkLogit": 0.5,
      "mask": "causal+padding", "dropout": {"p": 0.2, "seed": 3}, "seed": 229}),
]


def random_fixture():
    """Raw generator output for the C++ generator test."""
    out = {}

    def put(name, t):
        out[name] = t.flatten().tolist()

    for seed in (0, 123):
        torch.manual_seed(seed)
        put(f"rand_{seed}_37", torch.rand(37))
        for size in (5, 15, 16, 17, 100):
            torch.manual_seed(seed)
            put(f"rand_{seed}_{size}", torch.rand(size))
        torch.manual_seed(seed)
        put(f"rand_{seed}_2_3_4", torch.rand(2, 3, 4))
        torch.manual_seed(seed)
        put(f"randn_{seed}_5_3_7", torch.cat([torch.randn(5), torch.randn(3), torch.randn(7)]))
        torch.manual_seed(seed)
        put(f"randn_{seed}_37", torch.randn(37))
        torch.manual_seed(seed)
        put(f"randn_{seed}_1000", torch.randn(1000))
        torch.manual_seed(seed)
        lin = nn.Linear(7, 5)
        put(f"linear_{seed}_7_5", torch.cat([lin.weight.detach().flatten(), lin.bias.detach()]))
        torch.manual_seed(seed)
        w = torch.empty(24, 8)
        nn.init.xavier_uniform_(w)
        put(f"xavier_{seed}_24_8", w)
        torch.manual_seed(seed)
        put(f"bernoulli_{seed}_0.7_200", torch.empty(200).bernoulli_(0.7))
        torch.manual_seed(seed)
        put(f"dropout_{seed}_0.3_200", nn.Dropout(0.3)(torch.ones(200)))
    return out


# -------------------------------------------------------------- steppers ----
# The KV-cache and FlashAttention references (fixtures/steppers/<name>.json, listed in
# fixtures/steppers/index.json; the generic fixture runners do not read them). Each file:
#   {"name", "description", "kind": "decode" | "flash", "config": <engine config>,
#    "options": {"batch"} (decode) | {"batch", "head", "tileQueries", "tileKeys"} (flash),
#    "expected": {...}}
# Arrays are {"shape": [...], "data": [flat, row-major]}; NaN / ±Infinity as strings, as above.
# decode (lab.decode(config, options)), one sentence `batch` of a causal self-attention run:
#   tokens, sizes {S, H, H_kv, headDim, D},
#   newKeys, newValues [S, H_kv, dk]: k_t and v_t after QK-norm and RoPE, from x_t @ W_K + b_K alone
#   scores  [S, H, S]: step t's q_t · k_j (unscaled) over the cache j <= t; NaN for j > t
#   weights [S, H, S]: step t's softmax over its t + 1 keys (scaled, capped, ALiBi, window/sinks
#                      mask, sink column included in the softmax); NaN for j > t
#   fullWeights [S, H, S]: the full run's weights (all queries at once), rows = queries
#   identicalRows, rows: rows of `weights` bit-identical to fullWeights in PyTorch (for information:
#                      another implementation's float order may differ)
#   isCausalOneQuery [S, S]: head 0, step t with the top-left aligned is_causal mask on one query,
#                      torch.ones(1, t + 1).tril() (what is_causal=True builds): key 0 only; NaN for j > t
#   cacheBytes {mha, gqa, mqa}: at length t + 1, 2 · (t + 1) · heads · dk · 4, heads H, H_kv, 1
# flash (lab.flash(config, options)), one head of one sentence, no dropout and no sink logit:
#   tiles [{queryStart, queryEnd, keyStart, keyEnd, skipped}]: query tiles outer, key tiles inner;
#          skipped: the mask blocks every (query, key) of the tile, which is then not computed
#   runningMax, runningSum, rescale [T, tileQueries]: m, ℓ after tile t and α = exp(m_old - m_new)
#          applied in it, per row of its query tile; NaN past S. α is 0 when m_old = -inf and 1 in a
#          skipped tile (nothing is rescaled); a row whose logits so far are all -inf keeps m = -inf,
#          ℓ = 0 (its p = exp(-inf - m) is taken as 0)
#   partialOutput [T, tileQueries, dk]: the unnormalised O after tile t (NaN past S)
#   output [S, dk]: O / ℓ;  plain [S, dk]: softmax(masked) @ v, the head's context
#   maxAbsDifference, identical, total: |output - plain| in PyTorch and its bit-identical count
def decode_reference(config, batch):
    """The token-by-token decode loop with a KV cache, written as a tutorial would."""
    keep = {}
    reference(config, keep)
    t_ = keep["tensors"]
    H, H_kv = config.get("numHeads", 2), keep["H_kv"]
    X = t_["X"][batch]  # (S, D)
    S, D = X.shape
    dk = D // H
    rope = config.get("rope", {})
    window, sink_tokens = config.get("window"), config.get("sinkTokens", 0)
    sink_logit, softcap = config.get("sinkLogit"), config.get("softcap")
    angles = rope_angles(S, dk, float(rope.get("base", 10000))) if rope.get("style", "none") != "none" else None
    rotate = rope_rotate_half if rope.get("style") == "rotate-half" else rope_interleaved
    slopes = alibi_slopes(H) if config.get("alibi") else None
    nan = float("nan")
    new_keys, new_values = torch.full((S, H_kv, dk), nan), torch.full((S, H_kv, dk), nan)
    scores_out, weights_out = torch.full((S, H, S), nan), torch.full((S, H, S), nan)
    one_query = torch.full((S, S), nan)
    k_cache = torch.zeros(H_kv, 0, dk)  # (H_kv, t, dk)
    v_cache = torch.zeros(H_kv, 0, dk)
    proj = lambda x, n: x @ t_["W_" + n] + t_["b_" + n] if "b_" + n in t_ else x @ t_["W_" + n]

    def heads(x, n):  # (1, n·dk) -> (n, 1, dk)
        return x.view(1, n, dk).transpose(0, 1)

    with torch.no_grad():
        for t in range(S):
            x_t = X[t:t + 1]  # (1, D): the newest token only
            q_t, k_t, v_t = heads(proj(x_t, "Q"), H), heads(proj(x_t, "K"), H_kv), heads(proj(x_t, "V"), H_kv)
            if config.get("qkNorm"):
                q_t, k_t = rms_norm_heads(q_t), rms_norm_heads(k_t)
            if angles is not None:
                q_t, k_t = rotate(q_t, angles[t:t + 1]), rotate(k_t, angles[t:t + 1])
            k_cache = torch.cat([k_cache, k_t], dim=1)  # (H_kv, t + 1, dk)
            v_cache = torch.cat([v_cache, v_t], dim=1)
            new_keys[t], new_values[t] = k_t[:, 0], v_t[:, 0]
            keys = k_cache.repeat_interleave(H // H_kv, dim=0)  # (H, t + 1, dk)
            values = v_cache.repeat_interleave(H // H_kv, dim=0)
            scores = q_t @ keys.transpose(-2, -1)  # (H, 1, t + 1)
            logits = scores * keep["scaleFactor"] if config.get("scale", "head-dim") != "head-dim" \
                else scores / math.sqrt(dk)
            if softcap is not None:
                logits = softcap * torch.tanh(logits / softcap)
            distance = (t - torch.arange(t + 1)).float()  # (t + 1,)
            if slopes is not None:
                logits = logits + (-slopes[:, None, None] * distance)

            def softmax_with_sink(blocked):
                row = logits.masked_fill(blocked, float("-inf"))
                if sink_logit is not None:
                    row = torch.cat([row, torch.full((H, 1, 1), float(sink_logit))], dim=-1)
                return torch.softmax(row, dim=-1)[..., :t + 1]

            j = torch.arange(t + 1)
            blocked = (t - j >= window) & (j >= sink_tokens) if window is not None else torch.zeros(t + 1).bool()
            scores_out[t, :, :t + 1] = scores[:, 0]
            weights_out[t, :, :t + 1] = softmax_with_sink(blocked)[:, 0]
            top_left = torch.ones(1, t + 1).tril() == 0  # is_causal=True on one query: j > 0 blocked
            one_query[t, :t + 1] = softmax_with_sink(top_left[0])[0, 0]
    full = t_["weights"][batch].transpose(0, 1)  # (S, H, S)
    decoded = torch.nan_to_num(weights_out, nan=0.0)
    identical = sum(torch.equal(decoded[t, h], full[t, h]) for t in range(S) for h in range(H))
    worst = (decoded - full).abs().max().item()
    cache = lambda heads_: [2 * (t + 1) * heads_ * dk * 4 for t in range(S)]
    expected = {
        "tokens": keep["tokens"][batch],
        "sizes": {"S": S, "H": H, "H_kv": H_kv, "headDim": dk, "D": D},
        "newKeys": new_keys, "newValues": new_values, "scores": scores_out, "weights": weights_out,
        "fullWeights": full, "identicalRows": identical, "rows": S * H, "isCausalOneQuery": one_query,
        "cacheBytes": {"mha": cache(H), "gqa": cache(H_kv), "mqa": cache(1)},
    }
    assert worst < 1e-6, f"the decode loop differs from the full causal run by {worst}"
    assert torch.equal(one_query[:, 0], torch.ones(S)) or sink_logit is not None
    return expected, f"decode rows vs the full run: worst {worst:.2e}, {identical}/{S * H} rows bit-identical"


def flash_reference(config, batch, head, tile_queries, tile_keys):
    """FlashAttention-2's loop for one head: query tiles outer, key tiles inner, the online softmax."""
    keep = {}
    reference(config, keep)
    t_ = keep["tensors"]
    q, k, v = keep["q"][batch, head], keep["k"][batch, head], keep["v"][batch, head]  # (S, dk), (S_kv, dk) twice
    S, dk = q.shape
    Skv = k.shape[0]
    H = config.get("numHeads", 2)
    softcap = config.get("softcap")
    bias = t_["alibiBias"][head] if "alibiBias" in t_ else torch.zeros(S, Skv)
    convention = config.get("maskConvention", "blocked")
    mask = t_["mask"][batch]  # (S, S_kv) in the config's convention
    blocked = {"blocked": mask == 1, "keep": mask == 0}.get(convention, mask != 0)
    fill = config.get("maskFill", "-inf")
    fill = float("-inf") if fill == "-inf" else float(fill)
    nan, neg_inf = float("nan"), float("-inf")
    tiles, m_rows, l_rows, a_rows, o_rows = [], [], [], [], []
    output = torch.zeros(S, dk)
    with torch.no_grad():
        for qs in range(0, S, tile_queries):
            qe = min(qs + tile_queries, S)
            m = torch.full((qe - qs,), neg_inf)  # running max
            l = torch.zeros(qe - qs)  # running sum
            O = torch.zeros(qe - qs, dk)  # unnormalised output
            for ks in range(0, Skv, tile_keys):
                ke = min(ks + tile_keys, Skv)
                tile_blocked = blocked[qs:qe, ks:ke]
                skipped = bool(tile_blocked.all())
                alpha = torch.ones(qe - qs)
                if not skipped:
                    logits = (q[qs:qe] @ k[ks:ke].T) * keep["scaleFactor"]  # (Br, Bc)
                    if softcap is not None:
                        logits = softcap * torch.tanh(logits / softcap)
                    logits = logits + bias[qs:qe, ks:ke]
                    if convention == "additive":
                        logits = logits + mask[qs:qe, ks:ke]
                    else:
                        logits = logits.masked_fill(tile_blocked, fill)
                    m_new = torch.maximum(m, logits.max(dim=-1).values)
                    alpha = torch.where(m == neg_inf, torch.zeros(()), torch.exp(m - m_new))
                    p = torch.where(logits == neg_inf, torch.zeros(()), torch.exp(logits - m_new[:, None]))
                    l = alpha * l + p.sum(dim=-1)
                    O = alpha[:, None] * O + p @ v[ks:ke]
                    m = m_new
                tiles.append({"queryStart": qs, "queryEnd": qe, "keyStart": ks, "keyEnd": ke, "skipped": skipped})
                pad = tile_queries - (qe - qs)
                m_rows.append(torch.cat([m, torch.full((pad,), nan)]))
                l_rows.append(torch.cat([l, torch.full((pad,), nan)]))
                a_rows.append(torch.cat([alpha, torch.full((pad,), nan)]))
                o_rows.append(torch.cat([O, torch.full((pad, dk), nan)]))
            output[qs:qe] = O / l[:, None]
    plain = t_["context"][batch, head]  # softmax(masked) @ v, no dropout
    assert config.get("dropout", {}).get("p", 0) == 0 and config.get("sinkLogit") is None
    worst = (output - plain).abs().max().item()
    assert worst < 1e-5, f"the online softmax differs from the plain one by {worst}"
    identical = int((output == plain).sum())
    expected = {
        "tiles": tiles, "runningMax": torch.stack(m_rows), "runningSum": torch.stack(l_rows),
        "rescale": torch.stack(a_rows), "partialOutput": torch.stack(o_rows), "output": output, "plain": plain,
        "maxAbsDifference": worst, "identical": identical, "total": output.numel(),
    }
    return expected, (f"online softmax {tile_queries}x{tile_keys} vs plain: worst {worst:.2e}, "
                      f"{identical}/{output.numel()} bit-identical")


def encode_stepper(value):
    """Tensors as {shape, data}; everything else as it is."""
    if isinstance(value, torch.Tensor):
        return {"shape": list(value.shape), "data": [encode_number(x) for x in value.flatten().tolist()]}
    if isinstance(value, dict):
        return {n: encode_stepper(x) for n, x in value.items()}
    return value


STEPPER_CONFIGS = [
    ("decode-causal", "decode", "token by token, four heads, causal", {"batch": 0},
     {"text": "the cache grows by one key and value each step", "numHeads": 4, "mask": "causal", "seed": 301}),
    ("decode-llama", "decode", "token by token with RoPE rotate-half and GQA 8 -> 2", {"batch": 0},
     {"text": "the llama reads one token at a time", "dModel": 16, "numHeads": 8, "numKVHeads": 2,
      "rope": {"style": "rotate-half"}, "mask": "causal", "seed": 302}),
    ("decode-streaming-batch-1", "decode", "sentence 1 of a batch: window 3, 1 sink token, a sink logit, "
     "MQA, QK-norm, interleaved RoPE, softcap and ALiBi", {"batch": 1},
     {"texts": ["every variant in a cached decode", "the second one decodes here"], "dModel": 8,
      "numHeads": 2, "numKVHeads": 1, "qkNorm": True, "rope": {"style": "interleaved"}, "softcap": 3,
      "alibi": True, "window": 3, "sinkTokens": 1, "sinkLogit": 0, "mask": "causal", "seed": 303}),
    ("flash-causal-2x2", "flash", "online softmax, tiles of 2 queries x 2 keys, causal",
     {"batch": 0, "head": 1, "tileQueries": 2, "tileKeys": 2},
     {"text": "a tiled softmax over seven tokens", "numHeads": 2, "mask": "causal", "seed": 311}),
    ("flash-causal-3x4", "flash", "online softmax, tiles of 3 queries x 4 keys, causal",
     {"batch": 0, "head": 1, "tileQueries": 3, "tileKeys": 4},
     {"text": "a tiled softmax over seven tokens", "numHeads": 2, "mask": "causal", "seed": 311}),
    ("flash-no-mask-2x3", "flash", "online softmax, 2 x 3 tiles, no mask, torch.rand weights",
     {"batch": 0, "head": 0, "tileQueries": 2, "tileKeys": 3},
     {"text": "large scores make the running max move", "dModel": 8, "numHeads": 2,
      "weights": {"init": "torch-rand"}, "seed": 312}),
    ("flash-window-2x2", "flash", "online softmax with a window of 2: skipped tiles and rows with no key yet",
     {"batch": 0, "head": 0, "tileQueries": 2, "tileKeys": 2},
     {"text": "a window leaves tiles with nothing to see", "numHeads": 2, "mask": "causal", "window": 2,
      "seed": 313}),
    ("flash-window-3x2", "flash", "online softmax with a window of 2, 3 x 2 tiles",
     {"batch": 0, "head": 0, "tileQueries": 3, "tileKeys": 2},
     {"text": "a window leaves tiles with nothing to see", "numHeads": 2, "mask": "causal", "window": 2,
      "seed": 313}),
    ("flash-gqa-softcap-alibi-4x4", "flash", "online softmax of a GQA head with softcap and ALiBi, 4 x 4 tiles",
     {"batch": 1, "head": 3, "tileQueries": 4, "tileKeys": 4},
     {"texts": ["grouped heads with capped and biased logits", "a padded second sentence"], "dModel": 16,
      "numHeads": 4, "numKVHeads": 2, "softcap": 5, "alibi": True, "rope": {"style": "rotate-half"},
      "mask": "causal+padding", "seed": 314}),
]


def write_steppers():
    out_dir = os.path.join(OUT, "steppers")
    os.makedirs(out_dir, exist_ok=True)
    lines, names = [], []
    for name, kind, description, options, config in STEPPER_CONFIGS:
        if kind == "decode":
            expected, line = decode_reference(config, options["batch"])
        else:
            expected, line = flash_reference(config, options["batch"], options["head"], options["tileQueries"],
                                             options["tileKeys"])
        write_fixture(os.path.join(out_dir, name + ".json"),
                      {"name": name, "description": description, "kind": kind, "config": config,
                       "options": options, "expected": encode_stepper(expected)})
        names.append(name)
        lines.append(f"{name}: {line}")
    write_index(out_dir, names)
    return lines


PROGRAMS = os.path.join(HERE, "programs")


def run_programs():
    """Runs every tutorial program in programs/ (not the _helpers) and writes
    fixtures/programs/<program>.json: the tensors it saved and what it printed."""
    out_dir = os.path.join(OUT, "programs")
    os.makedirs(out_dir, exist_ok=True)
    names = sorted(f[:-3] for f in os.listdir(PROGRAMS) if f.endswith(".py") and not f.startswith("_"))
    for name in names:
        path = os.path.join(out_dir, name + ".json")
        env = dict(os.environ, ATTENTION_LAB_FIXTURE=path, OMP_NUM_THREADS="1")
        run = subprocess.run([sys.executable, name + ".py"], cwd=PROGRAMS, env=env, capture_output=True,
                             text=True, check=False)
        if run.returncode != 0:
            raise RuntimeError(f"programs/{name}.py failed:\n{run.stderr}")
        with open(path) as f:
            saved = json.load(f)
        write_fixture(path, {"program": f"tests/reference/programs/{name}.py", "printed": run.stdout,
                             "tensors": saved["tensors"]})
    write_index(out_dir, names)
    return names


def main():
    os.makedirs(OUT, exist_ok=True)
    assert torch.__version__.startswith("1.13"), f"use Debian's PyTorch 1.13, not {torch.__version__}"
    check_alibi_slopes()
    worst_mha = []
    index = []
    for name, description, config in CONFIGS:
        expected, checks = reference(config)
        worst_mha += [f"{name}: {line}" for line in checks]
        write_fixture(os.path.join(OUT, name + ".json"),
                      {"name": name, "description": description, "config": config, "expected": expected})
        index.append(name)
    write_index(OUT, index)
    with open(os.path.join(OUT, "random.json"), "w") as f:
        json.dump(random_fixture(), f)
        f.write("\n")
    programs = run_programs()
    worst_mha += write_steppers()
    print(f"wrote {len(index)} attention fixtures and random.json to {OUT}")
    print(f"ran {len(programs)} tutorial programs into {os.path.join(OUT, 'programs')}")
    for line in worst_mha:
        print(" ", line)


if __name__ == "__main__":
    sys.exit(main())
