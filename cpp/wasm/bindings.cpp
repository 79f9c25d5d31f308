// The engine's Embind glue (cpp/wasm/ holds the only files that include
// Emscripten headers; tiny_bindings.cpp is the tiny model's, a wasm of its own).
// JSON text (plus the typed arrays it refers to) in, JSON text out, naming
// where in wasm memory each tensor lies; web/api/index.js turns it into a
// plain JS object with fresh Float32Arrays. Nothing Embind-owned reaches JS,
// so callers never delete anything.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "attention.h"
#include "errors.h"
#include "json.h"
#include "json_glue.h"
#include "kv_cache.h"
#include "online_softmax.h"
#include "prepared.h"
#include "schema.h"
#include "size_limits.h"
#include "text_format.h"
#include "tiny_model.h"

using attention_lab::AttentionConfig;
using attention_lab::AttentionResult;
using attention_lab::ConfigError;
using attention_lab::Status;
using attention_lab::Tensor;
using emscripten::val;

namespace {

using namespace attention_lab::glue;

template <typename T>
std::string jsonArray2(const std::vector<std::vector<T>>& rows) {
  std::string out = "[";
  for (size_t i = 0; i < rows.size(); ++i) out += (i ? "," : "") + jsonArray(rows[i]);
  return out + "]";
}

std::string numbersJson(const std::vector<double>& xs) {
  std::string out = "[";
  for (size_t i = 0; i < xs.size(); ++i) out += (i ? "," : "") + numberJson(xs[i]);
  return out + "]";
}

// {"X": {"shape": [...], "offset": byte offset in wasm memory, "length": floats,
//  "batch": the one sentence it holds, "head": the one head it holds (when selected)}, ...,
//  "masked": {"sameAs": "scaled"}}: index.js copies each range out (slice) and
// makes an alias the same object as its tensor.
// In the order of kTensorNames, so an alias comes after its tensor.
std::string tensorsJson(const AttentionResult& r) {
  std::string out = "{";
  size_t next = 0;  // r.tensors are in the same order
  // Tensor names need no escaping.
  const auto key = [&](const char* name) { ((out += out.size() > 1 ? ",\"" : "\"") += name) += "\":"; };
  for (const char* name : attention_lab::kTensorNames) {
    if (next < r.tensors.size() && r.tensors[next].first == name) {
      const Tensor& t = r.tensors[next++].second;
      const int64_t batch = r.selection.batchOf(name), head = r.selection.headOf(name);
      key(name);
      out += "{\"shape\":" + jsonArray(t.shape) +
             ",\"offset\":" + std::to_string(reinterpret_cast<uintptr_t>(t.data.data())) +
             ",\"length\":" + std::to_string(t.data.size()) +
             (batch >= 0 ? ",\"batch\":" + std::to_string(batch) : "") +
             (head >= 0 ? ",\"head\":" + std::to_string(head) : "") + "}";
    }
    for (const auto& [alias, of] : r.aliases)
      if (alias == name) {
        key(name);
        out += "{\"sameAs\":" + quoted(of) + "}";
      }
  }
  return out + "}";
}

val parseJsonText(const std::string& text) { return val::global("JSON").call<val>("parse", val(text)); }

// The typed arrays of one call, read from JS a slice at a time.
class JsTypedArrays : public attention_lab::TypedArrays {
 public:
  explicit JsTypedArrays(val arrays) : arrays_(std::move(arrays)) {
    count_ = arrays_.isArray() ? arrays_["length"].as<unsigned>() : 0;
  }
  size_t count() const override { return count_; }
  int64_t length(size_t k) const override { return static_cast<int64_t>(arrays_[k]["length"].as<double>()); }
  void read(size_t k, int64_t offset, int64_t n, double* out) const override {
    val slice = arrays_[k].call<val>("subarray", static_cast<double>(offset), static_cast<double>(offset + n));
    val(emscripten::typed_memory_view(static_cast<size_t>(n), out)).call<void>("set", slice);
  }

