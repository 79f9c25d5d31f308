// The tiny trained model: its weights file's reader (every error names
// "weights file"), its forward against PyTorch (tests/reference/fixtures/tiny,
// within 1e-5 abs + 1e-4 rel, the worst difference printed), and its head
// scores on the training report's probes against the report itself.
#include "tiny_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "safetensors.h"
#include "schema.h"
#include "test_support.h"
#include "text_format.h"

namespace attention_lab {
namespace {

std::vector<uint8_t> readBytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), {});
}

std::string weightsPath(int64_t step) {
  char name[32];
  std::snprintf(name, sizeof name, "/step-%04lld.safetensors", static_cast<long long>(step));
  return std::string(ATTENTION_LAB_TINY_WEIGHTS) + name;
}

// Every shipped checkpoint, loaded once.
const TinyWeightStore& shippedWeights() {
  static const TinyWeightStore store = [] {
    TinyWeightStore s;
    for (int64_t step : kTinyCheckpoints) {
      const std::vector<uint8_t> bytes = readBytes(weightsPath(step));
      EXPECT_TRUE(testing::succeeded(s.load(step, bytes.data(), bytes.size()))) << weightsPath(step);
    }
    return s;
  }();
  return store;
}

const JsonValue& report() {
  static const JsonValue r = testing::readJsonFile(ATTENTION_LAB_TINY_REPORT);
  return r;
}

// ---- the weights file ---------------------------------------------------------

// A safetensors file of one F16 tensor `name` of `shape`, its data `count` float16 ones.
std::vector<uint8_t> oneTensorFile(const std::string& header, size_t dataBytes) {
  std::vector<uint8_t> file;
  file.reserve(8 + header.size() + dataBytes);
  const uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) file.push_back(static_cast<uint8_t>(n >> (8 * i)));  // the header's length, LE
  for (char c : header) file.push_back(static_cast<uint8_t>(c));
  for (size_t i = 0; i < dataBytes / 2; ++i) {
    file.push_back(0x00);
    file.push_back(0x3C);  // 1.0
  }
  return file;
}

struct FileCase {
  const char* name;
  std::vector<uint8_t> bytes;
  const char* code;
};
void PrintTo(const FileCase& c, std::ostream* os) { *os << c.name; }

std::vector<FileCase> fileCases() {
  const std::vector<WantedTensor> unused;
  return {
      {"empty", {}, "weights-file-too-short"},
      {"header-longer-than-file", oneTensorFile("{}", 0), "weights-file-too-short"},
      {"not-json", oneTensorFile("{\"a\": ", 0), "weights-file-header"},
      {"not-object", oneTensorFile("[1, 2]", 0), "weights-file-header"},
      {"missing", oneTensorFile(R"({"b": {"dtype": "F16", "shape": [2], "data_offsets": [0, 4]}})", 4),
       "weights-file-missing-tensor"},
      {"no-offsets", oneTensorFile(R"({"a": {"dtype": "F16", "shape": [2]}})", 4), "weights-file-header"},
      {"dtype", oneTensorFile(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}})", 8),
       "weights-file-dtype"},
      {"shape", oneTensorFile(R"({"a": {"dtype": "F16", "shape": [3], "data_offsets": [0, 6]}})", 6),
       "weights-file-shape"},
      {"past-the-end", oneTensorFile(R"({"a": {"dtype": "F16", "shape": [2], "data_offsets": [2, 6]}})", 4),
       "weights-file-bounds"},
      {"wrong-length", oneTensorFile(R"({"a": {"dtype": "F16", "shape": [2], "data_offsets": [0, 2]}})", 4),
       "weights-file-bounds"},
      {"reversed", oneTensorFile(R"({"a": {"dtype": "F16", "shape": [2], "data_offsets": [4, 0]}})", 4),
       "weights-file-bounds"},
  };
}

class WeightsFileTest : public ::testing::TestWithParam<FileCase> {};

