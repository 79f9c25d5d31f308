// The JSON config schema, the tokenizer, and what a run makes of the config
// (the resolved settings, embedding and weight edits).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "attention.h"
#include "schema.h"
#include "test_support.h"
#include "tokens.h"

namespace attention_lab {
namespace {

using testing::succeeded;

TEST(ConfigJson, DefaultsMatchTheDocumentedSchema) {
  AttentionConfig c;
  ASSERT_TRUE(succeeded(parseConfigText(R"({"text": "a b"})", c)));
  EXPECT_EQ(c.dModel, 8);
  EXPECT_EQ(c.numHeads, 2);
  EXPECT_EQ(c.seed, 0u);
  EXPECT_EQ(c.init, WeightInit::TorchLinear);
  EXPECT_EQ(c.layout, ProjectionLayout::Fused);
  EXPECT_FALSE(c.hasQkvBias());
  EXPECT_TRUE(c.outProj);
  EXPECT_EQ(c.scale, ScaleMode::HeadDim);
  EXPECT_EQ(c.mask, MaskKind::None);
  EXPECT_FALSE(blocksFuture(c.mask) || blocksPadding(c.mask));
  EXPECT_TRUE(std::isinf(c.maskFill) && c.maskFill < 0);
  EXPECT_EQ(c.dropoutP, 0.0);
  EXPECT_EQ(c.positional, Positional::None);
  EXPECT_FALSE(c.isCrossAttention());
}

TEST(ConfigJson, ReadsEveryField) {
  AttentionConfig c;
  ASSERT_TRUE(succeeded(parseConfigText(R"({
    "texts": ["a b", "c"], "contextTexts": ["x", "y z"], "vocab": ["<pad>", "a"], "maxLen": 4,
    "dModel": 12, "numHeads": 3, "seed": 9,
    "embedding": {"positional": "sinusoidal"},
    "weights": {"init": "torch-mha", "layout": "fused", "qkvBias": false, "outProj": false, "seed": 5,
                "values": {"W_Q": [[1, 2], [3, 4]], "b_Q": [1, 2]}},
    "scale": 0.5, "mask": "causal+padding", "maskFill": -1e9, "dropout": {"p": 0.1, "seed": 3}})",
                                        c)));
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
  EXPECT_EQ(c.mask, MaskKind::CausalPadding);
  EXPECT_TRUE(blocksFuture(c.mask) && blocksPadding(c.mask));
  EXPECT_EQ(c.maskFill, -1e9f);
  EXPECT_EQ(c.dropoutP, 0.1);
  EXPECT_EQ(*c.dropoutSeed, 3u);
}

// The schema gives, per mask, the one-kind masks it holds: what the engine blocks with it.
TEST(ConfigJson, SchemaExportsTheKindsEveryMaskHolds) {
  const JsonParseResult schema = parseJson(schemaJson());
  ASSERT_TRUE(schema.ok);
  const JsonValue* mask = nullptr;
  for (const JsonValue& field : schema.value.find("fields")->array())
    if (field.find("path")->string() == "mask") mask = &field;
  ASSERT_NE(mask, nullptr);
  const JsonValue* kinds = mask->find("kinds");
  ASSERT_NE(kinds, nullptr);
  const auto holds = [&](const char* choice) {
    std::vector<std::string> names;
    for (const JsonValue& name : kinds->find(choice)->array()) names.push_back(name.string());
    return names;
  };
  EXPECT_EQ(kinds->members().size(), 4u);
  EXPECT_EQ(holds("none"), std::vector<std::string>{});
  EXPECT_EQ(holds("causal"), std::vector<std::string>{"causal"});
  EXPECT_EQ(holds("padding"), std::vector<std::string>{"padding"});
  EXPECT_EQ(holds("causal+padding"), (std::vector<std::string>{"causal", "padding"}));
  // and what each choice holds is what the run blocks: the future with "causal", <pad> keys with "padding"
  for (size_t i = 0; i < kMaskNames.size(); ++i) {
    const std::vector<std::string> names = holds(kMaskNames[i]);
    const auto has = [&](const char* kind) { return std::find(names.begin(), names.end(), kind) != names.end(); };
    EXPECT_EQ(has("causal"), blocksFuture(static_cast<MaskKind>(i))) << kMaskNames[i];
    EXPECT_EQ(has("padding"), blocksPadding(static_cast<MaskKind>(i))) << kMaskNames[i];
  }
}

