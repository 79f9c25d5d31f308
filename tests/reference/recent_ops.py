"""The operations of recent.py, each written from its upstream source in PyTorch 1.13 (no
torch.nn.functional.rms_norm, no scaled_dot_product_attention). The comments name the file and
function each line follows; the names of upstream variables are kept where they help to compare.

    gpt-oss sinks     huggingface/transformers  src/transformers/models/gpt_oss/modeling_gpt_oss.py
                                                eager_attention_forward
    RoPE scaling      huggingface/transformers  src/transformers/modeling_rope_utils.py
                                                _compute_default_rope_parameters,
                                                _compute_linear_scaling_rope_parameters,
                                                _compute_dynamic_ntk_parameters (with dynamic_rope_update),
                                                _compute_yarn_parameters; the cos/sin of
                                                models/llama/modeling_llama.py LlamaRotaryEmbedding.forward
    differential      microsoft/unilm           Diff-Transformer/multihead_diffattn.py MultiheadDiffAttn,
                                                Diff-Transformer/rms_norm.py RMSNorm
    output gate       huggingface/transformers  src/transformers/models/qwen3_next/modeling_qwen3_next.py
                                                Qwen3NextAttention.forward
    MLA               deepseek-ai/DeepSeek-V3   inference/model.py MLA.forward, RMSNorm, apply_rotary_emb
"""
import math

import torch
import torch.nn.functional as F

from generate import rotate_half


# ----------------------------------------------------------- gpt-oss sinks ----
def gpt_oss_sink_probs(masked, sinks):
    """transformers gpt_oss eager_attention_forward, from the masked logits on: one learned logit per
    head as the LAST column, the row max subtracted explicitly, softmax. Returns the probabilities
    (B, H, S, S_kv + 1); the caller drops the sink column (`scores = probs[..., :-1]`)."""
    B, H, S, _ = masked.shape
    # sinks = module.sinks.reshape(1, -1, 1, 1).expand(query.shape[0], -1, query.shape[-2], -1)
    sinks = sinks.reshape(1, -1, 1, 1).expand(B, -1, S, -1)  # (B, H, S, 1)
    # combined_logits = torch.cat([attn_weights, sinks], dim=-1)
    combined_logits = torch.cat([masked, sinks], dim=-1)  # (B, H, S, S_kv + 1)
    # combined_logits = combined_logits - combined_logits.max(dim=-1, keepdim=True).values
    combined_logits = combined_logits - combined_logits.max(dim=-1, keepdim=True).values
    # probs = F.softmax(combined_logits, dim=-1, dtype=combined_logits.dtype)
    return F.softmax(combined_logits, dim=-1, dtype=combined_logits.dtype)


# ------------------------------------------------------------ RoPE scaling ----
def default_inv_freq(dim, base):
    """_compute_default_rope_parameters: 1 / base^(2i/dim), the same numbers as generate.rope_angles'."""
    return 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))


def linear_inv_freq(dim, base, factor):
    """_compute_linear_scaling_rope_parameters: the default inverse frequencies divided by factor, in place
    (float32 / float32(factor)); attention factor 1."""
    inv_freq = default_inv_freq(dim, base)
    inv_freq /= factor
    return inv_freq, 1.0


def dynamic_inv_freq(dim, base, factor, max_position_embeddings, length):
    """_compute_dynamic_ntk_parameters as dynamic_rope_update calls it in the forward.
    dynamic_frequency_update: seq_len = torch.max(position_ids) + 1, an int64 tensor; the frequencies are
    recomputed only when it exceeds the cached length (at first max_position_embeddings), so up to
    originalMaxPositions tokens keep the init-time frequencies (seq_len None -> max_position_embeddings,
    base unchanged). With a tensor seq_len the new base is float32 tensor arithmetic, as in transformers.
    Returns (inv_freq, attention factor 1, the base used)."""
    position_ids = torch.arange(length)[None, :]
    seq_len = torch.max(position_ids) + 1
    if seq_len > max_position_embeddings:  # dynamic_frequency_update: "growth"
        # seq_len = torch.maximum(seq_len, torch.tensor(config.max_position_embeddings, dtype=seq_len.dtype))
        seq_len = torch.maximum(seq_len, torch.tensor(max_position_embeddings, dtype=seq_len.dtype))
        # base = base * ((factor * seq_len / max_position_embeddings) - (factor - 1)) ** (dim / (dim - 2))
        base = base * ((factor * seq_len / max_position_embeddings) - (factor - 1)) ** (dim / (dim - 2))
    else:  # the init-time call: seq_len = max_position_embeddings, a Python int
        seq_len = max_position_embeddings
        base = base * ((factor * seq_len / max_position_embeddings) - (factor - 1)) ** (dim / (dim - 2))
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
    return inv_freq, 1.0, base


