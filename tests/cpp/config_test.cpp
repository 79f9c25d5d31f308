// The JSON config schema and the tokenizer.
#include <gtest/gtest.h>

#include <cmath>

#include "config_json.h"
#include "tokens.h"

namespace attention_lab {
namespace {

TEST(ConfigJson, DefaultsMatchTheDocumentedSchema) {
  const ConfigParseResult p = parseConfigText(R"({"text": "a b"})");
  ASSERT_TRUE(p.ok) << p.error.message;
  const AttentionConfig& c = p.config;
  EXPECT_EQ(c.dModel, 8);
  EXPECT_EQ(c.numHeads, 2);
  EXPECT_EQ(c.seed, 0u);
  EXPECT_EQ(c.init, WeightInit::TorchLinear);
  EXPECT_EQ(c.layout, ProjectionLayout::Fused);
  EXPECT_FALSE(c.hasQkvBias());
  EXPECT_TRUE(c.outProj);
  EXPECT_EQ(c.scale, ScaleMode::HeadDim);
  EXPECT_FALSE(c.causalMask || c.paddingMask);
  EXPECT_TRUE(std::isinf(c.maskFill) && c.maskFill < 0);
  EXPECT_EQ(c.dropoutP, 0.0);
  EXPECT_EQ(c.positional, Positional::None);
  EXPECT_FALSE(c.isCrossAttention());
}

TEST(ConfigJson, ReadsEveryField) {
  const ConfigParseResult p = parseConfigText(R"({
    "texts": ["a b", "c"], "contextTexts": ["x", "y z"], "vocab": ["<pad>", "a"], "maxLen": 4,
    "dModel": 12, "numHeads": 3, "seed": 9,
    "embedding": {"positional": "sinusoidal"},
    "weights": {"init": "torch-mha", "layout": "fused", "qkvBias": false, "outProj": false, "seed": 5,
                "values": {"W_Q": [[1, 2], [3, 4]], "b_Q": [1, 2]}},
    "scale": 0.5, "mask": "causal+padding", "maskFill": -1e9, "dropout": {"p": 0.1, "seed": 3}})");
  ASSERT_TRUE(p.ok) << p.error.field << ": " << p.error.message;
  const AttentionConfig& c = p.config;
  EXPECT_EQ(c.input.texts.size(), 2u);
  EXPECT_EQ(c.context.texts.size(), 2u);
  EXPECT_EQ(c.vocab->size(), 2u);
  EXPECT_EQ(*c.maxLen, 4);
  EXPECT_EQ(c.dModel, 12);
  EXPECT_EQ(c.numHeads, 3);
  EXPECT_EQ(c.seed, 9u);
  EXPECT_EQ(c.positional, Positional::Sinusoidal);
  EXPECT_EQ(c.init, WeightInit::TorchMha);
  EXPECT_FALSE(c.hasQkvBias());
  EXPECT_FALSE(c.outProj);
  EXPECT_EQ(*c.weightsSeed, 5u);
  EXPECT_EQ(c.weightValues.at("W_Q").shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(c.weightValues.at("b_Q").shape, (std::vector<int64_t>{2}));
  EXPECT_EQ(c.scale, ScaleMode::Custom);
  EXPECT_EQ(c.customScale, 0.5);
  EXPECT_TRUE(c.causalMask && c.paddingMask);
  EXPECT_EQ(c.maskFill, -1e9f);
  EXPECT_EQ(c.dropoutP, 0.1);
  EXPECT_EQ(*c.dropoutSeed, 3u);
}

TEST(ConfigJson, RandnInputs) {
  const ConfigParseResult p = parseConfigText(R"({"input": {"randn": [2, 3, 8]}, "contextInput": {"randn": [2, 5, 8]}})");
  ASSERT_TRUE(p.ok) << p.error.message;
  EXPECT_EQ((*p.config.input.randn)[1], 3);
  EXPECT_EQ((*p.config.context.randn)[1], 5);
}

TEST(Tokens, SplitsOnUnicodeWhitespaceLikePython) {
  EXPECT_EQ(splitWhitespace("  He sat\tby\nthe  bank "), (std::vector<std::string>{"He", "sat", "by", "the", "bank"}));
  EXPECT_EQ(splitWhitespace("我 爱\xE3\x80\x80你"), (std::vector<std::string>{"我", "爱", "你"}));  // U+3000
  EXPECT_EQ(splitWhitespace("a\xC2\xA0" "b"), (std::vector<std::string>{"a", "b"}));             // U+00A0
  EXPECT_EQ(splitWhitespace("<img src=x onerror=alert(1)>"),
            (std::vector<std::string>{"<img", "src=x", "onerror=alert(1)>"}));
  EXPECT_TRUE(splitWhitespace(" \t\n").empty());
}

TEST(Tokens, DefaultVocabHasPadFirstOnlyWhenPadding) {
  TokenizedSide side;
  ConfigError error;
  ASSERT_TRUE(tokenizeSide({"b a b", "c"}, "texts", std::nullopt, side, error));
  EXPECT_EQ(buildVocabulary(std::nullopt, {&side}).tokens, (std::vector<std::string>{"<pad>", "b", "a", "c"}));
  ASSERT_TRUE(tokenizeSide({"b a b"}, "text", std::nullopt, side, error));
  EXPECT_EQ(buildVocabulary(std::nullopt, {&side}).tokens, (std::vector<std::string>{"b", "a"}));
}

TEST(Tokens, MaxLenPadsAndTruncates) {
  TokenizedSide side;
  ConfigError error;
  ASSERT_TRUE(tokenizeSide({"a b c d e", "f"}, "texts", 3, side, error));
  EXPECT_EQ(side.tokens[0], (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(side.tokens[1], (std::vector<std::string>{"f", "<pad>", "<pad>"}));
  EXPECT_EQ(side.isPadding[1], (std::vector<bool>{false, true, true}));
}

TEST(Tokens, UnknownTokensMapToZeroAndAreListedOnce) {
  TokenizedSide side;
  ConfigError error;
  ASSERT_TRUE(tokenizeSide({"the cat purrs purrs"}, "text", std::nullopt, side, error));
  const Vocabulary vocab = buildVocabulary(std::vector<std::string>{"<unk>", "the", "cat"}, {&side});
  std::vector<std::string> unknown;
  EXPECT_EQ(tokenIds(side, vocab, &unknown)[0], (std::vector<int64_t>{1, 2, 0, 0}));
  EXPECT_EQ(unknown, (std::vector<std::string>{"purrs"}));
}

}  // namespace
}  // namespace attention_lab