TEST_P(WeightsFileTest, NamesTheWeightsFile) {
  const FileCase& c = GetParam();
  // The header-length case: the file says its header is 2 bytes but ends after 1.
  std::vector<uint8_t> bytes = c.bytes;
  if (std::string(c.name) == "header-longer-than-file") bytes.pop_back();
  std::vector<Tensor> out;
  const Status error = readSafetensorsF16(bytes.data(), bytes.size(), {{"a", {2}}}, out);
  ASSERT_TRUE(error) << c.name;
  EXPECT_EQ(error->field, "weights file");
  EXPECT_EQ(error->code, c.code) << error->message;
  const ErrorKind* kind = findErrorKind(error->code);
  ASSERT_NE(kind, nullptr);
  std::vector<std::string> names;
  for (const auto& param : error->params) names.push_back(param.first);
  EXPECT_EQ(names, templateParams(kind->english)) << error->code;
}

INSTANTIATE_TEST_SUITE_P(Errors, WeightsFileTest, ::testing::ValuesIn(fileCases()), [](const auto& info) {
  std::string name = info.param.name;
  for (char& ch : name)
    if (ch == '-') ch = '_';
  return name;
});

TEST(WeightsFile, ReadsAGoodOne) {
  const std::vector<uint8_t> file = oneTensorFile(
      R"({"__metadata__": {"step": "0"}, "a": {"dtype": "F16", "shape": [2], "data_offsets": [0, 4]}})", 4);
  std::vector<Tensor> out;
  ASSERT_TRUE(testing::succeeded(readSafetensorsF16(file.data(), file.size(), {{"a", {2}}}, out)));
  EXPECT_EQ(out[0].shape, std::vector<int64_t>{2});
  EXPECT_EQ(out[0].data, (std::vector<float>{1.0f, 1.0f}));
}

TEST(WeightsFile, HalfToFloatIsExact) {
  EXPECT_EQ(halfToFloat(0x3C00), 1.0f);
  EXPECT_EQ(halfToFloat(0xC000), -2.0f);
  EXPECT_EQ(halfToFloat(0x7BFF), 65504.0f);
  EXPECT_EQ(halfToFloat(0x0400), std::ldexp(1.0f, -14));  // the smallest normal
  EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));  // the smallest subnormal
  EXPECT_EQ(halfToFloat(0x03FF), std::ldexp(1023.0f, -24));
  EXPECT_EQ(halfToFloat(0x3555), 0.333251953125f);
  EXPECT_TRUE(std::signbit(halfToFloat(0x8000)) && halfToFloat(0x8000) == 0.0f);
  EXPECT_EQ(halfToFloat(0x7C00), INFINITY);
  EXPECT_EQ(halfToFloat(0xFC00), -INFINITY);
  EXPECT_TRUE(std::isnan(halfToFloat(0x7E00)));
  // Every finite float16 round-trips through float32 to itself (the conversion loses nothing).
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const float f = halfToFloat(static_cast<uint16_t>(h));
    if (!std::isfinite(f)) continue;
    const int exponent = std::ilogb(f);
    const float ulp = f == 0 ? 0 : std::ldexp(1.0f, std::max(exponent, -14) - 10);
    if (f != 0) ASSERT_EQ(std::fmod(f, ulp), 0.0f) << h;
  }
}

TEST(TinyWeights, EveryShippedCheckpointLoads) {
  for (int64_t step : kTinyCheckpoints) EXPECT_NE(shippedWeights().find(step), nullptr) << step;
  TinyWeightStore store;
  const std::vector<uint8_t> bytes = readBytes(weightsPath(11000));
  const Status error = store.load(123, bytes.data(), bytes.size());
  ASSERT_TRUE(error);
  EXPECT_EQ(error->field, "checkpoint");
  EXPECT_EQ(error->code, "checkpoint-unknown");
}

TEST(TinyWeights, CheckpointsAreTheReportsOnes) {
  std::vector<int64_t> reported;
  for (const JsonValue& c : report().find("checkpoints")->array())
    reported.push_back(static_cast<int64_t>(c.find("step")->number()));
  EXPECT_EQ(reported, std::vector<int64_t>(kTinyCheckpoints.begin(), kTinyCheckpoints.end()));
}

// ---- the forward against PyTorch --------------------------------------------------

