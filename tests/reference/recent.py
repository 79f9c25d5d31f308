#!/usr/bin/python3
"""Writes the PyTorch reference fixtures of five recent attention variants, which the engine does not run yet.

    /usr/bin/python3 tests/reference/recent.py

Writes tests/reference/fixtures/recent/<name>.json and index.json: {name, description, config, expected},
expected as generate.py's (tokens, ids, vocab, unknownTokens, headDim, scaleFactor, tensors {name: {shape,
data}}, numbers through encode_number), plus a few numbers of the variant. No test reads this folder yet.

Every case runs generate.py's reference() on the config without its new fields (the "base" config), so the
tokens, embeddings, X, the Q/K/V/O draws, the masks, padding and dropout are generate.py's; the new stages
are in recent_ops.py, written from their upstream sources (named there). The masks keep generate.py's
conventions (maskConvention, maskFill) where the upstream code adds a float mask. The config fields:

  sinkLogit: [s_0, ..., s_{H-1}]   learned per-head sinks (gpt-oss): a number stays generate.py's scalar sink.
      transformers' gpt_oss eager_attention_forward: the sinks as the last column, the row max subtracted
      (combined - combined.max(-1)), softmax, the sink column dropped; dropout then draws over the S_kv
      columns only, where generate.py's scalar sink draws over S_kv + 1 (the one difference in the
      numbers; the explicit max subtraction gives the same float32 weights as softmax's own: printed).
  rope.scaling: {type: "linear" | "dynamic" | "yarn", factor, originalMaxPositions, betaFast, betaSlow, truncate}
      transformers' modeling_rope_utils.py on the head size dk and rope.base: linear inv_freq / factor;
      dynamic NTK with seq_len = S, the padded length, recomputed (float32 tensor arithmetic) only when
      S > originalMaxPositions (its max_position_embeddings); YaRN with original_max_position_embeddings =
      originalMaxPositions, betas 32 / 1 when not given, truncate (true unless given false, as gpt-oss gives it:
      then the correction range's ends are not floored and ceiled), attention factor 0.1·ln(factor) + 1
      multiplying cos and sin (both RoPE styles), as the issue writes it. transformers' get_mscale returns 1
      for factor <= 1 instead; the two agree at factor 1 (ln 1 = 0) and a YaRN factor below 1 is refused, so
      no fixture depends on the difference. Extra tensors: ropeInvFreqBase, ropeInvFreq (the frequencies
      before and after), ropeAttentionFactor (float32, shape []), and ropeExtrapolationFactor (yarn: 0 where
      a frequency is interpolated, 1 where extrapolated) or ropeNtkBase (dynamic); expected.ropeScaling holds
      the numbers.
  diff: {depth}   differential attention (unilm Diff-Transformer multihead_diffattn.py): numHeads = H heads
      of width dk = dModel / H, each split into two query/key half-heads of d = dModel / H / 2: head h is the
      consecutive pair 2h, 2h + 1 of the 2·H view (its columns [0, d) and [d, 2d)), the value the whole 2d;
      2H softmaxes of (q·d^-0.5)·kᵀ (halfWeights [B, 2H, S, S_kv]), λ = exp(Σ λq1·λk1) - exp(Σ λq2·λk2) + λ_init,
      λ_init = 0.8 - 0.6·exp(-0.3·depth),
      weights A = softmax_1 - λ·softmax_2 [B, H, S, S_kv], context A·V over the whole head (2d),
      RMSNorm(eps 1e-5, weight subln [2d]) times (1 - λ_init), then W_O (and b_O when the init draws one).
      Left out: unilm's forward also rotates q and k (interleaved RoPE per half-head, rel_pos), which the
      issue does not describe, so diff refuses rope.style; and grouped heads, since unilm's repeat_kv over
      the 2·KVH half-heads gives both half-heads of a query head the same key half-head when H / KVH >= 2.
  outputGate: true   (Qwen3-Next): concat ⊙ sigmoid(X·W_G) before W_O, W_G [dModel, dModel], no bias.
  mla: {kvRank, nopeDim, ropeDim, valueDim, absorb}   DeepSeek-V3 inference/model.py MLA, q_lora_rank 0, with
      the issue's seven weights (x·W convention, no biases): W_Q [dModel, H·(nopeDim + ropeDim)],
      W_DKV [dModel, kvRank], kv_norm [kvRank] (RMSNorm eps 1e-6), W_UK [kvRank, H·nopeDim],
      W_UV [kvRank, H·valueDim], W_KR [dModel, ropeDim], W_O [H·valueDim, dModel]. They are the columns of
      model.py's fused wkv_a and wkv_b (below), fused back in recent_ops.mla_forward so its lines stay model.py's;
      a check recomputes both paths from the seven weights with the issue's formulas (c = RMSNorm(X·W_DKV),
      k_nope = c·W_UK, v = c·W_UV, k_rope = RoPE(X·W_KR), (q_nope·k_nope + q_rope·k_rope) / √(nopeDim + ropeDim)).
      RoPE: the issue rotates the rope part of q and the one shared k_rope, so mla needs rope.style (refused
      without one); "interleaved" (pairs 2i, 2i + 1) is DeepSeek's apply_rotary_emb, the style of every case
      but mla-naive-padded-keep, which takes "rotate-half" (pairs i, i + ropeDim/2 of the rope part), the
      config's other style; the angles are generate.py's on ropeDim with rope.base. absorb false = the naive
      path, true = the absorbed one (q_nope·W_UKᵀ against the cached c, the weighted sum of c through W_UV);
      both are run and must agree. Tensors: latent = X·W_DKV, latentNorm = c, K_pe = X·W_KR, Q_pe_rope and
      K_pe_rope the rotated rope parts, K and V (naive) or Q_absorbed and latentContext (absorbed), weights
      [B, H, S, S_kv]. expected.mla.cachePerToken: kvRank + ropeDim (absorbed) vs 2·H·dk with dk = dModel / H
      (MHA at the same dModel); cachePerTokenDeepSeekV3 the real-size line, 512 + 64 = 576 against
      2·128·128 = 32768 (128 heads of 128, DeepSeek-V3's nope and value head size).
Weights given in weights.values use the x·W convention (as generate.py's), nulls keeping the drawn numbers.
When not given, the new weights are drawn at the end of generate.py's weights stage (after everything
draw_weights draws: Q, K, V, their biases, the additive layers, W_O and b_O; after the inputs when every
base weight is given), in this order, before the dropout draw:
  W_G        nn.Linear(dModel, dModel, bias=False), W_G = linear.weight.T (torch.rand(dModel, dModel) for
             init "torch-rand", torch.eye(dModel) and no draw for "identity")
  lambda_q1  torch.zeros(d).normal_(mean=0, std=0.1) (d = dModel / H / 2; then lambda_k1, lambda_q2, lambda_k2,
             each the same call, unilm's order). Below 16 numbers normal_ is float32(double normal · 0.1),
             which is not always float32 randn · 0.1; from 16 numbers on it is float32 randn · 0.1
  lambda_k1  as lambda_q1, right after it
  lambda_q2  as lambda_q1, right after lambda_k1
  lambda_k2  as lambda_q1, right after lambda_q2
  subln      torch.ones(2d), no draw
  W_Q (mla)  nn.Linear(dModel, H·(nopeDim + ropeDim), bias=False).weight.T (wq); MLA draws its weights INSTEAD
             of the base Q/K/V/O (nothing else is drawn in the weights stage), in model.py's constructor order
             wq, wkv_a, kv_norm, wkv_b, wo, each fused weight drawn once and then split by columns:
  W_DKV      A = nn.Linear(dModel, kvRank + ropeDim, bias=False).weight.T [dModel, kvRank + ropeDim] (wkv_a),
             drawn after W_Q; W_DKV = A[:, 0:kvRank] (wkv_a.weight rows 0 .. kvRank - 1)
  W_KR       A[:, kvRank:kvRank + ropeDim] (wkv_a.weight rows kvRank .. kvRank + ropeDim - 1): model.py's
             `kv, k_pe = torch.split(self.wkv_a(x), [kv_lora_rank, qk_rope_head_dim], dim=-1)`
  kv_norm    torch.ones(kvRank), no draw
  W_UK       Bm = nn.Linear(kvRank, H·(nopeDim + valueDim), bias=False).weight.T [kvRank, H·(nopeDim + valueDim)]
             (wkv_b), drawn after wkv_a; per head h (model.py's view(..., H, nopeDim + valueDim) and split):
             W_UK[:, h·nopeDim + j] = Bm[:, h·(nopeDim + valueDim) + j] for 0 <= j < nopeDim
  W_UV       W_UV[:, h·valueDim + j] = Bm[:, h·(nopeDim + valueDim) + nopeDim + j] for 0 <= j < valueDim
  W_O (mla)  nn.Linear(H·valueDim, dModel, bias=False).weight.T (wo), after wkv_b
The new weights are drawn unless every one of them is given in full (generate.py's all-or-nothing rule), so
editing one number leaves every draw where it was. Dropout: the sinks, RoPE scaling and output gate cases
draw it as generate.py does, after the new weights (p, and dropout.seed re-seeding first when 0 < p < 1);
multihead_diffattn.py and DeepSeek's MLA have no attention dropout, so diff and mla reject dropout.p > 0.
"""
import contextlib
import copy
import math
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch import nn  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate  # noqa: E402
import recent_ops as ops  # noqa: E402
from generate import encode_number, is_complete, override, reference, write_fixture, write_index  # noqa: E402

