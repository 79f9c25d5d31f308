// Counts the bytes allocated with operator new, for the memory budget's
// checks (memory_budget_test.cpp natively, memory_budget_wasm_check.cpp under
// WebAssembly): the global operator new and delete are replaced, so include
// this in one file of a program only. Every block carries its size in front
// of it, so that delete counts it off.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace attention_lab::allocation_counter {

inline std::atomic<int64_t> liveBytes{0}, peakBytes{0};

constexpr size_t kHeader = alignof(std::max_align_t);

inline void* allocate(size_t size) {
  void* block = std::malloc(size + kHeader);
  if (!block) std::abort();  // as the engine's wasm does (ABORTING_MALLOC)
  *static_cast<size_t*>(block) = size;
  const int64_t live = liveBytes += static_cast<int64_t>(size);
  for (int64_t peak = peakBytes; live > peak && !peakBytes.compare_exchange_weak(peak, live);) {
  }
  return static_cast<char*>(block) + kHeader;
}

inline void release(void* p) {
  if (!p) return;
  char* block = static_cast<char*>(p) - kHeader;
  liveBytes -= static_cast<int64_t>(*reinterpret_cast<size_t*>(block));
  std::free(block);
}

// The peak of the bytes allocated while `run()` runs, above what was live when it started.
template <typename Run>
int64_t peakOf(Run&& run) {
  const int64_t before = liveBytes;
  peakBytes = before;
  run();
  return peakBytes - before;
}

}  // namespace attention_lab::allocation_counter

void* operator new(size_t size) { return attention_lab::allocation_counter::allocate(size); }
void* operator new[](size_t size) { return attention_lab::allocation_counter::allocate(size); }
void operator delete(void* p) noexcept { attention_lab::allocation_counter::release(p); }
void operator delete[](void* p) noexcept { attention_lab::allocation_counter::release(p); }
void operator delete(void* p, size_t) noexcept { attention_lab::allocation_counter::release(p); }
void operator delete[](void* p, size_t) noexcept { attention_lab::allocation_counter::release(p); }