TEST(ConfigJson, RandomInputs) {
  AttentionConfig c;
  ASSERT_TRUE(succeeded(parseConfigText(R"({"input": {"randn": [2, 3, 8]}, "contextInput": {"rand": [2, 5, 8]}})", c)));
  EXPECT_EQ(c.input.random->shape[1], 3);
  EXPECT_EQ(c.input.random->draw, RandomDraw::Normal);
  EXPECT_EQ(c.context.random->shape[1], 5);
  EXPECT_EQ(c.context.random->draw, RandomDraw::Uniform);
}

TEST(ConfigJson, PreSplitTokens) {
  AttentionConfig c;
  ASSERT_TRUE(succeeded(
      parseConfigText(R"({"tokens": [["自然", "语言", "处理"], ["你好"]], "contextTokens": [["a"], ["b", "c"]]})", c)));
  EXPECT_EQ(c.input.tokens, (std::vector<std::vector<std::string>>{{"自然", "语言", "处理"}, {"你好"}}));
  EXPECT_EQ(c.context.tokens[1], (std::vector<std::string>{"b", "c"}));
  EXPECT_TRUE(c.input.hasTokens());
  EXPECT_EQ(c.input.batch(), 2);
}

TEST(Tokens, SplitsOnUnicodeWhitespaceLikePython) {
  EXPECT_EQ(splitWhitespace("  He sat\tby\nthe  bank "), (std::vector<std::string>{"He", "sat", "by", "the", "bank"}));
  EXPECT_EQ(splitWhitespace("我 爱\xE3\x80\x80你"), (std::vector<std::string>{"我", "爱", "你"}));  // U+3000
  EXPECT_EQ(splitWhitespace("a\xC2\xA0"
                            "b"),
            (std::vector<std::string>{"a", "b"}));  // U+00A0
  EXPECT_EQ(splitWhitespace("<img src=x onerror=alert(1)>"),
            (std::vector<std::string>{"<img", "src=x", "onerror=alert(1)>"}));
  EXPECT_TRUE(splitWhitespace(" \t\n").empty());
}

TEST(Tokens, AutoSplitsCjkCharactersAndKeepsOtherRuns) {
  const auto autoTokens = [](const std::string& text) { return tokenizeText(text, Tokenizer::Auto); };
  EXPECT_EQ(autoTokens("我爱NLP和AI"), (std::vector<std::string>{"我", "爱", "NLP", "和", "AI"}));
  EXPECT_EQ(autoTokens("你好，世界。"), (std::vector<std::string>{"你", "好", "，", "世", "界", "。"}));
  EXPECT_EQ(autoTokens("「東京」へ行きます"),
            (std::vector<std::string>{"「", "東", "京", "」", "へ", "行", "き", "ま", "す"}));
  EXPECT_EQ(autoTokens("コーヒー"), (std::vector<std::string>{"コ", "ー", "ヒ", "ー"}));  // U+30FC alone
  EXPECT_EQ(autoTokens("나는 학생"), (std::vector<std::string>{"나", "는", "학", "생"}));
  EXPECT_EQ(autoTokens("Hello, world! ＡＢＣ１２"), (std::vector<std::string>{"Hello,", "world!", "ＡＢＣ１２"}));
  EXPECT_EQ(autoTokens("GPT-4很强！"), (std::vector<std::string>{"GPT-4", "很", "强", "！"}));
  EXPECT_EQ(autoTokens("𠀀x"), (std::vector<std::string>{"𠀀", "x"}));  // U+20000, Extension B
  EXPECT_TRUE(autoTokens(" \t\u3000 ").empty());
}

TEST(Tokens, WhitespaceAndCharsModes) {
  EXPECT_EQ(tokenizeText("我爱 NLP", Tokenizer::Whitespace), (std::vector<std::string>{"我爱", "NLP"}));
  EXPECT_EQ(tokenizeText("我爱 NLP", Tokenizer::Chars), (std::vector<std::string>{"我", "爱", "N", "L", "P"}));
  EXPECT_EQ(tokenizeText("é😀", Tokenizer::Chars), (std::vector<std::string>{"é", "😀"}));
  size_t count;
  EXPECT_EQ(tokenizeText("a b c d e", Tokenizer::Whitespace, 2, count), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(count, 5u);
}

TEST(Tokens, PreSplitTokensArePaddedAndCut) {
  TokenizedSide side;
  ASSERT_TRUE(succeeded(tokenizeSide({{"自然", "语言", "处理"}, {"你好"}}, "tokens", std::nullopt, side)));
  EXPECT_EQ(side.tokens[1], (std::vector<std::string>{"你好", "<pad>", "<pad>"}));
  ASSERT_TRUE(succeeded(tokenizeSide({{"a", "b", "c"}}, "tokens", 2, side)));
  EXPECT_EQ(side.tokens[0], (std::vector<std::string>{"a", "b"}));
  const Status s = tokenizeSide({{"a"}, {}}, "tokens", std::nullopt, side);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->field, "tokens[1]");
  EXPECT_EQ(s->code, "empty-sentence");
}

