// libFuzzer target: a config's JSON text -> parseConfigText -> runAttention.
// Built and run by web/scripts/fuzz.sh (clang, ASan, UBSan); reproduce a
// finding with build/fuzz/config_fuzz <file>.
//
// The text is parsed with a few typed arrays beside it ({"$tensor": k}), as
// the JS API sends them. A config that parses is run when the run is small
// (estimated from its sizes, so an input stays around a few milliseconds);
// a larger one only goes through validateConfig, validateSizes and the memory
// budget (intermediateBytes). Besides
// "no crash, no sanitizer report", every input must satisfy:
//   - an error names a field (the config, a schema path, or the unknown
//     member it is about) and says something; its code is in the catalog, its
//     parameters are exactly its template's, and its message is the template
//     filled with them (so is a warning's);
//   - a text that is not JSON is an error on "config" (or on the repeated
//     key's path, for a duplicate key);
//   - settingsJson of a parsed config is a JSON object of schema paths;
//   - splitWhitespace is Python's str.split() (bytes that are not UTF-8 are
//     never whitespace); the "auto" and "chars" tokenizers give tokens that
//     make the text without its whitespace, a CJK character or a code point
//     ("chars") each alone, other runs only broken at whitespace or CJK;
//   - a run has exactly the tensors it should, in kTensorNames order, each of
//     its shape with data.size() = the product of the shape; the tokens are
//     each sentence's words (by the tokenizer, or as given; cut at maxLen) then "<pad>", the ids
//     index the vocab, the vocab and the unknown tokens are as documented;
//   - mask holds the convention's blocked value (1; 0 for "keep"; maskFill for
//     "additive") exactly where causal and padding block, and the other value
//     elsewhere; masked is maskFill there and scaled elsewhere (scaled + mask
//     for "additive"); scaled is scores scaled by the mode;
//   - every row of weights is in [0, 1] and sums to 1 (within float rounding),
//     unless its masked row holds NaN or +inf or is all -inf: then the row is
//     all NaN, and the run has the one warning about it;
//   - dropped is weights (p = 0), weights * 0 (p = 1), or each entry is
//     weights * 0 or weights * 1/(1-p); averagedWeights is dropped summed over
//     the heads / H; concat is context with the heads side by side; with the
//     output gate each gate is in [0, 1] and gated = concat * gate; output is
//     concat (gated) without an output projection;
//   - with differential attention (diff.depth) the half-head maps stand
//     for scores .. masked: halfMasked is halfScaled masked as above, each
//     halfWeights row is in [0, 1] and sums to 1 (or is all NaN), lambdaFull
//     is exp(λ_q1·λ_k1) − exp(λ_q2·λ_k2) + λ_init, weights is
//     first − λ·second half-head bit for bit (rows sum to 1 − λ), contextNorm
//     is RMSNorm(context)·subln, contextScaled is contextNorm·(1 − λ_init) and
//     concat holds contextScaled's heads; about half the configs that parse
//     without diff are run again with it on (depth 0 to 5): one that ran must
//     still run, or, with a setting the Diff Transformer lacks, be an error
//     on diff.depth;
//   - with MLA (mla.kvRank) its tensors stand for Q_rope and K_rope (and K, V
//     on its absorbed path), of its widths; scaled is scores times
//     (nopeDim + ropeDim) ** -0.5, latentNorm is RMSNorm(latent)·kv_norm,
//     concat holds context's heads of valueDim; about a quarter of the configs
//     that parse without it are run again with it on (small sizes, a RoPE
//     style): one that ran must still run when nothing it has leaves
//     DeepSeek's layer, and be an error otherwise;
//   - the given weight values and edits are in the weights; an embedding
//     edit names a row or a token of the vocab, and is in X; equal ids embed
//     equally, and a fully given table is what X holds (without positions);
//   - a small run, repeated, gives the same result bit for bit;
//   - with model "tiny" (the shipped weights of checkpoints 750 and 3000
//     loaded), a run is an error on text, texts, tokens, input or checkpoint,
//     or has ids = the text's bytes, every intermediate of its shape, causal
//     weight rows that sum to 1, probabilities that sum to 1, head scores
//     exactly where they are defined, and the same result when repeated;
//   - the input's bytes as a weights file: an error on "weights file" (or the
//     weights, when they happen to be one), never a read out of bounds.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "attention.h"
#include "errors.h"
#include "fuzz_check.h"
#include "json.h"
#include "safetensors.h"
#include "schema.h"
#include "size_limits.h"
#include "tiny_model.h"
#include "tokens.h"
#include "typed_arrays.h"
#include "validate.h"
#include "weights.h"

