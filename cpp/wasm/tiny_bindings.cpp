// The tiny trained model's Embind glue: a wasm of its own, which the JS API
// loads with the model's first weights (web/api/tiny-engine.js), so the page
// carries none of the forward until the "Trained model" mode is chosen. The
// engine's wasm reads and checks the config (readTinyRun, bindings.cpp); this
// one runs the forward on the ids it found. Arrays travel as in bindings.cpp.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <array>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

#include "json_glue.h"
#include "tiny_model.h"

using attention_lab::Status;
using emscripten::val;

namespace {

using namespace attention_lab::glue;

// The weights loaded by lab.loadTinyModel, and the last run's intermediates
// (in wasm memory until the next run; index.js copies each out at once).
attention_lab::TinyWeightStore tinyWeights;
attention_lab::TinyResult lastTiny;

// {"name": number, ...}
std::string numbersObjectJson(std::initializer_list<std::pair<const char*, double>> numbers) {
  std::string out = "{";
  for (const auto& [name, x] : numbers) (((out += out.size() > 1 ? ",\"" : "\"") += name) += "\":") += numberJson(x);
  return out + "}";
}

// [[L1H1, ..., L1H4], [L2H1, ...]] or null
std::string perHeadJson(const std::optional<attention_lab::TinyHeadScores::PerHead>& scores) {
  if (!scores) return "null";
  std::string out = "[";
  for (const auto& layer : *scores) {
    out += out.size() > 1 ? ",[" : "[";
    for (size_t h = 0; h < layer.size(); ++h) out += (h ? "," : "") + numberJson(layer[h]);
    out += "]";
  }
  return out + "]";
}

// The forward's part of index.d.ts's TinyModelResult (its arrays as {"$array"}
// ranges): index.js adds the checkpoint, text, ids and warnings the engine read.
std::string forwardJson(const attention_lab::TinyResult& r) {
  using namespace attention_lab;
  std::string out = "{\"ok\":true,\"sizes\":" +
                    numbersObjectJson({{"T", static_cast<double>(r.ids.size())},
                                       {"layers", kTinyLayers},
                                       {"heads", kTinyHeads},
                                       {"dModel", kTinyDModel},
                                       {"headDim", kTinyHeadDim},
                                       {"vocab", kTinyVocab}}) +
                    ",\"tensors\":" + tensorsJson(namedTensors(r)) + ",\"layers\":[";
  for (const TinyLayer& x : r.layers) out += (&x == &r.layers[0] ? "" : ",") + tensorsJson(namedTensors(x));
  const TinyHeadScores& s = r.headScores;
  out += "],\"headScores\":{\"previousToken\":" + perHeadJson(s.previousToken) +
         ",\"induction\":" + perHeadJson(s.induction) + ",\"repeatTargets\":" + jsonArray(s.repeatTargets) +
         "},\"secondCopy\":";
  const auto& copy = r.secondCopy;
  out += copy ? numbersObjectJson({{"correct", static_cast<double>(copy->correct)},
                                   {"total", static_cast<double>(copy->total)},
                                   {"loss", copy->loss}})
              : "null";
  return out + "}";
}

// lab.loadTinyModel: the safetensors file of checkpoint `step` (a Uint8Array), parsed and kept.
std::string loadWeights(double step, val bytes) {
  const std::vector<uint8_t> data = bytesOf(bytes);
  if (Status error = tinyWeights.load(static_cast<int64_t>(step), data.data(), data.size())) return failedJson(*error);
  return "{\"ok\":true}";
}

// lab.run with model "tiny": the byte ids (a Uint8Array, 1..kTinyContext of them, as the
// engine read them from the text) through the weights of checkpoint `step`.
std::string run(double step, val ids) {
  attention_lab::TinyRunInput input;
  input.checkpoint = static_cast<int64_t>(step);
  for (uint8_t id : bytesOf(ids)) input.ids.push_back(id);
  if (Status error = attention_lab::runTinyModel(input, tinyWeights, lastTiny)) return failedJson(*error);
  return forwardJson(lastTiny);
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_tiny) {
  emscripten::function("loadWeights", &loadWeights);
  emscripten::function("run", &run);
}