TEST(Tokens, DefaultVocabHasPadFirstOnlyWhenPadding) {
  TokenizedSide side;
  ASSERT_TRUE(succeeded(tokenizeSide({"b a b", "c"}, Tokenizer::Whitespace, "texts", true, std::nullopt, side)));
  EXPECT_EQ(buildVocabulary(std::nullopt, {&side}).tokens, (std::vector<std::string>{"<pad>", "b", "a", "c"}));
  ASSERT_TRUE(succeeded(tokenizeSide({"b a b"}, Tokenizer::Whitespace, "text", false, std::nullopt, side)));
  EXPECT_EQ(buildVocabulary(std::nullopt, {&side}).tokens, (std::vector<std::string>{"b", "a"}));
}

TEST(Tokens, MaxLenPadsAndTruncates) {
  TokenizedSide side;
  ASSERT_TRUE(succeeded(tokenizeSide({"a b c d e", "f"}, Tokenizer::Whitespace, "texts", true, 3, side)));
  EXPECT_EQ(side.tokens[0], (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(side.tokens[1], (std::vector<std::string>{"f", "<pad>", "<pad>"}));
  EXPECT_EQ(side.isPadding[1], (std::vector<bool>{false, true, true}));
}

TEST(Tokens, UnknownTokensMapToZeroAndAreListedOnce) {
  TokenizedSide side;
  ASSERT_TRUE(
      succeeded(tokenizeSide({"the cat purrs purrs"}, Tokenizer::Whitespace, "text", false, std::nullopt, side)));
  const Vocabulary vocab = buildVocabulary(std::vector<std::string>{"<unk>", "the", "cat"}, {&side});
  std::vector<std::string> unknown;
  EXPECT_EQ(tokenIds(side, vocab, &unknown)[0], (std::vector<int64_t>{1, 2, 0, 0}));
  EXPECT_EQ(unknown, (std::vector<std::string>{"purrs"}));
}

TEST(Tokens, ErrorsNameTheSentence) {
  TokenizedSide side;
  Status s = tokenizeSide({"a b", " \t"}, Tokenizer::Whitespace, "texts", true, std::nullopt, side);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->field, "texts[1]");
  EXPECT_EQ(s->message, "texts[1] is empty: type at least one token");
  EXPECT_EQ(s->code, "empty-sentence");
  EXPECT_EQ(s->params, (ErrorParams{{"field", "texts[1]"}}));
  s = tokenizeSide(std::vector<std::string>(65, "a"), Tokenizer::Whitespace, "texts", true, std::nullopt, side);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->field, "texts");
  EXPECT_EQ(s->message, "texts has 65 sentences; the batch limit is 64");
}

TEST(Tokens, UnknownTokensOfBothSidesAreListedOnceInOrderOfFirstAppearance) {
  TokenizedSide query, context;
  ASSERT_TRUE(
      succeeded(tokenizeSide({"x the y x", "z y the"}, Tokenizer::Whitespace, "texts", true, std::nullopt, query)));
  ASSERT_TRUE(
      succeeded(tokenizeSide({"y w", "x w v"}, Tokenizer::Whitespace, "contextTexts", true, std::nullopt, context)));
  const Vocabulary vocab = buildVocabulary(std::vector<std::string>{"<pad>", "the"}, {&query, &context});
  std::vector<std::string> unknown;
  EXPECT_EQ(tokenIds(query, vocab, &unknown), (std::vector<std::vector<int64_t>>{{0, 1, 0, 0}, {0, 0, 1, 0}}));
  EXPECT_EQ(tokenIds(context, vocab, &unknown), (std::vector<std::vector<int64_t>>{{0, 0, 0}, {0, 0, 0}}));
  EXPECT_EQ(unknown, (std::vector<std::string>{"x", "y", "z", "w", "v"}));
}