def yarn_get_mscale(scale, mscale=1):
    """_compute_yarn_parameters' get_mscale: 0.1·mscale·ln(scale) + 1, and 1 for scale <= 1 (the issue writes
    0.1·ln(factor) + 1 alone: the same at factor 1, and recent.py refuses a YaRN factor below 1)."""
    if scale <= 1:
        return 1.0
    return 0.1 * mscale * math.log(scale) + 1.0


def yarn_inv_freq(dim, base, factor, original_max_position_embeddings, beta_fast=None, beta_slow=None, truncate=True):
    """_compute_yarn_parameters (attention_factor, mscale and mscale_all_dim not given); truncate as
    config.rope_scaling.get("truncate", True) (gpt-oss sets it False: the ramp's ends are not rounded).
    Returns (inv_freq, attention_factor, (low, high), inv_freq_extrapolation_factor)."""
    # attention_factor = get_mscale(factor)
    attention_factor = yarn_get_mscale(factor)
    # beta_fast = config.rope_scaling.get("beta_fast") or 32; beta_slow = ... or 1
    beta_fast = beta_fast or 32
    beta_slow = beta_slow or 1

    def find_correction_dim(num_rotations, dim, base, max_position_embeddings):
        return (dim * math.log(max_position_embeddings / (num_rotations * 2 * math.pi))) / (2 * math.log(base))

    def find_correction_range(low_rot, high_rot, dim, base, max_position_embeddings, truncate=True):
        low = find_correction_dim(low_rot, dim, base, max_position_embeddings)
        high = find_correction_dim(high_rot, dim, base, max_position_embeddings)
        if truncate:
            low = math.floor(low)
            high = math.ceil(high)
        return max(low, 0), min(high, dim - 1)

    def linear_ramp_factor(min, max, dim):  # noqa: A002 (the upstream names)
        if min == max:
            max += 0.001  # Prevent singularity
        linear_func = (torch.arange(dim, dtype=torch.float32) - min) / (max - min)
        ramp_func = torch.clamp(linear_func, 0, 1)
        return ramp_func

    # pos_freqs = base ** (torch.arange(0, dim, 2).to(device=device, dtype=torch.float) / dim)
    pos_freqs = base ** (torch.arange(0, dim, 2).float() / dim)
    inv_freq_extrapolation = 1.0 / pos_freqs
    inv_freq_interpolation = 1.0 / (factor * pos_freqs)
    low, high = find_correction_range(beta_fast, beta_slow, dim, base, original_max_position_embeddings, truncate)
    # inv_freq_extrapolation_factor = 1 - linear_ramp_factor(low, high, dim // 2)
    inv_freq_extrapolation_factor = 1 - linear_ramp_factor(low, high, dim // 2).float()
    inv_freq = (
        inv_freq_interpolation * (1 - inv_freq_extrapolation_factor)
        + inv_freq_extrapolation * inv_freq_extrapolation_factor
    )
    return inv_freq, attention_factor, (low, high), inv_freq_extrapolation_factor


def rope_rotate_half_scaled(x, angles, attention_factor):
    """LlamaRotaryEmbedding.forward: emb = cat(freqs, freqs); cos = emb.cos() * attention_scaling, sin likewise;
    apply_rotary_pos_emb: q * cos + rotate_half(q) * sin. With attention_factor 1 the numbers of
    generate.rope_rotate_half (a float32 product by 1 is exact)."""
    # (B, heads, S, dk), angles (S, dk/2)
    emb = torch.cat((angles, angles), dim=-1)  # (S, dk)
    cos = emb.cos() * attention_factor
    sin = emb.sin() * attention_factor
    return x * cos + rotate_half(x) * sin


def rope_interleaved_scaled(x, angles, attention_factor):
    """generate.rope_interleaved with the same attention factor on cos and sin (taken as in
    LlamaRotaryEmbedding.forward: cos = angles.cos() * attention_scaling)."""
    even, odd = x[..., 0::2], x[..., 1::2]  # (B, heads, S, dk/2)
    cos = angles.cos() * attention_factor
    sin = angles.sin() * attention_factor
    return torch.stack((even * cos - odd * sin, even * sin + odd * cos), dim=-1).flatten(-2)


def rope_meta_complex_scaled(x, angles, attention_factor):
    """Meta's torch.polar form with |freqs_cis| = attention_factor, for the check of the interleaved form."""
    freqs_cis = torch.polar(torch.full_like(angles, attention_factor), angles)
    x_ = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
    return torch.view_as_real(x_ * freqs_cis).flatten(-2)


# ------------------------------------------------------------ differential ----
def lambda_init_fn(depth):
    """multihead_diffattn.py lambda_init_fn (Python double)."""
    return 0.8 - 0.6 * math.exp(-0.3 * depth)


def unilm_rms_norm(x, weight, eps):
    """Diff-Transformer/rms_norm.py RMSNorm.forward: _norm(x.float()).type_as(x), then * weight
    (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)). DeepSeek-V3's RMSNorm (F.rms_norm, not in
    PyTorch 1.13) is the same formula."""
    output = (x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + eps)).type_as(x)
    return output * weight


