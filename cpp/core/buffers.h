// Float buffers a run borrows instead of allocating: the previous result's
// tensors (BufferPool), and scratch that grows and is kept (grownTo).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "config.h"

namespace attention_lab {

// v with room for n floats, its contents unspecified: grown (zero-filling
// only the growth) when smaller, never shrunk.
inline float* grownTo(std::vector<float>& v, int64_t n) {
  if (v.size() < static_cast<size_t>(n)) v.resize(static_cast<size_t>(n));
  return v.data();
}

// The buffers of a previous result's tensors, lent to a new run's tensors: a
// run of the same sizes as the last one allocates and zero-fills nothing.
// What no tensor takes is freed with the pool.
class BufferPool {
 public:
  void give(std::vector<float>&& buffer) { free_.push_back(std::move(buffer)); }

  // A tensor of this shape whose values are unspecified: the caller writes
  // every one. The smallest free buffer that holds it, else the largest one
  // (grown), else a new one.
  Tensor take(std::vector<int64_t> shape) {
    int64_t count = 1;
    for (int64_t n : shape) count *= n;
    const size_t need = static_cast<size_t>(count);
    size_t best = free_.size();
    for (size_t i = 0; i < free_.size(); ++i) {
      const size_t have = free_[i].capacity();
      const bool fits = have >= need;
      if (best == free_.size()) {
        best = i;
        continue;
      }
      const size_t bestHave = free_[best].capacity();
      const bool bestFits = bestHave >= need;
      if ((fits && (!bestFits || have < bestHave)) || (!fits && !bestFits && have > bestHave)) best = i;
    }
    std::vector<float> data;
    if (best < free_.size()) {
      data = std::move(free_[best]);
      free_[best] = std::move(free_.back());
      free_.pop_back();
    }
    data.resize(need);
    return Tensor{std::move(shape), std::move(data)};
  }

 private:
  std::vector<std::vector<float>> free_;
};

}  // namespace attention_lab