 private:
  val arrays_;
  size_t count_ = 0;
};

// The last run's result: its tensors stay in wasm memory until the next call
// (index.js copies them out at once), and lend their buffers to that call.
AttentionResult lastResult;

// A set of tensor names joined by ",".
attention_lab::TensorSet tensorSet(std::string_view names) {
  attention_lab::TensorSet set;
  for (const std::string& name : commaSeparated(names)) set.add(name);
  return set;
}

// The result's fields every run of a config shares, in lab.run's order: tokens, ids, [contextTokens,
// contextIds], vocab, unknownTokens, sizes, headDim, scaleFactor (no braces: run() and prepare() wrap them).
std::string headerFields(const AttentionResult& r) {
  std::string out = "\"tokens\":" + jsonArray2(r.tokens) + ",\"ids\":" + jsonArray2(r.ids);
  if (!r.contextTokens.empty())
    out += ",\"contextTokens\":" + jsonArray2(r.contextTokens) + ",\"contextIds\":" + jsonArray2(r.contextIds);
  return out + ",\"vocab\":" + jsonArray(r.vocab) + ",\"unknownTokens\":" + jsonArray(r.unknownTokens) +
         ",\"sizes\":{\"B\":" + std::to_string(r.sizes.B) + ",\"H\":" + std::to_string(r.sizes.H) +
         ",\"S\":" + std::to_string(r.sizes.S) + ",\"S_kv\":" + std::to_string(r.sizes.Skv) +
         ",\"D\":" + std::to_string(r.sizes.D) + ",\"H_kv\":" + std::to_string(r.sizes.Hkv) + "}" +
         ",\"headDim\":" + std::to_string(r.headDim) + ",\"scaleFactor\":" + attention_lab::formatNumber(r.scaleFactor);
}

// configJson: the config as JSON text, where {"$tensor": k, "shape": [...]}
// stands for typedArrays[k]. wantedTensors: tensor names joined by ",", or
// "*" for all. batch, head: the one sentence and head to keep (-1: all);
// allHeads: per-head tensors kept with every head all the same (names joined
// by ","). Returns the result (or {ok: false, error}) as JSON text.
std::string run(const std::string& configJson, val typedArrays, const std::string& wantedTensors, double batch,
                double head, const std::string& allHeads) {
  AttentionConfig config;
  if (Status error = attention_lab::parseConfigText(configJson, JsTypedArrays(typedArrays), config))
    return failedJson(*error);
  // The tiny model's run is read and checked here; web/api/index.js hands it to the model's own wasm.
  if (config.model == attention_lab::ModelKind::Tiny) {
    attention_lab::TinyRunInput input;
    if (Status error = attention_lab::readTinyRun(config, input)) return failedJson(*error);
    return "{\"ok\":true,\"model\":\"tiny\",\"checkpoint\":" + std::to_string(input.checkpoint) +
           ",\"text\":" + quoted(input.text) + ",\"ids\":" + jsonArray(input.ids) +
           ",\"warnings\":" + warningsJson(input.warnings) + "}";
  }
  const attention_lab::TensorSet wanted =
      wantedTensors == "*" ? attention_lab::TensorSet::all() : tensorSet(wantedTensors);
  attention_lab::Selection selection;  // index.js checked both are whole numbers ≥ -1 (the engine, the range)
  selection.batch = static_cast<int64_t>(batch);
  selection.head = static_cast<int64_t>(head);
  selection.allHeads = tensorSet(allHeads);
  AttentionResult& r = lastResult;
  if (Status error = attention_lab::runAttention(config, r, wanted, selection)) return failedJson(*error);
  config.resolveDefaults();
  return "{\"ok\":true," + headerFields(r) + ",\"warnings\":" + warningsJson(r.warnings) +
         ",\"settings\":" + attention_lab::settingsJson(config) + ",\"tensors\":" + tensorsJson(r) + "}";
}

// ---- prepared runs ---------------------------------------------------------
// lab.prepare's handles by id, each with its last result (whose buffers the
// next call reuses, and whose tensors stay in wasm memory until then).
struct Prepared {
  attention_lab::PreparedAttention prepared;
  AttentionResult last;
};
std::map<int, std::unique_ptr<Prepared>> preparedRuns;
int nextPreparedId = 1;

// Config JSON as run() takes it -> {ok, id, input: {offset, length} (where the
// caller writes a new X), header: the fields of every run's result but the
// warnings and tensors, in lab.run's order (warnings: null holds their place)}.
std::string prepare(const std::string& configJson, val typedArrays) {
  AttentionConfig config;
  if (Status error = attention_lab::parseConfigText(configJson, JsTypedArrays(typedArrays), config))
    return failedJson(*error);
  if (config.model != attention_lab::ModelKind::Attention && config.model != attention_lab::ModelKind::Checkpoint)
    return failedJson(*attention_lab::fieldError("model", "prepare-needs-attention-model"));
  config.resolveDefaults();  // qkvBias decided as the run decides it: result.settings reports it
  auto handle = std::make_unique<Prepared>();
  if (Status error = handle->prepared.prepare(std::move(config))) return failedJson(*error);
  const int id = nextPreparedId++;
  const std::string out =
      "{\"ok\":true,\"id\":" + std::to_string(id) +
      ",\"input\":{\"offset\":" + std::to_string(reinterpret_cast<uintptr_t>(handle->prepared.inputBuffer())) +
      ",\"length\":" + std::to_string(handle->prepared.inputLength()) + "},\"header\":{" +
      headerFields(handle->prepared.header()) +
      ",\"warnings\":null,\"settings\":" + attention_lab::settingsJson(handle->prepared.config()) + "}}";
  preparedRuns[id] = std::move(handle);
  return out;
}

// handle.run: as run()'s options; useInput: the caller wrote its X at the input offset.
// Returns {ok, warnings, tensors} (index.js adds the header).
std::string runPrepared(double id, const std::string& wantedTensors, double batch, double head,
                        const std::string& allHeads, bool useInput) {
  Prepared& p = *preparedRuns.at(static_cast<int>(id));
  attention_lab::Selection selection;
  selection.batch = static_cast<int64_t>(batch);
  selection.head = static_cast<int64_t>(head);
  selection.allHeads = tensorSet(allHeads);
  const attention_lab::TensorSet wanted =
      wantedTensors == "*" ? attention_lab::TensorSet::all() : tensorSet(wantedTensors);
  if (Status error = p.prepared.run(p.last, wanted, selection, useInput)) return failedJson(*error);
  return "{\"ok\":true,\"warnings\":" + warningsJson(p.last.warnings) + ",\"tensors\":" + tensorsJson(p.last) + "}";
}

// handle.update: editsJson is a config holding only weights.edits and embedding.edits. Returns {ok} or the error.
std::string updatePrepared(double id, const std::string& editsJson, val typedArrays) {
  AttentionConfig edits;
  if (Status error = attention_lab::parseConfigText(editsJson, JsTypedArrays(typedArrays), edits))
    return failedJson(*error);
  if (Status error = preparedRuns.at(static_cast<int>(id))->prepared.update(edits)) return failedJson(*error);
  return "{\"ok\":true}";
}

// handle.dispose: frees the prepared state and its last result.
void disposePrepared(double id) { preparedRuns.erase(static_cast<int>(id)); }

// ---- the steppers ----------------------------------------------------------
// Their arrays stay in wasm memory until the next call of the same stepper;
// index.js copies each {"$array": {offset, length}} out at once.
attention_lab::DecodeResult lastDecode;
attention_lab::FlashResult lastFlash;

// A decode as lab.decode returns it (index.js copies the arrays out).
std::string decodeJson(const attention_lab::DecodeResult& d) {
  return "{\"ok\":true,\"tokens\":" + jsonArray(d.tokens) + ",\"sizes\":{\"S\":" + std::to_string(d.S) +
         ",\"H\":" + std::to_string(d.H) + ",\"H_kv\":" + std::to_string(d.Hkv) +
         ",\"headDim\":" + std::to_string(d.dk) + ",\"D\":" + std::to_string(d.D) +
         "},\"newKeys\":" + arrayJson(d.newKeys) + ",\"newValues\":" + arrayJson(d.newValues) +
         ",\"scores\":" + arrayJson(d.scores) + ",\"weights\":" + arrayJson(d.weights) +
         ",\"fullWeights\":" + arrayJson(d.fullWeights) + ",\"identicalRows\":" + std::to_string(d.identicalRows) +
         ",\"rows\":" + std::to_string(d.rows) + ",\"isCausalOneQuery\":" + arrayJson(d.isCausalOneQuery) +
         ",\"cacheBytes\":{\"mha\":" + numbersJson(d.cacheBytesMha) + ",\"gqa\":" + numbersJson(d.cacheBytesGqa) +
         ",\"mqa\":" + numbersJson(d.cacheBytesMqa) + "}}";
}

// lab.decode: the KV cache, token by token, of sentence `batch`.
std::string decode(const std::string& configJson, val typedArrays, double batch) {
  AttentionConfig config;
  if (Status error = attention_lab::parseConfigText(configJson, JsTypedArrays(typedArrays), config))
    return failedJson(*error);
  if (Status error = attention_lab::decodeWithKvCache(config, static_cast<int64_t>(batch), lastDecode))
    return failedJson(*error);
  return decodeJson(lastDecode);
}

// handle.decode: lab.decode on a prepared run.
std::string decodePrepared(double id, double batch) {
  Prepared& p = *preparedRuns.at(static_cast<int>(id));
  if (Status error = attention_lab::decodeWithKvCache(p.prepared, static_cast<int64_t>(batch), lastDecode))
    return failedJson(*error);
  return decodeJson(lastDecode);
}

// The flash stepper's options, as lab.flash passes them.
attention_lab::FlashOptions flashOptions(double batch, double head, double tileQueries, double tileKeys) {
  attention_lab::FlashOptions options;
  options.batch = static_cast<int64_t>(batch);
  options.head = static_cast<int64_t>(head);
  options.tileQueries = static_cast<int64_t>(tileQueries);
  options.tileKeys = static_cast<int64_t>(tileKeys);
  return options;
}

// An online softmax as lab.flash returns it (index.js copies the arrays out).
std::string flashJson(const attention_lab::FlashResult& f) {
  std::string tiles = "[";
  for (size_t t = 0; t < f.tiles.size(); ++t) {
    const attention_lab::FlashTile& tile = f.tiles[t];
    tiles += std::string(t ? "," : "") + "{\"queryStart\":" + std::to_string(tile.queryStart) +
             ",\"queryEnd\":" + std::to_string(tile.queryEnd) + ",\"keyStart\":" + std::to_string(tile.keyStart) +
             ",\"keyEnd\":" + std::to_string(tile.keyEnd) + ",\"skipped\":" + (tile.skipped ? "true" : "false") + "}";
  }
  return "{\"ok\":true,\"tiles\":" + tiles + "],\"sizes\":{\"S\":" + std::to_string(f.S) +
         ",\"S_kv\":" + std::to_string(f.Skv) + ",\"headDim\":" + std::to_string(f.dk) +
         ",\"tileQueries\":" + std::to_string(f.tileQueries) + ",\"tileKeys\":" + std::to_string(f.tileKeys) +
         "},\"runningMax\":" + arrayJson(f.runningMax) + ",\"runningSum\":" + arrayJson(f.runningSum) +
         ",\"rescale\":" + arrayJson(f.rescale) + ",\"partialOutput\":" + arrayJson(f.partialOutput) +
         ",\"output\":" + arrayJson(f.output) + ",\"plain\":" + arrayJson(f.plain) +
         ",\"maxAbsDifference\":" + numberJson(f.maxAbsDifference) + ",\"identical\":" + std::to_string(f.identical) +
         ",\"total\":" + std::to_string(f.total) + "}";
}

// lab.flash: FlashAttention-2's online softmax over one head.
std::string flash(const std::string& configJson, val typedArrays, double batch, double head, double tileQueries,
                  double tileKeys) {
  AttentionConfig config;
  if (Status error = attention_lab::parseConfigText(configJson, JsTypedArrays(typedArrays), config))
    return failedJson(*error);
  const attention_lab::FlashOptions options = flashOptions(batch, head, tileQueries, tileKeys);
  if (Status error = attention_lab::onlineSoftmax(config, options, lastFlash)) return failedJson(*error);
  return flashJson(lastFlash);
}

// handle.flash: lab.flash on a prepared run.
std::string flashPrepared(double id, double batch, double head, double tileQueries, double tileKeys) {
  Prepared& p = *preparedRuns.at(static_cast<int>(id));
  const attention_lab::FlashOptions options = flashOptions(batch, head, tileQueries, tileKeys);
  if (Status error = attention_lab::onlineSoftmax(p.prepared, options, lastFlash)) return failedJson(*error);
  return flashJson(lastFlash);
}

// The engine's verdict on config text as JSON: {field, code, params, message}, or null when it is valid.
val jsonError(const std::string& text) {
  attention_lab::JsonValue json = attention_lab::JsonValue::makeNull();
  if (Status error = attention_lab::parseConfigJson(text, json)) return parseJsonText(configErrorJson(*error));
  return val::null();
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab) {
  emscripten::function("run", &run);
  emscripten::function("prepare", &prepare);
  emscripten::function("runPrepared", &runPrepared);
  emscripten::function("updatePrepared", &updatePrepared);
  emscripten::function("disposePrepared", &disposePrepared);
  emscripten::function("decode", &decode);
  emscripten::function("flash", &flash);
  emscripten::function("decodePrepared", &decodePrepared);
  emscripten::function("flashPrepared", &flashPrepared);
  emscripten::function("jsonError", &jsonError);
}