def diff_attention(Q, K, V, H, apply_mask, lambdas, subln, depth, lambda_full=None):
    """MultiheadDiffAttn.forward from its q_proj / k_proj / v_proj outputs on (num_kv_heads = num_heads,
    no rel_pos: the rotary step is left out, see recent.py). apply_mask(scores (B, 2H, S, S_kv)) applies
    the config's mask as generate.py does; unilm adds a 0 / -inf float mask (torch.triu(..., 1)).
    `lambda_full`, when given, replaces λ (for the checks). Returns a dict of the stages."""
    bsz, tgt_len, embed_dim = Q.shape
    src_len = K.shape[1]
    head_dim = embed_dim // H // 2  # self.head_dim = embed_dim // num_heads // 2
    scaling = head_dim ** -0.5  # self.scaling
    lambda_init = lambda_init_fn(depth)
    # q = q.view(bsz, tgt_len, 2 * self.num_heads, self.head_dim); k likewise with num_kv_heads
    q = Q.view(bsz, tgt_len, 2 * H, head_dim)
    k = K.view(bsz, src_len, 2 * H, head_dim)
    # v = v.view(bsz, src_len, self.num_kv_heads, 2 * self.head_dim)
    v = V.view(bsz, src_len, H, 2 * head_dim)
    q = q.transpose(1, 2)  # (B, 2H, S, d)
    k = k.transpose(1, 2)  # repeat_kv(k.transpose(1, 2), 1)
    v = v.transpose(1, 2)  # (B, H, S_kv, 2d)
    unscaled = torch.matmul(q, k.transpose(-1, -2))  # shown only; the forward scales q first
    q = q * scaling  # q *= self.scaling
    attn_weights = torch.matmul(q, k.transpose(-1, -2))  # (B, 2H, S, S_kv)
    attn_weights = torch.nan_to_num(attn_weights)
    masked = apply_mask(attn_weights)  # attn_weights += attn_mask
    half_weights = F.softmax(masked, dim=-1, dtype=torch.float32).type_as(masked)
    lambda_q1, lambda_k1, lambda_q2, lambda_k2 = lambdas
    lambda_1 = torch.exp(torch.sum(lambda_q1 * lambda_k1, dim=-1).float()).type_as(q)
    lambda_2 = torch.exp(torch.sum(lambda_q2 * lambda_k2, dim=-1).float()).type_as(q)
    if lambda_full is None:
        lambda_full = lambda_1 - lambda_2 + lambda_init
    # attn_weights = attn_weights.view(bsz, self.num_heads, 2, tgt_len, src_len)
    paired = half_weights.view(bsz, H, 2, tgt_len, src_len)
    weights = paired[:, :, 0] - lambda_full * paired[:, :, 1]  # (B, H, S, S_kv)
    context = torch.matmul(weights, v)  # (B, H, S, 2d)
    normed = unilm_rms_norm(context, subln, 1e-5)  # self.subln = RMSNorm(2 * head_dim, eps=1e-5)
    scaled_context = normed * (1 - lambda_init)
    # attn.transpose(1, 2).reshape(bsz, tgt_len, self.num_heads * 2 * self.head_dim)
    concat = scaled_context.transpose(1, 2).reshape(bsz, tgt_len, H * 2 * head_dim)
    return {"unscaled": unscaled, "scaled": attn_weights, "masked": masked, "halfWeights": half_weights,
            "lambda1": lambda_1, "lambda2": lambda_2, "lambdaFull": lambda_full, "lambdaInit": lambda_init,
            "weights": weights, "context": context, "contextNorm": normed, "contextScaled": scaled_context,
            "concat": concat, "scaling": scaling, "headDim": head_dim, "v": v}