OUT = os.path.join(HERE, "fixtures", "recent")
GATE_WEIGHTS = ("W_G",)
DIFF_WEIGHTS = ("lambda_q1", "lambda_k1", "lambda_q2", "lambda_k2", "subln")
MLA_WEIGHTS = ("W_Q", "W_DKV", "kv_norm", "W_UK", "W_UV", "W_KR", "W_O")


# ------------------------------------------------------------------ config ----
def variant_of(config):
    """The new fields of a config."""
    sink = config.get("sinkLogit")
    return {"sinks": sink if isinstance(sink, list) else None,
            "scaling": config.get("rope", {}).get("scaling"),
            "diff": config.get("diff"),
            "gate": bool(config.get("outputGate", False)),
            "mla": config.get("mla")}


def new_weight_names(v):
    return GATE_WEIGHTS if v["gate"] else DIFF_WEIGHTS if v["diff"] else MLA_WEIGHTS if v["mla"] else ()


def validate(config, v):
    """What the references below define; anything else is refused rather than guessed."""
    D, H = config.get("dModel", 8), config.get("numHeads", 2)
    KVH = config.get("numKVHeads") or H
    p = config.get("dropout", {}).get("p", 0.0)
    cross = any(k in config for k in ("contextText", "contextTexts", "contextTokens", "contextInput"))
    rope = config.get("rope", {})
    if v["sinks"] is not None:
        assert len(v["sinks"]) == H, f"sinkLogit has {len(v['sinks'])} numbers for {H} heads"
    if v["scaling"] is not None:
        s = v["scaling"]
        assert rope.get("style", "none") != "none", "rope.scaling needs a rope.style"
        assert s.get("type") in ("linear", "dynamic", "yarn"), f"rope.scaling.type {s.get('type')}"
        assert s.get("factor", 0) > 0, "rope.scaling.factor must be positive"
        if s["type"] != "linear":
            assert s.get("originalMaxPositions", 0) > 0, f"{s['type']} needs originalMaxPositions"
        if s["type"] == "yarn":  # where the issue's 0.1·ln(factor) + 1 and transformers' get_mscale agree
            assert s["factor"] >= 1, "rope.scaling yarn: factor below 1 is refused"
    if v["diff"] is not None or v["mla"] is not None:
        what = "diff" if v["diff"] is not None else "mla"
        assert p == 0, f"{what}: the upstream forward has no attention dropout"
        assert not cross, f"{what}: self-attention only upstream"
        assert KVH == H, f"{what}: no grouped heads here"
        for key in ("qkNorm", "softcap", "alibi", "sinkLogit", "outputGate"):
            assert config.get(key) is None or config.get(key) is False, f"{what} with {key} is not defined"
        assert config.get("score", "dot") == "dot" and config.get("scale", "head-dim") == "head-dim", what
        assert v["scaling"] is None, f"{what} with rope.scaling is not defined"
    if v["diff"] is not None:
        assert D % (2 * H) == 0, "diff: dModel must split into 2·numHeads half-heads"
        assert rope.get("style", "none") == "none", "diff: the issue's differential attention has no RoPE"
        assert v["mla"] is None
    if v["mla"] is not None:
        m = v["mla"]
        wcfg = config.get("weights", {})
        assert wcfg.get("init", "torch-linear") == "torch-linear", "mla draws nn.Linear weights"
        assert wcfg.get("layout", "fused") == "fused", "mla: fused weights only"
        assert not wcfg.get("qkvBias") and wcfg.get("outProj", True), "mla: no biases, W_O always"
        assert rope.get("style", "none") != "none", "mla: the issue rotates the rope part, give rope.style"
        assert m["ropeDim"] > 0 and m["ropeDim"] % 2 == 0, "mla: ropeDim must be even and positive to be rotated"
    known = set(generate.WEIGHT_NAMES) | set(new_weight_names(v))
    unknown = set(config.get("weights", {}).get("values", {})) - known
    assert not unknown, f"unknown weights {sorted(unknown)}"


def base_config(config, v):
    """The config without its new fields: what generate.reference() runs."""
    base = copy.deepcopy(config)
    for key in ("diff", "outputGate", "mla"):
        base.pop(key, None)
    if v["sinks"] is not None:
        base.pop("sinkLogit")
    if v["scaling"] is not None:
        base["rope"] = {k: x for k, x in base["rope"].items() if k != "scaling"}
    wcfg = base.get("weights", {})
    values = wcfg.get("values", {})
    for n in new_weight_names(v):
        values.pop(n, None)
    if v["mla"] is not None:
        # MLA draws its own weights instead: the base ones are given as zeros, so reference() draws none.
        base.pop("rope", None)
        D = config.get("dModel", 8)
        names = generate.weight_names(base, "torch-linear", False, True, False)
        values = {n: [[0.0] * D for _ in range(D)] if n.startswith("W") else [0.0] * D for n in names}
    if values or "values" in wcfg:
        base.setdefault("weights", {})["values"] = values
    return base


@contextlib.contextmanager
def patched(module, **functions):
    """Replaces module-level functions for the duration (reference() looks them up at call time)."""
    saved = {n: getattr(module, n) for n in functions}
    for n, f in functions.items():
        setattr(module, n, f)
    try:
        yield
    finally:
        for n, f in saved.items():
            setattr(module, n, f)