namespace attention_lab {
namespace {

// Runs estimated above this many units (about 10 ns of CPU each under the
// sanitizers, so about 10 ms) are only validated; runs below kRepeatCost are
// run twice.
constexpr double kMaxRunCost = 1e6;
constexpr double kRepeatCost = 1e5;

// The typed arrays every input may refer to as {"$tensor": k, "shape": [...]}.
VectorTypedArrays typedArrays() {
  std::vector<double> ramp16(16), wave64(64);
  for (size_t i = 0; i < ramp16.size(); ++i) ramp16[i] = static_cast<double>(i) / 8 - 1;
  for (size_t i = 0; i < wave64.size(); ++i) wave64[i] = std::sin(static_cast<double>(i));
  return VectorTypedArrays({{0.5, -1, 2, 0.25},
                            ramp16,
                            wave64,
                            {1, 2},
                            {std::numeric_limits<double>::quiet_NaN()},
                            {1e39, 1},
                            {},
                            {1, 0, 0, 0, 1, 0, 0, 0, 1}});
}

// The same float, bit for bit, or both NaN. (Not memcmp: ASan intercepts it, slowly.)
bool sameBits(float a, float b) {
  uint32_t x, y;
  std::memcpy(&x, &a, sizeof x);
  std::memcpy(&y, &b, sizeof y);
  return x == y || (std::isnan(a) && std::isnan(b));
}

bool sameTensor(const Tensor& a, const Tensor& b) {
  return a.shape == b.shape && a.data.size() == b.data.size() &&
         std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(float)) == 0;
}

// An error names a field: "config", a path of the schema (with an index or
// member after it), or a member of the root object the error is about.
// A code of the catalog with exactly its template's parameters, which make the message.
void checkCode(const std::string& code, const ErrorParams& params, const std::string& message) {
  const ErrorKind* kind = findErrorKind(code);
  FUZZ_CHECK(kind != nullptr);
  std::vector<std::string> names;
  for (const auto& param : params) names.push_back(param.first);
  FUZZ_CHECK(names == templateParams(kind->english));
  FUZZ_CHECK(fillTemplate(kind->english, params) == message);
}

void checkError(const Status& error, const JsonParseResult& json) {
  FUZZ_CHECK(!error->field.empty());
  FUZZ_CHECK(!error->message.empty());
  checkCode(error->code, error->params, error->message);
  const std::string& field = error->field;
  auto startsWithName = [&](const std::string& name) {
    return field == name || (field.size() > name.size() && field.compare(0, name.size(), name) == 0 &&
                             (field[name.size()] == '.' || field[name.size()] == '['));
  };
  bool known = field == "config";
  for (const FieldSpec& f : configSchema()) known = known || startsWithName(f.path);
  if (json.ok)
    for (const auto& member : json.value.members()) known = known || startsWithName(member.first);
  FUZZ_CHECK(known);
}

void checkSettings(const AttentionConfig& config) {
  const JsonParseResult settings = parseJson(settingsJson(config));
  FUZZ_CHECK(settings.ok && settings.value.isObject());
  for (const auto& member : settings.value.members()) {
    bool inSchema = false;
    for (const FieldSpec& f : configSchema()) inSchema = inSchema || member.first == f.path;
    FUZZ_CHECK(inSchema);
  }
}

// The bytes of a whitespace character at text[pos] (0 if none): one of the 29
// code points Python's str.split() splits on, as a valid, shortest UTF-8
// sequence. A byte that is not valid UTF-8 is never whitespace (Python would
// see it through surrogateescape, as U+DC80-U+DCFF).
size_t whitespaceAt(const std::string& text, size_t pos) {
  static const std::set<uint32_t> kWhitespace = {0x09,   0x0A,   0x0B,   0x0C,   0x0D,   0x1C,   0x1D,   0x1E,
                                                 0x1F,   0x20,   0x85,   0xA0,   0x1680, 0x2000, 0x2001, 0x2002,
                                                 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A,
                                                 0x2028, 0x2029, 0x202F, 0x205F, 0x3000};
  const unsigned char lead = static_cast<unsigned char>(text[pos]);
  const size_t length = lead < 0x80                    ? 1
                        : lead >= 0xC2 && lead <= 0xDF ? 2
                        : lead >= 0xE0 && lead <= 0xEF ? 3
                        : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                       : 0;
  if (length == 0 || pos + length > text.size()) return 0;
  uint32_t cp = length == 1 ? lead : lead & (0xFFu >> (length + 1));
  for (size_t i = 1; i < length; ++i) {
    const unsigned char next = static_cast<unsigned char>(text[pos + i]);
    if ((next & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (next & 0x3F);
  }
  const bool valid = !(length == 3 && cp < 0x800) && !(length == 4 && (cp < 0x10000 || cp > 0x10FFFF)) &&
                     !(cp >= 0xD800 && cp <= 0xDFFF);
  return valid && kWhitespace.count(cp) ? length : 0;
}

// The code point at text[pos] and its length, or {0xDC00 + byte, 1} for a byte that is not valid UTF-8.
std::pair<uint32_t, size_t> codePointAt(const std::string& text, size_t pos) {
  const unsigned char lead = static_cast<unsigned char>(text[pos]);
  const size_t length = lead < 0x80                    ? 1
                        : lead >= 0xC2 && lead <= 0xDF ? 2
                        : lead >= 0xE0 && lead <= 0xEF ? 3
                        : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                       : 0;
  if (length == 0 || pos + length > text.size()) return {0xDC00u + lead, 1};
  uint32_t cp = length == 1 ? lead : lead & (0xFFu >> (length + 1));
  for (size_t i = 1; i < length; ++i) {
    const unsigned char next = static_cast<unsigned char>(text[pos + i]);
    if ((next & 0xC0) != 0x80) return {0xDC00u + lead, 1};
    cp = (cp << 6) | (next & 0x3F);
  }
  const bool valid = !(length == 3 && cp < 0x800) && !(length == 4 && (cp < 0x10000 || cp > 0x10FFFF)) &&
                     !(cp >= 0xD800 && cp <= 0xDFFF);
  return valid ? std::pair<uint32_t, size_t>{cp, length} : std::pair<uint32_t, size_t>{0xDC00u + lead, 1};
}

// The "auto" and "chars" tokenizers split each whitespace-separated word
// further: the word is its tokens joined, a token holding a character that
// stands alone ("chars": any) is that character only, and two tokens that
// are runs of other characters are never adjacent within one word.
void checkCjkSplit(const std::string& text, const std::vector<std::string>& words, Tokenizer mode) {
  const auto alone = [&](uint32_t c) { return mode == Tokenizer::Chars || isStandaloneCjk(c); };
  std::vector<std::string> expected;
  for (const std::string& word : words) {
    std::string run;
    for (size_t pos = 0; pos < word.size();) {
      const auto [cp, length] = codePointAt(word, pos);
      if (alone(cp)) {
        if (!run.empty()) expected.push_back(run);
        run.clear();
        expected.push_back(word.substr(pos, length));
      } else {
        run += word.substr(pos, length);
      }
      pos += length;
    }
    if (!run.empty()) expected.push_back(run);
  }
  FUZZ_CHECK(tokenizeText(text, mode) == expected);
}

// splitWhitespace is Python's str.split() on the text; the other tokenizers split its words.
void checkSplit(const std::string& text) {
  std::vector<std::string> expected;
  std::string current;
  for (size_t pos = 0; pos < text.size();) {
    if (const size_t n = whitespaceAt(text, pos)) {
      if (!current.empty()) expected.push_back(current);
      current.clear();
      pos += n;
    } else {
      current += text[pos++];
    }
  }
  if (!current.empty()) expected.push_back(current);
  FUZZ_CHECK(splitWhitespace(text) == expected);
  checkCjkSplit(text, expected, Tokenizer::Auto);
  checkCjkSplit(text, expected, Tokenizer::Chars);
}

// One side's sentences as the run must tokenize them: split by the tokenizer
// (checked on its own by checkSplit), or the pre-split tokens, truncated to
// maxLen; the padding and the vocab are then worked out here, independently
// of tokens.cpp.
struct Side {
  std::vector<std::vector<std::string>> tokens;  // [B][n_b], without padding
  int64_t length = 0;                            // S or S_kv: maxLen, or the longest sentence
  bool padding(size_t b, int64_t j) const { return j >= static_cast<int64_t>(tokens[b].size()); }
};

// False when the run must fail on these sentences: none, an empty one, more
// than kMaxBatch of them, or more than kMaxTokensPerSequence tokens in one.
bool split(const SequenceSource& source, Tokenizer mode, std::optional<int64_t> maxLen, Side& side) {
  const size_t count = source.tokens.empty() ? source.texts.size() : source.tokens.size();
  if (count == 0 || static_cast<int64_t>(count) > kMaxBatch) return false;
  for (size_t b = 0; b < count; ++b) {
    std::vector<std::string> tokens = source.tokens.empty() ? tokenizeText(source.texts[b], mode) : source.tokens[b];
    if (tokens.empty()) return false;
    if (maxLen && static_cast<int64_t>(tokens.size()) > *maxLen) tokens.resize(static_cast<size_t>(*maxLen));
    if (static_cast<int64_t>(tokens.size()) > kMaxTokensPerSequence) return false;
    side.length = std::max(side.length, static_cast<int64_t>(tokens.size()));
    side.tokens.push_back(std::move(tokens));
  }
  if (maxLen) side.length = *maxLen;
  return true;
}

// What the run will be (cheap: no tensors).
struct Plan {
  bool sized = false;  // false: runAttention must fail, before it allocates anything
  Side query, context;
  RunSizes sizes;
  double cost = 0;
};

Plan plan(const AttentionConfig& c) {
  Plan p;
  if (!c.input.present()) return p;
  const bool queryTokens = c.input.hasTokens(), contextTokens = c.context.hasTokens();
  if (queryTokens && !split(c.input, c.tokenizer, c.maxLen, p.query)) return p;
  if (contextTokens && !split(c.context, c.tokenizer, c.maxLen, p.context)) return p;
  RunSizes& s = p.sizes;
  s.batch = c.input.random ? c.input.random->shape[0] : static_cast<int64_t>(p.query.tokens.size());
  s.queryLen = c.input.random ? c.input.random->shape[1] : p.query.length;
  s.keyLen = !c.isCrossAttention() ? s.queryLen : c.context.random ? c.context.random->shape[1] : p.context.length;
  // The vocab: the given one, or "<pad>" (when anything is padded) and every token.
  if (c.vocab) {
    s.vocabSize = static_cast<int64_t>(c.vocab->size());
  } else if (queryTokens || contextTokens) {
    std::set<std::string> vocab;
    for (const Side* side : {&p.query, &p.context})
      for (const auto& tokens : side->tokens) {
        vocab.insert(tokens.begin(), tokens.end());
        if (static_cast<int64_t>(tokens.size()) < side->length) vocab.insert(kPadToken);
      }
    s.vocabSize = static_cast<int64_t>(vocab.size());
  }
  p.sized = true;

  const double B = static_cast<double>(s.batch), S = static_cast<double>(s.queryLen),
               Skv = static_cast<double>(s.keyLen), D = static_cast<double>(c.dModel),
               H = static_cast<double>(c.numHeads), V = static_cast<double>(s.vocabSize);
  const double draws = V * D + B * (S + Skv) * D + 4 * D * D + 4 * D + B * H * S * Skv;
  const double multiplyAdds = B * (2 * S + 2 * Skv) * D * D + 2 * B * S * Skv * D;
  const double elementwise = 40 * B * H * S * Skv + 20 * B * (S + Skv) * D;
  const double additive = 30 * static_cast<double>(additiveTerms(c, s));
  p.cost = 20 * draws + multiplyAdds + elementwise + additive;
  return p;
}

const Tensor& tensor(const AttentionResult& r, const char* name) {
  const Tensor* t = r.find(name);
  FUZZ_CHECK(t != nullptr);
  return *t;
}

// Differential attention's own tensors (diff.depth), in a result only with it on.
bool isDiffTensor(const std::string& n) {
  return n == "halfScores" || n == "halfScaled" || n == "halfMasked" || n == "halfWeights" || n == "lambdaFull" ||
         n == "contextNorm" || n == "contextScaled";
}

// MLA's own tensors (mla.kvRank), in a result only with it on: both paths' (K and V are the naive path's).
bool isMlaTensor(const std::string& n) {
  return n == "latent" || n == "latentNorm" || n == "K_pe" || n == "Q_pe_rope" || n == "K_pe_rope" ||
         n == "Q_absorbed" || n == "latentContext" || n == "otherPathScores" || n == "otherPathOutput";
}

// The tensors of the modern variants, each in a result only when its variant is on; and the one-map
// score stages, which differential attention's half-head maps replace.
bool isVariantTensor(const std::string& n) {
  return isMlaTensor(n) || n == "Q_norm" || n == "K_norm" || n == "ropeAngles" || n == "Q_rope" || n == "K_rope" ||
         n.rfind("ropeInvFreq", 0) == 0 || n == "ropeAttentionFactor" || n == "ropeExtrapolationFactor" ||
         n == "ropeNtkBase" || n == "capped" || n == "alibiBias" || n == "biased" || n == "sinkWeights" ||
         n == "gateLogits" || n == "gate" || n == "gated" || isDiffTensor(n) || n == "scores" || n == "scaled" ||
         n == "masked";
}
bool variantIsOn(const AttentionConfig& c, const std::string& n) {
  if (isMlaTensor(n)) return c.isMla();
  if (n == "Q_rope" || n == "K_rope") return c.ropeStyle != RopeStyle::None && !c.isMla();
  if (isDiffTensor(n)) return c.isDiff();
  if (n == "scores" || n == "scaled" || n == "masked") return !c.isDiff();
  if (n == "Q_norm" || n == "K_norm") return c.qkNorm;
  if (n == "capped") return c.softcap.has_value();
  if (n == "alibiBias" || n == "biased") return c.alibi;
  if (n == "sinkWeights") return c.hasSink();
  if (n == "gateLogits" || n == "gate" || n == "gated") return c.outputGate;
  // rope.scaling's frequencies and factors: with a RoPE style; YaRN's ramp and dynamic NTK's base each alone.
  const bool scaled = c.ropeStyle != RopeStyle::None && c.ropeScaling != RopeScaling::None;
  if (n == "ropeExtrapolationFactor") return scaled && c.ropeScaling == RopeScaling::Yarn;
  if (n == "ropeNtkBase") return scaled && c.ropeScaling == RopeScaling::Dynamic;
  if (n == "ropeInvFreqBase" || n == "ropeInvFreq" || n == "ropeAttentionFactor") return scaled;
  return c.ropeStyle != RopeStyle::None;  // ropeAngles, Q_rope, K_rope
}

void checkNamesAndShapes(const AttentionConfig& c, const Plan& p, const AttentionResult& r) {
  const int64_t B = p.sizes.batch, S = p.sizes.queryLen, Skv = p.sizes.keyLen, D = c.dModel, H = c.numHeads, dk = D / H;
  const int64_t kvWidth = c.kvHeads() * dk;  // K and V: H_kv heads of dk (grouped-query attention)
  std::map<std::string, std::vector<int64_t>> shapes = {{"X", {B, S, D}},
                                                        {"X_context", {B, Skv, D}},
                                                        {"Q", {B, S, D}},
                                                        {"K", {B, Skv, kvWidth}},
                                                        {"V", {B, Skv, kvWidth}},
                                                        {"Q_norm", {B, S, D}},
                                                        {"K_norm", {B, Skv, kvWidth}},
                                                        {"ropeInvFreqBase", {dk / 2}},
                                                        {"ropeInvFreq", {dk / 2}},
                                                        {"ropeAttentionFactor", {}},
                                                        {"ropeExtrapolationFactor", {dk / 2}},
                                                        {"ropeNtkBase", {}},
                                                        {"ropeAngles", {S, dk / 2}},
                                                        {"Q_rope", {B, S, D}},
                                                        {"K_rope", {B, Skv, kvWidth}},
                                                        {"capped", {B, H, S, Skv}},
                                                        {"alibiBias", {H, S, Skv}},
                                                        {"biased", {B, H, S, Skv}},
                                                        {"sinkWeights", {B, H, S}},
                                                        {"scores", {B, H, S, Skv}},
                                                        {"scaled", {B, H, S, Skv}},
                                                        {"mask", {B, S, Skv}},
                                                        {"masked", {B, H, S, Skv}},
                                                        {"halfScores", {B, 2 * H, S, Skv}},
                                                        {"halfScaled", {B, 2 * H, S, Skv}},
                                                        {"halfMasked", {B, 2 * H, S, Skv}},
                                                        {"halfWeights", {B, 2 * H, S, Skv}},
                                                        {"lambdaFull", {}},
                                                        {"weights", {B, H, S, Skv}},
                                                        {"dropped", {B, H, S, Skv}},
                                                        {"averagedWeights", {B, S, Skv}},
                                                        {"context", {B, H, S, dk}},
                                                        {"contextNorm", {B, H, S, dk}},
                                                        {"contextScaled", {B, H, S, dk}},
                                                        {"concat", {B, S, D}},
                                                        {"gateLogits", {B, S, D}},
                                                        {"gate", {B, S, D}},
                                                        {"gated", {B, S, D}},
                                                        {"output", {B, S, D}}};
  if (c.isMla()) {  // its widths (mla_attention.h)
    const int64_t kv = *c.mlaKvRank, qk = *c.mlaNopeDim + *c.mlaRopeDim, r = *c.mlaRopeDim, vd = *c.mlaValueDim;
    shapes["Q"] = shapes["K"] = {B, S, H * qk};
    shapes["V"] = shapes["concat"] = {B, S, H * vd};
    shapes["ropeAngles"] = {S, r / 2};
    shapes["latent"] = shapes["latentNorm"] = {B, S, kv};
    shapes["K_pe"] = shapes["K_pe_rope"] = {B, S, r};
    shapes["Q_pe_rope"] = {B, S, H * r};
    shapes["Q_absorbed"] = shapes["latentContext"] = {B, S, H * kv};
    shapes["otherPathScores"] = {B, H, S, Skv};
    shapes["otherPathOutput"] = {B, S, D};
    shapes["context"] = {B, H, S, vd};
  }
  const std::vector<std::string> weights = weightNames(c);
  for (const std::string& name : weights) shapes[name] = weightShape(c, name);
  std::vector<std::string> expected;
  for (const char* name : kTensorNames) {
    const std::string n = name;
    const bool isWeight = std::find(kWeightNames.begin(), kWeightNames.end(), n) != kWeightNames.end();
    if (n == "X_context"     ? c.isCrossAttention()
        : isVariantTensor(n) ? variantIsOn(c, n)
                             : !isWeight || std::find(weights.begin(), weights.end(), n) != weights.end())
      expected.push_back(n);
  }
  // Every name, the aliases (masked = scaled, dropped = weights) included; the
  // stored tensors in the order of kTensorNames.
  FUZZ_CHECK(r.count() == expected.size());
  size_t stored = 0;
  for (const std::string& name : expected) {
    if (stored < r.tensors.size() && r.tensors[stored].first == name) ++stored;
    const Tensor& t = tensor(r, name.c_str());
    FUZZ_CHECK(t.shape == shapes[name]);
    int64_t count = 1;
    for (int64_t n : t.shape) count *= n;
    FUZZ_CHECK(static_cast<int64_t>(t.data.size()) == count);
  }
  FUZZ_CHECK(stored == r.tensors.size());
  FUZZ_CHECK(r.headDim == (c.isMla() ? *c.mlaNopeDim + *c.mlaRopeDim : dk));  // MLA: q·k over nope + rope

  const int64_t V = static_cast<int64_t>(r.vocab.size());
  FUZZ_CHECK(V == p.sizes.vocabSize);
  if (c.vocab) FUZZ_CHECK(r.vocab == *c.vocab);
  // Each sentence's tokens then "<pad>"; ids index the vocab (its first
  // occurrence of a token; 0 for an unknown token, and for padding without "<pad>").
  std::map<std::string, int64_t> index;
  for (size_t i = 0; i < r.vocab.size(); ++i) index.emplace(r.vocab[i], static_cast<int64_t>(i));
  auto idOf = [&](const std::string& token) {
    const auto found = index.find(token);
    return found == index.end() ? 0 : found->second;
  };
  auto checkTokens = [&](const std::vector<std::vector<std::string>>& tokens,
                         const std::vector<std::vector<int64_t>>& ids, bool present, const Side& side) {
    FUZZ_CHECK(tokens.size() == (present ? static_cast<size_t>(B) : 0));
    FUZZ_CHECK(ids.size() == tokens.size());
    for (size_t b = 0; b < tokens.size(); ++b) {
      FUZZ_CHECK(static_cast<int64_t>(tokens[b].size()) == side.length && ids[b].size() == tokens[b].size());
      for (int64_t j = 0; j < side.length; ++j) {
        const size_t k = static_cast<size_t>(j);
        FUZZ_CHECK(tokens[b][k] == (side.padding(b, j) ? kPadToken : side.tokens[b][k]));
        FUZZ_CHECK(ids[b][k] == idOf(tokens[b][k]));
      }
    }
  };
  checkTokens(r.tokens, r.ids, c.input.hasTokens(), p.query);
  checkTokens(r.contextTokens, r.contextIds, c.context.hasTokens(), p.context);
  // Tokens not in the vocab, each once, in order of first appearance (queries, then context).
  std::vector<std::string> unknown;
  for (const Side* side : {&p.query, &p.context})
    for (const auto& tokens : side->tokens)
      for (const std::string& token : tokens)
        if (!index.count(token) && std::find(unknown.begin(), unknown.end(), token) == unknown.end())
          unknown.push_back(token);
  FUZZ_CHECK(r.unknownTokens == unknown);
  if (!c.vocab) FUZZ_CHECK(unknown.empty());
}

// Differential attention after its half-head maps' softmax (checked with the other runs' in checkAttention;
// halfNaN: which of the [B, 2H, S] half-head rows are all NaN):
//   lambdaFull = exp(Σ λ_q1·λ_k1) − exp(Σ λ_q2·λ_k2) + λ_init, λ_init = 0.8 − 0.6·exp(−0.3·depth);
//   weights = halfWeights[:, 2h] − lambdaFull·halfWeights[:, 2h + 1] bit for bit, so each row sums to 1 − λ
//   (within rounding), or is all NaN when either half-head row is; the one warning counts those rows;
//   contextNorm = RMSNorm(context)·subln and contextScaled = contextNorm·(1 − λ_init) bit for bit.
void checkDifferential(const AttentionConfig& c, const Plan& p, const AttentionResult& r,
                       const std::vector<bool>& halfNaN) {
  const int64_t B = p.sizes.batch, S = p.sizes.queryLen, Skv = p.sizes.keyLen, H = c.numHeads, dk = c.dModel / H;
  const Tensor &halfWeights = tensor(r, "halfWeights"), &weights = tensor(r, "weights"),
               &lambdaFull = tensor(r, "lambdaFull");
  const double lambdaInit = 0.8 - 0.6 * std::exp(-0.3 * static_cast<double>(*c.diffDepth));
  // torch.exp(torch.sum(a * b)) in float32: the products summed left to right, the exp rounded once.
  const auto expOfDot = [&](const char* a, const char* b) {
    const Tensor &x = tensor(r, a), &y = tensor(r, b);
    FUZZ_CHECK(x.data.size() == static_cast<size_t>(dk / 2) && y.data.size() == x.data.size());
    float sum = 0.0f;
    for (size_t i = 0; i < x.data.size(); ++i) sum += x.data[i] * y.data[i];
    return static_cast<float>(std::exp(static_cast<double>(sum)));
  };
  const float lambda = lambdaFull.data.at(0);
  FUZZ_CHECK(sameBits(lambda, (expOfDot("lambda_q1", "lambda_k1") - expOfDot("lambda_q2", "lambda_k2")) +
                                  static_cast<float>(lambdaInit)));

  const int64_t cells = S * Skv;
  const double tolerance = (1e-4 + 2.0 * static_cast<double>(Skv) * std::numeric_limits<float>::epsilon()) *
                           (1.0 + std::fabs(static_cast<double>(lambda)));
  int64_t nanRows = 0;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h) {
      const float* first = halfWeights.data.data() + (b * 2 * H + 2 * h) * cells;
      const float* second = first + cells;
      const float* w = weights.data.data() + (b * H + h) * cells;
      for (int64_t k = 0; k < cells; ++k) FUZZ_CHECK(sameBits(w[k], first[k] - lambda * second[k]));
      for (int64_t i = 0; i < S; ++i) {
        const size_t half = static_cast<size_t>((b * 2 * H + 2 * h) * S + i);
        const bool undefined = halfNaN[half] || halfNaN[half + static_cast<size_t>(S)];
        nanRows += undefined;
        if (!std::isfinite(lambda)) continue;
        double sum = 0;
        for (int64_t j = 0; j < Skv; ++j) {
          const float x = w[i * Skv + j];
          FUZZ_CHECK(undefined ? std::isnan(x) : std::isfinite(x));
          sum += x;
        }
        if (!undefined) FUZZ_CHECK(std::fabs(sum - (1.0 - static_cast<double>(lambda))) <= tolerance);
      }
    }
  // A finite λ leaves a row NaN only where a half-head row is; a λ of ±inf or NaN may make any weight NaN.
  if (std::isfinite(lambda)) {
    FUZZ_CHECK(r.warnings.size() == (nanRows > 0 ? 1u : 0u));
    if (nanRows > 0) FUZZ_CHECK(r.warnings[0].params == ErrorParams({{"count", std::to_string(nanRows)}}));
  } else {
    FUZZ_CHECK(r.warnings.size() <= 1u);
  }
  for (const Warning& warning : r.warnings) {
    FUZZ_CHECK(warning.code == "nan-rows");
    checkCode(warning.code, warning.params, warning.message);
  }

  // Each head's context row through the RMSNorm (torch.rsqrt(mean(x²) + 1e-5), float32), subln and 1 − λ_init.
  const Tensor &context = tensor(r, "context"), &contextNorm = tensor(r, "contextNorm"),
               &contextScaled = tensor(r, "contextScaled"), &subln = tensor(r, "subln");
  const float normScale = static_cast<float>(1.0 - lambdaInit);
  for (int64_t row = 0; row < B * H * S; ++row) {
    const float* x = context.data.data() + row * dk;
    float sumOfSquares = 0.0f;
    for (int64_t j = 0; j < dk; ++j) sumOfSquares += x[j] * x[j];
    const float inverseRms = 1.0f / std::sqrt(sumOfSquares / static_cast<float>(dk) + 1e-5f);
    for (int64_t j = 0; j < dk; ++j) {
      const size_t k = static_cast<size_t>(row * dk + j);
      FUZZ_CHECK(sameBits(contextNorm.data[k], (x[j] * inverseRms) * subln.data[static_cast<size_t>(j)]));
      FUZZ_CHECK(sameBits(contextScaled.data[k], contextNorm.data[k] * normScale));
    }
  }
}

void checkAttention(const AttentionConfig& c, const Plan& p, const AttentionResult& r) {
  const int64_t B = p.sizes.batch, S = p.sizes.queryLen, Skv = p.sizes.keyLen, D = c.dModel, H = c.numHeads, dk = D / H;
  const bool diff = c.isDiff();
  const Tensor &mask = tensor(r, "mask"), &weights = tensor(r, "weights"), &dropped = tensor(r, "dropped");

  switch (c.scale) {
    // Differential attention scales a half-head's q: d^-0.5 with d = dk / 2.
    // MLA multiplies by self.softmax_scale = (nopeDim + ropeDim) ** -0.5.
    case ScaleMode::HeadDim:
      FUZZ_CHECK(r.scaleFactor == (c.isMla() ? std::pow(static_cast<double>(*c.mlaNopeDim + *c.mlaRopeDim), -0.5)
                                             : 1.0 / std::sqrt(static_cast<double>(diff ? dk / 2 : dk))));
      break;
    case ScaleMode::DModel: FUZZ_CHECK(r.scaleFactor == 1.0 / std::sqrt(static_cast<double>(D))); break;
    case ScaleMode::None: FUZZ_CHECK(r.scaleFactor == 1.0); break;
    case ScaleMode::Custom: FUZZ_CHECK(r.scaleFactor == c.customScale); break;
  }
  const bool divide = (c.scale == ScaleMode::HeadDim || c.scale == ScaleMode::DModel) && !c.isMla();
  const float divisor = static_cast<float>(std::sqrt(static_cast<double>(c.scale == ScaleMode::DModel ? D : dk)));
  if (!diff) {
    const Tensor &scores = tensor(r, "scores"), &scaled = tensor(r, "scaled");
    for (size_t i = 0; i < scores.data.size(); ++i)
      FUZZ_CHECK(sameBits(scaled.data[i],
                          divide ? scores.data[i] / divisor : scores.data[i] * static_cast<float>(r.scaleFactor)));
  } else {
    // Differential attention scales q by d^-0.5 before its product, then torch.nan_to_num: finite maps.
    for (float x : tensor(r, "halfScaled").data) FUZZ_CHECK(std::isfinite(x));
  }

  // The keys' padding: the context's tokens, or the queries' own in self-attention.
  const Side* keys = c.context.hasTokens()                          ? &p.context
                     : !c.isCrossAttention() && c.input.hasTokens() ? &p.query
                                                                    : nullptr;
  // The mask's value for a blocked and for a visible key, by convention.
  const float blockedValue = c.maskConvention == MaskConvention::Keep       ? 0.0f
                             : c.maskConvention == MaskConvention::Additive ? c.maskFill
                                                                            : 1.0f;
  const float visibleValue = c.maskConvention == MaskConvention::Keep ? 1.0f : 0.0f;
  std::vector<bool> isBlocked(mask.data.size());
  for (int64_t b = 0; b < B; ++b)
    for (int64_t i = 0; i < S; ++i)
      for (int64_t j = 0; j < Skv; ++j) {
        const size_t k = static_cast<size_t>((b * S + i) * Skv + j);
        const bool outsideWindow = c.window && i - j >= *c.window && j >= c.sinkTokens;
        isBlocked[k] = (blocksFuture(c.mask) && j > i) || outsideWindow ||
                       (blocksPadding(c.mask) && keys && keys->padding(static_cast<size_t>(b), j));
        FUZZ_CHECK(sameBits(mask.data[k], isBlocked[k] ? blockedValue : visibleValue));
      }

  // What the mask is applied to: the scaled scores, after the cap and the ALiBi bias when they are on;
  // with differential attention, each of the 2H half-head maps (no cap, bias or sink: validate.cpp).
  const Tensor& logits = diff        ? tensor(r, "halfScaled")
                         : c.alibi   ? tensor(r, "biased")
                         : c.softcap ? tensor(r, "capped")
                                     : tensor(r, "scaled");
  const Tensor &masked = tensor(r, diff ? "halfMasked" : "masked"),
               &probabilities = diff ? tensor(r, "halfWeights") : weights;
  const Tensor* sinkWeights = c.hasSink() ? &tensor(r, "sinkWeights") : nullptr;
  const int64_t maps = diff ? 2 * H : H;
  std::vector<bool> nanRow(static_cast<size_t>(B * maps * S));
  int64_t nanRows = 0;
  const double tolerance = 1e-4 + 2.0 * static_cast<double>(Skv) * std::numeric_limits<float>::epsilon();
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < maps; ++h)
      for (int64_t i = 0; i < S; ++i) {
        const size_t row = static_cast<size_t>(((b * maps + h) * S + i) * Skv);
        bool undefined = false, allMinusInf = true;
        for (int64_t j = 0; j < Skv; ++j) {
          const size_t k = row + static_cast<size_t>(j);
          const size_t m = static_cast<size_t>((b * S + i) * Skv + j);
          if (c.maskConvention == MaskConvention::Additive)
            FUZZ_CHECK(sameBits(masked.data[k], logits.data[k] + mask.data[m]));
          else
            FUZZ_CHECK(sameBits(masked.data[k], isBlocked[m] ? c.maskFill : logits.data[k]));
          const float x = masked.data[k];
          undefined = undefined || std::isnan(x) || x == std::numeric_limits<float>::infinity();
          allMinusInf = allMinusInf && x == -std::numeric_limits<float>::infinity();
        }
        // A finite sink logit takes the whole weight of a row whose keys are all -inf.
        const bool sinkTakesAll = sinkWeights && allMinusInf && !undefined;
        if (sinkWeights) allMinusInf = false;
        double sum = sinkWeights ? sinkWeights->data[static_cast<size_t>((b * H + h) * S + i)] : 0.0;
        if (sinkTakesAll) FUZZ_CHECK(sum == 1.0);
        for (int64_t j = 0; j < Skv; ++j) {
          const float w = probabilities.data[row + static_cast<size_t>(j)];
          if (undefined || allMinusInf) {
            FUZZ_CHECK(std::isnan(w));
          } else {
            FUZZ_CHECK(w >= 0.0f && w <= 1.0f);
            sum += w;
          }
        }
        if (undefined || allMinusInf) {
          ++nanRows;
          nanRow[static_cast<size_t>((b * maps + h) * S + i)] = true;
        } else {
          FUZZ_CHECK(std::fabs(sum - 1.0) <= tolerance);
        }
      }
  if (diff) {
    checkDifferential(c, p, r, nanRow);
  } else {
    FUZZ_CHECK(r.warnings.size() == (nanRows > 0 ? 1u : 0u));
    for (const Warning& w : r.warnings) {
      FUZZ_CHECK(w.code == "nan-rows");
      checkCode(w.code, w.params, w.message);
    }
  }

  const float keptScale = 1.0f / static_cast<float>(1.0 - c.dropoutP);
  for (size_t i = 0; i < weights.data.size(); ++i) {
    const float w = weights.data[i], d = dropped.data[i];
    if (c.dropoutP <= 0)
      FUZZ_CHECK(sameBits(d, w));
    else if (c.dropoutP >= 1)
      FUZZ_CHECK(sameBits(d, w * 0.0f));
    else
      FUZZ_CHECK(sameBits(d, w * 0.0f) || sameBits(d, w * keptScale));
  }

  const Tensor& averaged = tensor(r, "averagedWeights");
  for (int64_t b = 0; b < B; ++b)
    for (int64_t k = 0; k < S * Skv; ++k) {
      float sum = 0.0f;
      for (int64_t h = 0; h < H; ++h) sum += dropped.data[static_cast<size_t>((b * H + h) * S * Skv + k)];
      FUZZ_CHECK(sameBits(averaged.data[static_cast<size_t>(b * S * Skv + k)], sum / static_cast<float>(H)));
    }

  // The heads side by side: their context, or with differential attention its normed and scaled context;
  // MLA's heads hold valueDim numbers each.
  const Tensor &context = tensor(r, diff ? "contextScaled" : "context"), &concat = tensor(r, "concat"),
               &output = tensor(r, "output");
  const int64_t width = c.isMla() ? *c.mlaValueDim : dk;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t s = 0; s < S; ++s)
        for (int64_t k = 0; k < width; ++k)
          FUZZ_CHECK(sameBits(concat.data[static_cast<size_t>((b * S + s) * H * width + h * width + k)],
                              context.data[static_cast<size_t>(((b * H + h) * S + s) * width + k)]));
  if (c.isMla()) {  // latentNorm = latent * torch.rsqrt(latent.pow(2).mean(-1, keepdim=True) + 1e-6) * kv_norm
    const Tensor &latent = tensor(r, "latent"), &norm = tensor(r, "latentNorm"), &weight = tensor(r, "kv_norm");
    const int64_t kv = *c.mlaKvRank;
    for (int64_t row = 0; row < B * S; ++row) {
      const float* x = latent.data.data() + row * kv;
      float sumOfSquares = 0.0f;
      for (int64_t j = 0; j < kv; ++j) sumOfSquares += x[j] * x[j];
      const float inverseRms = 1.0f / std::sqrt(sumOfSquares / static_cast<float>(kv) + 1e-6f);
      for (int64_t j = 0; j < kv; ++j)
        FUZZ_CHECK(sameBits(norm.data[static_cast<size_t>(row * kv + j)],
                            x[j] * inverseRms * weight.data[static_cast<size_t>(j)]));
    }
  }
  // The output gate: each gate in [0, 1] (or NaN, from a NaN logit), gated = concat * gate.
  const Tensor* gated = c.outputGate ? &tensor(r, "gated") : nullptr;
  if (gated) {
    const Tensor& gate = tensor(r, "gate");
    for (size_t k = 0; k < concat.data.size(); ++k) {
      FUZZ_CHECK(std::isnan(gate.data[k]) || (gate.data[k] >= 0.0f && gate.data[k] <= 1.0f));
      FUZZ_CHECK(sameBits(gated->data[k], concat.data[k] * gate.data[k]));
    }
  }
  if (!c.outProj) FUZZ_CHECK(sameTensor(output, gated ? *gated : concat));
}