# --------------------------------------------------------------------- MLA ----
def deepseek_apply_rotary_emb(x, freqs_cis):
    """model.py apply_rotary_emb: pairs (2i, 2i+1) as complex numbers times freqs_cis (x: (B, S, heads, r))."""
    dtype = x.dtype
    x = torch.view_as_complex(x.float().view(*x.shape[:-1], -1, 2))
    freqs_cis = freqs_cis.view(1, x.size(1), 1, x.size(-1))
    y = torch.view_as_real(x * freqs_cis).flatten(3)
    return y.to(dtype)


def split_wkv_a(wkv_a, kv_rank):
    """wkv_a.weight.T [dModel, kvRank + ropeDim] -> (W_DKV [dModel, kvRank], W_KR [dModel, ropeDim]): columns
    [0, kvRank) are W_DKV, columns [kvRank, kvRank + ropeDim) are W_KR, the split of MLA.forward's
    `kv, k_pe = torch.split(kv, [self.kv_lora_rank, self.qk_rope_head_dim], dim=-1)`."""
    return wkv_a[:, :kv_rank].clone(), wkv_a[:, kv_rank:].clone()


def fuse_wkv_a(W_DKV, W_KR):
    """The inverse of split_wkv_a: wkv_a.weight.T = [W_DKV | W_KR]."""
    return torch.cat([W_DKV, W_KR], dim=1)


def split_wkv_b(wkv_b, H, nope, v_dim):
    """wkv_b.weight.T [kvRank, H·(nopeDim + valueDim)] -> (W_UK [kvRank, H·nopeDim], W_UV [kvRank, H·valueDim]),
    per head as MLA.forward's `kv.view(bsz, seqlen, self.n_local_heads, self.qk_nope_head_dim + self.v_head_dim)`
    and `torch.split(kv, [self.qk_nope_head_dim, self.v_head_dim], dim=-1)`: column h·(nopeDim + valueDim) + j is
    W_UK's column h·nopeDim + j for j < nopeDim, and W_UV's column h·valueDim + (j - nopeDim) otherwise."""
    per_head = wkv_b.reshape(wkv_b.shape[0], H, nope + v_dim)
    W_UK = per_head[..., :nope].reshape(wkv_b.shape[0], H * nope).clone()
    W_UV = per_head[..., nope:].reshape(wkv_b.shape[0], H * v_dim).clone()
    return W_UK, W_UV


def fuse_wkv_b(W_UK, W_UV, H):
    """The inverse of split_wkv_b: wkv_b.weight.T, per head [W_UK's head h | W_UV's head h]."""
    kv_rank = W_UK.shape[0]
    return torch.cat([W_UK.reshape(kv_rank, H, -1), W_UV.reshape(kv_rank, H, -1)], dim=-1).reshape(kv_rank, -1)


