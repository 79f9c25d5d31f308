"""The Llama and Qwen2 forward in plain PyTorch 1.13, module by module as Hugging Face's
src/transformers/models/llama/modeling_llama.py (huggingface/transformers at commit
5dd4a63548857797727ae73eeb6a6e886ea02a3e) and src/transformers/models/qwen2/modeling_qwen2.py
(at commit 00d4b3d2142cb4ced2f51b90614b5d26bc045015) compute it; the quoted lines below are
from those files. The default RoPE frequencies are quoted from Qwen2RotaryEmbedding's
compute_default_rope_parameters; LlamaRotaryEmbedding takes them from modeling_rope_utils.py's
ROPE_INIT_FUNCTIONS (not quoted here), which computes the same. Only what a LlamaForCausalLM
or Qwen2ForCausalLM runs in eval mode on one sequence without a cache, with the eager attention:
no dropout, no rope_scaling, no sliding window, no past keys.

The two families differ only in their linear layers' biases:
    Llama  q_proj, k_proj, v_proj, o_proj: nn.Linear(..., bias=config.attention_bias)   (False by default)
    Qwen2  q_proj, k_proj, v_proj: bias=True; o_proj: bias=False
and in their defaults (config.json gives every value these checkpoints need).

Every intermediate the engine keeps is recorded in `trace` (a dict per layer), so that
generate.py can write it as the fixture tests/cpp/llama_test.cpp compares with. Names follow
tests/reference/gpt2/model.py where the meaning is the same (Q, K, V, scores, scaled, weights,
headOutputs, concat, attnOut, residual, mlpAct, mlpOut, output); Q and K are after RoPE, K and V
per key-value head (n_kv, T, hd) as the model holds them, before repeat_kv.
"""
import torch


class LlamaConfig:
    """The fields of a llama / qwen2 config.json that the forward reads."""

    def __init__(self, model_type, num_hidden_layers, num_attention_heads, num_key_value_heads, hidden_size,
                 intermediate_size, vocab_size, max_position_embeddings, rms_norm_eps, rope_theta,
                 tie_word_embeddings, attention_bias=False):
        self.model_type = model_type
        self.num_hidden_layers = num_hidden_layers
        self.num_attention_heads = num_attention_heads
        self.num_key_value_heads = num_key_value_heads
        self.hidden_size = hidden_size
        self.intermediate_size = intermediate_size
        self.vocab_size = vocab_size
        self.max_position_embeddings = max_position_embeddings
        self.rms_norm_eps = rms_norm_eps
        self.rope_theta = rope_theta
        self.tie_word_embeddings = tie_word_embeddings
        self.attention_bias = attention_bias
        # LlamaAttention / Qwen2Attention: self.head_dim = getattr(config, "head_dim", config.hidden_size // config.num_attention_heads)
        self.head_dim = hidden_size // num_attention_heads

    @property
    def qkv_bias(self):
        return self.model_type == "qwen2" or self.attention_bias

    @property
    def o_bias(self):
        return self.model_type == "llama" and self.attention_bias


def linear(x, p, name, bias):
    # nn.Linear(in, out, bias=...): y = x @ W.T (+ b), W [out, in]
    return torch.nn.functional.linear(x, p[name + ".weight"], p[name + ".bias"] if bias else None)


def rms_norm(x, weight, eps):
    # LlamaRMSNorm.forward / Qwen2RMSNorm.forward:
    #   input_dtype = hidden_states.dtype
    #   hidden_states = hidden_states.to(torch.float32)
    #   variance = hidden_states.pow(2).mean(-1, keepdim=True)
    #   hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
    #   return self.weight * hidden_states.to(input_dtype)
    input_dtype = x.dtype
    x = x.to(torch.float32)
    variance = x.pow(2).mean(-1, keepdim=True)
    x = x * torch.rsqrt(variance + eps)
    return weight * x.to(input_dtype)


