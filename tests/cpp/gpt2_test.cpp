// GPT-2 from a Hugging Face checkpoint: config.json's reader, model.safetensors
// in F32, F16 and BF16 (keys with or without "transformer."), and the forward
// against PyTorch 1.13 (tests/reference/gpt2/generate.py: a tiny random GPT-2
// and every intermediate of its forward). Each tensor must be within 1e-5 of
// the largest magnitude in PyTorch's tensor; the worst difference of each is
// printed. Every bad input is an error naming its field, never a crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

#include "checkpoint.h"
#include "checkpoint_loader.h"
#include "errors.h"
#include "gpt2_config.h"
#include "gpt2_model.h"
#include "gpt2_weights.h"
#include "model_fixture_support.h"
#include "safetensors.h"
#include "size_limits.h"
#include "softmax.h"
#include "test_support.h"

namespace attention_lab {
namespace {

using testing::expectCatalogued;
using testing::readBytes;
using testing::readText;
using testing::withMember;

std::string gpt2Path(const std::string& name) { return std::string(ATTENTION_LAB_GPT2) + "/" + name; }

// A checkpoint of tests/reference/gpt2/checkpoints: its config.json and model.safetensors.
struct Files {
  std::string config;
  std::vector<uint8_t> file;
};
Files checkpoint(const std::string& name) {
  return {readText(gpt2Path("checkpoints/" + name + "/config.json")),
          readBytes(gpt2Path("checkpoints/" + name + "/model.safetensors"))};
}

Gpt2Config parsedConfig(const std::string& text) {
  Gpt2Config config;
  EXPECT_TRUE(testing::succeeded(parseGpt2Config(text, config)));
  return config;
}

// ---- the forward against PyTorch --------------------------------------------------

class Gpt2FixtureTest : public ::testing::TestWithParam<std::string> {};

TEST_P(Gpt2FixtureTest, MatchesPyTorch) {
  const std::string name = GetParam();
  const Files files = checkpoint(name);
  // Read as the page and the CLI read it: the header, then each tensor's slice (checkpoint_loader.h).
  Checkpoint model;
  ASSERT_TRUE(testing::succeeded(
      loadCheckpoint(files.config, {{"model.safetensors", files.file.data(), files.file.size()}}, model)));
  EXPECT_EQ(model.gpt2Weights.prefix, name == "f32-transformer" ? "transformer." : "");

  const JsonValue fixture = testing::readJsonFile(gpt2Path("fixtures/" + name + ".json"));
  const auto& runs = fixture.find("runs")->array();
  ASSERT_FALSE(runs.empty());
  testing::WorstByName worst;
  for (const JsonValue& run : runs) {
    std::vector<int64_t> ids;
    for (const auto& id : run.find("ids")->array()) ids.push_back(static_cast<int64_t>(id.number()));
    CheckpointRun r;
    ASSERT_TRUE(testing::succeeded(runCheckpoint(model, ids, r)));
    EXPECT_EQ(r.ids(), ids);
    const Tensor* probs = nullptr;
    for (const auto& [tensor, got] : r.tensors()) {
      worst.note(tensor, testing::compareWithTorch(tensor, *got, *run.find(tensor)));
      if (std::string(tensor) == "probs") probs = got;
    }
    const auto& layers = run.find("layers")->array();
    ASSERT_EQ(layers.size(), r.layers().size());
    for (size_t l = 0; l < layers.size(); ++l)
      for (const auto& [tensor, got] : r.layers()[l])
        worst.note(tensor, testing::compareWithTorch("layers[" + std::to_string(l) + "]." + tensor, *got,
                                                     *layers[l].find(tensor)));
    // The probabilities are a distribution over the vocabulary.
    ASSERT_NE(probs, nullptr);
    double total = 0;
    for (float p : probs->data) total += p;
    EXPECT_NEAR(total, 1.0, 1e-5);
  }
  for (const auto& [tensor, w] : worst.byName)
    std::printf("[ gpt2 %-16s] %-18s worst |ours - torch| = %.3g (%.3g of its largest)\n", name.c_str(), tensor.c_str(),
                w.diff, w.relative);
}

INSTANTIATE_TEST_SUITE_P(PyTorch, Gpt2FixtureTest, ::testing::Values("f32", "f16", "bf16", "f32-transformer"),
                         [](const auto& info) { return testing::testName(info.param); });

// Hugging Face masks with float32's lowest, not −inf: the weights are a −inf mask's bit for bit.
TEST(Gpt2Forward, LowestFillGivesTheWeightsOfAnInfiniteMask) {
  const Files f32 = checkpoint("f32");
  const Gpt2Config config = parsedConfig(f32.config);
  Gpt2Weights weights;
  ASSERT_TRUE(testing::succeeded(readGpt2Weights(config, f32.file.data(), f32.file.size(), weights)));
  Gpt2Result r;
  ASSERT_TRUE(testing::succeeded(runGpt2Forward(config, weights, {3, 1, 4, 1, 5, 9, 2, 6}, r)));
  const int64_t T = 8;
  ScoreRowSteps steps;  // the scaled scores, masked with −inf (the default fill), through the softmax
  steps.mask = MaskStep::Fill;
  int64_t zeros = 0;
  for (const Gpt2Layer& layer : r.layers)
    for (int64_t row = 0; row < layer.scaled.shape[0] * T; ++row) {
      std::vector<float> blocked(T, 0.0f), infinite(T);
      for (int64_t j = row % T + 1; j < T; ++j) blocked[static_cast<size_t>(j)] = 1.0f;
      scaleMaskSoftmaxRow(steps, layer.scaled.data.data() + row * T, blocked.data(), T, nullptr, nullptr,
                          infinite.data());
      const float* ours = layer.weights.data.data() + row * T;
      for (int64_t j = 0; j < T; ++j) {
        EXPECT_EQ(std::memcmp(&ours[j], &infinite[static_cast<size_t>(j)], 4), 0) << row << ", " << j;
        zeros += j > row % T && ours[j] == 0.0f;
      }
    }
  EXPECT_EQ(zeros, 2 * 2 * (T * (T - 1) / 2));  // every masked key of 2 layers · 2 heads weighs 0
}

// The float16 and bfloat16 checkpoints hold the float32 one's weights rounded:
// read, they differ from it, and by no more than the rounding.
TEST(Gpt2Weights, HalfFilesHoldTheRoundedWeights) {
  const Files f32 = checkpoint("f32");
  const Gpt2Config config = parsedConfig(f32.config);
  Gpt2Weights exact;
  ASSERT_TRUE(testing::succeeded(readGpt2Weights(config, f32.file.data(), f32.file.size(), exact)));
  for (const auto& [name, bits] : {std::pair<const char*, int>{"f16", 11}, {"bf16", 8}}) {
    const Files half = checkpoint(name);
    Gpt2Weights rounded;
    ASSERT_TRUE(testing::succeeded(readGpt2Weights(config, half.file.data(), half.file.size(), rounded)));
    double worst = 0;
    bool differs = false;
    for (size_t i = 0; i < exact.wte.data.size(); ++i) {
      const double e = exact.wte.data[i], r = rounded.wte.data[i];
      worst = std::max(worst, std::fabs(e - r) / std::fabs(e));
      differs |= e != r;
    }
    EXPECT_TRUE(differs) << name;
    EXPECT_LE(worst, std::ldexp(1.0, -bits)) << name;  // half an ulp of a `bits`-bit significand
  }
}

// ---- float16 and bfloat16 as torch converts them ------------------------------------

TEST(Gpt2Weights, ConvertsHalvesAsTorch) {
  const JsonValue table = testing::readJsonFile(gpt2Path("fixtures/conversions.json"));
  const auto& bits = table.find("bits")->array();
  const auto& f16 = table.find("f16")->array();
  const auto& bf16 = table.find("bf16")->array();
  ASSERT_EQ(bits.size(), f16.size());
  ASSERT_EQ(bits.size(), bf16.size());
  ASSERT_GT(bits.size(), 600u);
  int mismatches = 0;
  for (size_t i = 0; i < bits.size(); ++i) {
    const auto b = static_cast<uint16_t>(bits[i].number());
    uint32_t half, brain;
    const float h = halfToFloat(b), bf = bfloat16ToFloat(b);
    std::memcpy(&half, &h, 4);
    std::memcpy(&brain, &bf, 4);
    if (half != static_cast<uint32_t>(f16[i].number()) && mismatches++ < 5)
      ADD_FAILURE() << "F16 " << std::hex << b << ": ours " << half << ", torch " << f16[i].number();
    if (brain != static_cast<uint32_t>(bf16[i].number()) && mismatches++ < 5)
      ADD_FAILURE() << "BF16 " << std::hex << b << ": ours " << brain << ", torch " << bf16[i].number();
  }
}

// ---- bad weights files ----------------------------------------------------------------

// The f32 checkpoint's file with `from` replaced by `to` (as long) in its header.
std::vector<uint8_t> editedHeader(const std::string& from, const std::string& to) {
  std::vector<uint8_t> file = checkpoint("f32").file;
  EXPECT_EQ(from.size(), to.size());
  const std::string text(file.begin(), file.end());
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) std::copy(to.begin(), to.end(), file.begin() + static_cast<std::ptrdiff_t>(at));
  return file;
}

struct BadFile {
  const char* name;
  std::vector<uint8_t> bytes;
  std::string config;  // config.json's text; the f32 checkpoint's when empty
  const char* code;
  std::string mentions;  // a parameter's value: the key at fault
};
void PrintTo(const BadFile& c, std::ostream* os) { *os << c.name; }

std::vector<BadFile> badFiles() {
  const Files f32 = checkpoint("f32");
  std::vector<uint8_t> nan = f32.file;
  uint64_t header = 0;
  for (int i = 7; i >= 0; --i) header = header << 8 | nan[static_cast<size_t>(i)];
  const float quiet = NAN;  // wte.weight[3], the first tensor's fourth float
  std::memcpy(nan.data() + 8 + header + 12, &quiet, 4);
  std::string wideVocab = f32.config, wideInner = f32.config;
  wideVocab.replace(wideVocab.find("\"vocab_size\": 64"), 16, "\"vocab_size\": 65");
  wideInner.replace(wideInner.find("\"n_inner\": null"), 15, "\"n_inner\": 32  ");
  const std::vector<uint8_t> f16 = checkpoint("f16").file;  // ln_f.bias last (f32's file ends with mask buffers)
  const std::vector<uint8_t> cut(f16.begin(), f16.end() - 1);
  return {
      {"empty", {}, "", "weights-file-too-short", "0"},
      {"header-cut", std::vector<uint8_t>(f32.file.begin(), f32.file.begin() + 100), "", "weights-file-too-short",
       "100"},
      {"data-cut", cut, "", "weights-file-bounds", "ln_f.bias"},
      {"dtype-f64", editedHeader(R"("wte.weight":{"dtype":"F32")", R"("wte.weight":{"dtype":"F64")"), "",
       "weights-file-dtype", "wte.weight"},
      {"dtype-i32", editedHeader(R"("h.1.ln_2.bias":{"dtype":"F32")", R"("h.1.ln_2.bias":{"dtype":"I32")"), "",
       "weights-file-dtype", "h.1.ln_2.bias"},
      {"missing-key", editedHeader(R"("h.1.mlp.c_fc.bias")", R"("h.1.mlp.c_fc.xxxx")"), "",
       "weights-file-missing-tensor", "h.1.mlp.c_fc.bias"},
      {"no-wte", editedHeader(R"("wte.weight")", R"("wte.xxxxxx")"), "", "weights-file-missing-tensor", "wte.weight"},
      {"shape-vocab", f32.file, wideVocab, "weights-file-shape", "wte.weight"},
      {"shape-inner", f32.file, wideInner, "weights-file-shape", "h.0.mlp.c_fc.weight"},
      {"not-finite", nan, "", "weights-file-not-finite", "wte.weight"},
  };
}

class Gpt2BadFileTest : public ::testing::TestWithParam<BadFile> {};

TEST_P(Gpt2BadFileTest, NamesTheKey) {
  const BadFile& c = GetParam();
  const Gpt2Config config = parsedConfig(c.config.empty() ? checkpoint("f32").config : c.config);
  Gpt2Weights weights;
  const Status error = readGpt2Weights(config, c.bytes.data(), c.bytes.size(), weights);
  ASSERT_TRUE(error) << c.name;
  EXPECT_EQ(error->field, "weights file");
  EXPECT_EQ(error->code, c.code) << error->message;
  expectCatalogued(*error);
  bool mentioned = false;
  for (const auto& param : error->params) mentioned |= param.second == c.mentions;
  EXPECT_TRUE(mentioned) << error->message;
  // Read a piece at a time, as the page and the CLI read a folder, the same error names the file.
  Checkpoint model;
  const std::string file = "model-00001-of-00001.safetensors";
  const Status piecewise = loadCheckpoint(c.config.empty() ? checkpoint("f32").config : c.config,
                                          {{file, c.bytes.data(), c.bytes.size()}}, model);
  ASSERT_TRUE(piecewise) << c.name;
  EXPECT_EQ(piecewise->field, file);
  EXPECT_EQ(piecewise->code, c.code) << piecewise->message;
}

// A checkpoint's token limit is its positions, or fewer where a run's kept tensors would pass the memory
// limit: GPT-2 small's 1,024 positions hold that many tokens only up to the largest T that fits.
TEST(CheckpointSizes, MaxTokensIsTheLargestRunThatFits) {
  Checkpoint small;
  ASSERT_TRUE(testing::succeeded(parseCheckpointConfig(
      R"({"model_type":"gpt2","n_layer":12,"n_head":12,"n_embd":768,"n_positions":1024,"vocab_size":50257})", small)));
  const int64_t T = checkpointSizes(small).maxTokens;
  EXPECT_LT(T, 1024);
  EXPECT_LE(gpt2KeptBytes(small.gpt2, T), kMaxIntermediateBytes);
  EXPECT_GT(gpt2KeptBytes(small.gpt2, T + 1), kMaxIntermediateBytes);
  std::printf("[ gpt2 small ] at most %lld tokens a run (of 1024 positions)\n", static_cast<long long>(T));
  // One more is refused on "ids" with that limit, before any weight is touched (none are loaded here).
  CheckpointRun run;
  const Status over = runCheckpoint(small, std::vector<int64_t>(static_cast<size_t>(T + 1), 1), run);
  ASSERT_TRUE(over);
  EXPECT_EQ(over->field, "ids");
  EXPECT_EQ(over->code, "model-too-many-tokens");
  EXPECT_NE(over->message.find("at most " + std::to_string(T)), std::string::npos) << over->message;
  // The test checkpoints are small: all their positions fit.
  Checkpoint tiny;
  ASSERT_TRUE(testing::succeeded(parseCheckpointConfig(checkpoint("f32").config, tiny)));
  EXPECT_EQ(checkpointSizes(tiny).maxTokens, tiny.gpt2.nPositions);
}

// The loader's steps out of order, or no weights file, are errors, never a read of a missing piece.
TEST(CheckpointLoader, RefusesStepsOutOfOrderAndAFolderWithoutWeights) {
  const Files f32 = checkpoint("f32");
  CheckpointLoader loader;
  const uint8_t none = 0;
  Status s = loader.addShard("model.safetensors", f32.file.data(), f32.file.size(), f32.file.size());
  ASSERT_TRUE(s);
  EXPECT_EQ(s->code, "checkpoint-step-order");
  expectCatalogued(*s);
  ASSERT_TRUE(testing::succeeded(loader.setConfig(f32.config)));
  s = loader.plan();
  ASSERT_TRUE(s);
  EXPECT_EQ(s->code, "checkpoint-no-weights");
  expectCatalogued(*s);
  ASSERT_TRUE(testing::succeeded(loader.addShard("model.safetensors", f32.file.data(), 4096, f32.file.size())));
  ASSERT_TRUE(testing::succeeded(loader.plan()));
  EXPECT_EQ(loader.pieces().size(), 2 + 2 * 12 + 2);  // wte, wpe; 12 per layer; ln_f
  Checkpoint model;
  s = loader.finish(model);  // nothing put yet
  ASSERT_TRUE(s);
  EXPECT_EQ(s->code, "checkpoint-step-order");
  s = loader.put(0, &none, 1);  // wte's slice must be its whole range
  ASSERT_TRUE(s);
  EXPECT_EQ(s->field, "model.safetensors");
  s = loader.put(loader.pieces().size(), &none, 1);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->code, "checkpoint-step-order");
}