def mla_forward(x, w, H, kv_rank, nope, rope_dim, v_dim, rotate, apply_mask, softmax_scale, absorb):
    """MLA.forward with q_lora_rank = 0 (q = wq(x)), start_pos 0, world_size 1, the caches being this
    forward's keys. Weights as the issue names them, in the x·W convention: w["W_Q"] = wq.weight.T,
    w["W_DKV"] and w["W_KR"] the columns of wkv_a.weight.T (split_wkv_a), w["kv_norm"] = kv_norm.weight,
    w["W_UK"] and w["W_UV"] the per-head columns of wkv_b.weight.T (split_wkv_b), w["W_O"] = wo.weight.T;
    they are fused back (fuse_wkv_a, fuse_wkv_b) so the lines below are model.py's. rotate(x (B, S, heads, r))
    applies the RoPE. apply_mask(scores (B, S, H, S_kv)) applies the config's mask (DeepSeek adds a 0 / -inf
    float mask: scores += mask.unsqueeze(1)). absorb: attn_impl "absorb" instead of "naive". Returns a dict
    of the stages; scores / weights in DeepSeek's (B, S, H, S_kv)."""
    wkv_a = fuse_wkv_a(w["W_DKV"], w["W_KR"])  # self.wkv_a.weight.T
    wkv_b_t = fuse_wkv_b(w["W_UK"], w["W_UV"], H)  # self.wkv_b.weight.T
    bsz, seqlen, _ = x.size()
    qk_head_dim = nope + rope_dim
    out = {}
    q = x @ w["W_Q"]  # self.wq(x): F.linear(x, wq.weight)
    out["Q"] = q
    q = q.view(bsz, seqlen, H, qk_head_dim)
    q_nope, q_pe = torch.split(q, [nope, rope_dim], dim=-1)
    q_pe = rotate(q_pe)  # apply_rotary_emb(q_pe, freqs_cis)
    kv = x @ wkv_a  # self.wkv_a(x)
    kv, k_pe = torch.split(kv, [kv_rank, rope_dim], dim=-1)
    out["K_pe"] = k_pe
    k_pe = rotate(k_pe.unsqueeze(2))  # apply_rotary_emb(k_pe.unsqueeze(2), freqs_cis): (B, S, 1, r)
    out.update(latent=kv, Q_pe_rope=q_pe.reshape(bsz, seqlen, H * rope_dim), K_pe_rope=k_pe[:, :, 0])
    if not absorb:  # attn_impl == "naive"
        q = torch.cat([q_nope, q_pe], dim=-1)
        kv = unilm_rms_norm(kv, w["kv_norm"], 1e-6)  # self.kv_norm(kv)
        out["latentNorm"] = kv
        kv = kv @ wkv_b_t  # self.wkv_b(...)
        kv = kv.view(bsz, seqlen, H, nope + v_dim)
        k_nope, v = torch.split(kv, [nope, v_dim], dim=-1)
        k = torch.cat([k_nope, k_pe.expand(-1, -1, H, -1)], dim=-1)
        out.update(K=k.reshape(bsz, seqlen, H * qk_head_dim), V=v.reshape(bsz, seqlen, H * v_dim))
        k_cache, v_cache = k, v  # self.k_cache[:bsz, start_pos:end_pos] = k; self.v_cache ... = v
        out["cacheWidths"] = (k_cache.shape[-2] * k_cache.shape[-1], v_cache.shape[-2] * v_cache.shape[-1])
        unscaled = torch.einsum("bshd,bthd->bsht", q, k_cache)
        scores = unscaled * softmax_scale
    else:
        wkv_b = wkv_b_t.T  # self.wkv_b.weight (no fp8 scale)
        wkv_b = wkv_b.reshape(H, -1, kv_rank)  # wkv_b.view(self.n_local_heads, -1, self.kv_lora_rank)
        q_nope = torch.einsum("bshd,hdc->bshc", q_nope, wkv_b[:, :nope])
        out["Q_absorbed"] = q_nope.reshape(bsz, seqlen, H * kv_rank)
        kv_cache = unilm_rms_norm(kv, w["kv_norm"], 1e-6)  # self.kv_cache[...] = self.kv_norm(kv)
        pe_cache = k_pe.squeeze(2)  # self.pe_cache[...] = k_pe.squeeze(2)
        out["latentNorm"] = kv_cache
        out["cacheWidths"] = (kv_cache.shape[-1], pe_cache.shape[-1])
        unscaled = (torch.einsum("bshc,btc->bsht", q_nope, kv_cache)
                    + torch.einsum("bshr,btr->bsht", q_pe, pe_cache))
        scores = unscaled * softmax_scale
    out["unscaled"], out["scaled"] = unscaled, scores
    scores = apply_mask(scores)  # if mask is not None: scores += mask.unsqueeze(1)
    out["masked"] = scores
    scores = scores.softmax(dim=-1, dtype=torch.float32).type_as(x)
    out["weights"] = scores
    if not absorb:
        x = torch.einsum("bsht,bthd->bshd", scores, v_cache)
    else:
        x = torch.einsum("bsht,btc->bshc", scores, kv_cache)
        out["latentContext"] = x.reshape(bsz, seqlen, H * kv_rank)
        x = torch.einsum("bshc,hdc->bshd", x, wkv_b[:, -v_dim:])
    out["context"] = x  # (B, S, H, v)
    out["concat"] = x.flatten(2)
    out["output"] = x.flatten(2) @ w["W_O"]  # self.wo(x.flatten(2))
    return out
