#include "gpt2_weights.h"

#include "safetensors.h"

namespace attention_lab {
namespace {

// One tensor of the file: its key (after the prefix), its shape, where it goes.
struct Slot {
  std::string key;
  std::vector<int64_t> shape;
  Tensor* into;
};

// The checkpoint's tensors in the order of GPT2LMHeadModel's state dict.
std::vector<Slot> slotsOf(const Gpt2Config& c, Gpt2Weights& w) {
  const int64_t d = c.nEmbd, inner = c.nInner;
  std::vector<Slot> slots = {{"wte.weight", {c.vocabSize, d}, &w.wte}, {"wpe.weight", {c.nPositions, d}, &w.wpe}};
  for (size_t i = 0; i < w.layers.size(); ++i) {
    const std::string h = "h." + std::to_string(i) + ".";
    Gpt2Weights::Layer& l = w.layers[i];
    const std::vector<Slot> layer = {
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
  return slots;
}

}  // namespace

Status readGpt2Weights(const Gpt2Config& config, const uint8_t* bytes, size_t size, Gpt2Weights& out) {
  SafetensorsFile file;
  if (Status s = file.open(bytes, size)) return s;
  Gpt2Weights w;
  // GPT2Model's keys, or GPT2LMHeadModel's under its base_model_prefix "transformer".
  w.prefix = !file.has("wte.weight") && file.has("transformer.wte.weight") ? "transformer." : "";
  w.layers.resize(static_cast<size_t>(config.nLayer));
  for (const Slot& slot : slotsOf(config, w)) {
    const std::string name = w.prefix + slot.key;
    if (Status s = file.read({name, slot.shape}, StoredFloats::F32F16BF16, *slot.into)) return s;
    if (Status s = requireFinite(name, slot.into->data)) return s;
  }
  out = std::move(w);
  return {};
}

}  // namespace attention_lab
