"""Writes tiny random Llama and Qwen2 models as Hugging Face checkpoints and the forward PyTorch 1.13
computes on them, for tests/cpp/llama_test.cpp.

    /usr/bin/python3 tests/reference/llama/generate.py

checkpoints/NAME/config.json and model.safetensors (keys as LlamaForCausalLM's / Qwen2ForCausalLM's
state dict: model.embed_tokens.weight, model.layers.N.self_attn.q_proj.weight, ..., model.norm.weight,
lm_head.weight unless tie_word_embeddings):
    llama-f32       llama, grouped-query attention (4 heads, 2 key-value heads of 6), rope_theta 500000,
                    rms_norm_eps 1e-5, an untied lm_head
    llama-f16       the same weights rounded to float16
    qwen2-f32       qwen2, 2 heads of 8 sharing 1 key-value head, q/k/v biases, rope_theta 1000000,
                    tie_word_embeddings true (no lm_head.weight in the file)
    qwen2-bf16      the same weights rounded to bfloat16
    llama-sharded   llama with attention_bias true (q/k/v/o biases), tied embeddings, and the defaults of an
                    absent num_key_value_heads (= num_attention_heads) and rope_theta (10000), in two files
                    model-00001-of-00002.safetensors, model-00002-of-00002.safetensors and the
                    model.safetensors.index.json that maps each key to its file
fixtures/NAME.json  per id sequence, every tensor model.py's trace keeps, computed from the weights as
                    the file holds them (float16 / bfloat16 converted by torch)

The safetensors writer and the fixtures' JSON are tests/reference/gpt2/generate.py's.
"""
import json
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))

# gpt2/generate.py imports its own `model`: load it with the gpt2 folder first on the path, then
# forget that `model` so that this folder's model.py is the one imported below.
sys.path.insert(0, os.path.join(HERE, "..", "gpt2"))
import generate as gpt2  # noqa: E402

del sys.modules["model"]
sys.path.pop(0)
from model import LlamaConfig, forward  # noqa: E402

LLAMA = LlamaConfig(model_type="llama", num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                    hidden_size=24, intermediate_size=32, vocab_size=64, max_position_embeddings=64,
                    rms_norm_eps=1e-5, rope_theta=500000.0, tie_word_embeddings=False)
QWEN2 = LlamaConfig(model_type="qwen2", num_hidden_layers=2, num_attention_heads=2, num_key_value_heads=1,
                    hidden_size=16, intermediate_size=40, vocab_size=64, max_position_embeddings=64,
                    rms_norm_eps=1e-6, rope_theta=1000000.0, tie_word_embeddings=True)
LLAMA_BIASED = LlamaConfig(model_type="llama", num_hidden_layers=2, num_attention_heads=2, num_key_value_heads=2,
                           hidden_size=16, intermediate_size=24, vocab_size=48, max_position_embeddings=32,
                           rms_norm_eps=1e-6, rope_theta=10000.0, tie_word_embeddings=True, attention_bias=True)


def config_json(cfg, dtype, absent=()):
    """A config.json as the llama / qwen2 repositories write it (`absent`: fields left out, for their defaults)."""
    text = {
        "architectures": ["LlamaForCausalLM" if cfg.model_type == "llama" else "Qwen2ForCausalLM"],
        "model_type": cfg.model_type,
        "hidden_act": "silu",
        "hidden_size": cfg.hidden_size,
        "intermediate_size": cfg.intermediate_size,
        "num_hidden_layers": cfg.num_hidden_layers,
        "num_attention_heads": cfg.num_attention_heads,
        "num_key_value_heads": cfg.num_key_value_heads,
        "max_position_embeddings": cfg.max_position_embeddings,
        "rms_norm_eps": cfg.rms_norm_eps,
        "rope_theta": cfg.rope_theta,
        "rope_scaling": None,
        "tie_word_embeddings": cfg.tie_word_embeddings,
        "vocab_size": cfg.vocab_size,
        "torch_dtype": {torch.float32: "float32", torch.float16: "float16", torch.bfloat16: "bfloat16"}[dtype],
        "initializer_range": 0.02,
        "attention_dropout": 0.0,
        "use_cache": True,
        "bos_token_id": 1,
        "eos_token_id": 2,
    }
    if cfg.model_type == "llama":
        text.update(attention_bias=cfg.attention_bias, mlp_bias=False, pretraining_tp=1)
    else:
        text.update(use_sliding_window=False, sliding_window=cfg.max_position_embeddings,
                    max_window_layers=cfg.num_hidden_layers)
    for key in absent:
        del text[key]
    return text


