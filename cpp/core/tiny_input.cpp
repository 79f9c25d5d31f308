// What a run with model "tiny" reads from its config: the engine's wasm reads
// this far (the checks and their errors), the model's wasm runs the forward.
#include "schema.h"
#include "tiny_model.h"

namespace attention_lab {
namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

// The config's text as bytes, or the error that says what to give instead.
Status textBytes(const AttentionConfig& c, std::vector<int64_t>& ids) {
  const std::string max = std::to_string(kTinyContext);
  const SequenceSource& in = c.input;
  const char* other = in.textsGivenAsList ? "texts" : !in.tokens.empty() ? "tokens" : in.random ? "input" : nullptr;
  if (other) return fieldError(other, "model-needs-text", {{"max", max}, {"field", other}});
  if (in.texts.empty() || in.texts[0].empty()) return fieldError("text", "text-required-for-model", {{"max", max}});
  const std::string& text = in.texts[0];
  if (static_cast<int64_t>(text.size()) > kTinyContext)
    return fieldError("text", "text-too-long-for-model", {{"bytes", std::to_string(text.size())}, {"max", max}});
  ids.assign(text.begin(), text.end());
  for (int64_t& id : ids) id &= 0xFF;  // the bytes as 0..255, whatever the signedness of char
  return {};
}

}  // namespace

int64_t tinyCheckpointIndex(int64_t step) {
  for (size_t i = 0; i < kTinyCheckpoints.size(); ++i)
    if (kTinyCheckpoints[i] == step) return static_cast<int64_t>(i);
  return -1;
}

std::string tinyCheckpointList() {
  std::vector<std::string> steps;
  for (int64_t step : kTinyCheckpoints) steps.push_back(std::to_string(step));
  return joined(steps);
}

Status readTinyRun(const AttentionConfig& c, TinyRunInput& input) {
  input = TinyRunInput{};
  if (Status s = textBytes(c, input.ids)) return s;
  if (!isTinyCheckpoint(c.checkpoint))
    return fieldError("checkpoint", "checkpoint-unknown",
                      {{"got", std::to_string(c.checkpoint)}, {"steps", tinyCheckpointList()}});
  input.checkpoint = c.checkpoint;
  input.text = c.input.texts[0];
  std::vector<std::string> ignored;
  for (const std::string& path : changedFields(c))
    if (path != "model" && path != "checkpoint" && path != "text") ignored.push_back(path);
  if (!ignored.empty()) input.warnings.push_back(makeWarning("model-ignores-fields", {{"fields", joined(ignored)}}));
  return {};
}

}  // namespace attention_lab
