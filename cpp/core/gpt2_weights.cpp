#include "gpt2_weights.h"

#include "safetensors.h"

namespace attention_lab {

std::vector<WeightSlot> gpt2WeightSlots(const Gpt2Config& c, Gpt2Weights& w) {
  const int64_t d = c.nEmbd, inner = c.nInner;
  w.layers.resize(static_cast<size_t>(c.nLayer));
  std::vector<WeightSlot> slots = {{"wte.weight", {c.vocabSize, d}, &w.wte}, {"wpe.weight", {c.nPositions, d}, &w.wpe}};
  for (size_t i = 0; i < w.layers.size(); ++i) {
    const std::string h = "h." + std::to_string(i) + ".";
    Gpt2Weights::Layer& l = w.layers[i];
    const std::vector<WeightSlot> layer = {
        {h + "ln_1.weight", {d}, &l.ln1Weight},
        {h + "ln_1.bias", {d}, &l.ln1Bias},
        {h + "attn.c_attn.weight", {d, 3 * d}, &l.attnWeight},
        {h + "attn.c_attn.bias", {3 * d}, &l.attnBias},
        {h + "attn.c_proj.weight", {d, d}, &l.projWeight},
        {h + "attn.c_proj.bias", {d}, &l.projBias},
        {h + "ln_2.weight", {d}, &l.ln2Weight},
        {h + "ln_2.bias", {d}, &l.ln2Bias},
        {h + "mlp.c_fc.weight", {d, inner}, &l.fcWeight},
        {h + "mlp.c_fc.bias", {inner}, &l.fcBias},
        {h + "mlp.c_proj.weight", {inner, d}, &l.fcProjWeight},
        {h + "mlp.c_proj.bias", {d}, &l.fcProjBias},
    };
    slots.insert(slots.end(), layer.begin(), layer.end());
  }
  slots.push_back({"ln_f.weight", {d}, &w.lnFWeight});
  slots.push_back({"ln_f.bias", {d}, &w.lnFBias});
  for (WeightSlot& slot : slots) slot.key = w.prefix + slot.key;
  return slots;
}

std::string gpt2KeyPrefix(const std::function<bool(const std::string&)>& has) {
  return !has("wte.weight") && has("transformer.wte.weight") ? "transformer." : "";
}

Status readGpt2Weights(const Gpt2Config& config, const uint8_t* bytes, size_t size, Gpt2Weights& out) {
  SafetensorsFile file;
  if (Status s = file.open(bytes, size)) return s;
  Gpt2Weights w;
  w.prefix = gpt2KeyPrefix([&](const std::string& key) { return file.has(key); });
  if (Status s = readWeightSlots(file, gpt2WeightSlots(config, w))) return s;
  out = std::move(w);
  return {};
}

}  // namespace attention_lab
