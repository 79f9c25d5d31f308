// Llama and Qwen2 from Hugging Face checkpoints: config.json's reader, the
// weight slots (keys exactly as the files spell them), model.safetensors in
// F32, F16 and BF16 and in two shards, and the forward against PyTorch 1.13
// (tests/reference/llama/generate.py: tiny random models and every
// intermediate of their forward). Each tensor must be within 1e-5 of the
// largest magnitude in PyTorch's tensor; the worst difference of each, and of
// each checkpoint, is printed. Every bad input is an error naming its field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>

#include "checkpoint_loader.h"
#include "llama_config.h"
#include "llama_model.h"
#include "llama_weights.h"
#include "model_fixture_support.h"
#include "safetensors.h"
#include "size_limits.h"
#include "test_support.h"

namespace attention_lab {
namespace {

using testing::expectCatalogued;
using testing::readBytes;
using testing::readText;
using testing::testName;
using testing::withMember;

std::string llamaPath(const std::string& name) { return std::string(ATTENTION_LAB_LLAMA) + "/" + name; }

// A checkpoint of tests/reference/llama/checkpoints: its config.json and its safetensors files
// (model.safetensors, or the shards model.safetensors.index.json lists, by file name).
struct LlamaFiles {
  std::string config;
  std::map<std::string, std::vector<uint8_t>> files;
  JsonValue index = JsonValue::makeNull();  // the index's weight_map; null for one file
};
LlamaFiles checkpoint(const std::string& name) {
  const std::string folder = llamaPath("checkpoints/" + name + "/");
  LlamaFiles c{readText(folder + "config.json"), {}, JsonValue::makeNull()};
  if (readText(folder + "model.safetensors.index.json").empty()) {
    c.files["model.safetensors"] = readBytes(folder + "model.safetensors");
    return c;
  }
  c.index = *testing::readJsonFile(folder + "model.safetensors.index.json").find("weight_map");
  for (const auto& [key, file] : c.index.members())
    if (!c.files.count(file.string())) c.files[file.string()] = readBytes(folder + file.string());
  return c;
}

LlamaConfig parsedConfig(const std::string& text) {
  LlamaConfig config;
  EXPECT_TRUE(testing::succeeded(parseLlamaConfig(text, config)));
  return config;
}

// The weights of a checkpoint: one file through readLlamaWeights; the shards through the loader, as the
// page and the CLI open a folder (each shard's header, then each wanted tensor's range; no index needed).
Status readCheckpoint(const LlamaConfig& config, const LlamaFiles& c, LlamaWeights& out) {
  if (c.index.isNull()) {
    const std::vector<uint8_t>& file = c.files.at("model.safetensors");
    return readLlamaWeights(config, file.data(), file.size(), out);
  }
  std::vector<CheckpointFile> files;
  for (const auto& [name, bytes] : c.files) files.push_back({name, bytes.data(), bytes.size()});
  Checkpoint model;
  if (Status s = loadCheckpoint(c.config, files, model)) return s;
  EXPECT_EQ(model.family, ModelFamily::Llama);
  EXPECT_EQ(model.llama.nLayer, config.nLayer);
  out = std::move(model.llamaWeights);
  return {};
}

// The tensor names a safetensors file's header holds (its __metadata__ aside).
std::set<std::string> headerKeys(const std::vector<uint8_t>& file) {
  uint64_t length = 0;
  for (int i = 7; i >= 0; --i) length = length << 8 | file[static_cast<size_t>(i)];
  const JsonParseResult header = parseJson(std::string(file.begin() + 8, file.begin() + 8 + length));
  std::set<std::string> keys;
  for (const auto& [key, value] : header.value.members())
    if (key != "__metadata__") keys.insert(key);
  return keys;
}

// How many float32 steps apart two floats of the same sign are.
int64_t ulps(float a, float b) {
  int32_t x, y;
  std::memcpy(&x, &a, 4);
  std::memcpy(&y, &b, 4);
  return std::abs(static_cast<int64_t>(x) - static_cast<int64_t>(y));
}

const char* const kCheckpoints[] = {"llama-f32", "llama-f16", "qwen2-f32", "qwen2-bf16", "llama-sharded"};

// ---- the forward against PyTorch ----------------------------------------------------

class LlamaFixtureTest : public ::testing::TestWithParam<std::string> {};

TEST_P(LlamaFixtureTest, MatchesPyTorch) {
  const std::string name = GetParam();
  const LlamaFiles files = checkpoint(name);
  const LlamaConfig config = parsedConfig(files.config);
  EXPECT_EQ(llamaFamilyName(config.family), name.substr(0, 5));
  LlamaWeights weights;
  ASSERT_TRUE(testing::succeeded(readCheckpoint(config, files, weights)));

  const JsonValue fixture = testing::readJsonFile(llamaPath("fixtures/" + name + ".json"));
  const auto& runs = fixture.find("runs")->array();
  ASSERT_FALSE(runs.empty());
  testing::WorstByName worst;
  int64_t ropeEntries = 0, ropeExact = 0;
  for (const JsonValue& run : runs) {
    std::vector<int64_t> ids;
    for (const auto& id : run.find("ids")->array()) ids.push_back(static_cast<int64_t>(id.number()));
    LlamaResult r;
    ASSERT_TRUE(testing::succeeded(runLlamaForward(config, weights, ids, r)));
    for (const auto& [tensor, got] : namedTensors(r))
      worst.note(tensor, testing::compareWithTorch(tensor, *got, *run.find(tensor)));
    const auto& layers = run.find("layers")->array();
    ASSERT_EQ(layers.size(), r.layers.size());
    for (size_t l = 0; l < layers.size(); ++l)
      for (const auto& [tensor, got] : namedTensors(r.layers[l]))
        worst.note(tensor, testing::compareWithTorch("layers[" + std::to_string(l) + "]." + tensor, *got,
                                                     *layers[l].find(tensor)));
    // RoPE's cosines and sines, each rounded once to float32: torch's vectorized cosf / sinf
    // are within an ulp of that.
    for (const auto& [tensor, got] :
         {std::pair<const char*, const Tensor*>{"ropeCos", &r.ropeCos}, {"ropeSin", &r.ropeSin}}) {
      const auto& want = run.find(tensor)->find("data")->array();
      ASSERT_EQ(want.size(), got->data.size());
      for (size_t i = 0; i < want.size(); ++i) {
        const float torch = static_cast<float>(want[i].number());
        EXPECT_LE(ulps(torch, got->data[i]), 1) << tensor << "[" << i << "]";
        ++ropeEntries;
        ropeExact += torch == got->data[i];
      }
    }
    double total = 0;
    for (float p : r.probs.data) total += p;
    EXPECT_NEAR(total, 1.0, 1e-5);
  }
  testing::Worst overall;
  for (const auto& [tensor, w] : worst.byName) {
    std::printf("[ %-13s] %-16s worst |ours - torch| = %.3g (%.3g of its largest)\n", name.c_str(), tensor.c_str(),
                w.diff, w.relative);
    overall.diff = std::max(overall.diff, w.diff);
    overall.relative = std::max(overall.relative, w.relative);
  }
  std::printf("[ %-13s] %s %s: worst of every tensor %.3g (%.3g of its largest); RoPE cos/sin %lld of %lld equal\n",
              name.c_str(), llamaFamilyName(config.family), fixture.find("dtype")->string().c_str(), overall.diff,
              overall.relative, static_cast<long long>(ropeExact), static_cast<long long>(ropeEntries));
}

INSTANTIATE_TEST_SUITE_P(PyTorch, LlamaFixtureTest,
                         ::testing::ValuesIn(std::vector<std::string>(std::begin(kCheckpoints),
                                                                      std::end(kCheckpoints))),
                         [](const auto& info) { return testName(info.param); });

// A causal mask added (HF's 0 / finfo.min) gives masked keys a weight of exactly 0.
TEST(LlamaForward, MaskedKeysWeighNothing) {
  const LlamaFiles files = checkpoint("qwen2-f32");
  const LlamaConfig config = parsedConfig(files.config);
  LlamaWeights weights;
  ASSERT_TRUE(testing::succeeded(readCheckpoint(config, files, weights)));
  LlamaResult r;
  ASSERT_TRUE(testing::succeeded(runLlamaForward(config, weights, {3, 1, 4, 1, 5, 9}, r)));
  const int64_t T = 6;
  int64_t zeros = 0;
  for (const LlamaLayer& layer : r.layers)
    for (int64_t row = 0; row < layer.weights.shape[0] * T; ++row)
      for (int64_t j = row % T + 1; j < T; ++j) zeros += layer.weights.data[static_cast<size_t>(row * T + j)] == 0.0f;
  EXPECT_EQ(zeros, 2 * 2 * (T * (T - 1) / 2));  // every masked key of 2 layers · 2 heads
}

// ---- the weight slots ------------------------------------------------------------------

// The slots are exactly the tensors each file holds: biases only where the family has them,
// lm_head.weight only when untied.
TEST(LlamaWeights, SlotsAreTheFilesKeys) {
  for (const char* name : kCheckpoints) {
    const LlamaFiles files = checkpoint(name);
    const LlamaConfig config = parsedConfig(files.config);
    LlamaWeights w;
    std::set<std::string> slots;
    for (const WeightSlot& slot : llamaWeightSlots(config, w)) EXPECT_TRUE(slots.insert(slot.key).second) << slot.key;
    std::set<std::string> keys;
    for (const auto& [file, bytes] : files.files) {
      const std::set<std::string> here = headerKeys(bytes);
      keys.insert(here.begin(), here.end());
    }
    EXPECT_EQ(slots, keys) << name;
    EXPECT_EQ(slots.count("lm_head.weight"), config.tieWordEmbeddings ? 0u : 1u) << name;
    int64_t count = 0;
    for (const WeightSlot& slot : llamaWeightSlots(config, w)) {
      int64_t n = 1;
      for (int64_t axis : slot.shape) n *= axis;
      count += n;
    }
    EXPECT_EQ(count, llamaWeightCount(config)) << name;
  }
}

TEST(LlamaWeights, BiasesByFamily) {
  auto keysOf = [](const LlamaConfig& c) {
    LlamaWeights w;
    std::vector<std::string> biases;
    for (const WeightSlot& slot : llamaWeightSlots(c, w))
      if (slot.key.find(".bias") != std::string::npos && slot.key.rfind("model.layers.0.", 0) == 0)
        biases.push_back(slot.key.substr(15));
    return biases;
  };
  LlamaConfig c = parsedConfig(checkpoint("llama-f32").config);
  EXPECT_TRUE(keysOf(c).empty());
  c.attentionBias = true;
  EXPECT_EQ(keysOf(c), (std::vector<std::string>{"self_attn.q_proj.bias", "self_attn.k_proj.bias",
                                                 "self_attn.v_proj.bias", "self_attn.o_proj.bias"}));
  c.family = LlamaFamily::Qwen2;
  c.attentionBias = false;
  EXPECT_EQ(keysOf(c),
            (std::vector<std::string>{"self_attn.q_proj.bias", "self_attn.k_proj.bias", "self_attn.v_proj.bias"}));
}

// ---- bad weights files ----------------------------------------------------------------

// `name`'s file with `from` replaced by `to` (as long) in its header.
std::vector<uint8_t> editedHeader(const std::string& name, const std::string& from, const std::string& to) {
  std::vector<uint8_t> file = checkpoint(name).files.at("model.safetensors");
  EXPECT_EQ(from.size(), to.size());
  const std::string text(file.begin(), file.end());
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) std::copy(to.begin(), to.end(), file.begin() + static_cast<std::ptrdiff_t>(at));
  return file;
}

struct BadFile {
  const char* name;
  const char* checkpoint;
  std::vector<uint8_t> bytes;
  std::vector<std::string> members;  // config.json's members replaced
  const char* code;
  std::string mentions;  // a parameter's value: the key at fault
};
void PrintTo(const BadFile& c, std::ostream* os) { *os << c.name; }

std::vector<BadFile> badFiles() {
  const std::vector<uint8_t> llama = checkpoint("llama-f32").files.at("model.safetensors");
  std::vector<uint8_t> nan = llama;
  uint64_t header = 0;
  for (int i = 7; i >= 0; --i) header = header << 8 | nan[static_cast<size_t>(i)];
  const float quiet = NAN;  // the first tensor's (model.embed_tokens.weight's) third float
  std::memcpy(nan.data() + 8 + header + 8, &quiet, 4);
  const std::vector<uint8_t> qwen = checkpoint("qwen2-f32").files.at("model.safetensors");
  return {
      {"empty", "llama-f32", {}, {}, "weights-file-too-short", "0"},
      {"data-cut",
       "llama-f32",
       std::vector<uint8_t>(llama.begin(), llama.end() - 1),
       {},
       "weights-file-bounds",
       "lm_head.weight"},
      {"no-lm-head",
       "llama-f32",
       editedHeader("llama-f32", R"("lm_head.weight")", R"("lm_head.xxxxxx")"),
       {},
       "weights-file-missing-tensor",
       "lm_head.weight"},
      {"no-qwen2-bias",
       "qwen2-f32",
       editedHeader("qwen2-f32", R"("model.layers.1.self_attn.k_proj.bias")",
                    R"("model.layers.1.self_attn.k_proj.xxxx")"),
       {},
       "weights-file-missing-tensor",
       "model.layers.1.self_attn.k_proj.bias"},
      {"dtype-f64",
       "llama-f32",
       editedHeader("llama-f32", R"("model.norm.weight":{"dtype":"F32")", R"("model.norm.weight":{"dtype":"F64")"),
       {},
       "weights-file-dtype",
       "model.norm.weight"},
      // The tied qwen2 file read as untied: its head is missing.
      {"untied-qwen2",
       "qwen2-f32",
       qwen,
       {"\"tie_word_embeddings\": false"},
       "weights-file-missing-tensor",
       "lm_head.weight"},
      // More key-value heads than the file's k_proj has rows for.
      {"shape-kv-heads",
       "llama-f32",
       llama,
       {"\"num_key_value_heads\": 4"},
       "weights-file-shape",
       "model.layers.0.self_attn.k_proj.weight"},
      {"shape-inner",
       "llama-f32",
       llama,
       {"\"intermediate_size\": 33"},
       "weights-file-shape",
       "model.layers.0.mlp.gate_proj.weight"},
      {"shape-vocab", "qwen2-f32", qwen, {"\"vocab_size\": 65"}, "weights-file-shape", "model.embed_tokens.weight"},
      {"not-finite", "llama-f32", nan, {}, "weights-file-not-finite", "model.embed_tokens.weight"},
  };
}

class LlamaBadFileTest : public ::testing::TestWithParam<BadFile> {};

TEST_P(LlamaBadFileTest, NamesTheKey) {
  const BadFile& c = GetParam();
  std::string text = checkpoint(c.checkpoint).config;
  for (const std::string& member : c.members) text = withMember(text, member);
  const LlamaConfig config = parsedConfig(text);
  LlamaWeights weights;
  const Status error = readLlamaWeights(config, c.bytes.data(), c.bytes.size(), weights);
  ASSERT_TRUE(error) << c.name;
  EXPECT_EQ(error->field, "weights file");
  EXPECT_EQ(error->code, c.code) << error->message;
  expectCatalogued(*error);
  bool mentioned = false;
  for (const auto& param : error->params) mentioned |= param.second == c.mentions;
  EXPECT_TRUE(mentioned) << error->message;
}

INSTANTIATE_TEST_SUITE_P(Errors, LlamaBadFileTest, ::testing::ValuesIn(badFiles()),
                         [](const auto& info) { return testName(info.param.name); });

// ---- bad config.json ---------------------------------------------------------------

struct BadConfig {
  const char* name;
  const char* checkpoint;
  std::vector<std::string> members;  // each in place of config.json's own: "\"num_attention_heads\": 3"
  const char* field;
  const char* code;
  const char* message;  // the whole message, when given
};
void PrintTo(const BadConfig& c, std::ostream* os) { *os << c.name; }

std::vector<BadConfig> badConfigs() {
  return {
      {"model-type",
       "llama-f32",
       {"\"model_type\": \"mistral\""},
       "config.json.model_type",
       "not-one-of",
       "config.json.model_type must be one of \"llama\", \"qwen2\", got \"mistral\""},
      {"layers-zero", "llama-f32", {"\"num_hidden_layers\": 0"}, "config.json.num_hidden_layers", "out-of-range", ""},
      {"hidden-text", "qwen2-f32", {"\"hidden_size\": \"16\""}, "config.json.hidden_size", "wrong-type", ""},
      {"hidden-huge", "llama-f32", {"\"hidden_size\": 1e9"}, "config.json.hidden_size", "out-of-range", ""},
      {"heads-not-divisor",
       "llama-f32",
       {"\"num_attention_heads\": 5"},
       "config.json.num_attention_heads",
       "not-one-of",
       "config.json.num_attention_heads must be one of 1, 2, 3, 4, 6, 12, got 5"},
      // 24 / 8 = 3: RoPE needs an even head_dim.
      {"head-dim-odd",
       "llama-f32",
       {"\"num_attention_heads\": 8"},
       "config.json.num_attention_heads",
       "not-one-of",
       ""},
      {"hidden-odd",
       "llama-f32",
       {"\"hidden_size\": 25", "\"num_attention_heads\": 1"},
       "config.json.hidden_size",
       "not-one-of",
       "config.json.hidden_size must be one of 24, 26, got 25"},
      {"kv-heads-not-divisor",
       "llama-f32",
       {"\"num_key_value_heads\": 3"},
       "config.json.num_key_value_heads",
       "not-one-of",
       "config.json.num_key_value_heads must be one of 1, 2, 4, got 3"},
      {"kv-heads-fraction",
       "qwen2-f32",
       {"\"num_key_value_heads\": 1.5"},
       "config.json.num_key_value_heads",
       "not-whole",
       ""},
      {"head-dim-own",
       "llama-f32",
       {"\"max_position_embeddings\": 64, \"head_dim\": 8"},
       "config.json.head_dim",
       "not-one-of",
       "config.json.head_dim must be one of null, 6, got 8"},
      {"inner-zero", "qwen2-f32", {"\"intermediate_size\": 0"}, "config.json.intermediate_size", "out-of-range", ""},
      {"vocab-huge", "llama-f32", {"\"vocab_size\": 1e7"}, "config.json.vocab_size", "out-of-range", ""},
      {"positions-zero",
       "llama-f32",
       {"\"max_position_embeddings\": 0"},
       "config.json.max_position_embeddings",
       "out-of-range",
       ""},
      {"eps-zero", "llama-f32", {"\"rms_norm_eps\": 0"}, "config.json.rms_norm_eps", "out-of-range", ""},
      {"theta-text", "qwen2-f32", {"\"rope_theta\": \"1e6\""}, "config.json.rope_theta", "wrong-type", ""},
      {"theta-zero", "qwen2-f32", {"\"rope_theta\": 0"}, "config.json.rope_theta", "out-of-range", ""},
      {"tie-text",
       "qwen2-f32",
       {"\"tie_word_embeddings\": \"true\""},
       "config.json.tie_word_embeddings",
       "wrong-type",
       ""},
      {"activation",
       "llama-f32",
       {"\"hidden_act\": \"gelu\""},
       "config.json.hidden_act",
       "not-one-of",
       "config.json.hidden_act must be one of \"silu\", got \"gelu\""},
      {"rope-scaling",
       "llama-f32",
       {"\"rope_scaling\": {\"rope_type\": \"llama3\", \"factor\": 8.0}"},
       "config.json.rope_scaling",
       "not-one-of",
       "config.json.rope_scaling must be one of null, got an object"},
      {"mlp-bias", "llama-f32", {"\"mlp_bias\": true"}, "config.json.mlp_bias", "not-one-of", ""},
      {"attention-bias-text", "llama-f32", {"\"attention_bias\": 1"}, "config.json.attention_bias", "wrong-type", ""},
      {"sliding-window",
       "qwen2-f32",
       {"\"use_sliding_window\": true"},
       "config.json.use_sliding_window",
       "not-one-of",
       ""},
      // 64 layers of 4096 wide: far more than the limit.
      {"too-large",
       "llama-f32",
       {"\"hidden_size\": 4096", "\"num_hidden_layers\": 64", "\"intermediate_size\": 11008"},
       "config.json",
       "model-too-large",
       ""},
  };
}

class LlamaBadConfigTest : public ::testing::TestWithParam<BadConfig> {};

TEST_P(LlamaBadConfigTest, NamesTheField) {
  const BadConfig& c = GetParam();
  std::string text = checkpoint(c.checkpoint).config;
  for (const std::string& member : c.members) text = withMember(text, member);
  LlamaConfig config;
  const Status error = parseLlamaConfig(text, config);
  ASSERT_TRUE(error) << text;
  EXPECT_EQ(error->field, c.field) << error->message;
  EXPECT_EQ(error->code, c.code) << error->message;
  if (*c.message) EXPECT_EQ(error->message, c.message);
  expectCatalogued(*error);
}

INSTANTIATE_TEST_SUITE_P(Errors, LlamaBadConfigTest, ::testing::ValuesIn(badConfigs()),
                         [](const auto& info) { return testName(info.param.name); });

TEST(LlamaConfig, ReadsTheCheckpointsConfigs) {
  const LlamaConfig llama = parsedConfig(checkpoint("llama-f32").config);
  EXPECT_EQ(llama.family, LlamaFamily::Llama);
  EXPECT_EQ(llama.nLayer, 2);
  EXPECT_EQ(llama.nHead, 4);
  EXPECT_EQ(llama.nKvHead, 2);
  EXPECT_EQ(llama.hiddenSize, 24);
  EXPECT_EQ(llama.headDim(), 6);
  EXPECT_EQ(llama.intermediateSize, 32);
  EXPECT_EQ(llama.vocabSize, 64);
  EXPECT_EQ(llama.maxPositions, 64);
  EXPECT_EQ(llama.rmsNormEps, 1e-5f);
  EXPECT_EQ(llama.ropeTheta, 500000.0f);
  EXPECT_FALSE(llama.tieWordEmbeddings);
  EXPECT_FALSE(llama.qkvBias());
  const LlamaConfig qwen = parsedConfig(checkpoint("qwen2-f32").config);
  EXPECT_EQ(qwen.family, LlamaFamily::Qwen2);
  EXPECT_EQ(qwen.nKvHead, 1);
  EXPECT_EQ(qwen.ropeTheta, 1e6f);
  EXPECT_EQ(qwen.rmsNormEps, 1e-6f);
  EXPECT_TRUE(qwen.tieWordEmbeddings);
  EXPECT_TRUE(qwen.qkvBias());
  EXPECT_FALSE(qwen.oBias());
  // The sharded llama leaves out num_key_value_heads and rope_theta: their defaults.
  const LlamaConfig sharded = parsedConfig(checkpoint("llama-sharded").config);
  EXPECT_EQ(sharded.nKvHead, sharded.nHead);
  EXPECT_EQ(sharded.ropeTheta, 10000.0f);
  EXPECT_TRUE(sharded.qkvBias());
  EXPECT_TRUE(sharded.oBias());
}

TEST(LlamaConfig, DefaultsAndRequiredFields) {
  const std::string sizes =
      R"("num_hidden_layers": 1, "hidden_size": 8, "num_attention_heads": 2, "intermediate_size": 4, )"
      R"("vocab_size": 3, "max_position_embeddings": 7)";
  const LlamaConfig c = parsedConfig("{\"model_type\": \"llama\", " + sizes + "}");
  EXPECT_EQ(c.nKvHead, 2);
  EXPECT_EQ(c.rmsNormEps, 1e-6f);
  EXPECT_EQ(c.ropeTheta, 10000.0f);
  EXPECT_FALSE(c.tieWordEmbeddings);
  EXPECT_FALSE(c.attentionBias);
  // Qwen2Config's own default of 32 key-value heads is no checkpoint's: the field is required.
  LlamaConfig q;
  Status error = parseLlamaConfig("{\"model_type\": \"qwen2\", " + sizes + "}", q);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message, "config.json.num_key_value_heads is missing: the model's config.json must give it");
  EXPECT_TRUE(testing::succeeded(
      parseLlamaConfig("{\"model_type\": \"qwen2\", \"num_key_value_heads\": null, " + sizes + "}", q)));
  EXPECT_EQ(q.nKvHead, 2);
  error = parseLlamaConfig("{" + sizes + "}", q);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->field, "config.json.model_type");
  EXPECT_EQ(error->code, "model-config-missing");
  for (const char* text : {"{\"model_type\": ", "[1, 2]", ""}) {
    error = parseLlamaConfig(text, q);
    ASSERT_TRUE(error) << text;
    EXPECT_EQ(error->field, "config.json");
    EXPECT_EQ(error->code, "model-config-not-json");
    expectCatalogued(*error);
  }
}