// Given values, then edits over them, are what the weights hold.
void checkWeights(const AttentionConfig& c, const AttentionResult& r) {
  std::map<std::string, std::map<size_t, float>> expected;
  for (const auto& [name, given] : c.weightValues)
    for (size_t i = 0; i < given.data.size(); ++i)
      if (given.given.empty() || given.given[i]) expected[name][i] = given.data[i];
  for (const auto& [name, edits] : c.weightEdits)
    for (const CellEdit& e : edits)
      expected[name][static_cast<size_t>(isVectorWeight(name) ? e.col : e.row * weightShape(c, name).back() + e.col)] =
          e.value;
  for (const auto& [name, cells] : expected) {
    const Tensor& t = tensor(r, name.c_str());
    for (const auto& [index, value] : cells) FUZZ_CHECK(index < t.data.size() && sameBits(t.data[index], value));
  }
}

// The embedding edits as the JSON writes them: a string row names a token,
// which must be in the vocab. Without positions, X is rows of the embedding
// table: equal ids give equal rows, an edited cell holds its (last) edit, and
// with the whole table given, every other cell its given value.
void checkEmbedding(const AttentionConfig& c, const JsonValue& root, const AttentionResult& r) {
  std::map<std::pair<int64_t, int64_t>, float> edited;  // (id, col) -> value
  const JsonValue* embedding = root.find("embedding");
  const JsonValue* edits = embedding && embedding->isObject() ? embedding->find("edits") : nullptr;
  if (edits && edits->isArray())
    for (const JsonValue& entry : edits->array()) {
      const auto& items = entry.array();
      FUZZ_CHECK(items.size() == 3 && items[1].isNumber() && items[2].isNumber());
      int64_t id = static_cast<int64_t>(items[0].number());
      if (items[0].isString()) {
        id = std::find(r.vocab.begin(), r.vocab.end(), items[0].string()) - r.vocab.begin();
        FUZZ_CHECK(id < static_cast<int64_t>(r.vocab.size()));  // an edit of a token not in the vocab ran
      }
      edited[{id, static_cast<int64_t>(items[1].number())}] = static_cast<float>(items[2].number());
    }
  if (c.positional != Positional::None || !c.input.hasTokens()) return;
  const Tensor& x = tensor(r, "X");
  const size_t D = static_cast<size_t>(c.dModel);
  std::map<int64_t, size_t> firstRow;  // id -> its first row in X
  size_t row = 0;
  for (const auto& ids : r.ids)
    for (int64_t id : ids) {
      const auto [first, inserted] = firstRow.emplace(id, row);
      if (!inserted) FUZZ_CHECK(std::memcmp(&x.data[first->second * D], &x.data[row * D], D * sizeof(float)) == 0);
      ++row;
    }
  for (const auto& [cell, value] : edited) {
    const auto found = firstRow.find(cell.first);
    if (found != firstRow.end())
      FUZZ_CHECK(sameBits(x.data[found->second * D + static_cast<size_t>(cell.second)], value));
  }
  // With every value of the table given, each row of X is the given row, edited.
  if (!c.embeddingValues || !c.embeddingValues->complete()) return;
  for (const auto& [id, first] : firstRow)
    for (size_t col = 0; col < D; ++col) {
      const auto edit = edited.find({id, static_cast<int64_t>(col)});
      const float expected =
          edit != edited.end() ? edit->second : c.embeddingValues->data[static_cast<size_t>(id) * D + col];
      FUZZ_CHECK(sameBits(x.data[first * D + col], expected));
    }
}