INSTANTIATE_TEST_SUITE_P(Errors, Gpt2BadFileTest, ::testing::ValuesIn(badFiles()),
                         [](const auto& info) { return testing::testName(info.param.name); });

// With the prefix, the key at fault is named as the file spells it.
TEST(Gpt2Weights, NamesAPrefixedKeyAsTheFileSpellsIt) {
  Files prefixed = checkpoint("f32-transformer");
  const std::string from = R"("transformer.h.0.attn.c_proj.weight")";
  const std::string text(prefixed.file.begin(), prefixed.file.end());
  const size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos);
  prefixed.file[at + from.size() - 2] = 'X';  // ...weighX
  Gpt2Weights weights;
  const Status error =
      readGpt2Weights(parsedConfig(prefixed.config), prefixed.file.data(), prefixed.file.size(), weights);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code, "weights-file-missing-tensor");
  EXPECT_EQ(error->message, "the weights file has no tensor \"transformer.h.0.attn.c_proj.weight\"");
}

// Every cut of a file is an error or (the whole file) the weights: never a read out of bounds.
TEST(Gpt2Weights, EveryTruncationIsAnError) {
  const Files f16 = checkpoint("f16");
  const Gpt2Config config = parsedConfig(f16.config);
  for (size_t size = 0; size < f16.file.size(); size += 13) {
    Gpt2Weights weights;
    const Status error = readGpt2Weights(config, f16.file.data(), size, weights);
    ASSERT_TRUE(error) << size;
    EXPECT_EQ(error->field, "weights file");
  }
}