class WeightStage:
    """Records the generator's state where reference()'s weights stage ends: after draw_weights, or after
    weight_names (called once the weights seed is applied) when every base weight is given."""

    weight_names_of = staticmethod(generate.weight_names)
    draw_weights_of = staticmethod(generate.draw_weights)

    def __init__(self):
        self.state = None

    def weight_names(self, *args, **kwargs):
        names = self.weight_names_of(*args, **kwargs)
        self.state = torch.get_rng_state()
        return names

    def draw_weights(self, *args, **kwargs):
        drawn = self.draw_weights_of(*args, **kwargs)
        self.state = torch.get_rng_state()
        return drawn


def draw_new_weights(config, v):
    """The new weights, drawn from the current generator state (the end of the weights stage), then
    overridden by weights.values; nothing is drawn when all of them are given in full."""
    D, H = config.get("dModel", 8), config.get("numHeads", 2)
    names = new_weight_names(v)
    values = config.get("weights", {}).get("values", {})
    if not names:
        return {}
    linear = lambda n_in, n_out: nn.Linear(n_in, n_out, bias=False).weight.detach().T.clone()  # noqa: E731
    complete = all(n in values and is_complete(values[n]) for n in names)
    w = {}
    if v["gate"]:
        init = config.get("weights", {}).get("init", "torch-linear")
        if init == "identity":
            w["W_G"] = torch.eye(D)
        elif not complete:
            w["W_G"] = torch.rand(D, D) if init == "torch-rand" else linear(D, D)
        else:
            w["W_G"] = torch.zeros(D, D)
    elif v["diff"]:
        d = D // H // 2
        for n in DIFF_WEIGHTS[:4]:  # unilm MultiheadDiffAttn.__init__: lambda_q1, lambda_k1, lambda_q2, lambda_k2
            w[n] = torch.zeros(d) if complete else torch.zeros(d, dtype=torch.float32).normal_(mean=0, std=0.1)
        w["subln"] = torch.ones(2 * d)
    else:
        m = v["mla"]
        c, n, r, vd = m["kvRank"], m["nopeDim"], m["ropeDim"], m["valueDim"]
        # model.py MLA.__init__: wq, wkv_a, kv_norm (no draw), wkv_b, wo; wkv_a and wkv_b drawn whole, then split
        shapes = {"wq": (D, H * (n + r)), "wkv_a": (D, c + r), "wkv_b": (c, H * (n + vd)), "wo": (H * vd, D)}
        drawn = {}
        for k in ("wq", "wkv_a", "wkv_b", "wo"):
            drawn[k] = torch.zeros(*shapes[k]) if complete else linear(*shapes[k])
        W_DKV, W_KR = ops.split_wkv_a(drawn["wkv_a"], c)
        W_UK, W_UV = ops.split_wkv_b(drawn["wkv_b"], H, n, vd)
        w = {"W_Q": drawn["wq"], "W_DKV": W_DKV, "kv_norm": torch.ones(c), "W_UK": W_UK, "W_UV": W_UV,
             "W_KR": W_KR, "W_O": drawn["wo"]}
    for n in names:
        if n in values:
            override(w[n], values[n])
    return w


def mask_function(config, mask, where):
    """The config's mask convention on scores of another layout: mask (B, S, S_kv) indexed by `where`."""
    convention = config.get("maskConvention", "blocked")
    fill = config.get("maskFill", "-inf")
    fill = float("-inf") if fill == "-inf" else float(fill)
    m = mask[where]
    if convention == "blocked":
        return lambda scores: scores.masked_fill(m.bool(), fill)
    if convention == "keep":
        return lambda scores: scores.masked_fill(m == 0, fill)
    return lambda scores: scores + m


def redo_dropout(config, state, probs, functional):
    """The dropout draw as generate.py makes it, from `state`: nn.Dropout (functional=False) or gpt-oss's
    nn.functional.dropout(scores, p, training=True) (functional=True), the same kernel."""
    dcfg = config.get("dropout", {})
    p = dcfg.get("p", 0.0)
    torch.set_rng_state(state)
    if "seed" in dcfg and 0 < p < 1:
        torch.manual_seed(dcfg["seed"])
    if functional:
        return F.dropout(probs, p=p, training=True)
    dropout = nn.Dropout(p)
    dropout.train()
    return dropout(probs)


def ordered(tensors, after, new):
    """tensors with `new` inserted after the key `after` (at the start when it is absent)."""
    out = {} if after in tensors else dict(new)
    for n, t in tensors.items():
        out[n] = t
        if n == after:
            out.update(new)
    return out


def bit_identical(a, b):
    return int((a == b).sum()), a.numel()


# --------------------------------------------------------------- RoPE scaling --
def rope_patches(scaling, info):
    """generate.reference()'s RoPE functions with the scaled inverse frequencies and attention factor."""
    kind, factor = scaling["type"], scaling["factor"]
    original = scaling.get("originalMaxPositions")

    def rope_angles(length, dk, base):
        info["invFreqBase"] = ops.default_inv_freq(dk, base)
        if kind == "linear":
            inv_freq, info["attentionFactor"] = ops.linear_inv_freq(dk, base, factor)
        elif kind == "dynamic":
            inv_freq, info["attentionFactor"], info["ntkBase"] = ops.dynamic_inv_freq(
                dk, base, factor, original, length)
        else:
            inv_freq, info["attentionFactor"], info["range"], info["extrapolation"] = ops.yarn_inv_freq(
                dk, base, factor, original, scaling.get("betaFast"), scaling.get("betaSlow"), scaling.get("truncate", True))
        info.update(invFreq=inv_freq, length=length, dk=dk, base=base)
        return torch.outer(torch.arange(length).float(), inv_freq)  # as generate.rope_angles

    def check_meta_rope(q, written_out, angles):
        worst = (ops.rope_meta_complex_scaled(q, angles, info["attentionFactor"]) - written_out).abs().max().item()
        assert worst < 1e-5, f"scaled interleaved RoPE differs from the torch.polar form by {worst}"
        return f"scaled interleaved RoPE matches torch.polar(attention factor, angles) (worst {worst:.2e})"

    return {"rope_angles": rope_angles, "check_meta_rope": check_meta_rope,
            "rope_rotate_half": lambda x, a: ops.rope_rotate_half_scaled(x, a, info["attentionFactor"]),
            "rope_interleaved": lambda x, a: ops.rope_interleaved_scaled(x, a, info["attentionFactor"])}