bool sameResult(const AttentionResult& a, const AttentionResult& b) {
  if (a.tokens != b.tokens || a.ids != b.ids || a.contextTokens != b.contextTokens || a.contextIds != b.contextIds ||
      a.vocab != b.vocab || a.unknownTokens != b.unknownTokens || a.headDim != b.headDim || a.warnings != b.warnings ||
      a.tensors.size() != b.tensors.size() || a.aliases != b.aliases)
    return false;
  for (size_t i = 0; i < a.tensors.size(); ++i)
    if (a.tensors[i].first != b.tensors[i].first || !sameTensor(a.tensors[i].second, b.tensors[i].second)) return false;
  return true;
}

// ---- the tiny model ----------------------------------------------------------

// The shipped weights of two checkpoints (fuzz.sh runs from the repository's root).
const TinyWeightStore& tinyWeights() {
  static const TinyWeightStore store = [] {
    TinyWeightStore s;
    for (int64_t step : {750, 3000}) {
      char path[64];
      std::snprintf(path, sizeof path, "web/api/tiny/step-%04d.safetensors", static_cast<int>(step));
      std::ifstream file(path, std::ios::binary);
      const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)), {});
      if (s.load(step, bytes.data(), bytes.size())) {
        std::fprintf(stderr, "config_fuzz: cannot load %s\n", path);
        std::abort();
      }
    }
    return s;
  }();
  return store;
}