def random_params(cfg, seed):
    """The checkpoint's tensors (nn.Linear weights [out, in]), drawn wider than the models' own initialisation
    (std 0.02, RMSNorm weights 1, zero biases) so that every weight, bias and norm weight moves the output."""
    torch.manual_seed(seed)
    d, inner, V = cfg.hidden_size, cfg.intermediate_size, cfg.vocab_size
    q, kv = cfg.num_attention_heads * cfg.head_dim, cfg.num_key_value_heads * cfg.head_dim

    def draw(*shape, std=1.0, mean=0.0):
        return mean + std * torch.randn(*shape)

    p = {"model.embed_tokens.weight": draw(V, d, std=0.5)}
    for i in range(cfg.num_hidden_layers):
        h = f"model.layers.{i}."
        p[h + "input_layernorm.weight"] = draw(d, std=0.2, mean=1.0)
        for name, rows in (("q_proj", q), ("k_proj", kv), ("v_proj", kv)):
            p[h + f"self_attn.{name}.weight"] = draw(rows, d, std=0.3)
            if cfg.qkv_bias:
                p[h + f"self_attn.{name}.bias"] = draw(rows, std=0.2)
        p[h + "self_attn.o_proj.weight"] = draw(d, q, std=0.3)
        if cfg.o_bias:
            p[h + "self_attn.o_proj.bias"] = draw(d, std=0.1)
        p[h + "post_attention_layernorm.weight"] = draw(d, std=0.2, mean=1.0)
        p[h + "mlp.gate_proj.weight"] = draw(inner, d, std=0.3)
        p[h + "mlp.up_proj.weight"] = draw(inner, d, std=0.3)
        p[h + "mlp.down_proj.weight"] = draw(d, inner, std=0.25)
    p["model.norm.weight"] = draw(d, std=0.2, mean=1.0)
    if not cfg.tie_word_embeddings:
        p["lm_head.weight"] = draw(V, d, std=0.4)
    return p


def write_checkpoint(name, cfg, params, dtype, sequences, shards=1, absent=()):
    folder = os.path.join(HERE, "checkpoints", name)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config_json(cfg, dtype, absent), f, indent=2)
        f.write("\n")
    stored = {k: v.to(dtype) for k, v in params.items()}
    if shards == 1:
        gpt2.write_safetensors(os.path.join(folder, "model.safetensors"), stored, {"format": "pt"})
    else:
        # Consecutive keys per file, as save_pretrained splits a state dict; the index maps each key to its file.
        keys = list(stored)
        per = (len(keys) + shards - 1) // shards
        weight_map = {}
        for s in range(shards):
            file = "model-%05d-of-%05d.safetensors" % (s + 1, shards)
            part = {k: stored[k] for k in keys[s * per : (s + 1) * per]}
            gpt2.write_safetensors(os.path.join(folder, file), part, {"format": "pt"})
            weight_map.update({k: file for k in part})
        total = sum(v.numel() * v.element_size() for v in stored.values())
        with open(os.path.join(folder, "model.safetensors.index.json"), "w") as f:
            json.dump({"metadata": {"total_size": total}, "weight_map": weight_map}, f, indent=2)
            f.write("\n")
    # The forward reads the file's numbers: float16 / bfloat16 converted to float32 by torch.
    read_back = {k: v.float() for k, v in stored.items()}
    runs = [gpt2.trace_json(ids, forward(read_back, cfg, ids)) for ids in sequences]
    os.makedirs(os.path.join(HERE, "fixtures"), exist_ok=True)
    with open(os.path.join(HERE, "fixtures", name + ".json"), "w") as f:
        f.write('{"checkpoint": "%s", "dtype": "%s", "runs": [\n%s]}\n' % (name, gpt2.DTYPES[dtype], ",\n".join(runs)))


def main():
    eight = [0, 63, 7, 7, 21, 42, 1, 30]
    seven = eight[1:]
    g = torch.Generator().manual_seed(2)
    random_ids = torch.randint(0, 48, (10,), generator=g).tolist()
    llama = random_params(LLAMA, seed=0)
    write_checkpoint("llama-f32", LLAMA, llama, torch.float32, sequences=[[5], seven])
    write_checkpoint("llama-f16", LLAMA, llama, torch.float16, sequences=[seven])
    qwen2 = random_params(QWEN2, seed=1)
    write_checkpoint("qwen2-f32", QWEN2, qwen2, torch.float32, sequences=[eight])
    write_checkpoint("qwen2-bf16", QWEN2, qwen2, torch.bfloat16, sequences=[eight])
    biased = random_params(LLAMA_BIASED, seed=3)
    write_checkpoint("llama-sharded", LLAMA_BIASED, biased, torch.float32, sequences=[random_ids], shards=2,
                     absent=("num_key_value_heads", "rope_theta"))


if __name__ == "__main__":
    main()