def rotary_cos_sin(cfg, T):
    """LlamaRotaryEmbedding / Qwen2RotaryEmbedding, default rope type, positions 0..T-1: (T, hd) each."""
    dim = cfg.head_dim
    # compute_default_rope_parameters:
    #   inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).to(device=device, dtype=torch.float) / dim))
    inv_freq = 1.0 / (cfg.rope_theta ** (torch.arange(0, dim, 2, dtype=torch.int64).to(dtype=torch.float) / dim))
    # forward (position_ids = cache_position.unsqueeze(0) = arange(T) without a cache):
    #   inv_freq_expanded = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
    #   position_ids_expanded = position_ids[:, None, :].float()
    #   freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
    #   emb = torch.cat((freqs, freqs), dim=-1)
    #   cos = emb.cos() * self.attention_scaling        # 1.0 for the default rope type
    #   sin = emb.sin() * self.attention_scaling
    position_ids = torch.arange(0, T, dtype=torch.long).unsqueeze(0)
    inv_freq_expanded = inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
    position_ids_expanded = position_ids[:, None, :].float()
    freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin()  # (1, T, hd); the default rope type's attention_scaling is 1.0


def rotate_half(x):
    # x1 = x[..., : x.shape[-1] // 2]; x2 = x[..., x.shape[-1] // 2 :]; return torch.cat((-x2, x1), dim=-1)
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def repeat_kv(hidden_states, n_rep):
    # (batch, num_key_value_heads, seqlen, head_dim) -> (batch, num_attention_heads, seqlen, head_dim)
    batch, num_key_value_heads, slen, head_dim = hidden_states.shape
    if n_rep == 1:
        return hidden_states
    hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
    return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)


def causal_mask(T, dtype):
    # LlamaModel._prepare_4d_causal_attention_mask_with_cache_position, no padding mask, no cache:
    #   causal_mask = torch.full((sequence_length, target_length), fill_value=min_dtype, dtype=dtype, device=device)
    #   if sequence_length != 1:
    #       causal_mask = torch.triu(causal_mask, diagonal=1)
    #   causal_mask *= torch.arange(target_length, device=device) > cache_position.reshape(-1, 1)
    # (target_length is T + 1 there; the attention slices it to the T keys: attention_mask[:, :, :, : key_states.shape[-2]])
    min_dtype = torch.finfo(dtype).min
    cache_position = torch.arange(T)
    mask = torch.full((T, T + 1), fill_value=min_dtype, dtype=dtype)
    if T != 1:
        mask = torch.triu(mask, diagonal=1)
    mask *= torch.arange(T + 1) > cache_position.reshape(-1, 1)
    return mask[None, None, :, :T]


