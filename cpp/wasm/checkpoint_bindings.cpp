// The Embind glue of a Hugging Face checkpoint (checkpoint_loader.h): a wasm
// of its own, loaded only when someone opens a model, which holds one
// checkpoint at a time. web/api/checkpoint/open.js drives the loader's steps,
// reading each file's header and then each planned byte range from a File or
// from disk straight into the memory stage() names; arrays travel as in bindings.cpp ({"$array": {offset, length}}).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <string>
#include <vector>

#include "checkpoint_loader.h"
#include "json_glue.h"

using attention_lab::Status;
using emscripten::val;

namespace {

using namespace attention_lab::glue;

attention_lab::CheckpointLoader loader;
attention_lab::Checkpoint model;
bool loaded = false;
// The last run's tensors, in wasm memory until the next run (open.js copies each out at once).
attention_lab::CheckpointRun lastRun;

const std::string kOk = "{\"ok\":true}";

std::string statusJson(const Status& s) { return s ? failedJson(*s) : kOk; }

// Opening: config.json's text. Whatever was open before is let go.
std::string setConfig(const std::string& text) {
  model = {};
  lastRun = {};
  loaded = false;
  return statusJson(loader.setConfig(text));
}

// A shard's first bytes (a Uint8Array: 8 + its header's length) and its size.
std::string addShard(const std::string& name, val bytes, double fileSize) {
  const std::vector<uint8_t> head = bytesOf(bytes);
  return statusJson(loader.addShard(name, head.data(), head.size(), static_cast<uint64_t>(fileSize)));
}

// {"ok": true, "sizes": {...}, "pieces": [[shard, begin, end], ...]}: the ranges to read, in order.
std::string plan() {
  if (Status s = loader.plan()) return failedJson(*s);
  const attention_lab::CheckpointSizes z = loader.sizes();
  std::string out = "{\"ok\":true,\"sizes\":{\"family\":" + quoted(z.family) +
                    ",\"layers\":" + std::to_string(z.layers) + ",\"heads\":" + std::to_string(z.heads) +
                    ",\"kvHeads\":" + std::to_string(z.kvHeads) + ",\"dModel\":" + std::to_string(z.dModel) +
                    ",\"headDim\":" + std::to_string(z.headDim) + ",\"vocab\":" + std::to_string(z.vocab) +
                    ",\"maxTokens\":" + std::to_string(z.maxTokens) + ",\"qkvBias\":" + (z.qkvBias ? "true" : "false") +
                    "},\"pieces\":[";
  for (const auto& p : loader.pieces())
    out += (&p == &loader.pieces()[0] ? "[" : ",[") + std::to_string(p.shard) + "," + std::to_string(p.place.begin) +
           "," + std::to_string(p.place.end) + "]";
  return out + "]}";
}

// Where piece k's bytes go in wasm memory: {"ok", "offset", "length"}; open.js writes them there
// (a file's read lands in the tensor itself when it is float32), then calls commit(k).
std::string stage(double k) {
  uint8_t* at = nullptr;
  size_t size = 0;
  if (Status s = loader.stage(static_cast<size_t>(k), at, size)) return failedJson(*s);
  return "{\"ok\":true,\"offset\":" + std::to_string(reinterpret_cast<uintptr_t>(at)) +
         ",\"length\":" + std::to_string(size) + "}";
}

std::string commit(double k) { return statusJson(loader.commit(static_cast<size_t>(k))); }

std::string finish() {
  Status s = loader.finish(model);
  loaded = !s;
  return statusJson(s);
}

// [numbers] or null (a score undefined on this text).
std::string numbersOrNull(const std::vector<double>& xs) {
  if (xs.empty()) return "null";
  std::string out = "[";
  for (size_t i = 0; i < xs.size(); ++i) out += (i ? "," : "") + numberJson(xs[i]);
  return out + "]";
}

// {"previousToken": [[per head] per layer] | null, "induction": ... | null, "inductionTargets": [t(i)]}
std::string headScoresJson(const std::vector<attention_lab::HeadScores>& layers) {
  std::string previous = "[", induction = "[";
  for (size_t l = 0; l < layers.size(); ++l) {
    previous += (l ? "," : "") + numbersOrNull(layers[l].previousToken);
    induction += (l ? "," : "") + numbersOrNull(layers[l].induction);
  }
  const bool none = layers.empty() || layers[0].previousToken.empty(),
             noTarget = layers.empty() || layers[0].induction.empty();
  return "{\"previousToken\":" + (none ? "null" : previous + "]") +
         ",\"induction\":" + (noTarget ? "null" : induction + "]") +
         ",\"inductionTargets\":" + jsonArray(layers.empty() ? std::vector<int64_t>{} : layers[0].inductionTargets) +
         "}";
}

// The kept tensors of `all` that `wanted` names (all of them when it is "*").
std::vector<attention_lab::RunTensor> wantedOf(const std::vector<attention_lab::RunTensor>& all,
                                               const std::vector<std::string>& wanted, bool every) {
  if (every) return all;
  std::vector<attention_lab::RunTensor> out;
  for (const auto& entry : all)
    if (std::find(wanted.begin(), wanted.end(), entry.first) != wanted.end()) out.push_back(entry);
  return out;
}

// The forward of `ids` (an array of numbers): {"ok", "ids", "tensors": {...}, "layers": [{...}, ...]}.
// wantedTensors: the names to return, of the run's and of each layer's, joined by "," ("*": all); the logits
// of every position are computed only when "logits" is among them (probs needs the last row's alone).
std::string run(val ids, const std::string& wantedTensors) {
  if (!loaded) return failedJson(*attention_lab::fieldError("checkpoint", "checkpoint-step-order", {{"step", "run"}}));
  std::vector<int64_t> tokens(ids["length"].as<size_t>());
  // Whole numbers (open.js checks); one outside [-1, 2^53] is read as -1, which the forward names as out of range.
  for (size_t i = 0; i < tokens.size(); ++i) {
    const double id = ids[i].as<double>();
    tokens[i] = id >= -1 && id <= 9007199254740992.0 ? static_cast<int64_t>(id) : -1;
  }
  const bool every = wantedTensors == "*";
  const std::vector<std::string> wanted = every ? std::vector<std::string>{} : commaSeparated(wantedTensors);
  // Every name wanted is the run's or a layer's, checked before the forward runs (open.js names the option).
  const std::vector<std::string> known = attention_lab::checkpointTensorNames(model);
  for (const std::string& name : wanted)
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      return failedJson(
          *attention_lab::fieldError("options.tensors", "unknown-tensor", {{"name", name}, {"known", list}}));
    }
  const bool allLogits = every || std::find(wanted.begin(), wanted.end(), "logits") != wanted.end();
  if (Status s = attention_lab::runCheckpoint(model, tokens, lastRun, allLogits)) return failedJson(*s);
  const auto top = lastRun.tensors();
  const auto layers = lastRun.layers();
  std::string out = "{\"ok\":true,\"ids\":" + jsonArray(lastRun.ids()) +
                    ",\"tensors\":" + tensorsJson(wantedOf(top, wanted, every)) + ",\"layers\":[";
  for (size_t l = 0; l < layers.size(); ++l) out += (l ? "," : "") + tensorsJson(wantedOf(layers[l], wanted, every));
  return out + "],\"headScores\":" + headScoresJson(lastRun.headScores) + "}";
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_checkpoint) {
  emscripten::function("setConfig", &setConfig);
  emscripten::function("addShard", &addShard);
  emscripten::function("plan", &plan);
  emscripten::function("stage", &stage);
  emscripten::function("commit", &commit);
  emscripten::function("finish", &finish);
  emscripten::function("run", &run);
}