TEST(Tokens, ManyDistinctUnknownTokens) {
  std::string text;
  std::vector<std::string> want;
  for (int i = 0; i < 1000; ++i) {
    want.push_back("u" + std::to_string(i));
    text += want.back() + " " + want.back() + " ";  // each twice: listed once
  }
  TokenizedSide side;
  ASSERT_TRUE(succeeded(tokenizeSide({text}, Tokenizer::Whitespace, "text", false, std::nullopt, side)));
  std::vector<std::string> unknown;
  tokenIds(side, Vocabulary{{"<unk>"}}, &unknown);
  EXPECT_EQ(unknown, want);
}

// ---- runs: the resolved config and the edits ----------------------------------

AttentionResult runText(const std::string& json) {
  AttentionConfig c;
  AttentionResult r;
  EXPECT_TRUE(succeeded(parseConfigText(json, c)));
  EXPECT_TRUE(succeeded(runAttention(c, r)));
  return r;
}

TEST(Config, ResolvedDefaultsFillInQkvBiasAndTheSettingsShowThem) {
  auto resolved = [](const std::string& json) {
    AttentionConfig c;
    EXPECT_TRUE(succeeded(parseConfigText(json, c)));
    c.resolveDefaults();
    return c;
  };
  EXPECT_EQ(resolved(R"({"text": "a b"})").qkvBias, false);
  EXPECT_EQ(resolved(R"({"text": "a b", "weights": {"init": "torch-mha"}})").qkvBias, true);
  EXPECT_EQ(resolved(R"({"text": "a b", "weights": {"init": "torch-mha", "qkvBias": false}})").qkvBias, false);
  const std::string settings = settingsJson(resolved(R"({"text": "a b", "dModel": 4, "seed": 7, "mask": "causal"})"));
  for (const char* part : {R"("text":"a b")", R"("dModel":4)", R"("seed":7)", R"("mask":"causal")",
                           R"("weights.qkvBias":false)", R"("maskFill":"-inf")"})
    EXPECT_NE(settings.find(part), std::string::npos) << part << " in " << settings;
  // Unset optional fields are left out.
  EXPECT_EQ(settings.find("weights.seed"), std::string::npos);
}

TEST(Run, ReusingAResultStartsAfresh) {
  AttentionConfig c;
  ASSERT_TRUE(succeeded(parseConfigText(R"({"text": "a zz", "vocab": ["a"], "scale": "none",
      "embedding": {"values": [[1e20, 1e20]]}, "dModel": 2, "numHeads": 1, "weights": {"init": "identity"}})",
                                        c)));
  AttentionResult fresh, reused;
  ASSERT_TRUE(succeeded(runAttention(c, fresh)));
  ASSERT_TRUE(succeeded(runAttention(c, reused)));
  ASSERT_TRUE(succeeded(runAttention(c, reused)));
  EXPECT_EQ(fresh.unknownTokens, (std::vector<std::string>{"zz"}));
  EXPECT_EQ(fresh.warnings.size(), 1u);  // scores overflow to inf: NaN weights
  EXPECT_EQ(reused.unknownTokens, fresh.unknownTokens);
  EXPECT_EQ(reused.warnings, fresh.warnings);
  EXPECT_EQ(reused.tokens, fresh.tokens);
  ASSERT_EQ(reused.tensors.size(), fresh.tensors.size());
  for (size_t i = 0; i < fresh.tensors.size(); ++i) EXPECT_EQ(reused.tensors[i].first, fresh.tensors[i].first);
}

TEST(Run, EmbeddingEditsApplyOverValuesAndDraws) {
  // vocab: a b c; rows given by id or by token.
  const AttentionResult r = runText(R"({"text": "a b c", "dModel": 2, "numHeads": 1,
      "embedding": {"values": [[1, 2], [3, 4], [null, 6]], "edits": [["b", 0, -3], [0, 1, 20]]}})");
  const Tensor& x = *r.find("X");
  EXPECT_EQ(x.data[0], 1.0f);
  EXPECT_EQ(x.data[1], 20.0f);
  EXPECT_EQ(x.data[2], -3.0f);
  EXPECT_EQ(x.data[3], 4.0f);
  EXPECT_EQ(x.data[5], 6.0f);
  // The null keeps the drawn number, and the edits draw nothing more: the same as without them.
  const AttentionResult plain = runText(R"({"text": "a b c", "dModel": 2, "numHeads": 1,
      "embedding": {"values": [[1, 2], [3, 4], [null, 6]]}})");
  EXPECT_EQ(x.data[4], plain.find("X")->data[4]);
  EXPECT_EQ(r.find("W_Q")->data, plain.find("W_Q")->data);
}