// ---- bad config.json ---------------------------------------------------------------

struct BadConfig {
  const char* name;
  std::vector<std::string> members;  // each in place of config.json's own: "\"n_head\": 3"
  const char* field;
  const char* code;
};
void PrintTo(const BadConfig& c, std::ostream* os) { *os << c.name; }

std::vector<BadConfig> badConfigs() {
  return {
      {"n-layer-zero", {"\"n_layer\": 0"}, "config.json.n_layer", "out-of-range"},
      {"n-layer-text", {"\"n_layer\": \"2\""}, "config.json.n_layer", "wrong-type"},
      {"n-head-fraction", {"\"n_head\": 2.5"}, "config.json.n_head", "not-whole"},
      {"n-head-not-divisor", {"\"n_head\": 3"}, "config.json.n_embd", "model-config-not-divisible"},
      {"n-embd-huge", {"\"n_embd\": 1e9"}, "config.json.n_embd", "out-of-range"},
      {"vocab-negative", {"\"vocab_size\": -1"}, "config.json.vocab_size", "out-of-range"},
      {"eps-zero", {"\"layer_norm_epsilon\": 0"}, "config.json.layer_norm_epsilon", "out-of-range"},
      {"eps-text", {"\"layer_norm_epsilon\": \"1e-5\""}, "config.json.layer_norm_epsilon", "wrong-type"},
      {"activation", {"\"activation_function\": \"gelu\""}, "config.json.activation_function", "not-one-of"},
      {"model-type", {"\"model_type\": \"llama\""}, "config.json.model_type", "not-one-of"},
      {"inverse-layer-scaling",
       {"\"scale_attn_by_inverse_layer_idx\": true"},
       "config.json.scale_attn_by_inverse_layer_idx",
       "not-one-of"},
      {"unscaled", {"\"scale_attn_weights\": false"}, "config.json.scale_attn_weights", "not-one-of"},
      {"n-inner-zero", {"\"n_inner\": 0"}, "config.json.n_inner", "out-of-range"},
      // n_embd 4096, 64 layers of 12 · 4096² weights: far more than the limit.
      {"too-large", {"\"n_embd\": 4096", "\"n_layer\": 64"}, "config.json", "model-too-large"},
  };
}

