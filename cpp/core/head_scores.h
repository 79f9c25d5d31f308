// What a head does, measured on the text it reads (a real checkpoint's heads;
// the tiny model keeps its own s + s measure, tiny_model.h):
//
//   previous-token score   mean over i ≥ 1 of weights[h, i, i − 1]
//   induction score        mean over the positions i that have an induction
//                          target t(i) of weights[h, i, t(i)]
//
// t(i): the token after the earlier place j whose tokens best match those
// ending at i (the longest run ids[j − k .. j] = ids[i − k .. i], the latest
// j of equal runs, with j + 1 < i). An induction head attends there, to copy
// what followed last time ("A B … A" -> B). For a text typed twice, s + s, it
// is i − |s| + 1 in the second copy, as in the induction scores of Olsson et
// al. (2022); with a separator ("s. s"), or a third copy, it finds the copy too.
//
// A repeat (repeatedPositions): the later copy of a run of at least minRun
// tokens seen before, wherever it is: each position p whose run is that long
// puts p − run + 1 … p in it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "config.h"

namespace attention_lab {

struct HeadScores {
  std::vector<double> previousToken;      // per head; empty when T < 2
  std::vector<double> induction;          // per head; empty when no position has a target
  std::vector<int64_t> inductionTargets;  // per position i: t(i), or −1
};

// Each position's induction target t(i), or −1, and the length of its matching run (0 without a target).
struct InductionMatch {
  int64_t target = -1;
  int64_t run = 0;
};
// O(T²) time, O(T) memory.
std::vector<InductionMatch> inductionMatches(const std::vector<int64_t>& ids);
// The targets alone.
std::vector<int64_t> inductionTargets(const std::vector<int64_t>& ids);
// Per position: whether it is in the later copy of a run of ≥ minRun tokens (each such position has a target).
std::vector<bool> repeatedPositions(const std::vector<InductionMatch>& matches, int64_t minRun);

// The scores of every head of `weights` (nh, T, T) on `ids` (T).
HeadScores measureHeadScores(const Tensor& weights, const std::vector<int64_t>& ids);

}  // namespace attention_lab