def rope_checks(config, info, t):
    """What the scaled frequencies must satisfy, against the unscaled ones."""
    s = config["rope"]["scaling"]
    kind, factor = s["type"], s["factor"]
    base_inv, inv = info["invFreqBase"], info["invFreq"]
    af, lines = info["attentionFactor"], []
    # LlamaRotaryEmbedding.forward's freqs = (inv_freq_expanded @ position_ids_expanded).transpose(1, 2)
    position_ids = torch.arange(info["length"])[None, :]
    freqs = (inv[None, :, None].float() @ position_ids[:, None, :].float()).transpose(1, 2)[0]
    assert torch.equal(freqs, t["ropeAngles"]), "the outer product differs from transformers' matmul form"
    if kind == "linear":
        assert torch.equal(inv, base_inv / factor)
        halfway = torch.outer(torch.arange(info["length"]).float() / factor, base_inv)
        worst = (t["ropeAngles"] - halfway).abs().max().item()
        assert worst < 1e-5
        lines.append(f"linear: position p turns as p / {factor} unscaled (worst {worst:.2e})")
    elif kind == "dynamic":
        if info["length"] > s["originalMaxPositions"]:
            assert inv[0] == 1 and float(info["ntkBase"]) > info["base"] and torch.all(inv[1:] < base_inv[1:])
            lines.append(f"dynamic: S = {info['length']} > {s['originalMaxPositions']}, NTK base "
                         f"{float(info['ntkBase']):.6g} > {info['base']:g}, every frequency but the first slower")
        else:
            assert torch.equal(inv, base_inv), "dynamic below originalMaxPositions must keep the frequencies"
            lines.append(f"dynamic: S = {info['length']} <= {s['originalMaxPositions']}: the unscaled frequencies")
    else:
        low, high = info["range"]
        e = info["extrapolation"]
        interpolated = 1.0 / (factor * (info["base"] ** (torch.arange(0, info["dk"], 2).float() / info["dk"])))
        assert torch.equal(inv[e == 1], base_inv[e == 1]) and torch.equal(inv[e == 0], interpolated[e == 0])
        assert af == ops.yarn_get_mscale(factor)
        lines.append(f"yarn: correction range [{low}, {high}], extrapolation factors {e.tolist()}, "
                     f"attention factor {af:.6g}")
    # the attention factor scales every rotated q: |q_rope| = af · |q| per head and position
    H, dk = config.get("numHeads", 2), info["dk"]
    q = (t["Q_norm"] if "Q_norm" in t else t["Q"]).reshape(*t["Q"].shape[:2], H, dk).norm(dim=-1)
    q_rope = t["Q_rope"].reshape(*t["Q"].shape[:2], H, dk).norm(dim=-1)
    worst = ((q_rope - af * q).abs() / q.clamp_min(1e-30)).max().item()
    assert worst < 1e-5
    lines.append(f"|q_rope| = {af:.6g}·|q| (worst relative {worst:.2e})")
    return lines


def unscaled_comparison(config, base, tensors):
    """Runs the config without rope.scaling; for the cases where scaling must change nothing."""
    plain, _ = reference(base)
    same = total = 0
    worst = 0.0
    for n in ("ropeAngles", "Q_rope", "K_rope", "weights", "output"):
        a = torch.tensor([float(x) for x in plain["tensors"][n]["data"]])
        b = tensors[n].flatten()
        s, c = bit_identical(a, b)
        same, total = same + s, total + c
        worst = max(worst, (a - b).abs().max().item())
    assert worst < 1e-6, f"{config['rope']['scaling']} differs from no scaling by {worst}"
    return f"same as no scaling: worst {worst:.2e}, {same}/{total} numbers bit-identical"


# ----------------------------------------------------------------- forwards ----
def standard_tail(config, v, t, keep, new_w, state_weights, state_dropout, checks):
    """Sinks (gpt-oss order) and the output gate on top of generate.py's scores; returns the tensors."""
    B, S, D = t["X"].shape
    H = config.get("numHeads", 2)
    Skv = t["mask"].shape[-1]
    p = config.get("dropout", {}).get("p", 0.0)
    out_proj = config.get("weights", {}).get("outProj", True)
    scalar_sink = config.get("sinkLogit") is not None and v["sinks"] is None
    if 0 < p < 1 and not scalar_sink:  # the recorded state is the one reference()'s dropout drew from
        assert torch.equal(redo_dropout(config, state_weights, t["weights"], False), t["dropped"])
    tensors = dict(t)
    tail = None
    if v["sinks"] is not None:
        sinks = torch.tensor(v["sinks"], dtype=torch.float32)
        probs = ops.gpt_oss_sink_probs(t["masked"], sinks)  # (B, H, S, S_kv + 1)
        weights, sink_weights = probs[..., :-1], probs[..., -1]  # scores = probs[..., :-1]
        # attn_weights = nn.functional.dropout(scores, p=dropout, training=module.training)
        dropped = redo_dropout(config, state_dropout, weights, True)
        tail = {"weights": weights, "sinkWeights": sink_weights, "dropped": dropped}
        worst = (weights.sum(dim=-1) - (1 - sink_weights)).abs().max().item()
        assert worst < 1e-6
        checks.append(f"rows of weights sum to 1 - sinkWeights (worst {worst:.2e}); sink weights "
                      f"{sink_weights.min().item():.4f} .. {sink_weights.max().item():.4f}")
        combined = torch.cat([t["masked"], sinks.reshape(1, -1, 1, 1).expand(B, -1, S, -1)], dim=-1)
        same, total = bit_identical(torch.softmax(combined, dim=-1), probs)
        checks.append(f"explicit max subtraction vs softmax's own: {same}/{total} bit-identical, worst "
                      f"{(torch.softmax(combined, dim=-1) - probs).abs().max().item():.2e}")
        if 0 < p < 1 and not new_w:
            assert torch.equal(dropped != 0, t["dropped"] != 0)
            checks.append("dropout: the same mask as generate.py's without sinks (S_kv columns a row), not the "
                          "scalar sink's S_kv + 1")
    elif new_w and p > 0:  # the new weights moved the dropout draw
        probs = t["weights"] if not scalar_sink else torch.cat([t["weights"], t["sinkWeights"][..., None]], -1)
        tail = {"weights": t["weights"], **({"sinkWeights": t["sinkWeights"]} if scalar_sink else {}),
                "dropped": redo_dropout(config, state_dropout, probs, False)[..., :Skv]}
        moved = not torch.equal(tail["dropped"], t["dropped"])
        checks.append(f"dropout drawn after the new weights: the mask {'moved' if moved else 'did not move'}")
    if tail is not None:
        dropped = tail["dropped"]
        tail["averagedWeights"] = dropped.sum(dim=1) / H
        tail["context"] = dropped @ keep["v"]  # torch.matmul(attn_weights, value_states)
        tail["concat"] = tail["context"].transpose(1, 2).contiguous().view(B, S, D)
        for n in ("weights", "sinkWeights", "dropped", "averagedWeights", "context", "concat"):
            tensors.pop(n, None)
        tensors.pop("output")
        tensors.update(tail)
    concat = tensors.pop("concat")
    base_output = tensors.pop("output", None)
    tensors["concat"] = concat
    W_O, b_O = t.get("W_O"), t.get("b_O", 0)
    if v["gate"]:
        # Qwen3NextAttention.forward: attn_output = attn_output * torch.sigmoid(gate); o_proj(attn_output)
        gate_logits = t["X"] @ new_w["W_G"]
        gate = torch.sigmoid(gate_logits)
        gated = concat * gate
        tensors.update(gateLogits=gate_logits, gate=gate, gated=gated)
        tensors["output"] = gated @ W_O + b_O if out_proj else gated
        checks.append(check_qwen3_next_layout(config, t, new_w["W_G"], concat, tensors["output"], out_proj))
    elif tail is not None:
        tensors["output"] = concat @ W_O + b_O if out_proj else concat
    else:
        tensors["output"] = base_output
    if new_w:
        last = [n for n in generate.WEIGHT_NAMES if n in tensors][-1]
        tensors = ordered(tensors, last, new_w)
    return tensors