bool sameTiny(const TinyResult& a, const TinyResult& b) {
  if (a.ids != b.ids || a.warnings != b.warnings || !sameTensor(a.logits, b.logits) || !sameTensor(a.probs, b.probs))
    return false;
  for (size_t l = 0; l < a.layers.size(); ++l)
    if (!sameTensor(a.layers[l].weights, b.layers[l].weights) ||
        !sameTensor(a.layers[l].residual, b.layers[l].residual))
      return false;
  return true;
}

// Each of `count` rows of `cols` in [0, 1] summing to 1 (within float rounding); with `causal`, zero past the diagonal.
void checkDistributions(const std::vector<float>& data, size_t rows, size_t cols, bool causal) {
  FUZZ_CHECK(data.size() == rows * cols);
  for (size_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (size_t c = 0; c < cols; ++c) {
      const float w = data[r * cols + c];
      FUZZ_CHECK(w >= 0.0f && w <= 1.0f);
      if (causal && c > r % cols) FUZZ_CHECK(w == 0.0f);
      sum += w;
    }
    FUZZ_CHECK(std::fabs(sum - 1.0) < 1e-4);
  }
}

void checkTiny(const AttentionConfig& config, const JsonParseResult& json) {
  TinyResult r;
  if (Status error = runTinyModel(config, tinyWeights(), r)) {
    checkError(error, json);
    const std::string& f = error->field;
    FUZZ_CHECK(f == "text" || f == "texts" || f == "tokens" || f == "input" || f == "checkpoint");
    return;
  }
  const std::string& text = config.input.texts.at(0);
  FUZZ_CHECK(!text.empty() && text.size() <= static_cast<size_t>(kTinyContext));
  const size_t T = text.size(), d = kTinyDModel, H = kTinyHeads;
  FUZZ_CHECK(r.ids.size() == T);
  for (size_t i = 0; i < T; ++i) FUZZ_CHECK(r.ids[i] == static_cast<unsigned char>(text[i]));
  const auto shaped = [](const Tensor& t, std::vector<int64_t> shape) {
    size_t count = 1;
    for (int64_t n : shape) count *= static_cast<size_t>(n);
    FUZZ_CHECK(t.shape == shape && t.data.size() == count);
  };
  const int64_t t = static_cast<int64_t>(T);
  for (const Tensor* x : {&r.tokenEmbeddings, &r.positionEmbeddings, &r.residual0}) shaped(*x, {t, kTinyDModel});
  shaped(r.logits, {t, kTinyVocab});
  for (const TinyLayer& l : r.layers) {
    for (const Tensor* x : {&l.Q, &l.K, &l.V, &l.concat, &l.attnOut, &l.residual}) shaped(*x, {t, kTinyDModel});
    for (const Tensor* x : {&l.scores, &l.scaled, &l.weights}) shaped(*x, {kTinyHeads, t, t});
    shaped(l.headOutputs, {kTinyHeads, t, kTinyHeadDim});
    checkDistributions(l.weights.data, H * T, T, true);
    for (size_t k = 0; k < l.scores.data.size(); ++k) FUZZ_CHECK(sameBits(l.scaled.data[k], l.scores.data[k] / 4.0f));
  }
  checkDistributions(r.probs.data, T, kTinyVocab, false);
  for (size_t k = 0; k < T * d; ++k)
    FUZZ_CHECK(sameBits(r.residual0.data[k], r.tokenEmbeddings.data[k] + r.positionEmbeddings.data[k]));
  // The repeat (a run of at least kTinyMinRepeat bytes typed again, anywhere): each of its positions i
  // points at t(i) < i, the byte after an earlier copy of byte i; the second copy counts those before the last byte.
  const std::vector<int64_t>& targets = r.headScores.repeatTargets;
  FUZZ_CHECK(targets.size() == T);
  size_t inRepeat = 0, predicting = 0;
  for (size_t i = 0; i < T; ++i) {
    if (targets[i] < 0) continue;
    FUZZ_CHECK(targets[i] >= 1 && static_cast<size_t>(targets[i]) < i && text[targets[i] - 1] == text[i]);
    ++inRepeat;
    predicting += i + 1 < T;
  }
  FUZZ_CHECK(r.headScores.previousToken.has_value() == (T >= 2));
  FUZZ_CHECK(r.headScores.induction.has_value() == (inRepeat > 0));
  FUZZ_CHECK(r.secondCopy.has_value() == (predicting > 0));
  if (r.secondCopy)
    FUZZ_CHECK(r.secondCopy->total == static_cast<int64_t>(predicting) && r.secondCopy->correct <= r.secondCopy->total);
  // A text typed twice (s + s, |s| at least kTinyMinRepeat): its whole second copy is in the repeat.
  const size_t n = T / 2;
  if (T % 2 == 0 && n >= static_cast<size_t>(kTinyMinRepeat) && text.compare(0, n, text, n, n) == 0)
    for (size_t i = n; i < T; ++i) FUZZ_CHECK(targets[i] >= 0);
  for (const auto& w : r.warnings) checkCode(w.code, w.params, w.message);
  TinyResult again;
  FUZZ_CHECK(!runTinyModel(config, tinyWeights(), again));
  FUZZ_CHECK(sameTiny(r, again));
}

