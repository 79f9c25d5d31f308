"""GPT-2's forward in plain PyTorch 1.13, module by module as Hugging Face's
src/transformers/models/gpt2/modeling_gpt2.py computes it (huggingface/transformers
at commit 0010f60284ab4b9d14b7df9c6525b1a2ad44e640, the release line of PyTorch 1.13;
the quoted lines below are from that file, from pytorch_utils.py's Conv1D and from
activations.py's NewGELUActivation). Only what a GPT2LMHeadModel runs in eval mode
on one sequence without a cache: no dropout, no cross-attention, no past keys.

Every intermediate the engine keeps is recorded in `trace` (a dict per layer),
so that generate.py can write it as the fixture tests/cpp/gpt2_test.cpp compares with.
"""
import math

import torch


class Gpt2Config:
    def __init__(self, n_layer, n_head, n_embd, n_positions, vocab_size, layer_norm_epsilon=1e-5, n_inner=None):
        self.n_layer = n_layer
        self.n_head = n_head
        self.n_embd = n_embd
        self.n_positions = n_positions
        self.vocab_size = vocab_size
        self.layer_norm_epsilon = layer_norm_epsilon
        self.n_inner = n_inner if n_inner is not None else 4 * n_embd  # GPT2Block: 4 * hidden_size when None

    def to_json(self):
        # The fields of a config.json of the gpt2 repository that the forward reads.
        return {
            "model_type": "gpt2",
            "architectures": ["GPT2LMHeadModel"],
            "activation_function": "gelu_new",
            "n_layer": self.n_layer,
            "n_head": self.n_head,
            "n_embd": self.n_embd,
            "n_positions": self.n_positions,
            "n_ctx": self.n_positions,
            "n_inner": None,
            "vocab_size": self.vocab_size,
            "layer_norm_epsilon": self.layer_norm_epsilon,
            "scale_attn_weights": True,
            "scale_attn_by_inverse_layer_idx": False,
            "reorder_and_upcast_attn": False,
        }


def conv1d(x, weight, bias):
    # Conv1D.forward (pytorch_utils.py): the weight is [in, out], y = x @ W + b
    #   size_out = x.size()[:-1] + (self.nf,)
    #   x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
    #   x = x.view(size_out)
    size_out = x.size()[:-1] + (weight.size(1),)
    return torch.addmm(bias, x.view(-1, x.size(-1)), weight).view(size_out)


def layer_norm(x, weight, bias, eps):
    # nn.LayerNorm(hidden_size, eps=config.layer_norm_epsilon)
    return torch.nn.functional.layer_norm(x, (x.size(-1),), weight, bias, eps)


def gelu_new(x):
    # NewGELUActivation.forward (activations.py):
    #   0.5 * input * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (input + 0.044715 * torch.pow(input, 3.0))))
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


def attention(p, x, cfg, trace):
    """GPT2Attention.forward and _attn, batch 1, no cache. x: (1, T, d)."""
    d, nh = cfg.n_embd, cfg.n_head
    hs = d // nh
    # query, key, value = self.c_attn(hidden_states).split(self.split_size, dim=2)
    query, key, value = conv1d(x, p["attn.c_attn.weight"], p["attn.c_attn.bias"]).split(d, dim=2)

    # _split_heads: tensor.view(size()[:-1] + (num_heads, attn_head_size)).permute(0, 2, 1, 3)
    def split_heads(t):
        return t.view(t.size()[:-1] + (nh, hs)).permute(0, 2, 1, 3)  # (1, nh, T, hs)

    query, key, value = split_heads(query), split_heads(key), split_heads(value)
    trace.update(Q=query[0], K=key[0], V=value[0])
    # _attn: attn_weights = torch.matmul(query, key.transpose(-1, -2))
    scores = torch.matmul(query, key.transpose(-1, -2))
    # if self.scale_attn_weights:
    #     attn_weights = attn_weights / torch.full([], value.size(-1) ** 0.5, dtype=attn_weights.dtype, ...)
    scaled = scores / torch.full([], value.size(-1) ** 0.5, dtype=scores.dtype)
    # causal_mask = self.bias[:, :, key_length - query_length : key_length, :key_length]   (a tril of ones)
    # mask_value = torch.finfo(attn_weights.dtype).min
    # attn_weights = torch.where(causal_mask, attn_weights.to(attn_weights.dtype), mask_value)
    T = x.size(1)
    causal_mask = torch.tril(torch.ones((T, T), dtype=torch.bool)).view(1, 1, T, T)
    mask_value = torch.full([], torch.finfo(scaled.dtype).min, dtype=scaled.dtype)
    masked = torch.where(causal_mask, scaled, mask_value)
    # attn_weights = nn.functional.softmax(attn_weights, dim=-1)
    weights = torch.nn.functional.softmax(masked, dim=-1)
    # attn_output = torch.matmul(attn_weights, value)
    head_out = torch.matmul(weights, value)
    # _merge_heads: tensor.permute(0, 2, 1, 3).contiguous().view(size()[:-2] + (num_heads * attn_head_size,))
    concat = head_out.permute(0, 2, 1, 3).contiguous().view(1, T, d)
    # attn_output = self.c_proj(attn_output)
    out = conv1d(concat, p["attn.c_proj.weight"], p["attn.c_proj.bias"])
    trace.update(scores=scores[0], scaled=scaled[0], weights=weights[0], headOutputs=head_out[0], concat=concat[0])
    trace.update(attnOut=out[0])
    return out