def check_qwen3_next_layout(config, t, W_G, concat, output, out_proj):
    """Qwen3-Next fuses the gate into q_proj, per head [q_h | gate_h]: the same queries, and the same output
    through its lines (chunk, reshape, attn_output * torch.sigmoid(gate), o_proj)."""
    B, S, D = t["X"].shape
    H = config.get("numHeads", 2)
    dk = D // H
    fused = torch.cat([t["W_Q"].reshape(D, H, dk), W_G.reshape(D, H, dk)], dim=-1).reshape(D, 2 * D)
    projected = t["X"] @ fused
    if "b_Q" in t:
        projected = projected + torch.cat([t["b_Q"].reshape(H, dk), torch.zeros(H, dk)], dim=-1).reshape(-1)
    # query_states, gate = torch.chunk(self.q_proj(hidden_states).view(*input_shape, -1, self.head_dim * 2), 2, -1)
    query_states, gate = torch.chunk(projected.view(B, S, -1, dk * 2), 2, dim=-1)
    gate = gate.reshape(B, S, -1)
    worst_q = (query_states.reshape(B, S, D) - t["Q"]).abs().max().item()
    attn_output = concat.reshape(B, S, -1).contiguous()
    attn_output = attn_output * torch.sigmoid(gate)
    if out_proj:
        attn_output = attn_output @ t["W_O"] + t.get("b_O", 0)  # self.o_proj(attn_output)
    worst = (attn_output - output).abs().max().item()
    assert worst_q < 1e-5 and worst < 1e-5, f"Qwen3-Next layout: queries {worst_q}, output {worst}"
    return (f"Qwen3-Next's fused q_proj [q_h | gate_h]: the same queries (worst {worst_q:.2e}) and output "
            f"(worst {worst:.2e})")


def diff_forward(config, v, t, new_w, checks):
    B, S, D = t["X"].shape
    H = config.get("numHeads", 2)
    depth = v["diff"]["depth"]
    lambdas = [new_w[n] for n in DIFF_WEIGHTS[:4]]
    apply_mask = mask_function(config, t["mask"], (slice(None), None))  # mask[:, None]
    r = ops.diff_attention(t["Q"], t["K"], t["V"], H, apply_mask, lambdas, new_w["subln"], depth)
    out_proj = config.get("weights", {}).get("outProj", True)
    output = r["concat"] @ t["W_O"] + t.get("b_O", 0) if out_proj else r["concat"]
    d = r["headDim"]
    # checks: λ by hand; λ forced to 0 is ordinary attention of each head's first half over the whole head's V
    by_hand = (math.exp(sum(a * b for a, b in zip(lambdas[0].tolist(), lambdas[1].tolist())))
               - math.exp(sum(a * b for a, b in zip(lambdas[2].tolist(), lambdas[3].tolist()))) + r["lambdaInit"])
    assert abs(by_hand - r["lambdaFull"].item()) < 1e-6
    assert abs(ops.lambda_init_fn(0) - 0.2) < 1e-15 and r["lambdaInit"] == 0.8 - 0.6 * math.exp(-0.3 * depth)
    zero = ops.diff_attention(t["Q"], t["K"], t["V"], H, apply_mask, lambdas, new_w["subln"], depth,
                              lambda_full=torch.zeros(()))
    q1 = t["Q"].view(B, S, H, 2 * d)[..., :d].transpose(1, 2)  # (B, H, S, d)
    k1 = t["K"].view(B, -1, H, 2 * d)[..., :d].transpose(1, 2)
    plain = torch.softmax(apply_mask(q1 @ k1.transpose(-2, -1) / math.sqrt(d)), dim=-1) @ r["v"]
    worst = (zero["context"] - plain).abs().max().item()
    assert worst < 1e-5, f"λ = 0 differs from the first half-heads' attention by {worst}"
    checks.append(f"λ_init {r['lambdaInit']:.6f}, λ {r['lambdaFull'].item():.6f} (by hand {by_hand:.6f}); "
                  f"λ = 0 gives the first half-heads' ordinary attention (worst {worst:.2e})")
    rows = r["weights"].sum(dim=-1)
    worst_rows = (rows - (1 - r["lambdaFull"])).abs().max().item()
    assert worst_rows < 1e-5
    checks.append(f"rows of A sum to 1 - λ (worst {worst_rows:.2e})")
    base_names = [n for n in generate.WEIGHT_NAMES if n in t]
    tensors = {"X": t["X"], **{n: t[n] for n in base_names}, **new_w, "Q": t["Q"], "K": t["K"], "V": t["V"],
               "scores": r["unscaled"], "scaled": r["scaled"], "mask": t["mask"], "masked": r["masked"],
               "halfWeights": r["halfWeights"], "lambdaFull": r["lambdaFull"], "weights": r["weights"],
               "averagedWeights": r["weights"].sum(dim=1) / H, "context": r["context"],
               "contextNorm": r["contextNorm"], "contextScaled": r["contextScaled"], "concat": r["concat"],
               "output": output}
    extra = {"headDim": D // H, "scaleFactor": r["scaling"],
             "diff": {"depth": depth, "halfHeadDim": d, "lambdaInit": r["lambdaInit"]}}
    return tensors, extra


def mla_issue_form(w, x, H, dims, rotate, apply_mask, absorb):
    """The issue's formulas on its seven weights, without model.py's fused wkv_a / wkv_b: c = RMSNorm(X·W_DKV),
    per head k_nope = c·W_UK and v = c·W_UV, one k_rope = RoPE(X·W_KR), q = X·W_Q split per head into
    [nope | rope], scores = (q_nope·k_nope + q_rope·k_rope) / √(nopeDim + ropeDim); absorbed: q_nope·W_UKᵀ
    against c, the weighted sum of c through W_UV. Returns (weights (B, S, H, S_kv), output)."""
    B, S, _ = x.shape
    c_dim, n, r, vd = dims
    c = ops.unilm_rms_norm(x @ w["W_DKV"], w["kv_norm"], 1e-6)  # (B, S, kvRank)
    k_rope = rotate((x @ w["W_KR"])[:, :, None])[:, :, 0]  # (B, S, r), shared by the heads
    q_nope, q_rope = torch.split((x @ w["W_Q"]).view(B, S, H, n + r), [n, r], dim=-1)
    q_rope = rotate(q_rope)
    W_UK, W_UV = w["W_UK"].view(c_dim, H, n), w["W_UV"].view(c_dim, H, vd)
    if absorb:
        q_latent = torch.einsum("bshd,chd->bshc", q_nope, W_UK)  # q_nope·W_UKᵀ
        nope = torch.einsum("bshc,btc->bsht", q_latent, c)
    else:
        nope = torch.einsum("bshd,bthd->bsht", q_nope, torch.einsum("btc,chd->bthd", c, W_UK))
    scores = (nope + torch.einsum("bshr,btr->bsht", q_rope, k_rope)) / math.sqrt(n + r)
    weights = torch.softmax(apply_mask(scores), dim=-1)
    if absorb:
        context = torch.einsum("bshc,chd->bshd", torch.einsum("bsht,btc->bshc", weights, c), W_UV)
    else:
        context = torch.einsum("bsht,bthd->bshd", weights, torch.einsum("btc,chd->bthd", c, W_UV))
    return weights, context.flatten(2) @ w["W_O"]


# DeepSeek-V3's config (inference/configs/config_671B.json): the issue's real-size line of the KV cache
DEEPSEEK_V3 = {"numHeads": 128, "kvRank": 512, "nopeDim": 128, "ropeDim": 64, "valueDim": 128}