// The input's bytes as a weights file.
void checkWeightsFile(const std::string& bytes) {
  TinyWeights weights;
  if (Status error = readTinyWeights(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), weights)) {
    FUZZ_CHECK(error->field == "weights file");
    checkCode(error->code, error->params, error->message);
  }
}

// Whether differential attention (diff.depth) may be switched on for this config: two half-heads per head,
// self-attention with a K/V head per query head, the dot score scaled by 1/sqrt(headDim), no dropout, and none
// of the variants the Diff Transformer's layer has not (validate.cpp's checkDifferential, written out again).
bool diffCompatible(const AttentionConfig& c) {
  return c.dModel % (2 * c.numHeads) == 0 && !c.isCrossAttention() && c.dropoutP <= 0 && c.kvHeads() == c.numHeads &&
         c.score == ScoreKind::Dot && c.scale == ScaleMode::HeadDim && c.ropeStyle == RopeStyle::None && !c.qkNorm &&
         !c.softcap && !c.alibi && !c.hasSink() && !c.outputGate;
}

// Whether MLA may be switched on for this config with nothing it has leaving DeepSeek's layer (validate.cpp's
// checkMla, written out again): self-attention without dropout, nn.Linear weights without biases and with W_O,
// one K/V head per query head, the dot score scaled by its head size, no RoPE scaling and none of the other
// variants, and no weights given or edited (their shapes are the layer's, not MLA's).
bool mlaCompatible(const AttentionConfig& c) {
  return !c.isCrossAttention() && c.dropoutP <= 0 && c.init == WeightInit::TorchLinear &&
         c.layout == ProjectionLayout::Fused && !c.hasQkvBias() && c.outProj && c.kvHeads() == c.numHeads &&
         c.score == ScoreKind::Dot && c.scale == ScaleMode::HeadDim && c.ropeScaling == RopeScaling::None &&
         !c.qkNorm && !c.softcap && !c.alibi && !c.hasSink() && !c.isDiff() && !c.outputGate &&
         c.weightValues.empty() && c.weightEdits.empty();
}