class Gpt2BadConfigTest : public ::testing::TestWithParam<BadConfig> {};

TEST_P(Gpt2BadConfigTest, NamesTheField) {
  const BadConfig& c = GetParam();
  std::string text = checkpoint("f32").config;
  for (const std::string& member : c.members) text = withMember(text, member);
  Gpt2Config config;
  const Status error = parseGpt2Config(text, config);
  ASSERT_TRUE(error) << text;
  EXPECT_EQ(error->field, c.field) << error->message;
  EXPECT_EQ(error->code, c.code) << error->message;
  expectCatalogued(*error);
}

INSTANTIATE_TEST_SUITE_P(Errors, Gpt2BadConfigTest, ::testing::ValuesIn(badConfigs()),
                         [](const auto& info) { return testing::testName(info.param.name); });

TEST(Gpt2Config, ReadsTheCheckpointsConfig) {
  const Gpt2Config c = parsedConfig(checkpoint("f32").config);
  EXPECT_EQ(c.nLayer, 2);
  EXPECT_EQ(c.nHead, 2);
  EXPECT_EQ(c.nEmbd, 16);
  EXPECT_EQ(c.nPositions, 32);
  EXPECT_EQ(c.vocabSize, 64);
  EXPECT_EQ(c.nInner, 64);  // null: 4 · n_embd
  EXPECT_EQ(c.layerNormEpsilon, 1e-5f);
}

