// Every validation error: a clear message naming the field, never a crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "attention.h"
#include "errors.h"
#include "schema.h"

namespace attention_lab {
namespace {

struct ErrorCase {
  const char* name;
  std::string json;
  const char* field;
  const char* messagePart;
  VectorTypedArrays tensors;  // typed arrays sent beside the JSON ({"$tensor": k})
};

void PrintTo(const ErrorCase& e, std::ostream* os) { *os << e.name; }

std::string manyTokens(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += "t" + std::to_string(i % 50) + " ";
  return s;
}

std::string nested(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

// One row of `cols` zeros, then `nullRows` null rows: 200 KB of JSON that stands for GBs of floats.
std::string nullRows(int cols, int nullRows) {
  std::string json = R"({"text": "a", "embedding": {"values": [[0)";
  for (int i = 1; i < cols; ++i) json += ",0";
  json += "]";
  for (int i = 0; i < nullRows; ++i) json += ",null";
  return json + "]}}";
}

class ValidationTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ValidationTest, NamesTheField) {
  const ErrorCase& e = GetParam();
  AttentionConfig config;
  Status error = parseConfigText(e.json, e.tensors, config);
  if (!error) {
    AttentionResult result;
    error = runAttention(config, result);
    ASSERT_TRUE(error) << "expected an error for " << e.name;
  }
  EXPECT_EQ(error->field, e.field) << error->message;
  EXPECT_NE(error->message.find(e.messagePart), std::string::npos) << "message: " << error->message;
  // A code of the catalog, with exactly its parameters, whose template makes the message.
  const ErrorKind* kind = findErrorKind(error->code);
  ASSERT_NE(kind, nullptr) << "code " << error->code;
  std::vector<std::string> names;
  for (const auto& param : error->params) names.push_back(param.first);
  EXPECT_EQ(names, templateParams(kind->english)) << error->code;
  EXPECT_EQ(fillTemplate(kind->english, error->params), error->message);
}

const ErrorCase kCases[] = {
    {"Indivisible", R"({"text": "a b", "dModel": 6, "numHeads": 4})", "numHeads",
     "dModel (6) must be divisible by numHeads (4)"},
    {"ZeroHeads", R"({"text": "a", "numHeads": 0})", "numHeads", "between 1 and"},
    {"HugeDModel", R"({"text": "a", "dModel": 8192, "numHeads": 1})", "dModel", "between 1 and 4096"},
    {"TooManyHeads", R"({"text": "a", "dModel": 128, "numHeads": 128})", "numHeads", "between 1 and 64"},
    {"FractionalDModel", R"({"text": "a", "dModel": 7.5})", "dModel", "whole number"},
    {"EmptyText", R"({"text": ""})", "text", "text is empty"},
    {"BlankText", R"({"text": "  \t "})", "text", "text is empty"},
    {"MissingText", R"({"dModel": 4})", "text", "text is required"},
    {"EmptyBatchRow", R"({"texts": ["a b", " "]})", "texts[1]", "texts[1] is empty"},
    {"EmptyTexts", R"({"texts": []})", "texts", "give at least one sentence"},
    {"EmptyContext", R"({"text": "a", "contextText": ""})", "contextText", "contextText is empty"},
    {"HundredThousandTokens", R"({"text": ")" + manyTokens(100000) + R"("})", "text",
     "has 100000 tokens; the limit is 2048"},
    {"BatchTooLarge", R"({"input": {"randn": [65, 2, 8]}})", "input.randn[0]",
     "input.randn[0] (65) must be between 1 and 64"},
    {"SequenceTooLong", R"({"input": {"randn": [1, 4096, 8]}})", "input.randn[1]",
     "input.randn[1] (4096) must be between 1 and 2048"},
    {"MemoryBudget", R"({"input": {"randn": [8, 2048, 256]}, "dModel": 256, "numHeads": 8})", "dModel",
     "the memory limit is 512 MiB"},
    {"MaxLenTooLarge", R"({"text": "a", "maxLen": 5000})", "maxLen", "between 1 and 2048"},
    {"RandnWrongDModel", R"({"input": {"randn": [1, 3, 4]}})", "input.randn[2]", "must equal dModel (8)"},
    {"ContextBatchMismatch", R"({"texts": ["a", "b"], "contextTexts": ["x"]})", "contextTexts",
     "contextTexts gives 1 sequences but the queries have 2"},
    {"NaNWeight", R"({"text": "a", "weights": {"values": {"W_Q": [[1, "NaN"]]}}})", "weights.values.W_Q[0][1]",
     "must be a finite number, got \"NaN\""},
    {"InfiniteWeight", R"({"text": "a", "weights": {"values": {"b_K": {"$tensor": 0, "shape": [8]}}}})",
     "weights.values.b_K[1]", "must be a finite number", VectorTypedArrays({{1, INFINITY, 0, 0, 0, 0, 0, 0}})},
    {"EmptyTokenEdit",
     R"({"vocab": ["a"], "text": "a", "dModel": 2, "numHeads": 1, "embedding": {"edits": [["", 1, 7]]}})",
     "embedding.edits[0][0]", "is an empty token"},
    {"NullRowsOverBudget", nullRows(30000, 30000), "embedding.values", "the limit for given values is 512 MiB"},
    // Numbers beyond the range of a double: out of range for their field (or not float32), as written.
    {"NumberOutOfRange", R"({"text": "a", "weights": {"values": {"b_K": [1, 1e999]}}})", "weights.values.b_K[1]",
     "weights.values.b_K[1] (1e999) does not fit in float32"},
    {"DModelBeyondDouble", R"({"text": "a b", "dModel": 1e400})", "dModel",
     "dModel (1e400) must be between 1 and 4096"},
    {"SeedOf100000Digits", R"({"text": "a b", "seed": )" + std::string(100000, '9') + "}", "seed",
     "seed ("
     "9999999999999999999999999999999999999999"
     "...) must be between 0 and 9007199254740992"},
    {"RopeBaseBeyondDouble", R"({"text": "a b", "rope": {"style": "rotate-half", "base": 1e999}})", "rope.base",
     "rope.base (1e999) must be between 1 and 1000000000"},
    {"SinkLogitBeyondDouble", R"({"text": "a b", "sinkLogit": -1e400})", "sinkLogit",
     "sinkLogit (-1e400) must be between -10000 and 10000"},
    {"RandomInputBeyondDouble", R"({"input": {"randn": [1, 1e400, 8]}})", "input.randn[1]",
     "input.randn[1] (1e400) must be between 1 and 2048"},
    {"ScaleBeyondDouble", R"({"text": "a b", "scale": 1e400})", "scale", "scale (1e400) does not fit in float32"},
    {"MaskFillBeyondDouble", R"({"text": "a b", "mask": "causal", "maskFill": -1e400})", "maskFill",
     "maskFill (-1e400) does not fit in float32"},
    {"EditBeyondDouble", R"({"text": "a b", "weights": {"edits": {"W_Q": [[0, 1, 2e308]]}}})",
     "weights.edits.W_Q[0][2]", "weights.edits.W_Q[0][2] (2e308) does not fit in float32"},
    {"EditColumnBeyondDouble", R"({"text": "a b", "weights": {"edits": {"W_Q": [[0, 1e400, 1]]}}})",
     "weights.edits.W_Q[0][1]", "weights.edits.W_Q[0][1] (1e400) must be between 0 and 4095"},
    {"WrongWeightShape",
     R"({"text": "a", "dModel": 2, "numHeads": 1, "weights": {"values": {"W_Q": [[1, 0, 0], [0, 1, 0]]}}})",
     "weights.values.W_Q", "must be [2, 2] (dModel = 2), got [2, 3]"},
    {"RaggedWeight", R"({"text": "a", "weights": {"values": {"W_Q": [[1, 0], [0]]}}})", "weights.values.W_Q[1]",
     "has 1 numbers, but row 0 has 2"},
    {"WOWithoutOutProj",
     R"({"text": "a", "dModel": 1, "numHeads": 1, "weights": {"outProj": false, "values": {"W_O": [[1]]}}})",
     "weights.values.W_O", "weights.outProj is false"},
    {"UnknownWeightName", R"({"text": "a", "weights": {"values": {"W_X": [[1]]}}})", "weights.values.W_X",
     "unknown field"},
    {"EmbeddingShape", R"({"text": "a b", "dModel": 2, "numHeads": 1, "embedding": {"values": [[1, 2]]}})",
     "embedding.values", "must be [2, 2] ([len(vocab), dModel]), got [1, 2]"},
    {"PerHeadMha", R"({"text": "a", "weights": {"init": "torch-mha", "layout": "per-head"}})", "weights.layout",
     "not available"},
    {"UnknownField", R"({"text": "a", "dmodel": 4})", "dmodel", "did you mean \"dModel\"?"},
    {"UnknownNestedField", R"({"text": "a", "dropout": {"rate": 0.1}})", "dropout.rate", "unknown field"},
    {"UnknownEnum", R"({"text": "a", "mask": "future"})", "mask",
     "must be one of \"none\", \"causal\", \"padding\", \"causal+padding\", got \"future\""},
    {"UnknownInit", R"({"text": "a", "weights": {"init": "xavier"}})", "weights.init", "must be one of"},
    {"BadScale", R"({"text": "a", "scale": "sqrt"})", "scale",
     "must be \"head-dim\", \"d-model\", \"none\" or a number, got \"sqrt\""},
    {"BadMaskFill", R"({"text": "a", "maskFill": "inf"})", "maskFill", "must be \"-inf\" or a finite number"},
    {"DropoutAboveOne", R"({"text": "a", "dropout": {"p": 1.5}})", "dropout.p", "between 0 and 1"},
    {"NegativeSeed", R"({"text": "a", "seed": -1})", "seed", "between 0 and"},
    {"TextNotString", R"({"text": 42})", "text", "text must be a string, got 42"},
    {"TwoInputs", R"({"text": "a", "texts": ["b"]})", "text", "give only one of"},
    {"EmptyVocab", R"({"text": "a", "vocab": []})", "vocab", "vocab is empty"},
    {"NotJson", R"({"text": "a",})", "config", "not valid JSON: line 1, column 14: expected a quoted key"},
    {"DuplicateKey", R"({"text": "a", "text": "b"})", "text",
     "config is not valid JSON: line 1, column 15: duplicate key"},
    // A lone surrogate (half of a UTF-16 pair) in any string, escaped or raw (as the JS API sends one):
    // an error on the field that holds it; in a key, on the object that holds the key.
    {"LoneSurrogateEscaped", R"({"text": "a\ud800b c"})", "text", "text holds a lone surrogate (U+D800)"},
    {"LoneSurrogateRaw", "{\"text\": \"a b\xED\xB0\x80\"}", "text", "text holds a lone surrogate (U+DC00)"},
    {"LoneSurrogateInTexts", R"({"texts": ["a b", "c\udfff"]})", "texts[1]",
     "texts[1] holds a lone surrogate (U+DFFF)"},
    {"LoneSurrogateInToken", R"({"tokens": [["a", "b\uD83D"]]})", "tokens[0][1]",
     "tokens[0][1] holds a lone surrogate (U+D83D)"},
    {"LoneSurrogateInContext", R"({"text": "a", "contextText": "\uDE00x"})", "contextText",
     "contextText holds a lone surrogate (U+DE00)"},
    {"LoneSurrogateInVocab", R"({"text": "a", "vocab": ["a", "\udc00"]})", "vocab[1]", "lone surrogate (U+DC00)"},
    {"LoneSurrogateInChoice", R"({"text": "a", "weights": {"init": "identity\ud800"}})", "weights.init",
     "weights.init holds a lone surrogate (U+D800)"},
    {"LoneSurrogateInEditToken", R"({"text": "a", "embedding": {"edits": [["\ud800", 0, 1]]}})",
     "embedding.edits[0][0]", "lone surrogate (U+D800)"},
    {"LoneSurrogateInKey", R"({"text": "a", "te\ud800xt": 1})", "config", "config holds a lone surrogate (U+D800)"},
    {"LoneSurrogateInNestedKey", R"({"text": "a", "weights": {"\udbff": 1}})", "weights",
     "weights holds a lone surrogate (U+DBFF)"},
    // Pre-split tokens.
    {"TokensEmptyList", R"({"tokens": []})", "tokens", "tokens is empty: give at least one sentence"},
    {"TokensEmptySentence", R"({"tokens": [["a"], []]})", "tokens[1]", "tokens[1] is empty"},
    {"TokensEmptyToken", R"({"tokens": [["a", ""]]})", "tokens[0][1]", "tokens[0][1] is an empty token"},
    {"TokensWhitespace", R"({"tokens": [["a", "b c"]]})", "tokens[0][1]", "contains whitespace"},
    {"TokensFullWidthSpace", R"({"contextTokens": [["我\u3000你"]], "text": "a"})", "contextTokens[0][0]",
     "contains whitespace"},
    {"TokensNotStrings", R"({"tokens": [["a", 1]]})", "tokens[0][1]", "must be a string, got 1"},
    {"TokensFlat", R"({"tokens": ["a", "b"]})", "tokens[0]", "must be an array"},
    {"TokensAndText", R"({"tokens": [["a"]], "text": "b"})", "text", "give only one of text, texts, tokens, input"},
    {"TokensTooMany",
     R"({"tokens": [)" +
         [] {
           std::string rows;
           for (int i = 0; i < 65; ++i) rows += std::string(i ? "," : "") + R"(["a"])";
           return rows;
         }() +
         "]}",
     "tokens", "tokens has 65 sentences; the batch limit is 64"},
    {"ContextTokensBatch", R"({"tokens": [["a"], ["b"]], "contextTokens": [["x"]]})", "contextTokens",
     "contextTokens gives 1 sequences but the queries have 2"},
    // Random inputs.
    {"RandAndRandn", R"({"input": {"rand": [1, 2, 8], "randn": [1, 2, 8]}})", "input", "gives both"},
    {"NoRandomKey", R"({"input": {}})", "input", "input needs \"randn\" or \"rand\""},
    {"RandWrongDModel", R"({"input": {"rand": [1, 3, 4]}})", "input.rand[2]",
     "input.rand[2] (4) must equal dModel (8)"},
    {"RandTooLong", R"({"input": {"rand": [1, 4096, 8]}})", "input.rand[1]", "between 1 and 2048"},
    // torch-linear-clones and the additive score.
    {"PerHeadClones", R"({"text": "a", "weights": {"init": "torch-linear-clones", "layout": "per-head"}})",
     "weights.layout", "no per-head layers to draw"},
    {"AdditiveWeightWithDot", R"({"text": "a", "weights": {"values": {"v_a": [1, 2]}}})", "weights.values.v_a",
     "score is \"dot\""},
    {"AdditiveEditWithDot", R"({"text": "a", "weights": {"edits": {"W_a": [[0, 0, 1]]}}})", "weights.edits.W_a",
     "score is \"dot\""},
    {"AdditiveWeightShape", R"({"text": "a", "score": "additive", "weights": {"values": {"W_a": [[1, 2]]}}})",
     "weights.values.W_a", "must be [4, 8] (headDim = 4, additiveHidden = 8), got [1, 2]"},
    {"AdditiveEditOutside", R"({"text": "a", "score": "additive", "weights": {"edits": {"v_a": [[8, 1]]}}})",
     "weights.edits.v_a[0]", "column 8 is outside [0, 7]"},
    {"AdditiveHiddenZero", R"({"text": "a", "additiveHidden": 0})", "additiveHidden", "between 1 and 1024"},
    {"AdditiveTooMuchWork",
     R"({"input": {"randn": [16, 512, 64]}, "dModel": 64, "numHeads": 8, "score": "additive", "additiveHidden": 64})",
     "additiveHidden", "tanh terms"},
    {"UnknownScore", R"({"text": "a", "score": "cosine"})", "score", "must be one of \"dot\", \"additive\""},
    {"UnknownConvention", R"({"text": "a", "maskConvention": "inverted"})", "maskConvention",
     "must be one of \"blocked\", \"keep\", \"additive\""},
    {"UnknownTokenizer", R"({"text": "a", "tokenizer": "jieba"})", "tokenizer", "must be one of \"auto\""},
    // The modern variants.
    {"RopeOddHeadDim", R"({"text": "a b", "dModel": 6, "numHeads": 2, "rope": {"style": "rotate-half"}})", "rope.style",
     "headDim must be even; headDim is 3"},
    {"RopeUnknownStyle", R"({"text": "a", "rope": {"style": "yarn"}})", "rope.style",
     "must be one of \"none\", \"rotate-half\", \"interleaved\""},
    {"RopeBaseZero", R"({"text": "a", "rope": {"style": "interleaved", "base": 0}})", "rope.base",
     "between 1 and 1000000000"},
    {"KVHeadsNotDivisor", R"({"text": "a", "dModel": 12, "numHeads": 6, "numKVHeads": 4})", "numKVHeads",
     "numHeads (6) must be divisible by numKVHeads (4)"},
    {"KVHeadsAboveHeads", R"({"text": "a", "dModel": 8, "numHeads": 2, "numKVHeads": 4})", "numKVHeads",
     "numHeads (2) must be divisible by numKVHeads (4)"},
    {"KVHeadsZero", R"({"text": "a", "numKVHeads": 0})", "numKVHeads", "between 1 and 64"},
    {"KVHeadsWithMha", R"({"text": "a", "numHeads": 2, "numKVHeads": 1, "weights": {"init": "torch-mha"}})",
     "numKVHeads", "numKVHeads (1) below numHeads (2) needs weights.init"},
    {"KVHeadsWithClones",
     R"({"text": "a", "numHeads": 2, "numKVHeads": 1, "weights": {"init": "torch-linear-clones"}})", "numKVHeads",
     "no grouped-query form"},
    {"KVHeadsPerHead", R"({"text": "a", "numHeads": 2, "numKVHeads": 1, "weights": {"layout": "per-head"}})",
     "numKVHeads", "weights.layout \"fused\""},
    {"KVHeadWeightShape",
     R"({"text": "a", "dModel": 4, "numHeads": 2, "numKVHeads": 1, "weights": {"values": {"W_K": [[1, 2, 3, 4]]}}})",
     "weights.values.W_K", "must be [4, 2]"},
    {"WindowWithoutCausal", R"({"text": "a b", "window": 2})", "window", "needs mask \"causal\""},
    {"WindowWithPaddingOnly", R"({"text": "a b", "window": 2, "mask": "padding"})", "window",
     "a sliding window needs mask"},
    {"WindowZero", R"({"text": "a", "window": 0, "mask": "causal"})", "window", "between 1 and 2048"},
    {"RopeCross", R"({"text": "a", "contextText": "b c", "rope": {"style": "rotate-half"}})", "rope.style",
     "rope.style uses the positions i − j"},
    {"AlibiCross", R"({"text": "a", "contextText": "b c", "alibi": true})", "alibi", "needs self-attention"},
    {"WindowCross", R"({"text": "a", "contextText": "b c", "window": 1, "mask": "causal"})", "window",
     "needs self-attention"},
    {"AlibiNotBoolean", R"({"text": "a", "alibi": 1})", "alibi", "must be a boolean"},
    {"SinkLogitTooLarge", R"({"text": "a", "sinkLogit": 1e5})", "sinkLogit", "between -10000 and 10000"},
    {"RopeScalingWithoutRope", R"({"text": "a", "rope": {"scaling": {"type": "yarn"}}})", "rope.scaling.type",
     "rope.scaling.type \"yarn\" scales RoPE's frequencies: choose a rope.style too"},
    {"YarnFactorBelowOne",
     R"({"text": "a", "rope": {"style": "rotate-half", "scaling": {"type": "yarn", "factor": 0.5}}})",
     "rope.scaling.factor", "rope.scaling.factor (0.5) must be at least 1 for YaRN"},
    {"DynamicHeadDimTwo",
     R"({"text": "a", "dModel": 4, "numHeads": 2, "rope": {"style": "interleaved", "scaling": {"type": "dynamic"}}})",
     "rope.scaling.type", "the head dimension must be more than 2; it is 2"},
    {"RopeScalingUnknownType", R"({"text": "a", "rope": {"style": "rotate-half", "scaling": {"type": "ntk"}}})",
     "rope.scaling.type", "must be one of"},
    {"SinkLogitPerHeadCount", R"({"text": "a", "dModel": 8, "numHeads": 2, "sinkLogit": [1, 2, 3]})", "sinkLogit",
     "sinkLogit has 3 sink logits: give one number, or one per head (2)"},
    {"SinkLogitEmptyList", R"({"text": "a", "dModel": 8, "numHeads": 2, "sinkLogit": []})", "sinkLogit",
     "sinkLogit has 0 sink logits"},
    {"SinkLogitListEntryTooLarge", R"({"text": "a", "dModel": 8, "numHeads": 2, "sinkLogit": [0, 1e5]})",
     "sinkLogit[1]", "sinkLogit[1] (100000) must be between -10000 and 10000"},
    {"SinkLogitListEntryText", R"({"text": "a", "dModel": 8, "numHeads": 2, "sinkLogit": [0, "1"]})", "sinkLogit[1]",
     "must be a finite number"},
    {"SoftcapZero", R"({"text": "a", "softcap": 0})", "softcap", "between 0.001 and 1000000"},
    {"SinkTokensNegative", R"({"text": "a", "sinkTokens": -1})", "sinkTokens", "between 0 and 2048"},
    {"NotAnObject", R"([1, 2])", "config", "config must be an object"},
    {"DeepNesting", nested(10000), "config", "nested deeper than 64 levels"},
};

INSTANTIATE_TEST_SUITE_P(Errors, ValidationTest, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(ErrorCatalog, CodesAreUniqueKebabNamesWithParamsInTheirTemplates) {
  std::vector<std::string> codes;
  for (const ErrorKind& kind : errorCatalog()) {
    EXPECT_EQ(std::find(codes.begin(), codes.end(), kind.code), codes.end()) << "twice: " << kind.code;
    codes.push_back(kind.code);
    for (char ch : kind.code)
      EXPECT_TRUE((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-') << kind.code;
    EXPECT_FALSE(kind.english.empty());
  }
  EXPECT_GE(codes.size(), 60u);
  EXPECT_EQ(templateParams("{field} ({got}) must be between {min} and {max}, not {got}"),
            (std::vector<std::string>{"field", "got", "min", "max"}));
  EXPECT_EQ(fillTemplate("{a} and {b} but {c}; {\"x\": 1}", {{"b", "2"}, {"a", "{b}"}}),
            "{b} and 2 but {c}; {\"x\": 1}");
}

TEST(ErrorCatalog, JsonErrorsCarryTheLineAndColumnAndTheirOwnParameters) {
  const JsonParseResult parsed = parseJson("{\"a\": 1,\n \"a\": 2}");
  EXPECT_EQ(parsed.errorCode, "json-duplicate-key");
  EXPECT_EQ(parsed.errorParams, (ErrorParams{{"line", "2"}, {"column", "2"}, {"key", "a"}}));
  EXPECT_EQ(parsed.error, "line 2, column 2: duplicate key \"a\"");
  const JsonParseResult bad = parseJson("[\xFF]");
  EXPECT_EQ(bad.errorCode, "json-unexpected-byte");
  EXPECT_EQ(bad.errorParams.back(), (std::pair<std::string, std::string>{"byte", "0xFF"}));
}

}  // namespace
}  // namespace attention_lab