// ---- bad token ids and the memory limit --------------------------------------------------

TEST(LlamaForward, RefusesBadIds) {
  const LlamaFiles files = checkpoint("llama-f32");
  const LlamaConfig config = parsedConfig(files.config);
  LlamaWeights weights;
  ASSERT_TRUE(testing::succeeded(readCheckpoint(config, files, weights)));
  struct Case {
    std::vector<int64_t> ids;
    const char* field;
    const char* code;
  };
  const std::vector<Case> cases = {
      {{}, "ids", "model-tokens-empty"},
      {std::vector<int64_t>(65, 1), "ids", "model-too-many-tokens"},
      {{1, 2, 64}, "ids[2]", "out-of-range"},
      {{-1}, "ids[0]", "out-of-range"},
  };
  for (const Case& c : cases) {
    LlamaResult r;
    const Status error = runLlamaForward(config, weights, c.ids, r);
    ASSERT_TRUE(error) << c.code;
    EXPECT_EQ(error->field, c.field);
    EXPECT_EQ(error->code, c.code) << error->message;
    expectCatalogued(*error);
  }
  // max_position_embeddings tokens, the most, run.
  LlamaResult r;
  ASSERT_TRUE(testing::succeeded(runLlamaForward(config, weights, std::vector<int64_t>(64, 7), r)));
  EXPECT_EQ(r.logits.shape, (std::vector<int64_t>{64, 64}));
  EXPECT_EQ(r.layers[1].weights.shape, (std::vector<int64_t>{4, 64, 64}));
  EXPECT_EQ(r.layers[1].K.shape, (std::vector<int64_t>{2, 64, 6}));
}

// What a run keeps is bounded before anything is allocated: the weights here are empty, so a
// forward that went on would read out of them.
TEST(LlamaForward, RefusesARunOverTheMemoryLimit) {
  LlamaConfig config;  // Llama-2-7B's shape
  config.nLayer = 32;
  config.nHead = config.nKvHead = 32;
  config.hiddenSize = 4096;
  config.intermediateSize = 11008;
  config.vocabSize = 32000;
  config.maxPositions = 4096;
  ASSERT_GT(llamaKeptBytes(config, 1024), kMaxIntermediateBytes);
  LlamaResult r;
  const Status error = runLlamaForward(config, LlamaWeights{}, std::vector<int64_t>(1024, 0), r);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->field, "ids");
  EXPECT_EQ(error->code, "memory-limit");
  expectCatalogued(*error);
  EXPECT_TRUE(r.layers.empty());
}

}  // namespace
}  // namespace attention_lab