std::vector<std::string> tinyFixtureNames() {
  std::vector<std::string> names;
  for (const auto& v : testing::readJsonFile(testing::fixturePath("tiny/index.json")).array())
    names.push_back(v.string());
  return names;
}

struct Worst {
  double diff = 0;
  std::string where;
};

// got against a fixture tensor {shape, data}: 1e-5 abs + 1e-4 rel, as every fixture test. `scale`
// (when given) is what the 1e-4 is relative to instead of |torch| (see dotScale).
void compare(const std::string& name, const Tensor& got, const JsonValue& want, Worst& worst,
             const std::vector<double>* scale = nullptr) {
  std::vector<int64_t> shape;
  for (const auto& n : want.find("shape")->array()) shape.push_back(static_cast<int64_t>(n.number()));
  ASSERT_EQ(got.shape, shape) << name;
  const auto& data = want.find("data")->array();
  int reported = 0;
  for (size_t i = 0; i < data.size(); ++i) {
    const double e = static_cast<float>(data[i].number()), diff = std::fabs(e - got.data[i]);
    if (diff > worst.diff) worst = {diff, name};
    const double relative = scale ? std::max(std::fabs(e), (*scale)[i]) : std::fabs(e);
    if (!(diff <= 1e-5 + 1e-4 * relative) && reported++ < 3)
      ADD_FAILURE() << name << "[" << i << "]: torch " << e << ", ours " << got.data[i];
  }
}

// The scores q·k of a head are sums of 16 products; in float32 their rounding is relative to the
// size of those products, |q_i| |k_j| (Cauchy–Schwarz), not to the sum, which cancels to near 0 at
// some of 256 × 256 cells. Per cell of scores (nh, T, T): |q_i| |k_j| of its head, from PyTorch's Q and
// K (T, d); divided by 4 for scaled.
std::vector<double> dotScale(const JsonValue& layer, double divisor) {
  const auto& q = layer.find("Q")->find("data")->array();
  const auto& k = layer.find("K")->find("data")->array();
  const size_t T = q.size() / kTinyDModel;
  auto norms = [&](const std::vector<JsonValue>& x) {
    std::vector<double> n(kTinyHeads * T);
    for (size_t h = 0; h < kTinyHeads; ++h)
      for (size_t i = 0; i < T; ++i) {
        double sum = 0;
        for (size_t c = 0; c < kTinyHeadDim; ++c)
          sum += std::pow(x[i * kTinyDModel + h * kTinyHeadDim + c].number(), 2);
        n[h * T + i] = std::sqrt(sum);
      }
    return n;
  };
  const std::vector<double> nq = norms(q), nk = norms(k);
  std::vector<double> scale(kTinyHeads * T * T);
  for (size_t h = 0; h < kTinyHeads; ++h)
    for (size_t i = 0; i < T; ++i)
      for (size_t j = 0; j < T; ++j) scale[(h * T + i) * T + j] = nq[h * T + i] * nk[h * T + j] / divisor;
  return scale;
}

void comparePerHead(const char* name, const std::optional<TinyHeadScores::PerHead>& got, const JsonValue& want) {
  ASSERT_EQ(got.has_value(), !want.isNull()) << name;
  if (!got) return;
  for (size_t l = 0; l < got->size(); ++l)
    for (size_t h = 0; h < (*got)[l].size(); ++h)
      EXPECT_NEAR((*got)[l][h], want.array()[l].array()[h].number(), 1e-6) << name << " L" << l + 1 << "H" << h + 1;
}

class TinyFixtureTest : public ::testing::TestWithParam<std::string> {};

