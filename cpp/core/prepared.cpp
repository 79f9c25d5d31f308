#include "prepared.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "attention_stages.h"
#include "buffers.h"
#include "embedding.h"
#include "finite.h"
#include "torch_random.h"
#include "validate.h"
#include "weights.h"

namespace attention_lab {
namespace {

// The config's record of its edits: `cells` after `list`, each replacing an
// earlier edit of the same cell (removed, so the order of the rest stays the
// order they apply in), so a long session of edits keeps one per cell.
void addEdits(const std::vector<CellEdit>& cells, std::vector<CellEdit>& list) {
  for (const CellEdit& cell : cells) {
    list.erase(std::remove_if(
                   list.begin(), list.end(),
                   [&](const CellEdit& e) { return e.row == cell.row && e.col == cell.col && e.token == cell.token; }),
               list.end());
    list.push_back(cell);
  }
}

}  // namespace

struct PreparedAttention::State {
  AttentionConfig config;
  stages::Tokens tokens;
  AttentionResult header;
  RunSizes sizes;
  stages::Dims d;
  stages::Intermediates inputs;         // x, xContext, w: lent to each run, never moved out
  Tensor table;                         // the embedding table [V, D] (empty without tokens)
  Tensor input;                         // [B, S, D]: a caller's X
  stages::ProjectionCache projections;  // of the prepared X: a run without a new X reuses what an edit left
  TorchGenerator gen;                   // its state after the draws is where every run's dropout starts
  TorchGenerator::State afterDraws;
  // The last options checkRun passed (the check depends on nothing else that changes but the edits).
  std::optional<std::pair<TensorSet, Selection>> checked;
};

PreparedAttention::PreparedAttention() = default;
PreparedAttention::~PreparedAttention() = default;

Status PreparedAttention::prepare(AttentionConfig config) {
  state_.reset();
  auto s = std::make_unique<State>();
  s->config = std::move(config);
  if (Status e = stages::describe(s->config, s->tokens, s->header, s->sizes, s->d)) return e;
  TensorSet outputOnly;
  outputOnly.add("output");
  if (Status e = stages::checkRun(s->config, s->d, s->sizes, outputOnly, {})) return e;
  s->gen.manualSeed(s->config.seed);  // torch.manual_seed(seed)
  if (Status e = stages::drawInputs(s->config, s->tokens, s->header, s->d, s->gen, s->inputs, s->table)) return e;
  s->afterDraws = s->gen.state();
  s->input = Tensor{{s->d.B, s->d.S, s->d.D}, std::vector<float>(static_cast<size_t>(s->d.B * s->d.S * s->d.D))};
  state_ = std::move(s);
  return {};
}

bool PreparedAttention::prepared() const { return state_ != nullptr; }
const AttentionConfig& PreparedAttention::config() const { return state_->config; }
const AttentionResult& PreparedAttention::header() const { return state_->header; }
int64_t PreparedAttention::inputLength() const { return static_cast<int64_t>(state_->input.data.size()); }
float* PreparedAttention::inputBuffer() { return state_->input.data.data(); }

Status PreparedAttention::run(AttentionResult& r, TensorSet wanted, Selection selection, bool useInput) {
  State& s = *state_;
  BufferPool pool;  // the previous result's buffers
  for (auto& entry : r.tensors) pool.give(std::move(entry.second.data));
  r.tensors.clear();
  r.aliases.clear();
  r.warnings.clear();
  r.selection = {};
  r.sizes = s.header.sizes;
  r.headDim = s.header.headDim;
  r.scaleFactor = s.header.scaleFactor;
  const auto sameOptions = [&](const std::pair<TensorSet, Selection>& last) {
    return last.first == wanted && last.second.batch == selection.batch && last.second.head == selection.head &&
           last.second.allHeads == selection.allHeads;
  };
  if (!s.checked || !sameOptions(*s.checked)) {
    if (Status e = stages::checkRun(s.config, s.d, s.sizes, wanted, selection)) return e;
    s.checked.emplace(wanted, selection);
  }
  if (useInput && !allFinite(s.input.data.data(), s.input.data.size()))
    for (size_t i = 0; i < s.input.data.size(); ++i)
      if (!std::isfinite(s.input.data[i])) {
        const std::string field = "x[" + std::to_string(i) + "]";
        const float v = s.input.data[i];
        const char* got = std::isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity";  // as JS prints them
        return fieldError(field, "not-a-number", {{"field", field}, {"got", got}});
      }
  // The kept inputs, lent (moved in and back: no copy); the caller's X in place of the prepared one.
  stages::Intermediates m;
  Tensor& x = useInput ? s.input : s.inputs.x;
  m.x = std::move(x);
  m.xContext = std::move(s.inputs.xContext);
  m.w = std::move(s.inputs.w);
  if (s.config.dropoutP > 0) s.gen.setState(s.afterDraws);
  stages::compute(s.config, s.d, s.tokens, wanted, selection, s.gen, pool, m, /*lendInputs=*/true, r,
                  useInput ? nullptr : &s.projections);
  x = std::move(m.x);
  s.inputs.xContext = std::move(m.xContext);
  s.inputs.w = std::move(m.w);
  return {};
}

Status PreparedAttention::update(const AttentionConfig& edits) {
  State& s = *state_;
  if (Status e = validateEdits(s.config, edits, s.sizes)) return e;
  if (!edits.embeddingEdits.empty()) {
    if (Status e = applyEmbeddingEdits(edits.embeddingEdits, s.header.vocab, s.table)) return e;  // all or none
    stages::embedTokenSides(s.config, s.tokens, s.header, s.table, s.inputs);
    s.projections.q = s.projections.k = s.projections.v = false;  // a new X: every projection
    addEdits(edits.embeddingEdits, s.config.embeddingEdits);
  }
  applyWeightEdits(s.config, edits.weightEdits, s.inputs.w);
  for (const auto& [name, cells] : edits.weightEdits) {
    addEdits(cells, s.config.weightEdits[name]);
    // The projections an edited weight feeds (W_O and the additive score's come after them).
    if (name == "W_Q" || name == "b_Q") s.projections.q = false;
    if (name == "W_K" || name == "b_K") s.projections.k = false;
    if (name == "W_V" || name == "b_V") s.projections.v = false;
  }
  s.checked.reset();  // the budget counts the edited weights (an edit may add b_Q)
  return {};
}

AttentionRun PreparedAttention::stepperRun() {
  return [this](AttentionResult& r, TensorSet wanted, Selection selection) -> Status {
    if (Status e = run(r, wanted, selection)) return e;
    const AttentionResult& h = state_->header;
    r.tokens = h.tokens;
    r.ids = h.ids;
    r.contextTokens = h.contextTokens;
    r.contextIds = h.contextIds;
    r.vocab = h.vocab;
    r.unknownTokens = h.unknownTokens;
    return {};
  };
}

}  // namespace attention_lab
