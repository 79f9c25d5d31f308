#include "draw_cache.h"

namespace attention_lab {
namespace {

thread_local DrawCacheCounts counts;
thread_local uint64_t generation = 0;

}  // namespace

DrawCacheCounts& drawCacheCounts() { return counts; }
void clearDrawCaches() { ++generation; }
uint64_t drawCacheGeneration() { return generation; }

}  // namespace attention_lab