TEST(Gpt2Config, ReadsNCtxForNPositionsAndDefaults) {
  const Gpt2Config c = parsedConfig(R"({"n_layer": 1, "n_head": 1, "n_embd": 4, "n_ctx": 7, "vocab_size": 3})");
  EXPECT_EQ(c.nPositions, 7);
  EXPECT_EQ(c.nInner, 16);
  EXPECT_EQ(c.layerNormEpsilon, 1e-5f);
}

TEST(Gpt2Config, NamesAMissingFieldAndBadJson) {
  Gpt2Config c;
  Status error = parseGpt2Config(R"({"n_layer": 1, "n_head": 1, "n_embd": 4, "vocab_size": 3})", c);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code, "model-config-missing");
  EXPECT_EQ(error->message, "config.json.n_positions is missing: the model's config.json must give it");
  for (const char* text : {"{\"n_layer\": ", "[1, 2]", ""}) {
    error = parseGpt2Config(text, c);
    ASSERT_TRUE(error) << text;
    EXPECT_EQ(error->field, "config.json");
    EXPECT_EQ(error->code, "model-config-not-json");
    expectCatalogued(*error);
  }
}

// ---- bad token ids ---------------------------------------------------------------------

TEST(Gpt2Forward, RefusesBadIds) {
  const Files f32 = checkpoint("f32");
  const Gpt2Config config = parsedConfig(f32.config);
  Gpt2Weights weights;
  ASSERT_TRUE(testing::succeeded(readGpt2Weights(config, f32.file.data(), f32.file.size(), weights)));
  struct Case {
    std::vector<int64_t> ids;
    const char* field;
    const char* code;
  };
  const std::vector<Case> cases = {
      {{}, "ids", "model-tokens-empty"},
      {std::vector<int64_t>(33, 1), "ids", "model-too-many-tokens"},
      {{1, 2, 64}, "ids[2]", "out-of-range"},
      {{-1}, "ids[0]", "out-of-range"},
  };
  for (const Case& c : cases) {
    Gpt2Result r;
    const Status error = runGpt2Forward(config, weights, c.ids, r);
    ASSERT_TRUE(error) << c.code;
    EXPECT_EQ(error->field, c.field);
    EXPECT_EQ(error->code, c.code) << error->message;
    expectCatalogued(*error);
  }
  // n_positions tokens, the most, run.
  Gpt2Result r;
  ASSERT_TRUE(testing::succeeded(runGpt2Forward(config, weights, std::vector<int64_t>(32, 7), r)));
  EXPECT_EQ(r.logits.shape, (std::vector<int64_t>{32, 64}));
  EXPECT_EQ(r.layers[1].weights.shape, (std::vector<int64_t>{2, 32, 32}));
}

// What a run keeps is bounded before anything is allocated.
TEST(Gpt2Forward, RefusesARunOverTheMemoryLimit) {
  Gpt2Config config;
  config.nLayer = 48;
  config.nHead = 25;
  config.nEmbd = 1600;
  config.nInner = 6400;
  config.nPositions = 1024;
  config.vocabSize = 50257;
  ASSERT_GT(gpt2KeptBytes(config, 1024), kMaxIntermediateBytes);
  Gpt2Result r;
  const Status error = runGpt2Forward(config, Gpt2Weights{}, std::vector<int64_t>(1024, 0), r);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code, "memory-limit");
  expectCatalogued(*error);
}

}  // namespace
}  // namespace attention_lab
