#include "embedding.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "draw_cache.h"

namespace attention_lab {

Tensor drawEmbeddingTable(int64_t vocabSize, int64_t d, TorchGenerator& generator) {
  struct Shape {
    int64_t rows, cols;
    bool operator==(const Shape& o) const { return rows == o.rows && cols == o.cols; }
  };
  thread_local RecentDraws<Shape, std::vector<float>> recent;
  const int64_t count = vocabSize * d;
  std::vector<float> values = recent.draw(Shape{vocabSize, d}, generator, static_cast<size_t>(count), [&] {
    std::vector<float> drawn(static_cast<size_t>(count));
    generator.normal(drawn.data(), count, 0.0, 1.0);
    return drawn;
  });
  return Tensor{{vocabSize, d}, std::move(values)};
}

Tensor embed(const Tensor& table, const std::vector<std::vector<int64_t>>& ids) {
  const int64_t d = table.shape[1];
  const int64_t batch = static_cast<int64_t>(ids.size());
  const int64_t length = batch ? static_cast<int64_t>(ids[0].size()) : 0;
  Tensor x{{batch, length, d}, {}};
  x.data.reserve(static_cast<size_t>(batch * length * d));
  for (const auto& row : ids)
    for (int64_t id : row) {
      const auto first = table.data.begin() + id * d;
      x.data.insert(x.data.end(), first, first + d);
    }
  return x;
}

Status applyEmbeddingEdits(const std::vector<CellEdit>& edits, const std::vector<std::string>& vocab, Tensor& table) {
  if (edits.empty()) return {};
  const int64_t d = table.shape[1];
  std::unordered_map<std::string, int64_t> ids;
  for (size_t i = 0; i < vocab.size(); ++i) ids.emplace(vocab[i], static_cast<int64_t>(i));
  // Every row first, so that an unknown token changes nothing.
  std::vector<int64_t> rows;
  rows.reserve(edits.size());
  for (const CellEdit& e : edits) {
    rows.push_back(e.row);
    if (e.token.empty()) continue;
    const auto found = ids.find(e.token);
    if (found == ids.end()) return fieldError(e.field, "edit-token-unknown", {{"field", e.field}, {"token", e.token}});
    rows.back() = found->second;
  }
  for (size_t i = 0; i < edits.size(); ++i)  // bounds checked by validateSizes
    table.data[static_cast<size_t>(rows[i] * d + edits[i].col)] = edits[i].value;
  return {};
}

void addSinusoidalPositions(Tensor& x) {
  const int64_t batch = x.shape[0], length = x.shape[1], d = x.shape[2];
  const float logBase = static_cast<float>(-std::log(10000.0) / static_cast<double>(d));
  std::vector<float> divTerm;
  for (int64_t i = 0; i < d; i += 2) divTerm.push_back(std::exp(static_cast<float>(i) * logBase));
  for (int64_t s = 0; s < length; ++s) {
    std::vector<float> pe(static_cast<size_t>(d));
    for (int64_t i = 0; i < d; ++i) {
      const float angle = static_cast<float>(s) * divTerm[static_cast<size_t>(i / 2)];
      pe[static_cast<size_t>(i)] = (i % 2 == 0) ? std::sin(angle) : std::cos(angle);
    }
    for (int64_t b = 0; b < batch; ++b) {
      float* row = x.data.data() + (b * length + s) * d;
      for (int64_t i = 0; i < d; ++i) row[i] += pe[static_cast<size_t>(i)];
    }
  }
}

}  // namespace attention_lab
