#include "weight_slots.h"

namespace attention_lab {

Status readWeightSlots(const SafetensorsFile& file, const std::vector<WeightSlot>& slots) {
  for (const WeightSlot& slot : slots) {
    if (Status s = file.read({slot.key, slot.shape}, StoredFloats::F32F16BF16, *slot.into)) return s;
    if (Status s = requireFinite(slot.key, slot.into->data)) return s;
  }
  return {};
}

}  // namespace attention_lab
