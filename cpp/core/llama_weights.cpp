#include "llama_weights.h"

#include <string>

#include "safetensors.h"

namespace attention_lab {

std::vector<WeightSlot> llamaWeightSlots(const LlamaConfig& c, LlamaWeights& w) {
  const int64_t d = c.hiddenSize, q = c.nHead * c.headDim(), kv = c.nKvHead * c.headDim(), inner = c.intermediateSize;
  w.layers.resize(static_cast<size_t>(c.nLayer));
  std::vector<WeightSlot> slots = {{"model.embed_tokens.weight", {c.vocabSize, d}, &w.embedTokens}};
  for (size_t i = 0; i < w.layers.size(); ++i) {
    const std::string h = "model.layers." + std::to_string(i) + ".";
    LlamaWeights::Layer& l = w.layers[i];
    slots.push_back({h + "input_layernorm.weight", {d}, &l.inputLayernorm});
    const struct {
      const char* name;
      int64_t rows;
      Tensor *weight, *bias;
    } projections[] = {{"q_proj", q, &l.qWeight, &l.qBias},
                       {"k_proj", kv, &l.kWeight, &l.kBias},
                       {"v_proj", kv, &l.vWeight, &l.vBias}};
    for (const auto& p : projections) {
      const std::string key = h + "self_attn." + p.name;
      slots.push_back({key + ".weight", {p.rows, d}, p.weight});
      if (c.qkvBias()) slots.push_back({key + ".bias", {p.rows}, p.bias});
    }
    slots.push_back({h + "self_attn.o_proj.weight", {d, q}, &l.oWeight});
    if (c.oBias()) slots.push_back({h + "self_attn.o_proj.bias", {d}, &l.oBias});
    slots.push_back({h + "post_attention_layernorm.weight", {d}, &l.postAttentionLayernorm});
    slots.push_back({h + "mlp.gate_proj.weight", {inner, d}, &l.gateWeight});
    slots.push_back({h + "mlp.up_proj.weight", {inner, d}, &l.upWeight});
    slots.push_back({h + "mlp.down_proj.weight", {d, inner}, &l.downWeight});
  }
  slots.push_back({"model.norm.weight", {d}, &w.norm});
  if (!c.tieWordEmbeddings) slots.push_back({"lm_head.weight", {c.vocabSize, d}, &w.lmHead});
  return slots;
}

Status readLlamaWeights(const LlamaConfig& config, const uint8_t* bytes, size_t size, LlamaWeights& out) {
  SafetensorsFile file;
  if (Status s = file.open(bytes, size)) return s;
  LlamaWeights w;
  if (Status s = readWeightSlots(file, llamaWeightSlots(config, w))) return s;
  out = std::move(w);
  return {};
}

}  // namespace attention_lab