TEST(Run, EmbeddingEditOfATokenOutsideTheVocab) {
  AttentionConfig c;
  ASSERT_TRUE(succeeded(parseConfigText(R"({"text": "a b", "embedding": {"edits": [[0, 0, 1], ["zz", 1, 2]]}})", c)));
  AttentionResult r;
  const Status s = runAttention(c, r);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->field, "embedding.edits[1]");
  EXPECT_NE(s->message.find("\"zz\" is not in the vocab"), std::string::npos) << s->message;
}

TEST(Run, ClonedLinearsStartIdenticalWithTheirBias) {
  const AttentionResult r = runText(R"({"text": "a b c", "weights": {"init": "torch-linear-clones"}})");
  for (const char* name : {"W_K", "W_V", "W_O"}) EXPECT_EQ(r.find(name)->data, r.find("W_Q")->data) << name;
  for (const char* name : {"b_K", "b_V", "b_O"}) EXPECT_EQ(r.find(name)->data, r.find("b_Q")->data) << name;
  const AttentionResult noBias =
      runText(R"({"text": "a b c", "weights": {"init": "torch-linear-clones", "qkvBias": false}})");
  EXPECT_EQ(noBias.find("b_Q"), nullptr);
  EXPECT_EQ(noBias.find("b_O"), nullptr);  // O has a bias exactly when the cloned Linear has one
}

TEST(Run, MaskConventionsWriteTheMaskTheirWayAndAgreeOnTheWeights) {
  const std::string base = R"({"text": "a b c", "mask": "causal", "maskFill": -1e9, "maskConvention": ")";
  const AttentionResult blocked = runText(base + R"(blocked"})");
  const AttentionResult keep = runText(base + R"(keep"})");
  const AttentionResult additive = runText(base + R"(additive"})");
  // Query 0 sees key 0 only: the first mask row.
  EXPECT_EQ(std::vector<float>(blocked.find("mask")->data.begin(), blocked.find("mask")->data.begin() + 3),
            (std::vector<float>{0, 1, 1}));
  EXPECT_EQ(std::vector<float>(keep.find("mask")->data.begin(), keep.find("mask")->data.begin() + 3),
            (std::vector<float>{1, 0, 0}));
  EXPECT_EQ(std::vector<float>(additive.find("mask")->data.begin(), additive.find("mask")->data.begin() + 3),
            (std::vector<float>{0, -1e9f, -1e9f}));
  EXPECT_EQ(keep.find("masked")->data, blocked.find("masked")->data);
  EXPECT_EQ(additive.find("weights")->data, blocked.find("weights")->data);  // exp(-1e9 - max) is 0 either way
}

TEST(Run, AveragedWeightsAreTheHeadsMean) {
  const AttentionResult r = runText(R"({"text": "a b c", "numHeads": 4, "dModel": 8})");
  const Tensor &w = *r.find("weights"), &avg = *r.find("averagedWeights");
  ASSERT_EQ(avg.shape, (std::vector<int64_t>{1, 3, 3}));
  for (size_t k = 0; k < 9; ++k)
    EXPECT_FLOAT_EQ(avg.data[k], (w.data[k] + w.data[9 + k] + w.data[18 + k] + w.data[27 + k]) / 4);
}

TEST(Run, NaNRowWarningHasACode) {
  const AttentionResult r = runText(R"({"text": "a b", "mask": "causal", "maskConvention": "keep",
      "embedding": {"values": [[1e20, 1e20, 1e20, 1e20, 1e20, 1e20, 1e20, 1e20], [0, 0, 0, 0, 0, 0, 0, 0]]},
      "weights": {"init": "identity"}, "scale": "none"})");
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].code, "nan-rows");
  EXPECT_EQ(r.warnings[0].params, (ErrorParams{{"count", "2"}}));
  EXPECT_EQ(r.warnings[0].message.rfind("2 row(s) of weights are NaN", 0), 0u);
}

TEST(Run, WeightEditsChangeSingleNumbers) {
  const AttentionResult r = runText(R"({"text": "a b", "dModel": 2, "numHeads": 1,
      "weights": {"init": "identity", "edits": {"W_Q": [[0, 1, 3]], "W_O": [[1, 0, -2]]}}})");
  EXPECT_EQ(r.find("W_Q")->data, (std::vector<float>{1, 3, 0, 1}));
  EXPECT_EQ(r.find("W_K")->data, (std::vector<float>{1, 0, 0, 1}));
  EXPECT_EQ(r.find("W_O")->data, (std::vector<float>{1, 0, -2, 1}));
}

}  // namespace
}  // namespace attention_lab