TEST_P(TinyFixtureTest, MatchesPyTorch) {
  const JsonValue fixture = testing::readJsonFile(testing::fixturePath("tiny/" + GetParam() + ".json"));
  const JsonValue& expected = *fixture.find("expected");
  const std::string config = "{\"model\": \"tiny\", \"checkpoint\": " +
                             std::to_string(static_cast<int64_t>(fixture.find("checkpoint")->number())) +
                             ", \"text\": " + jsonQuote(fixture.find("text")->string()) + "}";
  TinyResult r;
  ASSERT_TRUE(testing::succeeded(runTinyModel(testing::parsedConfig(config), shippedWeights(), r)));
  std::vector<int64_t> ids;
  for (const auto& id : expected.find("ids")->array()) ids.push_back(static_cast<int64_t>(id.number()));
  EXPECT_EQ(r.ids, ids);
  EXPECT_TRUE(r.warnings.empty());

  Worst worst;
  const JsonValue& tensors = *expected.find("tensors");
  for (const auto& [name, tensor] : namedTensors(r)) compare(name, *tensor, *tensors.find(name), worst);
  const auto& layers = expected.find("layers")->array();
  ASSERT_EQ(layers.size(), r.layers.size());
  for (size_t l = 0; l < layers.size(); ++l) {
    const std::vector<double> scores = dotScale(layers[l], 1.0), scaled = dotScale(layers[l], 4.0);
    for (const auto& [name, tensor] : namedTensors(r.layers[l])) {
      const std::string n = name;
      const std::vector<double>* scale = n == "scores" ? &scores : n == "scaled" ? &scaled : nullptr;
      compare("layers[" + std::to_string(l) + "]." + name, *tensor, *layers[l].find(name), worst, scale);
    }
  }

  const JsonValue& scores = *expected.find("headScores");
  comparePerHead("previousToken", r.headScores.previousToken, *scores.find("previousToken"));
  comparePerHead("induction", r.headScores.induction, *scores.find("induction"));
  std::vector<int64_t> targets;
  for (const auto& t : scores.find("repeatTargets")->array()) targets.push_back(static_cast<int64_t>(t.number()));
  EXPECT_EQ(r.headScores.repeatTargets, targets);
  const JsonValue& copy = *expected.find("secondCopy");
  ASSERT_EQ(r.secondCopy.has_value(), !copy.isNull());
  if (r.secondCopy) {
    EXPECT_EQ(r.secondCopy->correct, static_cast<int64_t>(copy.find("correct")->number()));
    EXPECT_EQ(r.secondCopy->total, static_cast<int64_t>(copy.find("total")->number()));
    EXPECT_NEAR(r.secondCopy->loss, copy.find("loss")->number(), 1e-5);
  }
  std::printf("[ tiny     ] %-16s worst |ours - torch| = %.3g (%s)\n", GetParam().c_str(), worst.diff,
              worst.where.c_str());
}

INSTANTIATE_TEST_SUITE_P(PyTorch, TinyFixtureTest, ::testing::ValuesIn(tinyFixtureNames()), [](const auto& info) {
  std::string name = info.param;
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
});

// ---- the head scores against the training report ------------------------------------

// report.py's measure() with the engine: previous-token scores averaged over the plain
// probes, induction scores and second copies over the random strings typed twice, and the sentences.
struct Measured {
  TinyHeadScores::PerHead previousToken{}, induction{};
  int64_t correct = 0, total = 0;
  double loss = 0;  // the mean over the repeats of each one's mean loss
  std::map<std::string, TinySecondCopy> sentences;
};

TinyResult forward(const TinyWeights& w, const std::string& text) {
  std::vector<int64_t> ids;
  for (unsigned char byte : text) ids.push_back(byte);
  TinyResult r;
  runTinyForward(w, ids, r);
  return r;
}

Measured measure(const TinyWeights& w) {
  Measured m;
  const JsonValue& probes = *report().find("probes");
  const auto& plain = probes.find("plain")->array();
  for (const JsonValue& text : plain) {
    const TinyResult r = forward(w, text.string());
    for (size_t l = 0; l < 2; ++l)
      for (size_t h = 0; h < 4; ++h) m.previousToken[l][h] += (*r.headScores.previousToken)[l][h] / plain.size();
  }
  const auto& repeats = probes.find("randomRepeats")->array();
  for (const JsonValue& s : repeats) {
    const TinyResult r = forward(w, s.string());
    for (size_t l = 0; l < 2; ++l)
      for (size_t h = 0; h < 4; ++h) m.induction[l][h] += (*r.headScores.induction)[l][h] / repeats.size();
    m.correct += r.secondCopy->correct;
    m.total += r.secondCopy->total;
    m.loss += r.secondCopy->loss / static_cast<double>(repeats.size());
  }
  for (const auto& [key, s] : probes.find("sentences")->members())
    m.sentences[key] = *forward(w, s.string()).secondCopy;
  return m;
}

