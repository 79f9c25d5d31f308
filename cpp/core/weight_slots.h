// A checkpoint's tensors as a model family wants them: each key as the file
// spells it, the shape the config implies, and the float32 tensor it fills.
// One list per family (gpt2_weights.h, ...) serves both ways of reading: a
// whole safetensors file in memory (readWeightSlots, the native tests) and the
// page's and CLI's slices, read tensor by tensor (checkpoint_loader.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config.h"
#include "safetensors.h"
#include "status.h"

namespace attention_lab {

struct WeightSlot {
  std::string key;             // as the file spells it, prefix included: "h.0.attn.c_attn.weight"
  std::vector<int64_t> shape;  // what the config implies
  Tensor* into;                // filled with float32 values
};

// Every slot from `file` (F32, F16 or BF16 converted), each checked finite.
Status readWeightSlots(const SafetensorsFile& file, const std::vector<WeightSlot>& slots);

}  // namespace attention_lab
