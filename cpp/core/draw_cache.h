// Drawn tensors kept for the next run, so that a keystroke which changes
// nothing they depend on draws nothing.
//
// A draw is a function of the generator's state when it starts and of the
// parameters that say what is drawn (sizes, init, layout...). The key is both,
// the whole 2.5 KB generator state included, so a hit is correct by
// construction; and a hit leaves the generator in the state the draw would
// have left it in (kept with the values), so the draws after it (dropout...)
// stay bit-exact.
//
// Each cache is thread_local (no state shared between threads) and small: the
// most recent `maxEntries` draws, at most `maxFloats` floats in all; a draw
// larger than that is not kept.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "torch_random.h"

namespace attention_lab {

// The caches' memory: at most 8 Mi floats (32 MiB) each, in two entries. At
// D 768 the four projections (2.4 Mi floats, 9.4 MiB) fit twice; an embedding
// table of 512 tokens at D 768 takes 1.5 MiB.
constexpr size_t kMaxCachedFloats = size_t{8} << 20;
constexpr size_t kCachedDraws = 2;

// This thread's hits and misses over all draw caches (for tests).
struct DrawCacheCounts {
  int64_t hits = 0, misses = 0;
};
DrawCacheCounts& drawCacheCounts();
// Empties every draw cache of this thread: the next draws run cold (for tests).
void clearDrawCaches();
// Bumped by clearDrawCaches(); a cache drops its entries when it sees a new one.
uint64_t drawCacheGeneration();

template <typename Params, typename Value>
class RecentDraws {
 public:
  // draw() = the values drawn from `generator` for `params`; `floats` is their size.
  template <typename Draw>
  Value draw(const Params& params, TorchGenerator& generator, size_t floats, Draw&& draw) {
    if (generation_ != drawCacheGeneration()) {
      entries_.clear();
      generation_ = drawCacheGeneration();
    }
    for (size_t i = 0; i < entries_.size(); ++i)
      if (entries_[i].params == params && entries_[i].before == generator.state()) {
        ++drawCacheCounts().hits;
        std::rotate(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(i),
                    entries_.begin() + static_cast<std::ptrdiff_t>(i) + 1);  // most recent first
        generator.setState(entries_.front().after);
        return entries_.front().value;
      }
    ++drawCacheCounts().misses;
    Entry entry{params, generator.state(), {}, {}, floats};
    entry.value = draw();
    entry.after = generator.state();
    if (floats > kMaxCachedFloats) return std::move(entry.value);
    entries_.insert(entries_.begin(), std::move(entry));
    size_t total = 0, kept = 0;
    while (kept < entries_.size() && kept < kCachedDraws && total + entries_[kept].floats <= kMaxCachedFloats)
      total += entries_[kept++].floats;
    entries_.resize(kept);
    return entries_.front().value;
  }

 private:
  struct Entry {
    Params params;
    TorchGenerator::State before;
    Value value;
    TorchGenerator::State after;
    size_t floats = 0;
  };
  std::vector<Entry> entries_;
  uint64_t generation_ = 0;
};

}  // namespace attention_lab
