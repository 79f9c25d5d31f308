#include "head_inputs.h"

#include <initializer_list>

#include "errors.h"
#include "validate.h"

namespace attention_lab {

TensorSet headInputTensors() {
  TensorSet set;
  for (const char* name : {"Q", "K", "V", "Q_norm", "K_norm", "Q_rope", "K_rope"}) set.add(name);
  return set;
}

HeadInputs headInputsOf(const AttentionResult& r) {
  // The last of the names the run has.
  const auto last = [&](std::initializer_list<const char*> names) {
    const Tensor* found = nullptr;
    for (const char* name : names)
      if (const Tensor* t = r.find(name)) found = t;
    return found;
  };
  HeadInputs in;
  in.q = last({"Q", "Q_norm", "Q_rope"});
  in.k = last({"K", "K_norm", "K_rope"});
  in.v = r.find("V");
  in.S = r.sizes.S;
  in.Skv = r.sizes.Skv;
  in.H = r.sizes.H;
  in.dk = r.headDim;
  in.Hkv = r.sizes.Hkv;  // K holds H_kv·dk columns (H·dk without grouped-query attention)
  return in;
}

Status checkStepperModel(const AttentionConfig& c) {
  if (c.model == ModelKind::Attention && !c.isDiff() && !c.isMla()) return {};
  if (c.model == ModelKind::Attention) {
    // A config the run would refuse names its own field first; a valid one is refused for its two maps, or
    // for MLA's latent cache, which holds no K and V per head to step.
    if (Status s = validateConfig(c)) return s;
    if (c.isMla()) return fieldError("mla.kvRank", "stepper-without-mla");
    return fieldError("diff.depth", "stepper-without-diff");
  }
  if (c.model == ModelKind::Checkpoint) return fieldError("model", "model-checkpoint-files");
  return fieldError("model", "stepper-needs-attention-model", {});
}

}  // namespace attention_lab
