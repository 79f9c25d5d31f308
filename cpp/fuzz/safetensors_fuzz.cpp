// libFuzzer target: any bytes -> the safetensors reader (readSafetensorsF16,
// the tiny model's weights files, and readSafetensors of F32/F16/BF16), the
// tiny model's own reader (readTinyWeights), a GPT-2 checkpoint's reader
// (readGpt2Weights, for a 1-layer model of width 2, and its forward when it
// reads) and config.json's (parseGpt2Config, the bytes as text), and the same
// for Llama / Qwen2 (readLlamaWeights for a 1-layer llama of width 2 with an
// untied head, runLlamaForward, parseLlamaConfig). Built and run by web/scripts/fuzz.sh (clang, ASan,
// UBSan) from small hand-made files; reproduce a finding with
// build/fuzz/safetensors_fuzz <file>.
//
// Besides "no crash, no sanitizer report, no read out of bounds":
//   - a file read without error gives every wanted tensor, in order, with its
//     shape and as many floats as the shape holds;
//   - an error is on the field "weights file" with a weights-file-* code;
//   - readTinyWeights and readGpt2Weights accept only finite weights, and the
//     GPT-2 forward of weights read gives probabilities that sum to 1;
//   - a config.json error names config.json or one of its fields;
//   - the piecewise loader (checkpoint_loader.h) given the bytes as a shard
//     names that file or "checkpoint" in its errors, and a checkpoint it
//     opens runs.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "checkpoint_loader.h"
#include "fuzz_check.h"
#include "gpt2_config.h"
#include "gpt2_model.h"
#include "gpt2_weights.h"
#include "llama_config.h"
#include "llama_model.h"
#include "llama_weights.h"
#include "safetensors.h"
#include "tiny_model.h"

namespace attention_lab {
namespace {

int64_t elements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t axis : shape) n *= axis;
  return n;
}

void checkError(const ConfigError& error) {
  FUZZ_CHECK(error.field == kWeightsFileField);
  FUZZ_CHECK(error.code.compare(0, 13, "weights-file-") == 0);
  FUZZ_CHECK(!error.message.empty());
}

void checkGpt2(const uint8_t* data, size_t size) {
  Gpt2Config config;
  if (Status s = parseGpt2Config(std::string(reinterpret_cast<const char*>(data), size), config))
    FUZZ_CHECK(s->field.compare(0, 11, "config.json") == 0 && !s->message.empty());
  config = Gpt2Config{};
  config.nLayer = config.nHead = 1;
  config.nEmbd = config.nPositions = config.vocabSize = 2;
  config.nInner = 8;
  Gpt2Weights weights;
  if (Status s = readGpt2Weights(config, data, size, weights)) {
    checkError(*s);
    return;
  }
  Gpt2Result result;
  FUZZ_CHECK(!runGpt2Forward(config, weights, {1, 0}, result));
  double total = 0;
  for (float p : result.probs.data) total += p;
  FUZZ_CHECK(std::fabs(total - 1.0) < 1e-3 || std::isnan(total));
}

void checkLlama(const uint8_t* data, size_t size) {
  LlamaConfig config;
  if (Status s = parseLlamaConfig(std::string(reinterpret_cast<const char*>(data), size), config))
    FUZZ_CHECK(s->field.compare(0, 11, "config.json") == 0 && !s->message.empty());
  config = LlamaConfig{};
  config.nLayer = config.nHead = config.nKvHead = 1;
  config.hiddenSize = config.vocabSize = config.maxPositions = 2;
  config.intermediateSize = 4;
  LlamaWeights weights;
  if (Status s = readLlamaWeights(config, data, size, weights)) {
    checkError(*s);
    return;
  }
  LlamaResult result;
  FUZZ_CHECK(!runLlamaForward(config, weights, {1, 0}, result));
  double total = 0;
  for (float p : result.probs.data) total += p;
  FUZZ_CHECK(std::fabs(total - 1.0) < 1e-3 || std::isnan(total));
}

// A 1-layer GPT-2 of width 2 opened through the loader with the bytes as its one shard.
void checkLoader(const uint8_t* data, size_t size) {
  const std::string config =
      R"({"model_type":"gpt2","n_layer":1,"n_head":1,"n_embd":2,"n_positions":2,"vocab_size":2,"n_inner":8})";
  Checkpoint model;
  if (Status s = loadCheckpoint(config, {{"shard.safetensors", data, size}}, model)) {
    FUZZ_CHECK(s->field == "shard.safetensors" || s->field == "checkpoint");
    FUZZ_CHECK(!s->message.empty());
    return;
  }
  CheckpointRun run;
  FUZZ_CHECK(!runCheckpoint(model, {1, 0}, run));
  FUZZ_CHECK(run.headScores.size() == 1);
}

void check(const uint8_t* data, size_t size) {
  // Two small tensors (the seeds are files of these), so that whole files are within reach.
  const std::vector<WantedTensor> wanted = {{"a", {2, 2}}, {"b", {3}}};
  std::vector<Tensor> tensors;
  if (Status s = readSafetensorsF16(data, size, wanted, tensors)) {
    checkError(*s);
  } else {
    FUZZ_CHECK(tensors.size() == wanted.size());
    for (size_t k = 0; k < wanted.size(); ++k) {
      FUZZ_CHECK(tensors[k].shape == wanted[k].shape);
      FUZZ_CHECK(static_cast<int64_t>(tensors[k].data.size()) == elements(wanted[k].shape));
    }
  }
  for (StoredFloats accepted : {StoredFloats::F16Only, StoredFloats::F32F16BF16}) {
    if (Status s = readSafetensors(data, size, wanted, accepted, tensors)) {
      checkError(*s);
    } else {
      for (size_t k = 0; k < wanted.size(); ++k)
        FUZZ_CHECK(static_cast<int64_t>(tensors[k].data.size()) == elements(wanted[k].shape));
    }
  }
  checkGpt2(data, size);
  checkLlama(data, size);
  checkLoader(data, size);
  TinyWeights weights;
  if (Status s = readTinyWeights(data, size, weights)) {
    checkError(*s);
  } else {
    for (const Tensor* tensor : {&weights.tokEmb, &weights.posEmb})
      for (float x : tensor->data) FUZZ_CHECK(std::isfinite(x));
  }
}

}  // namespace
}  // namespace attention_lab

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  attention_lab::check(data, size);
  return 0;
}