void expectReported(const Measured& m, const JsonValue& point, const std::string& label) {
  for (const char* name : {"previousToken", "induction"}) {
    const TinyHeadScores::PerHead& got = std::string(name) == "previousToken" ? m.previousToken : m.induction;
    const auto& want = point.find(name)->array();
    for (size_t l = 0; l < 2; ++l)
      for (size_t h = 0; h < 4; ++h)
        EXPECT_NEAR(got[l][h], want[l].array()[h].number(), 1e-5)
            << label << " " << name << " L" << l + 1 << "H" << h + 1;
  }
  const JsonValue& copy = *point.find("secondCopy");
  EXPECT_EQ(m.correct, static_cast<int64_t>(copy.find("correct")->number())) << label;
  EXPECT_EQ(m.total, static_cast<int64_t>(copy.find("total")->number())) << label;
  EXPECT_NEAR(m.loss, copy.find("loss")->number(), 1e-5) << label;
  for (const auto& [key, s] : point.find("sentences")->members()) {
    const TinySecondCopy& got = m.sentences.at(key);
    EXPECT_EQ(got.correct, static_cast<int64_t>(s.find("correct")->number())) << label << " " << key;
    EXPECT_EQ(got.total, static_cast<int64_t>(s.find("total")->number())) << label << " " << key;
    EXPECT_NEAR(got.loss, s.find("loss")->number(), 1e-5) << label << " " << key;
  }
}

TEST(TinyReport, HeadScoresOfEveryCheckpointAreTheReportsOnes) {
  int checked = 0;
  for (const JsonValue& point : report().find("curve")->array()) {
    const int64_t step = static_cast<int64_t>(point.find("step")->number());
    if (!isTinyCheckpoint(step)) continue;
    expectReported(measure(*shippedWeights().find(step)), point, "step " + std::to_string(step));
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(kTinyCheckpoints.size()));
  expectReported(measure(*shippedWeights().find(kTinyCheckpoints.back())), *report().find("final"), "final");
}

// ---- runs of a config ---------------------------------------------------------------

Status runTiny(const std::string& json, TinyResult& r) {
  AttentionConfig config;
  if (Status s = parseConfigText(json, config)) return s;
  return runTinyModel(config, shippedWeights(), r);
}

TEST(TinyRun, ErrorsNameTheField) {
  const struct {
    const char* json;
    const char* field;
    const char* code;
  } cases[] = {
      {R"({"model": "tiny", "texts": ["a"]})", "texts", "model-needs-text"},
      {R"({"model": "tiny", "tokens": [["a"]]})", "tokens", "model-needs-text"},
      {R"({"model": "tiny", "input": {"randn": [1, 2, 8]}})", "input", "model-needs-text"},
      {R"({"model": "tiny"})", "text", "text-required-for-model"},
      {R"({"model": "tiny", "text": ""})", "text", "text-required-for-model"},
      {R"({"model": "tiny", "checkpoint": 600, "text": "a"})", "checkpoint", "checkpoint-unknown"},
      {R"({"model": "tiny", "checkpoint": 11001, "text": "a"})", "checkpoint", "out-of-range"},
      {R"({"model": "tiny", "checkpoint": 500.5, "text": "a"})", "checkpoint", "not-whole"},
      {R"({"model": "big", "text": "a"})", "model", "not-one-of"},
  };
  for (const auto& c : cases) {
    TinyResult r;
    const Status error = runTiny(c.json, r);
    ASSERT_TRUE(error) << c.json;
    EXPECT_EQ(error->field, c.field) << c.json;
    EXPECT_EQ(error->code, c.code) << c.json << ": " << error->message;
  }
  TinyResult r;
  // 212 bytes of ASCII and 15 Chinese characters of 3: 257, one over.
  const Status tooLong =
      runTiny(R"({"model": "tiny", "text": ")" + std::string(212, 'a') + "注意力注意力注意力注意力注意力\"}", r);
  ASSERT_TRUE(tooLong);
  EXPECT_EQ(tooLong->field, "text");
  EXPECT_EQ(tooLong->code, "text-too-long-for-model");
  EXPECT_EQ(tooLong->params, (ErrorParams{{"bytes", "257"}, {"max", "256"}}));
  const Status unknown = runTiny(R"({"model": "tiny", "checkpoint": 600, "text": "a"})", r);
  EXPECT_EQ(unknown->message,
            "checkpoint 600 is not one of the tiny model's saved training steps: 0, 500, 750, 1000, 1250, 1500, 3000, "
            "11000");
}