def mla_forward(config, v, t, new_w, checks):
    B, S, D = t["X"].shape
    H = config.get("numHeads", 2)
    m = v["mla"]
    n, r, c, vd = m["nopeDim"], m["ropeDim"], m["kvRank"], m["valueDim"]
    rope = config["rope"]
    style = rope["style"]
    angles = generate.rope_angles(S, r, float(rope.get("base", 10000)))  # (S, r/2)
    turn = generate.rope_rotate_half if style == "rotate-half" else generate.rope_interleaved
    rotate = lambda x: turn(x, angles[:, None, :])  # noqa: E731 (x: (B, S, heads, r))
    apply_mask = mask_function(config, t["mask"], (slice(None), slice(None), None))  # mask[:, :, None]
    softmax_scale = (n + r) ** -0.5  # self.softmax_scale = self.qk_head_dim ** -0.5
    run = lambda absorb: ops.mla_forward(t["X"], new_w, H, c, n, r, vd, rotate, apply_mask,  # noqa: E731
                                         softmax_scale, absorb)
    out, other = run(m["absorb"]), run(not m["absorb"])
    worst = (out["output"] - other["output"]).abs().max().item()
    worst_weights = (out["weights"] - other["weights"]).abs().max().item()
    assert worst < 1e-5 and worst_weights < 1e-5, f"absorbed vs naive: {worst}, weights {worst_weights}"
    absorbed = out if m["absorb"] else other
    naive = other if m["absorb"] else out
    mla_cache, mha_cache = sum(absorbed["cacheWidths"]), 2 * H * (D // H)
    assert mla_cache == c + r and mha_cache == 2 * D and sum(naive["cacheWidths"]) == H * (n + r) + H * vd
    checks.append(f"absorbed vs naive: output worst {worst:.2e}, weights worst {worst_weights:.2e}; cache per "
                  f"token {mla_cache} (kvRank + ropeDim) vs {mha_cache} (2·H·dk), naive {sum(naive['cacheWidths'])}")
    lines = []
    for absorb in (False, True):
        weights, output = mla_issue_form(new_w, t["X"], H, (c, n, r, vd), rotate, apply_mask, absorb)
        worst_o = (output - out["output"]).abs().max().item()
        worst_w = (weights - out["weights"]).abs().max().item()
        assert worst_o < 1e-5 and worst_w < 1e-5, f"the issue's formulas (absorb {absorb}): {worst_o}, {worst_w}"
        lines.append(f"{'absorbed' if absorb else 'naive'} output worst {worst_o:.2e}, weights worst {worst_w:.2e}")
    checks.append("the issue's formulas on W_DKV, W_KR, W_UK, W_UV (no fused wkv_a / wkv_b): " + ", ".join(lines))
    if style == "interleaved":
        q_pe = (t["X"] @ new_w["W_Q"]).view(B, S, H, n + r)[..., n:]
        written = rotate(q_pe)
        complex_form = ops.deepseek_apply_rotary_emb(q_pe, torch.polar(torch.ones_like(angles), angles))
        worst_rope = (written - complex_form).abs().max().item()
        assert worst_rope < 1e-5
        checks.append(f"interleaved RoPE matches DeepSeek's apply_rotary_emb (worst {worst_rope:.2e})")
    else:  # rotate-half pairs (i, i + r/2) of the rope part, not model.py's (2i, 2i + 1): the numbers must differ
        q_pe = (t["X"] @ new_w["W_Q"]).view(B, S, H, n + r)[..., n:]
        apart = (rotate(q_pe) - generate.rope_interleaved(q_pe, angles[:, None, :])).abs().max().item()
        assert r == 2 or apart > 1e-3, "rotate-half should differ from interleaved here"
        checks.append(f"rotate-half on the rope part differs from DeepSeek's interleaved pairs by up to {apart:.3g}")
    heads_first = lambda x: x.permute(0, 2, 1, 3).contiguous()  # noqa: E731 (B, S, H, ·) -> (B, H, S, ·)
    tensors = {"X": t["X"], **new_w, "Q": out["Q"], "latent": out["latent"], "latentNorm": out["latentNorm"],
               "K_pe": out["K_pe"], "ropeAngles": angles, "Q_pe_rope": out["Q_pe_rope"],
               "K_pe_rope": out["K_pe_rope"]}
    if m["absorb"]:
        tensors["Q_absorbed"] = out["Q_absorbed"]
    else:
        tensors.update(K=out["K"], V=out["V"])
    tensors.update(scores=heads_first(out["unscaled"]), scaled=heads_first(out["scaled"]), mask=t["mask"],
                   masked=heads_first(out["masked"]), weights=heads_first(out["weights"]))
    tensors["averagedWeights"] = tensors["weights"].sum(dim=1) / H
    if m["absorb"]:
        tensors["latentContext"] = out["latentContext"]
    tensors.update(context=heads_first(out["context"]), concat=out["concat"], output=out["output"])
    real = DEEPSEEK_V3
    real_size = {"mla": real["kvRank"] + real["ropeDim"], "mha": 2 * real["numHeads"] * real["nopeDim"]}
    assert real_size == {"mla": 576, "mha": 32768}, real_size
    extra = {"headDim": n + r, "scaleFactor": softmax_scale,
             "mla": {"qkHeadDim": n + r, "cachePerToken": {"mla": mla_cache, "naive": sum(naive["cacheWidths"]),
                                                           "mha": mha_cache},
                     "cachePerTokenDeepSeekV3": dict(real, **real_size),
                     "maxAbsDifferenceOtherPath": worst}}
    return tensors, extra


def recent_reference(config):
    """The expected values of one config with the new fields, and the checks' lines."""
    v = variant_of(config)
    validate(config, v)
    base = base_config(config, v)
    stage = WeightStage()
    functions = {"weight_names": stage.weight_names, "draw_weights": stage.draw_weights}
    info = {}
    if v["scaling"] is not None:
        functions.update(rope_patches(v["scaling"], info))
    keep = {}
    with patched(generate, **functions):
        expected, checks = reference(base, keep)
    t = keep["tensors"]
    state_weights = stage.state
    torch.set_rng_state(state_weights)
    new_w = draw_new_weights(config, v)
    state_dropout = torch.get_rng_state()
    checks = list(checks)
    extra = {}
    if v["mla"] is not None:
        tensors, extra = mla_forward(config, v, t, new_w, checks)
    elif v["diff"] is not None:
        tensors, extra = diff_forward(config, v, t, new_w, checks)
    else:
        tensors = standard_tail(config, v, t, keep, new_w, state_weights, state_dropout, checks)
    if v["scaling"] is not None:
        s = v["scaling"]
        checks += rope_checks(config, info, t)
        rope_tensors = {"ropeInvFreqBase": info["invFreqBase"], "ropeInvFreq": info["invFreq"],
                        "ropeAttentionFactor": torch.tensor(info["attentionFactor"], dtype=torch.float32)}
        numbers = {"type": s["type"], "factor": s["factor"], "attentionFactor": info["attentionFactor"]}
        if s["type"] == "yarn":
            rope_tensors["ropeExtrapolationFactor"] = info["extrapolation"]
            numbers.update(low=info["range"][0], high=info["range"][1])
        if s["type"] == "dynamic":
            ntk = torch.as_tensor(info["ntkBase"], dtype=torch.float32)
            rope_tensors["ropeNtkBase"] = ntk
            numbers["base"] = ntk.item()
        before = [n for n in tensors if n in ("Q_norm", "K_norm")] or ["V"]
        tensors = ordered(tensors, before[-1], rope_tensors)
        extra["ropeScaling"] = numbers
        if s["factor"] == 1 or (s["type"] == "dynamic" and info["length"] <= s["originalMaxPositions"]):
            checks.append(unscaled_comparison(config, base, tensors))
    expected = dict(expected)
    expected.update(extra)
    expected["tensors"] = {n: {"shape": list(x.shape), "data": [encode_number(y) for y in x.flatten().tolist()]}
                           for n, x in tensors.items()}
    return expected, checks


def compare_with_scalar_sink(config):
    """Equal per-head sinks against generate.py's scalar sink (no dropout): the same weights and output."""
    scalar = dict(config, sinkLogit=config["sinkLogit"][0])
    a, _ = reference(scalar)
    b, _ = recent_reference(config)
    lines = []
    for n in ("weights", "sinkWeights", "output"):
        x = torch.tensor([float(y) for y in a["tensors"][n]["data"]])
        y = torch.tensor([float(y) for y in b["tensors"][n]["data"]])
        same, total = bit_identical(x, y)
        worst = (x - y).abs().max().item()
        assert worst < 1e-6
        lines.append(f"{n} {same}/{total} bit-identical (worst {worst:.2e})")
    return "equal sinks vs generate.py's scalar sink: " + ", ".join(lines)


# ------------------------------------------------------------------- cases ----
YARN = {"type": "yarn", "factor": 4, "originalMaxPositions": 4096, "betaFast": 32, "betaSlow": 1}
MLA_SMALL = {"kvRank": 8, "nopeDim": 4, "ropeDim": 2, "valueDim": 4}
MLA_WIDE = {"kvRank": 16, "nopeDim": 8, "ropeDim": 4, "valueDim": 8}

CASES = [
    # 1. learned per-head sinks (gpt-oss)
    ("sinks-per-head", "gpt-oss sinks: one learned logit per head, no mask",
     {"text": "each head learns its own sink", "dModel": 8, "numHeads": 2, "sinkLogit": [0.5, -1.0], "seed": 401}),
    ("sinks-per-head-causal", "gpt-oss sinks over four heads, causal",
     {"text": "the sink column soaks up weight per head", "dModel": 16, "numHeads": 4,
      "sinkLogit": [1.5, 0, -0.5, 2.0], "mask": "causal", "seed": 402}),
    ("sinks-per-head-padded", "gpt-oss sinks, a padded batch of two texts, causal + padding",
     {"texts": ["a padded batch with learned sinks", "two words"], "dModel": 8, "numHeads": 2,
      "sinkLogit": [0.25, 1.0], "mask": "causal+padding", "seed": 403}),
    ("sinks-per-head-dropout", "gpt-oss sinks with dropout p 0.25 over the S_kv columns (the sink dropped first)",
     {"text": "dropout comes after the sink column is dropped", "dModel": 16, "numHeads": 4,
      "sinkLogit": [-1, 0.5, 1, 3], "mask": "causal", "dropout": {"p": 0.25}, "seed": 404}),
    ("sinks-equal-vs-scalar", "equal per-head sinks: the numbers of generate.py's scalar sink",
     {"text": "equal sinks match the scalar sink", "dModel": 8, "numHeads": 2, "sinkLogit": [0.5, 0.5],
      "mask": "causal", "seed": 405}),
    ("sinks-gpt-oss-like", "gpt-oss-like: sinks, GQA 4 -> 2, RoPE rotate-half, window 3, causal, reseeded dropout",
     {"text": "grouped heads with a window rotary positions and sinks", "dModel": 16, "numHeads": 4,
      "numKVHeads": 2, "rope": {"style": "rotate-half"}, "window": 3, "mask": "causal",
      "sinkLogit": [0.1, -0.3, 0.7, 1.2], "dropout": {"p": 0.1, "seed": 9}, "seed": 406}),
    # 2. long-context RoPE
    ("rope-linear", "RoPE rotate-half with linear scaling, factor 2",
     {"text": "linear scaling halves every frequency", "dModel": 8, "numHeads": 2,
      "rope": {"style": "rotate-half", "scaling": {"type": "linear", "factor": 2}}, "seed": 411}),
    ("rope-linear-causal", "RoPE interleaved with linear scaling, factor 4, head size 6, causal",
     {"text": "a quarter of every frequency in pairs", "dModel": 12, "numHeads": 2,
      "rope": {"style": "interleaved", "scaling": {"type": "linear", "factor": 4}}, "mask": "causal", "seed": 412}),
    ("rope-linear-padded-dropout", "linear scaling, factor 2, a padded batch, causal + padding, dropout p 0.2",
     {"texts": ["linear scaling over a padded batch of words", "short one"], "dModel": 16, "numHeads": 2,
      "rope": {"style": "rotate-half", "scaling": {"type": "linear", "factor": 2}}, "mask": "causal+padding",
      "dropout": {"p": 0.2}, "seed": 413}),
    ("rope-dynamic", "dynamic NTK scaling, factor 2: twelve tokens past originalMaxPositions 4, causal",
     {"text": "dynamic scaling grows the base once the text is longer than four tokens here",
      "dModel": 16, "numHeads": 2, "mask": "causal",
      "rope": {"style": "rotate-half", "scaling": {"type": "dynamic", "factor": 2, "originalMaxPositions": 4}},
      "seed": 414}),
    ("rope-dynamic-short", "dynamic NTK scaling within originalMaxPositions: the unscaled numbers",
     {"text": "short texts keep the frequencies", "dModel": 8, "numHeads": 2,
      "rope": {"style": "rotate-half", "scaling": {"type": "dynamic", "factor": 4, "originalMaxPositions": 32}},
      "seed": 415}),
    ("rope-dynamic-padded", "dynamic NTK, factor 4 past 3 positions, GQA 4 -> 2, a padded batch, causal + padding",
     {"texts": ["the padded length decides the dynamic base", "a pad"], "dModel": 16, "numHeads": 4,
      "numKVHeads": 2, "mask": "causal+padding",
      "rope": {"style": "interleaved", "scaling": {"type": "dynamic", "factor": 4, "originalMaxPositions": 3}},
      "seed": 416}),
    ("rope-yarn", "YaRN, factor 4 from 4096 positions, head size 16: ramp over dims 2..6, attention factor",
     {"text": "yarn blends interpolated and extrapolated frequencies", "dModel": 32, "numHeads": 2,
      "rope": {"style": "rotate-half", "scaling": YARN}, "seed": 417}),
    ("rope-yarn-causal", "YaRN interleaved, base 500000, factor 8 from 2048 positions, a ramp of thirds, causal",
     {"text": "a larger base and a longer stretch of context", "dModel": 32, "numHeads": 2, "mask": "causal",
      "rope": {"style": "interleaved", "base": 500000,
               "scaling": {"type": "yarn", "factor": 8, "originalMaxPositions": 2048}}, "seed": 418}),
    ("rope-yarn-padded-dropout", "YaRN factor 16, betas 16 / 2, QK-norm, GQA 4 -> 2, padded batch, dropout p 0.15",
     {"texts": ["qk norm then yarn on grouped heads with dropout", "two words"], "dModel": 32, "numHeads": 4,
      "numKVHeads": 2, "qkNorm": True, "mask": "causal+padding", "dropout": {"p": 0.15},
      "rope": {"style": "rotate-half", "scaling": {"type": "yarn", "factor": 16, "originalMaxPositions": 1024,
                                                    "betaFast": 16, "betaSlow": 2}}, "seed": 419}),
    ("rope-yarn-no-truncate", "YaRN as gpt-oss configures it: truncate false (the ramp's ends not rounded), factor 32 "
     "from 4096 positions, base 150000, head size 64, causal",
     {"text": "the ramp of yarn without rounding its ends", "dModel": 128, "numHeads": 2, "mask": "causal",
      "rope": {"style": "rotate-half", "base": 150000,
               "scaling": {"type": "yarn", "factor": 32, "originalMaxPositions": 4096, "betaFast": 32, "betaSlow": 1,
                           "truncate": False}}, "seed": 421}),
    ("rope-yarn-factor-1", "YaRN with factor 1: no scaling",
     {"text": "a factor of one changes nothing", "dModel": 32, "numHeads": 2, "mask": "causal",
      "rope": {"style": "rotate-half", "scaling": dict(YARN, factor=1)}, "seed": 420}),
    # 3. differential attention
    ("diff-plain", "differential attention, two heads of 8 (half-heads of 4), depth 0: λ_init 0.2",
     {"text": "two softmaxes cancel common noise", "dModel": 16, "numHeads": 2, "diff": {"depth": 0}, "seed": 431}),
    ("diff-causal", "differential attention, depth 3, causal",
     {"text": "the differential map subtracts a second map", "dModel": 16, "numHeads": 2, "diff": {"depth": 3},
      "mask": "causal", "seed": 432}),
    ("diff-padded", "differential attention, four heads, depth 1, a padded batch, causal + padding",
     {"texts": ["noise cancelling attention over a padded batch", "short"], "dModel": 32, "numHeads": 4,
      "diff": {"depth": 1}, "mask": "causal+padding", "seed": 433}),
    ("diff-given-lambdas", "differential attention with edited λ vectors and subln (nulls keep the draws), -1e9",
     {"text": "edited lambda vectors", "dModel": 8, "numHeads": 2, "diff": {"depth": 2}, "mask": "causal",
      "maskFill": -1e9, "seed": 434,
      "weights": {"values": {"lambda_q1": [0.5, -0.25], "lambda_k1": [0.1, 0.2], "lambda_q2": [None, 0.3],
                             "subln": [1, 0.5, 2, 1]}}}),
    # 4. gated output
    ("gate-plain", "output gate: concat ⊙ sigmoid(X·W_G) before W_O",
     {"text": "a sigmoid gate on every head output", "dModel": 8, "numHeads": 2, "outputGate": True, "seed": 441}),
    ("gate-causal-qwen-like", "output gate with QK-norm, RoPE rotate-half, GQA 4 -> 2, causal (Qwen3-Next-like)",
     {"text": "gated attention in the style of qwen three next", "dModel": 16, "numHeads": 4, "numKVHeads": 2,
      "qkNorm": True, "rope": {"style": "rotate-half"}, "mask": "causal", "outputGate": True, "seed": 442}),
    ("gate-padded", "output gate over a padded batch, padding mask",
     {"texts": ["the gate sees the padded rows too", "pads"], "dModel": 8, "numHeads": 2, "mask": "padding",
      "outputGate": True, "seed": 443}),
    ("gate-dropout", "output gate with dropout p 0.3: W_G is drawn first, so the dropout mask moves",
     {"text": "the gate weight comes before the dropout draw", "dModel": 8, "numHeads": 2, "mask": "causal",
      "outputGate": True, "dropout": {"p": 0.3}, "seed": 444}),
    ("gate-mha", "output gate after nn.MultiheadAttention's weights (W_G after the module), reseeded dropout",
     {"text": "the module first and then the gate", "dModel": 8, "numHeads": 2, "weights": {"init": "torch-mha"},
      "mask": "causal", "outputGate": True, "dropout": {"p": 0.2, "seed": 5}, "seed": 445}),
    ("gate-rand", "output gate with torch.rand weights: W_G = torch.rand(dModel, dModel)",
     {"text": "rand weights gate too", "dModel": 8, "numHeads": 2, "weights": {"init": "torch-rand"},
      "outputGate": True, "seed": 446}),
    # together
    ("sinks-yarn-gate", "sinks, YaRN, the output gate, GQA 4 -> 2, causal and dropout together",
     {"text": "three recent variants in one run of attention", "dModel": 32, "numHeads": 4, "numKVHeads": 2,
      "rope": {"style": "rotate-half", "scaling": YARN}, "sinkLogit": [0.3, -0.2, 1.1, 0.0],
      "outputGate": True, "mask": "causal", "dropout": {"p": 0.1}, "seed": 451}),
    # 5. multi-head latent attention
    ("mla-naive", "MLA, naive path: latent 8, nope 4, rope 2 (interleaved), value 4, four heads",
     {"text": "latent keys and values", "dModel": 16, "numHeads": 4, "rope": {"style": "interleaved"},
      "mla": dict(MLA_SMALL, absorb=False), "seed": 461}),
    ("mla-absorbed", "MLA, absorbed path, the same draws as mla-naive",
     {"text": "latent keys and values", "dModel": 16, "numHeads": 4, "rope": {"style": "interleaved"},
      "mla": dict(MLA_SMALL, absorb=True), "seed": 461}),
    ("mla-absorbed-causal", "MLA absorbed, latent 16, nope 8, rope 4, value 8, causal",
     {"text": "the cache keeps one latent vector per token", "dModel": 32, "numHeads": 4,
      "rope": {"style": "interleaved"}, "mla": dict(MLA_WIDE, absorb=True), "mask": "causal", "seed": 462}),
    ("mla-padded", "MLA absorbed over a padded batch, causal + padding",
     {"texts": ["compressed keys over a padded batch", "a pad"], "dModel": 32, "numHeads": 4,
      "rope": {"style": "interleaved"}, "mla": dict(MLA_WIDE, absorb=True), "mask": "causal+padding",
      "seed": 463}),
    ("mla-naive-padded-keep", "MLA naive, RoPE rotate-half on the rope part (pairs i, i + ropeDim/2), base 100, "
     "padding, 1 = keep with -1e9",
     {"texts": ["a rotated shared key part", "short one"], "dModel": 16, "numHeads": 2,
      "rope": {"style": "rotate-half", "base": 100},
      "mla": {"kvRank": 6, "nopeDim": 4, "ropeDim": 4, "valueDim": 6, "absorb": False}, "mask": "padding",
      "maskConvention": "keep", "maskFill": -1e9, "seed": 464}),
]


def main():
    assert torch.__version__.startswith("1.13"), f"use Debian's PyTorch 1.13, not {torch.__version__}"
    os.makedirs(OUT, exist_ok=True)
    index, lines = [], []
    for name, description, config in CASES:
        expected, checks = recent_reference(config)
        if name == "sinks-equal-vs-scalar":
            checks.append(compare_with_scalar_sink(config))
        lines += [f"{name}: {line}" for line in checks]
        write_fixture(os.path.join(OUT, name + ".json"),
                      {"name": name, "description": description, "config": config, "expected": expected})
        index.append(name)
    write_index(OUT, index)
    print(f"wrote {len(index)} fixtures of recent variants to {OUT}")
    for line in lines:
        print(" ", line)


if __name__ == "__main__":
    sys.exit(main())