def attention(p, x, cos, sin, cfg, trace):
    """LlamaAttention.forward / Qwen2Attention.forward and eager_attention_forward, batch 1. x: (1, T, d)."""
    nh, nkv, hd = cfg.num_attention_heads, cfg.num_key_value_heads, cfg.head_dim
    T = x.size(1)
    # hidden_shape = (*input_shape, -1, self.head_dim)
    # query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
    # key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
    # value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
    hidden_shape = (1, T, -1, hd)
    query = linear(x, p, "self_attn.q_proj", cfg.qkv_bias).view(hidden_shape).transpose(1, 2)  # (1, nh, T, hd)
    key = linear(x, p, "self_attn.k_proj", cfg.qkv_bias).view(hidden_shape).transpose(1, 2)  # (1, nkv, T, hd)
    value = linear(x, p, "self_attn.v_proj", cfg.qkv_bias).view(hidden_shape).transpose(1, 2)
    trace.update(qBeforeRope=query[0], kBeforeRope=key[0])
    # apply_rotary_pos_emb: cos = cos.unsqueeze(unsqueeze_dim); sin = sin.unsqueeze(unsqueeze_dim)
    #   q_embed = (q * cos) + (rotate_half(q) * sin)
    #   k_embed = (k * cos) + (rotate_half(k) * sin)
    c, s = cos.unsqueeze(1), sin.unsqueeze(1)
    query = (query * c) + (rotate_half(query) * s)
    key = (key * c) + (rotate_half(key) * s)
    trace.update(Q=query[0], K=key[0], V=value[0])
    # eager_attention_forward:
    #   key_states = repeat_kv(key, module.num_key_value_groups)
    #   value_states = repeat_kv(value, module.num_key_value_groups)
    #   attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling     # scaling = self.head_dim**-0.5
    #   if attention_mask is not None:
    #       causal_mask = attention_mask[:, :, :, : key_states.shape[-2]]
    #       attn_weights = attn_weights + causal_mask
    #   attn_weights = nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype)
    #   attn_output = torch.matmul(attn_weights, value_states)
    #   attn_output = attn_output.transpose(1, 2).contiguous()
    key_states = repeat_kv(key, nh // nkv)
    value_states = repeat_kv(value, nh // nkv)
    scores = torch.matmul(query, key_states.transpose(2, 3))
    scaled = scores * hd**-0.5
    masked = scaled + causal_mask(T, scaled.dtype)
    weights = torch.nn.functional.softmax(masked, dim=-1, dtype=torch.float32).to(query.dtype)
    head_out = torch.matmul(weights, value_states)
    # attn_output = attn_output.reshape(*input_shape, -1).contiguous()
    # attn_output = self.o_proj(attn_output)
    concat = head_out.transpose(1, 2).contiguous().reshape(1, T, -1).contiguous()
    out = linear(concat, p, "self_attn.o_proj", cfg.o_bias)
    trace.update(scores=scores[0], scaled=scaled[0], weights=weights[0], headOutputs=head_out[0], concat=concat[0])
    trace.update(attnOut=out[0])
    return out


def decoder_layer(p, x, cos, sin, cfg, trace):
    """LlamaDecoderLayer.forward / Qwen2DecoderLayer.forward."""
    # residual = hidden_states; hidden_states = self.input_layernorm(hidden_states)
    h = rms_norm(x, p["input_layernorm.weight"], cfg.rms_norm_eps)
    trace.update(norm1=h[0])
    # hidden_states = residual + hidden_states
    x = x + attention(p, h, cos, sin, cfg, trace)
    trace.update(residual=x[0])
    # residual = hidden_states; hidden_states = self.post_attention_layernorm(hidden_states)
    h = rms_norm(x, p["post_attention_layernorm.weight"], cfg.rms_norm_eps)
    trace.update(norm2=h[0])
    # LlamaMLP.forward / Qwen2MLP.forward (act_fn = ACT2FN["silu"], nn.SiLU):
    #   down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
    gate = linear(h, p, "mlp.gate_proj", False)
    up = linear(h, p, "mlp.up_proj", False)
    act = torch.nn.functional.silu(gate)
    gated = act * up
    mlp = linear(gated, p, "mlp.down_proj", False)
    trace.update(mlpGate=gate[0], mlpUp=up[0], mlpAct=act[0], mlpGated=gated[0], mlpOut=mlp[0])
    # hidden_states = residual + hidden_states
    x = x + mlp
    trace.update(output=x[0])
    return x


def forward(params, cfg, ids):
    """LlamaForCausalLM / Qwen2ForCausalLM.forward on one sequence: params by key as the file spells them
    (lm_head.weight absent when tied), ids a list. Returns the trace {name: tensor, "layers": [{name: tensor}]}."""
    with torch.no_grad():
        input_ids = torch.tensor([ids], dtype=torch.long)
        T = len(ids)
        # inputs_embeds = self.embed_tokens(input_ids); hidden_states = inputs_embeds
        x = torch.nn.functional.embedding(input_ids, params["model.embed_tokens.weight"])
        # position_embeddings = self.rotary_emb(hidden_states, position_ids)
        cos, sin = rotary_cos_sin(cfg, T)
        trace = {"tokenEmbeddings": x[0], "ropeCos": cos[0], "ropeSin": sin[0], "layers": []}
        for i in range(cfg.num_hidden_layers):
            layer = {}
            prefix = f"model.layers.{i}."
            layer_params = {k[len(prefix) :]: v for k, v in params.items() if k.startswith(prefix)}
            x = decoder_layer(layer_params, x, cos, sin, cfg, layer)
            trace["layers"].append(layer)
        # hidden_states = self.norm(hidden_states)
        x = rms_norm(x, params["model.norm.weight"], cfg.rms_norm_eps)
        # logits = self.lm_head(hidden_states[:, slice_indices, :]): nn.Linear(hidden_size, vocab_size, bias=False),
        # its weight tied to embed_tokens when config.tie_word_embeddings
        head = params["model.embed_tokens.weight"] if cfg.tie_word_embeddings else params["lm_head.weight"]
        logits = torch.nn.functional.linear(x, head)
        trace.update(normF=x[0], logits=logits[0], probs=torch.softmax(logits[0, -1], dim=-1))
        return trace
