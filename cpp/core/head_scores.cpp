#include "head_scores.h"

namespace attention_lab {

std::vector<int64_t> inductionTargets(const std::vector<int64_t>& ids) {
  const int64_t T = static_cast<int64_t>(ids.size());
  std::vector<int64_t> targets(static_cast<size_t>(T), -1);
  // run[j]: the length of the match of the tokens ending at j with those ending at i (i's row of the
  // classic longest-common-suffix table, rolled from i − 1's: O(T) memory).
  std::vector<int64_t> run(static_cast<size_t>(T), 0), previous(static_cast<size_t>(T), 0);
  for (int64_t i = 0; i < T; ++i) {
    int64_t best = 0;
    for (int64_t j = 0; j < i; ++j) {
      run[static_cast<size_t>(j)] = ids[static_cast<size_t>(j)] == ids[static_cast<size_t>(i)]
                                        ? (j > 0 ? previous[static_cast<size_t>(j - 1)] : 0) + 1
                                        : 0;
      // j + 1 < i: the target is an earlier token, never i itself; ≥ keeps the latest of equal runs.
      if (j + 1 < i && run[static_cast<size_t>(j)] > 0 && run[static_cast<size_t>(j)] >= best) {
        best = run[static_cast<size_t>(j)];
        targets[static_cast<size_t>(i)] = j + 1;
      }
    }
    std::swap(run, previous);
  }
  return targets;
}

HeadScores measureHeadScores(const Tensor& weights, const std::vector<int64_t>& ids) {
  const int64_t nh = weights.shape[0], T = weights.shape[1];
  HeadScores s;
  s.inductionTargets = inductionTargets(ids);
  int64_t withTarget = 0;
  for (int64_t t : s.inductionTargets) withTarget += t >= 0;
  for (int64_t h = 0; h < nh; ++h) {
    const float* w = weights.data.data() + h * T * T;
    if (T >= 2) {
      double sum = 0;
      for (int64_t i = 1; i < T; ++i) sum += w[i * T + i - 1];
      s.previousToken.push_back(sum / static_cast<double>(T - 1));
    }
    if (withTarget > 0) {
      double sum = 0;
      for (int64_t i = 0; i < T; ++i)
        if (const int64_t t = s.inductionTargets[static_cast<size_t>(i)]; t >= 0) sum += w[i * T + t];
      s.induction.push_back(sum / static_cast<double>(withTarget));
    }
  }
  return s;
}

}  // namespace attention_lab