// Runs the config and checks the result (or, too slow to run here, only the checks that come before the
// arithmetic); returns the error, which has been checked, if any.
Status runAndCheck(const AttentionConfig& config, const JsonParseResult& json, const Plan& p) {
  if (p.sized && p.cost > kMaxRunCost) {
    Status error = validateConfig(config);
    if (!error) error = validateSizes(config, p.sizes);
    if (!error) error = checkIntermediateBytes(intermediateBytes(config, p.sizes));
    if (error) checkError(error, json);
    return error;
  }
  AttentionResult result;
  if (Status error = runAttention(config, result)) {
    checkError(error, json);
    return error;
  }
  FUZZ_CHECK(p.sized);
  checkNamesAndShapes(config, p, result);
  checkAttention(config, p, result);
  checkWeights(config, result);
  checkEmbedding(config, json.value, result);
  if (p.cost <= kRepeatCost) {
    AttentionResult again;
    FUZZ_CHECK(!runAttention(config, again));
    FUZZ_CHECK(sameResult(result, again));
  }
  return {};
}

void check(const std::string& text) {
  checkWeightsFile(text);
  const JsonParseResult json = parseJson(text, kMaxJsonValues);
  AttentionConfig config;
  const VectorTypedArrays arrays = typedArrays();
  if (Status error = parseConfigText(text, arrays, config)) {
    if (json.ok && json.value.isObject()) return checkError(error, json);
    // Not JSON, or not an object: an error on "config" (on the repeated key's path for a duplicate key).
    FUZZ_CHECK(error->field == (json.duplicateKeyPath.empty() ? "config" : json.duplicateKeyPath));
    FUZZ_CHECK(!error->message.empty());
    return;
  }
  FUZZ_CHECK(json.ok && json.value.isObject());
  checkSettings(config);
  if (config.model == ModelKind::Tiny) return checkTiny(config, json);
  for (const SequenceSource* side : {&config.input, &config.context})
    for (const std::string& text : side->texts) checkSplit(text);

  const Plan p = plan(config);
  const Status error = runAndCheck(config, json, p);
  if (config.isDiff() || config.isMla()) return;
  // Differential attention on the same config, for about half the inputs (few texts spell out
  // "diff": {"depth": n}), at a depth of 0 to 5, both from a hash of the text.
  uint32_t hash = 2166136261u;  // FNV-1a
  for (const char byte : text) hash = (hash ^ static_cast<unsigned char>(byte)) * 16777619u;
  if ((hash & 3) == 1) {
    // MLA on the same config, with sizes from the hash and interleaved RoPE when it has none.
    AttentionConfig mla = config;
    mla.mlaKvRank = 1 + static_cast<int64_t>((hash >> 2) % 8);
    mla.mlaNopeDim = 1 + static_cast<int64_t>((hash >> 5) % 4);
    mla.mlaRopeDim = 2 + 2 * static_cast<int64_t>((hash >> 7) % 2);
    mla.mlaValueDim = 1 + static_cast<int64_t>((hash >> 8) % 4);
    mla.mlaAbsorb = (hash >> 10) & 1;
    if (mla.ropeStyle == RopeStyle::None) mla.ropeStyle = RopeStyle::Interleaved;
    const Status mlaError = runAndCheck(mla, json, plan(mla));
    if (error || config.isCrossAttention()) return;
    if (mlaCompatible(config))
      FUZZ_CHECK(!mlaError || mlaError->code == "memory-limit");
    else
      FUZZ_CHECK(mlaError);
    return;
  }
  if (hash & 1) return;
  AttentionConfig diff = config;
  diff.diffDepth = static_cast<int64_t>((hash >> 1) % 6);
  const Status diffError = runAndCheck(diff, json, p);
  if (error) return;
  // The config passed: with diff on, it must still pass (or need more memory), or, when it has a setting
  // the Diff Transformer has not, be refused on diff.depth.
  if (diffCompatible(config))
    FUZZ_CHECK(!diffError || diffError->code == "memory-limit");
  else
    FUZZ_CHECK(diffError && diffError->field == "diff.depth" &&
               (diffError->code == "diff-half-heads" || diffError->code == "diff-excludes"));
}

}  // namespace
}  // namespace attention_lab

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  attention_lab::check(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