TEST(TinyRun, WeightsNotLoaded) {
  TinyWeightStore empty;
  TinyResult r;
  const Status error =
      runTinyModel(testing::parsedConfig(R"({"model": "tiny", "checkpoint": 750, "text": "ab"})"), empty, r);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->field, "checkpoint");
  EXPECT_EQ(error->code, "checkpoint-not-loaded");
  EXPECT_NE(error->message.find("lab.loadTinyModel(750)"), std::string::npos) << error->message;
}

// The engine's wasm reads the config (readTinyRun), the model's wasm runs what it read: the same run in two calls.
TEST(TinyRun, ReadThenRunIsTheWholeRun) {
  const AttentionConfig config =
      testing::parsedConfig(R"({"model": "tiny", "checkpoint": 1000, "text": "注意 ab", "dModel": 16})");
  TinyRunInput input;
  ASSERT_TRUE(testing::succeeded(readTinyRun(config, input)));
  EXPECT_EQ(input.checkpoint, 1000);
  EXPECT_EQ(input.text, "注意 ab");
  EXPECT_EQ(input.ids, (std::vector<int64_t>{0xE6, 0xB3, 0xA8, 0xE6, 0x84, 0x8F, 0x20, 0x61, 0x62}));
  ASSERT_EQ(input.warnings.size(), 1u);
  EXPECT_EQ(input.warnings[0].params, (ErrorParams{{"fields", "dModel"}}));
  TinyResult twoCalls, oneCall;
  ASSERT_TRUE(testing::succeeded(runTinyModel(input, shippedWeights(), twoCalls)));
  ASSERT_TRUE(testing::succeeded(runTinyModel(config, shippedWeights(), oneCall)));
  EXPECT_EQ(twoCalls.probs.data, oneCall.probs.data);
  EXPECT_EQ(twoCalls.layers[1].weights.data, oneCall.layers[1].weights.data);
  EXPECT_EQ(twoCalls.warnings, oneCall.warnings);
}

// The model's wasm takes ids from JS: none, or more than the context, is an error on text, not a read past pos_emb.
TEST(TinyRun, IdsOutsideTheContextAreAnError) {
  TinyRunInput input;
  input.checkpoint = 11000;
  TinyResult r;
  const Status none = runTinyModel(input, shippedWeights(), r);
  ASSERT_TRUE(none);
  EXPECT_EQ(none->field, "text");
  EXPECT_EQ(none->code, "text-required-for-model");
  input.ids.assign(kTinyContext + 1, 'a');
  const Status tooMany = runTinyModel(input, shippedWeights(), r);
  ASSERT_TRUE(tooMany);
  EXPECT_EQ(tooMany->code, "text-too-long-for-model");
  EXPECT_EQ(tooMany->params, (ErrorParams{{"bytes", "257"}, {"max", "256"}}));
  input.ids.assign(kTinyContext, 'a');
  EXPECT_TRUE(testing::succeeded(runTinyModel(input, shippedWeights(), r)));
}