def block(p, x, cfg, trace):
    """GPT2Block.forward."""
    # residual = hidden_states; hidden_states = self.ln_1(hidden_states)
    h = layer_norm(x, p["ln_1.weight"], p["ln_1.bias"], cfg.layer_norm_epsilon)
    trace.update(ln1=h[0])
    # hidden_states = attn_output + residual
    x = attention(p, h, cfg, trace) + x
    trace.update(residual=x[0])
    # residual = hidden_states; hidden_states = self.ln_2(hidden_states)
    h = layer_norm(x, p["ln_2.weight"], p["ln_2.bias"], cfg.layer_norm_epsilon)
    trace.update(ln2=h[0])
    # GPT2MLP.forward: c_fc, act, c_proj
    act = gelu_new(conv1d(h, p["mlp.c_fc.weight"], p["mlp.c_fc.bias"]))
    mlp = conv1d(act, p["mlp.c_proj.weight"], p["mlp.c_proj.bias"])
    trace.update(mlpAct=act[0], mlpOut=mlp[0])
    # hidden_states = residual + feed_forward_hidden_states
    x = x + mlp
    trace.update(output=x[0])
    return x


def forward(params, cfg, ids):
    """GPT2LMHeadModel.forward on one sequence: params by key without the prefix, ids a list.
    Returns the trace {name: tensor, "layers": [{name: tensor}]}."""
    with torch.no_grad():
        input_ids = torch.tensor([ids], dtype=torch.long)
        T = len(ids)
        position_ids = torch.arange(0, T, dtype=torch.long).unsqueeze(0)
        # inputs_embeds = self.wte(input_ids); position_embeds = self.wpe(position_ids)
        # hidden_states = inputs_embeds + position_embeds
        tok = torch.nn.functional.embedding(input_ids, params["wte.weight"])
        pos = torch.nn.functional.embedding(position_ids, params["wpe.weight"])
        x = tok + pos
        trace = {"tokenEmbeddings": tok[0], "positionEmbeddings": pos[0], "residual0": x[0], "layers": []}
        for i in range(cfg.n_layer):
            layer = {}
            prefix = f"h.{i}."
            layer_params = {k[len(prefix) :]: v for k, v in params.items() if k.startswith(prefix)}
            x = block(layer_params, x, cfg, layer)
            trace["layers"].append(layer)
        # hidden_states = self.ln_f(hidden_states)
        x = layer_norm(x, params["ln_f.weight"], params["ln_f.bias"], cfg.layer_norm_epsilon)
        # lm_logits = self.lm_head(hidden_states): nn.Linear(n_embd, vocab_size, bias=False), tied to wte
        logits = torch.nn.functional.linear(x, params["wte.weight"])
        trace.update(lnF=x[0], logits=logits[0], probs=torch.softmax(logits[0, -1], dim=-1))
        return trace