TEST(TinyRun, OtherFieldsAreIgnoredWithAWarning) {
  TinyResult r;
  // Defaults sent as they are (as a form sends them) are no warning.
  ASSERT_TRUE(testing::succeeded(runTiny(
      R"({"model": "tiny", "text": "ab", "dModel": 8, "mask": "none", "weights": {"init": "torch-linear"}})", r)));
  EXPECT_TRUE(r.warnings.empty());
  ASSERT_TRUE(testing::succeeded(runTiny(
      R"({"model": "tiny", "text": "ab", "dModel": 16, "mask": "causal", "weights": {"seed": 3, "values": {"W_Q": [[1]]}}})",
      r)));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].code, "model-ignores-fields");
  EXPECT_EQ(r.warnings[0].params, (ErrorParams{{"fields", "dModel, weights.seed, weights.values, mask"}}));
  // The model computed all the same.
  EXPECT_EQ(r.logits.shape, (std::vector<int64_t>{2, 256}));
}

// The repeat's positions, each with its target (−1 outside it).
std::vector<int64_t> targetsOf(const std::string& text) {
  TinyResult r;
  EXPECT_TRUE(testing::succeeded(runTiny(R"({"model": "tiny", "text": ")" + text + "\"}", r)));
  return r.headScores.repeatTargets;
}

TEST(TinyRun, ScoresNeedTheirText) {
  TinyResult r;
  ASSERT_TRUE(testing::succeeded(runTiny(R"({"model": "tiny", "text": "a"})", r)));
  EXPECT_FALSE(r.headScores.previousToken);
  EXPECT_FALSE(r.headScores.induction);
  EXPECT_FALSE(r.secondCopy);
  EXPECT_EQ(r.headScores.repeatTargets, (std::vector<int64_t>{-1}));
  // "abcabc": a run of 3 typed again is shorter than kTinyMinRepeat = 4: no repeat.
  static_assert(kTinyMinRepeat == 4);
  ASSERT_TRUE(testing::succeeded(runTiny(R"({"model": "tiny", "text": "abcabc"})", r)));
  EXPECT_TRUE(r.headScores.previousToken);
  EXPECT_FALSE(r.headScores.induction);
  EXPECT_FALSE(r.secondCopy);
  // "abcdabcd": the second copy, 4 … 7, looks at 1 … 4; bytes 4 … 6 predict 5 … 7.
  ASSERT_TRUE(testing::succeeded(runTiny(R"({"model": "tiny", "text": "abcdabcd"})", r)));
  EXPECT_EQ(r.headScores.repeatTargets, (std::vector<int64_t>{-1, -1, -1, -1, 1, 2, 3, 4}));
  EXPECT_TRUE(r.headScores.induction);
  ASSERT_TRUE(r.secondCopy);
  EXPECT_EQ(r.secondCopy->total, 3);
  // A repeat ending at the last byte and one inside: only the former has a byte after each of its positions.
  ASSERT_TRUE(testing::succeeded(runTiny(R"({"model": "tiny", "text": "wxyz wxyz!"})", r)));
  EXPECT_EQ(r.headScores.repeatTargets, (std::vector<int64_t>{-1, -1, -1, -1, -1, 1, 2, 3, 4, -1}));
  EXPECT_EQ(r.secondCopy->total, 4);
}

TEST(TinyRun, RepeatsAreFoundAnywhere) {
  // With a space between the copies: the second "the cat sat." (13 … 24) looks at the byte after its earlier copy.
  std::vector<int64_t> spaced(25, -1);
  for (int64_t i = 13; i < 25; ++i) spaced[static_cast<size_t>(i)] = i - 12;
  spaced[13] = 11;  // its first "t" has no longer match than the byte itself: the latest earlier "t", in "sat", wins
  EXPECT_EQ(targetsOf("the cat sat. the cat sat."), spaced);
  // Three times with ". " between: the second and third copies, and the separator between them.
  std::vector<int64_t> three(16, -1);
  for (int64_t i = 6; i < 16; ++i) three[static_cast<size_t>(i)] = i - 5;
  EXPECT_EQ(targetsOf("abcd. abcd. abcd"), three);
  // Far apart, at 256 bytes, the whole context: the copy of "0123456789" at 246 … 255 (the spaces between repeat too).
  const std::vector<int64_t> far = targetsOf("0123456789" + std::string(236, ' ') + "0123456789");
  ASSERT_EQ(far.size(), 256u);
  EXPECT_EQ(far[246], 1);
  EXPECT_EQ(far[255], 10);
}

}  // namespace
}  // namespace attention_lab
