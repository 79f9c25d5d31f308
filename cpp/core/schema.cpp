#include "schema.h"

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <set>
#include <type_traits>

#include "attention.h"
#include "errors.h"
#include "size_limits.h"
#include "text_format.h"
#include "tiny_model.h"
#include "tokens.h"

namespace attention_lab {
namespace {

using Tensors = TypedArrays;
constexpr double kMaxSeed = 9007199254740992.0;  // 2^53: larger integers are already rounded in JSON and JS

// ---- readers: JSON value -> C++ value, every problem named by its field ----

Status expectType(const JsonValue& value, JsonValue::Type type, const std::string& field) {
  if (value.type() == type) return {};
  return fieldError(field, "wrong-type",
                    {{"field", field}, {"expected", JsonValue::typeName(type)}, {"got", describeJson(value)}});
}

// A finite number. The JS API sends NaN and ±Infinity as the strings "NaN",
// "Infinity" and "-Infinity" so that they can be named here.
Status finiteNumber(const JsonValue& value, const std::string& field, double& out) {
  if (value.isNumber() && std::isfinite(value.number())) {
    out = value.number();
    return {};
  }
  return fieldError(field, "not-a-number", {{"field", field}, {"got", describeJson(value)}});
}

// `got`: the value as the message shows it (formatNumber, or describeJson).
Status outOfRange(const std::string& field, const std::string& got, double min, double max) {
  return fieldError(field, "out-of-range",
                    {{"field", field}, {"got", got}, {"min", formatNumber(min)}, {"max", formatNumber(max)}});
}
Status outOfRange(const std::string& field, double x, double min, double max) {
  return outOfRange(field, formatNumber(x), min, max);
}

// A number the JSON text wrote beyond the range of a double (1e400) is out of
// every field's range, said as written: not an infinity the text never held.
Status numberIn(const JsonValue& value, const std::string& field, double min, double max, double& out) {
  if (value.isBeyondDouble()) return outOfRange(field, describeJson(value), min, max);
  if (Status s = finiteNumber(value, field, out)) return s;
  if (out < min || out > max) return outOfRange(field, out, min, max);
  return {};
}

Status integerIn(const JsonValue& value, const std::string& field, double min, double max, int64_t& out) {
  if (value.isBeyondDouble()) return outOfRange(field, describeJson(value), min, max);
  double x;
  if (Status s = finiteNumber(value, field, x)) return s;
  if (x != std::floor(x)) return fieldError(field, "not-whole", {{"field", field}, {"got", describeJson(value)}});
  if (x < min || x > max) return outOfRange(field, x, min, max);
  out = static_cast<int64_t>(x);
  return {};
}

// A number that becomes a float32 tensor entry: finite, and finite as float32.
Status float32Number(double x, const std::string& field, float& out) {
  if (!std::isfinite(x)) return fieldError(field, "not-a-number", {{"field", field}, {"got", formatNumber(x)}});
  if (std::fabs(x) > FLT_MAX)
    return fieldError(field, "not-float32",
                      {{"field", field}, {"got", formatNumber(x)}, {"max", formatNumber(FLT_MAX)}});
  out = static_cast<float>(x);
  return {};
}

// A JSON number that becomes a float32 tensor entry (or factor): `out`, and
// the double it was in `exact`. One the text wrote beyond the range of a
// double does not fit either, said as written.
Status float32Value(const JsonValue& value, const std::string& field, float& out, double& exact) {
  if (value.isBeyondDouble())
    return fieldError(field, "not-float32",
                      {{"field", field}, {"got", describeJson(value)}, {"max", formatNumber(FLT_MAX)}});
  if (Status s = finiteNumber(value, field, exact)) return s;
  return float32Number(exact, field, out);
}
Status float32Value(const JsonValue& value, const std::string& field, float& out) {
  double exact;
  return float32Value(value, field, out, exact);
}

Status stringList(const JsonValue& value, const std::string& field, std::vector<std::string>& out) {
  if (Status s = expectType(value, JsonValue::Type::Array, field)) return s;
  out.clear();
  out.reserve(value.array().size());
  for (size_t i = 0; i < value.array().size(); ++i) {
    const std::string item = field + "[" + std::to_string(i) + "]";
    if (Status s = expectType(value.array()[i], JsonValue::Type::String, item)) return s;
    out.push_back(value.array()[i].string());
  }
  return {};
}

// ---- lone surrogates -----------------------------------------------------------------

// The first surrogate code point (U+D800-U+DFFF) in `s`, or 0. Half of a
// UTF-16 pair is no character and has no UTF-8 form: the JSON reader keeps a
// lone \uD800 escape in the 3 bytes its code point would take (ED A0 80 to
// ED BF BF), and the JS API sends a raw one in a string the same way.
uint32_t surrogateIn(const std::string& s) {
  const auto byte = [&](size_t i) { return static_cast<uint32_t>(static_cast<unsigned char>(s[i])); };
  for (size_t i = s.find('\xED'); i != std::string::npos && i + 2 < s.size(); i = s.find('\xED', i + 1))
    if (byte(i + 1) >= 0xA0 && byte(i + 1) <= 0xBF && (byte(i + 2) & 0xC0) == 0x80)
      return 0xD000 | (byte(i + 1) & 0x3F) << 6 | (byte(i + 2) & 0x3F);
  return 0;
}

// Whether a string below `v` (a value, or a key) holds a surrogate: `path`
// then says where, relative to `v` (".weights.init", "[1]"; "" for a key of
// `v` itself, whose object is named), and `surrogate` which one.
bool findSurrogate(const JsonValue& v, std::string& path, uint32_t& surrogate) {
  if (v.isString()) return (surrogate = surrogateIn(v.string())) != 0;
  for (size_t i = 0; i < v.array().size(); ++i)
    if (findSurrogate(v.array()[i], path, surrogate)) {
      path.insert(0, "[" + std::to_string(i) + "]");
      return true;
    }
  for (const auto& [key, value] : v.members()) {
    if ((surrogate = surrogateIn(key)) != 0) return true;
    if (findSurrogate(value, path, surrogate)) {
      path.insert(0, "." + key);
      return true;
    }
  }
  return false;
}

// A lone surrogate in any string of the config is an error on the field that
// holds it ("text", "tokens[0][1]"; for a key, its object: "config",
// "weights"), never a guess: not U+FFFD, nor a pair with the next character.
Status checkSurrogates(const JsonValue& root) {
  std::string path;
  uint32_t surrogate = 0;
  if (!findSurrogate(root, path, surrogate)) return {};
  const std::string field = path.empty() ? "config" : path.substr(path[0] == '.' ? 1 : 0);
  char name[8];
  std::snprintf(name, sizeof name, "U+%04X", static_cast<unsigned>(surrogate));
  return fieldError(field, "lone-surrogate", {{"field", field}, {"surrogate", name}});
}

// "a", "b", "c"
std::string choiceList(const std::vector<const char*>& choices) {
  std::string list;
  for (const char* c : choices) list += std::string(list.empty() ? "" : ", ") + "\"" + c + "\"";
  return list;
}

// One of `choices`, by index; the error lists them.
Status choice(const JsonValue& value, const std::string& field, const std::vector<const char*>& choices, int& out) {
  if (value.isString())
    for (size_t i = 0; i < choices.size(); ++i)
      if (value.string() == choices[i]) {
        out = static_cast<int>(i);
        return {};
      }
  return fieldError(field, "not-one-of",
                    {{"field", field}, {"choices", choiceList(choices)}, {"got", describeJson(value)}});
}

// Books `bytes` of given values (floats) against kMaxGivenBytes for this config.
Status bookGivenValues(const Tensors& tensors, int64_t bytes, const std::string& field) {
  if (tensors.book(bytes, kMaxGivenBytes)) return {};
  return fieldError(field, "given-values-too-large",
                    {{"need", std::to_string((tensors.booked() + bytes) >> 20)},
                     {"field", field},
                     {"limit", std::to_string(kMaxGivenBytes >> 20)}});
}

// {"$tensor": k, "shape": [rows, cols] or [n]}: the k-th typed array sent
// beside the JSON. Its size counts against kMaxGivenBytes before anything is
// allocated; it is then read a chunk at a time, every entry checked.
Status typedArray(const JsonValue& value, const std::string& field, const Tensors& tensors, GivenValues& out) {
  const JsonValue* index = value.find("$tensor");
  const JsonValue* shape = value.find("shape");
  if (!index || !shape || value.members().size() != 2) return fieldError(field, "not-a-matrix", {{"field", field}});
  int64_t k;
  if (Status s = integerIn(*index, field + ".$tensor", 0, static_cast<double>(tensors.count()) - 1, k)) return s;
  if (Status s = expectType(*shape, JsonValue::Type::Array, field + ".shape")) return s;
  if (shape->array().empty() || shape->array().size() > 2)
    return fieldError(field, "matrix-dimensions", {{"field", field}});
  out = GivenValues{};
  int64_t count = 1;
  for (size_t i = 0; i < shape->array().size(); ++i) {
    int64_t n;
    if (Status s = integerIn(shape->array()[i], field + ".shape[" + std::to_string(i) + "]", 0, 1e9, n)) return s;
    out.shape.push_back(n);
    count *= n;
  }
  const int64_t length = tensors.length(static_cast<size_t>(k));
  if (length != count)
    return fieldError(field, "typed-array-length",
                      {{"field", field},
                       {"length", std::to_string(length)},
                       {"shape", shapeText(out.shape)},
                       {"count", std::to_string(count)}});
  const int64_t bytes = static_cast<int64_t>(sizeof(float)) * length;
  if (Status s = bookGivenValues(tensors, bytes, field)) return s;
  out.data.resize(static_cast<size_t>(length));
  const int64_t cols = out.shape.back();
  constexpr int64_t kChunk = 1 << 14;
  std::vector<double> chunk(static_cast<size_t>(std::min(length, kChunk)));
  for (int64_t start = 0; start < length; start += kChunk) {
    const int64_t n = std::min(kChunk, length - start);
    tensors.read(static_cast<size_t>(k), start, n, chunk.data());
    for (int64_t i = 0; i < n; ++i) {
      const double x = chunk[static_cast<size_t>(i)];
      if (std::isfinite(x) && std::fabs(x) <= FLT_MAX) {
        out.data[static_cast<size_t>(start + i)] = static_cast<float>(x);
        continue;
      }
      const int64_t at = start + i;
      const std::string where = out.shape.size() == 2
                                    ? field + "[" + std::to_string(at / cols) + "][" + std::to_string(at % cols) + "]"
                                    : field + "[" + std::to_string(at) + "]";
      float ignored;
      return float32Number(x, where, ignored);
    }
  }
  return {};
}

Status appendNumbers(const JsonValue& row, const std::string& field, GivenValues& out) {
  for (size_t c = 0; c < row.array().size(); ++c) {
    const JsonValue& item = row.array()[c];
    const std::string where = field + "[" + std::to_string(c) + "]";
    float x = 0;
    if (!item.isNull())
      if (Status s = float32Value(item, where, x)) return s;
    out.data.push_back(x);
    out.given.push_back(!item.isNull());
  }
  return {};
}

// number[] or number[][] (rows of equal length) or a typed array. null (an
// entry or a whole row) keeps the drawn value there.
Status matrix(const JsonValue& value, const std::string& field, const Tensors& tensors, GivenValues& out) {
  if (value.isObject()) return typedArray(value, field, tensors, out);
  if (Status s = expectType(value, JsonValue::Type::Array, field)) return s;
  const auto& rows = value.array();
  out = GivenValues{};
  size_t firstRow = 0;
  while (firstRow < rows.size() && rows[firstRow].isNull()) ++firstRow;
  if (firstRow == rows.size() || !rows[firstRow].isArray()) {
    out.shape = {static_cast<int64_t>(rows.size())};
    return appendNumbers(value, field, out);
  }
  const size_t cols = rows[firstRow].array().size();
  out.shape = {static_cast<int64_t>(rows.size()), static_cast<int64_t>(cols)};
  // A null row stands for a whole row of floats: book them before allocating.
  const int64_t bytes = static_cast<int64_t>(sizeof(float)) * out.shape[0] * out.shape[1];
  if (Status s = bookGivenValues(tensors, bytes, field)) return s;
  out.data.reserve(rows.size() * cols);
  for (size_t r = 0; r < rows.size(); ++r) {
    const std::string rowField = field + "[" + std::to_string(r) + "]";
    if (rows[r].isNull()) {
      out.data.resize(out.data.size() + cols, 0.0f);
      out.given.resize(out.data.size(), false);
      continue;
    }
    if (Status s = expectType(rows[r], JsonValue::Type::Array, rowField)) return s;
    if (rows[r].array().size() != cols)
      return fieldError(rowField, "ragged-rows",
                        {{"field", rowField},
                         {"count", std::to_string(rows[r].array().size())},
                         {"row", std::to_string(firstRow)},
                         {"cols", std::to_string(cols)}});
    if (Status s = appendNumbers(rows[r], rowField, out)) return s;
  }
  return {};
}

// [[row, col, value], ...] ([[col, value], ...] for a vector). An embedding
// row may be given as its token ("cat"), resolved once the vocab is known.
Status edits(const JsonValue& value, const std::string& field, bool vector, bool tokens, std::vector<CellEdit>& out) {
  if (Status s = expectType(value, JsonValue::Type::Array, field)) return s;
  const size_t arity = vector ? 2 : 3;
  out.clear();
  out.reserve(value.array().size());
  for (size_t k = 0; k < value.array().size(); ++k) {
    const JsonValue& entry = value.array()[k];
    const std::string where = field + "[" + std::to_string(k) + "]";
    if (!entry.isArray() || entry.array().size() != arity)
      return fieldError(where, vector ? "edit-not-index-value" : "edit-not-row-column-value",
                        {{"field", where}, {"got", describeJson(entry)}});
    CellEdit edit;
    edit.field = where;
    const auto& items = entry.array();
    if (tokens && items[0].isString()) {
      // An empty token is no token (splitting never makes one), and "" means "by id" in CellEdit.
      if (items[0].string().empty()) return fieldError(where + "[0]", "empty-token", {{"field", where + "[0]"}});
      edit.token = items[0].string();
    } else if (!vector) {
      if (Status s = integerIn(items[0], where + "[0]", 0, kMaxVocab, edit.row)) return s;
    }
    const JsonValue& col = items[arity - 2];
    if (Status s = integerIn(col, where + "[" + std::to_string(arity - 2) + "]", 0, kMaxDModel - 1, edit.col)) return s;
    const std::string valueField = where + "[" + std::to_string(arity - 1) + "]";
    if (Status s = float32Value(items[arity - 1], valueField, edit.value)) return s;
    out.push_back(std::move(edit));
  }
  return {};
}

// ---- JSON writers for defaults ------------------------------------------------

std::string toJson(bool b) { return b ? "true" : "false"; }
std::string toJson(int64_t n) { return std::to_string(n); }
std::string toJson(uint64_t n) { return std::to_string(n); }
std::string toJson(double x) { return formatNumber(x); }
template <typename T>
std::string toJson(const std::optional<T>& v) {
  return v ? toJson(*v) : "null";
}

// ---- row builders: a reader and a writer from a member pointer -------------------

template <auto M>
Status readInteger(const FieldSpec& f, const JsonValue& v, const Tensors&, AttentionConfig& c) {
  int64_t x;
  if (Status s = integerIn(v, f.path, f.min, f.max, x)) return s;
  c.*M = x;
  return {};
}
template <auto M>
Status readNumber(const FieldSpec& f, const JsonValue& v, const Tensors&, AttentionConfig& c) {
  double x;
  if (Status s = numberIn(v, f.path, f.min, f.max, x)) return s;
  c.*M = x;
  return {};
}
template <auto M>
Status readBoolean(const FieldSpec& f, const JsonValue& v, const Tensors&, AttentionConfig& c) {
  if (Status s = expectType(v, JsonValue::Type::Bool, f.path)) return s;
  c.*M = v.boolean();
  return {};
}
template <auto M>
Status readEnum(const FieldSpec& f, const JsonValue& v, const Tensors&, AttentionConfig& c) {
  int index;
  if (Status s = choice(v, f.path, f.choices, index)) return s;
  c.*M = static_cast<std::remove_reference_t<decltype(c.*M)>>(index);
  return {};
}
template <auto M>
std::string writeValue(const AttentionConfig& c) {
  return toJson(c.*M);
}
template <auto M, const auto& Names>
std::string writeEnum(const AttentionConfig& c) {
  return jsonQuote(Names[static_cast<size_t>(c.*M)]);
}

template <auto M>
FieldSpec integerField(const char* path, const char* name, const char* group, double min, double max) {
  return {path, name, FieldType::Integer, group, {}, min, max, nullptr, &readInteger<M>, &writeValue<M>};
}
template <auto M>
FieldSpec seedField(const char* path, const char* name, const char* group) {
  return {path, name, FieldType::Seed, group, {}, 0, kMaxSeed, nullptr, &readInteger<M>, &writeValue<M>};
}
template <auto M>
FieldSpec numberField(const char* path, const char* name, const char* group, double min, double max) {
  return {path, name, FieldType::Number, group, {}, min, max, nullptr, &readNumber<M>, &writeValue<M>};
}
template <auto M>
FieldSpec booleanField(const char* path, const char* name, const char* group) {
  return {path, name, FieldType::Boolean, group, {}, 0, 0, nullptr, &readBoolean<M>, &writeValue<M>};
}
template <auto M, const auto& Names>
FieldSpec enumField(const char* path, const char* name, const char* group) {
  return {path, name, FieldType::Enum, group,        std::vector<const char*>(Names.begin(), Names.end()),
          0,    0,    nullptr,         &readEnum<M>, &writeEnum<M, Names>};
}

// The field `spec`, that has an effect only when `condition` holds ("score=additive", "mask!=none").
FieldSpec usedWhen(FieldSpec spec, const char* condition) {
  spec.usedWhen = condition;
  return spec;
}

// The mask field, with the one-kind masks each of its choices holds (config.h's kMaskParts).
FieldSpec maskField(FieldSpec spec) {
  for (size_t i = 0; i < kMaskNames.size(); ++i) {
    std::vector<const char*> holds;
    for (MaskKind part : kMaskParts)
      if (maskHolds(static_cast<MaskKind>(i), part)) holds.push_back(kMaskNames[static_cast<size_t>(part)]);
    spec.kinds.push_back(holds);
  }
  return spec;
}

// ---- the rows that need more than a member --------------------------------------

template <SequenceSource AttentionConfig::*Side>
Status readText(const FieldSpec& f, const JsonValue& v, const Tensors&, AttentionConfig& c) {
  if (Status s = expectType(v, JsonValue::Type::String, f.path)) return s;
  (c.*Side).texts = {v.string()};
  return {};
}
template <SequenceSource AttentionConfig::*Side>
Status readTexts(const FieldSpec& f, const JsonValue& v, const Tensors&, AttentionConfig& c) {
  if (Status s = stringList(v, f.path, (c.*Side).texts)) return s;
  (c.*Side).textsGivenAsList = true;
  if ((c.*Side).texts.empty()) return fieldError(f.path, "no-sentences", {{"field", f.path}});
  return {};
}
// [["自然", "语言"], ...]: one list of tokens per sentence, each token a
// non-empty string without whitespace (the tokenizer would have split there).
template <SequenceSource AttentionConfig::*Side>
Status readTokens(const FieldSpec& f, const JsonValue& v, const Tensors&, AttentionConfig& c) {
  const std::string field = f.path;
  if (Status s = expectType(v, JsonValue::Type::Array, field)) return s;
  if (v.array().empty()) return fieldError(field, "no-sentences", {{"field", field}});
  auto& tokens = (c.*Side).tokens;
  tokens.clear();
  for (size_t b = 0; b < v.array().size(); ++b) {
    const std::string sentence = field + "[" + std::to_string(b) + "]";
    std::vector<std::string> row;
    if (Status s = stringList(v.array()[b], sentence, row)) return s;
    if (row.empty()) return fieldError(sentence, "empty-sentence", {{"field", sentence}});
    for (size_t i = 0; i < row.size(); ++i) {
      const std::string where = sentence + "[" + std::to_string(i) + "]";
      if (row[i].empty()) return fieldError(where, "empty-token", {{"field", where}});
      if (containsWhitespace(row[i]))
        return fieldError(where, "token-whitespace",
                          {{"field", where}, {"token", describeJson(v.array()[b].array()[i])}});
    }
    tokens.push_back(std::move(row));
  }
  return {};
}
// {"randn": [B, S, dModel]} (torch.randn) or {"rand": [B, S, dModel]} (torch.rand).
template <SequenceSource AttentionConfig::*Side>
Status readRandomInput(const FieldSpec& f, const JsonValue& v, const Tensors&, AttentionConfig& c) {
  const std::string field = f.path;
  if (Status s = expectType(v, JsonValue::Type::Object, field)) return s;
  for (const auto& member : v.members())
    if (std::find_if(kRandomDrawKeys.begin(), kRandomDrawKeys.end(),
                     [&](const char* key) { return member.first == key; }) == kRandomDrawKeys.end())
      return fieldError(field + "." + member.first, "unknown-field", {{"field", field + "." + member.first}});
  if (v.members().size() != 1)
    return fieldError(field, v.members().empty() ? "random-input-missing" : "random-input-both", {{"field", field}});
  RandomInput input;
  input.draw = v.members()[0].first == "rand" ? RandomDraw::Uniform : RandomDraw::Normal;
  const std::string sizes = field + "." + input.key();
  const JsonValue& shape = v.members()[0].second;
  if (!shape.isArray() || shape.array().size() != 3) return fieldError(sizes, "random-input-shape", {{"field", sizes}});
  const double limits[3] = {kMaxBatch, kMaxTokensPerSequence, kMaxDModel};
  for (size_t i = 0; i < 3; ++i)
    if (Status s = integerIn(shape.array()[i], sizes + "[" + std::to_string(i) + "]", 1, limits[i], input.shape[i]))
      return s;
  (c.*Side).random = input;
  return {};
}
template <SequenceSource AttentionConfig::*Side>
std::string writeText(const AttentionConfig& c) {
  const auto& texts = (c.*Side).texts;
  return texts.size() == 1 ? jsonQuote(texts[0]) : "null";
}
std::string writeNull(const AttentionConfig&) { return "null"; }
// The random input a run used, so result.settings says torch.rand or torch.randn.
template <SequenceSource AttentionConfig::*Side>
std::string writeRandomInput(const AttentionConfig& c) {
  const auto& random = (c.*Side).random;
  if (!random) return "null";
  const auto& n = random->shape;
  return std::string("{\"") + random->key() + "\":[" + std::to_string(n[0]) + "," + std::to_string(n[1]) + "," +
         std::to_string(n[2]) + "]}";
}

Status readVocab(const FieldSpec& f, const JsonValue& v, const Tensors&, AttentionConfig& c) {
  std::vector<std::string> vocab;
  if (Status s = stringList(v, f.path, vocab)) return s;
  if (vocab.empty()) return fieldError(f.path, "vocab-empty", {{"field", f.path}});
  if (static_cast<int64_t>(vocab.size()) > kMaxVocab)
    return fieldError(f.path, "vocab-too-large",
                      {{"count", std::to_string(vocab.size())}, {"limit", std::to_string(kMaxVocab)}});
  c.vocab = std::move(vocab);
  return {};
}

// "head-dim" | "d-model" | "none" | a number (the multiplier itself).
Status readScale(const FieldSpec& f, const JsonValue& v, const Tensors&, AttentionConfig& c) {
  if (v.isNumber() ||
      (v.isString() && (v.string() == "NaN" || v.string() == "Infinity" || v.string() == "-Infinity"))) {
    c.scale = ScaleMode::Custom;
    float asFloat;  // the scores are float32: the factor must be one too
    return float32Value(v, f.path, asFloat, c.customScale);
  }
  int index;
  if (choice(v, f.path, f.choices, index))
    return fieldError(f.path, "not-one-of-or-number",
                      {{"field", f.path}, {"choices", choiceList(f.choices)}, {"got", describeJson(v)}});
  c.scale = static_cast<ScaleMode>(index);
  return {};
}
std::string writeScale(const AttentionConfig& c) {
  return c.scale == ScaleMode::Custom ? formatNumber(c.customScale)
                                      : jsonQuote(kScaleNames[static_cast<size_t>(c.scale)]);
}

// One number (every head's sink logit) or a list of them (one per head, gpt-oss);
// the list's length is checked against numHeads in validate.cpp.
Status readSinkLogit(const FieldSpec& f, const JsonValue& v, const Tensors&, AttentionConfig& c) {
  c.sinkLogit.clear();
  c.sinkLogitPerHead = v.isArray();
  if (!v.isArray()) {
    double x;
    if (Status s = numberIn(v, f.path, f.min, f.max, x)) return s;
    c.sinkLogit.push_back(x);
    return {};
  }
  for (size_t h = 0; h < v.array().size(); ++h) {
    double x;
    if (Status s = numberIn(v.array()[h], std::string(f.path) + "[" + std::to_string(h) + "]", f.min, f.max, x))
      return s;
    c.sinkLogit.push_back(x);
  }
  return {};
}
std::string writeSinkLogit(const AttentionConfig& c) {
  if (c.sinkLogit.empty()) return "null";
  if (!c.sinkLogitPerHead) return formatNumber(c.sinkLogit[0]);
  std::string out = "[";
  for (size_t h = 0; h < c.sinkLogit.size(); ++h) out += (h ? ", " : "") + formatNumber(c.sinkLogit[h]);
  return out + "]";
}

// "-inf" (also "-Infinity", how the JS API sends -Infinity) or a float32 number.
Status readMaskFill(const FieldSpec& f, const JsonValue& v, const Tensors&, AttentionConfig& c) {
  if (v.isString() && (v.string() == "-inf" || v.string() == "-Infinity")) {
    c.maskFill = -std::numeric_limits<float>::infinity();
    return {};
  }
  if (!v.isNumber()) return fieldError(f.path, "not-inf-or-number", {{"field", f.path}, {"got", describeJson(v)}});
  return float32Value(v, f.path, c.maskFill);
}
std::string writeMaskFill(const AttentionConfig& c) {
  return std::isinf(c.maskFill) ? "\"-inf\"" : formatNumber(c.maskFill);
}

Status readEmbeddingValues(const FieldSpec& f, const JsonValue& v, const Tensors& tensors, AttentionConfig& c) {
  GivenValues table;
  if (Status s = matrix(v, f.path, tensors, table)) return s;
  if (table.shape.size() != 2 && !v.isObject())  // a typed array may be flat, row-major
    return fieldError(f.path, "embedding-not-matrix", {{"field", f.path}});
  c.embeddingValues = std::move(table);
  return {};
}
Status readEmbeddingEdits(const FieldSpec& f, const JsonValue& v, const Tensors&, AttentionConfig& c) {
  return edits(v, f.path, /*vector=*/false, /*tokens=*/true, c.embeddingEdits);
}

// An object keyed by weight names: {"W_Q": ..., "b_O": ...}.
template <typename Item>
Status readWeightMap(const FieldSpec& f, const JsonValue& v, std::map<std::string, Item>& out,
                     Status (*readItem)(const JsonValue&, const std::string&, bool, const Tensors&, Item&),
                     const Tensors& tensors) {
  if (Status s = expectType(v, JsonValue::Type::Object, f.path)) return s;
  for (const auto& member : v.members()) {
    bool known = false;
    for (const char* name : f.choices) known = known || member.first == name;
    const std::string field = std::string(f.path) + "." + member.first;
    if (!known) {
      std::string list;
      for (const char* c : f.choices) list += std::string(list.empty() ? "" : " ") + c;
      return fieldError(field, "unknown-name", {{"field", field}, {"known", list}});
    }
    if (Status s = readItem(member.second, field, isVectorWeight(member.first), tensors, out[member.first])) return s;
  }
  return {};
}
Status readWeightValuesItem(const JsonValue& v, const std::string& field, bool, const Tensors& tensors,
                            GivenValues& out) {
  return matrix(v, field, tensors, out);
}
Status readWeightEditsItem(const JsonValue& v, const std::string& field, bool vector, const Tensors&,
                           std::vector<CellEdit>& out) {
  return edits(v, field, vector, /*tokens=*/false, out);
}
Status readWeightValues(const FieldSpec& f, const JsonValue& v, const Tensors& tensors, AttentionConfig& c) {
  return readWeightMap(f, v, c.weightValues, &readWeightValuesItem, tensors);
}
Status readWeightEdits(const FieldSpec& f, const JsonValue& v, const Tensors& tensors, AttentionConfig& c) {
  return readWeightMap(f, v, c.weightEdits, &readWeightEditsItem, tensors);
}

const std::vector<const char*> kWeightNameList(kWeightNames.begin(), kWeightNames.end());
using C = AttentionConfig;

std::vector<FieldSpec> buildSchema() {
  return {
      // Queries: one of text, texts, tokens, input.
      {"text", "text", FieldType::String, "input", {}, 0, 0, "input", &readText<&C::input>, &writeText<&C::input>},
      {"texts", "texts", FieldType::StringList, "input", {}, 0, 0, "input", &readTexts<&C::input>, &writeNull},
      {"tokens", "tokens", FieldType::TokenLists, "input", {}, 0, 0, "input", &readTokens<&C::input>, &writeNull},
      {"input",
       "input",
       FieldType::RandomInput,
       "input",
       {},
       0,
       0,
       "input",
       &readRandomInput<&C::input>,
       &writeRandomInput<&C::input>},
      // Keys and values for cross-attention: one of contextText, contextTexts, contextTokens, contextInput.
      {"contextText",
       "context-text",
       FieldType::String,
       "input",
       {},
       0,
       0,
       "context",
       &readText<&C::context>,
       &writeText<&C::context>},
      {"contextTexts",
       "context-texts",
       FieldType::StringList,
       "input",
       {},
       0,
       0,
       "context",
       &readTexts<&C::context>,
       &writeNull},
      {"contextTokens",
       "context-tokens",
       FieldType::TokenLists,
       "input",
       {},
       0,
       0,
       "context",
       &readTokens<&C::context>,
       &writeNull},
      {"contextInput",
       "context-input",
       FieldType::RandomInput,
       "input",
       {},
       0,
       0,
       "context",
       &readRandomInput<&C::context>,
       &writeRandomInput<&C::context>},
      {"vocab", "vocab", FieldType::StringList, "input", {}, 0, 0, nullptr, &readVocab, &writeNull},
      enumField<&C::tokenizer, kTokenizerNames>("tokenizer", "tokenizer", "input"),
      integerField<&C::maxLen>("maxLen", "max-len", "input", 1, kMaxTokensPerSequence),
      integerField<&C::dModel>("dModel", "d-model", "model", 1, kMaxDModel),
      integerField<&C::numHeads>("numHeads", "heads", "model", 1, kMaxHeads),
      seedField<&C::seed>("seed", "seed", "model"),
      enumField<&C::positional, kPositionalNames>("embedding.positional", "positional", "embedding"),
      {"embedding.values",
       "embedding-values",
       FieldType::Matrix,
       "embedding",
       {},
       0,
       0,
       nullptr,
       &readEmbeddingValues,
       &writeNull},
      {"embedding.edits",
       "embedding-edits",
       FieldType::Edits,
       "embedding",
       {},
       0,
       0,
       nullptr,
       &readEmbeddingEdits,
       &writeNull},
      enumField<&C::init, kWeightInitNames>("weights.init", "init", "weights"),
      enumField<&C::layout, kLayoutNames>("weights.layout", "layout", "weights"),
      booleanField<&C::qkvBias>("weights.qkvBias", "qkv-bias", "weights"),
      booleanField<&C::outProj>("weights.outProj", "out-proj", "weights"),
      seedField<&C::weightsSeed>("weights.seed", "weights-seed", "weights"),
      {"weights.values", "weight-values", FieldType::MatrixMap, "weights", kWeightNameList, 0, 0, nullptr,
       &readWeightValues, &writeNull},
      {"weights.edits", "weight-edits", FieldType::EditsMap, "weights", kWeightNameList, 0, 0, nullptr,
       &readWeightEdits, &writeNull},
      enumField<&C::score, kScoreNames>("score", "score", "attention"),
      usedWhen(
          integerField<&C::additiveHidden>("additiveHidden", "additive-hidden", "attention", 1, kMaxAdditiveHidden),
          "score=additive"),
      {"scale", "scale", FieldType::EnumOrNumber, "attention",
       std::vector<const char*>(kScaleNames.begin(), kScaleNames.end()), 0, 0, nullptr, &readScale, &writeScale},
      maskField(enumField<&C::mask, kMaskNames>("mask", "mask", "attention")),
      usedWhen(enumField<&C::maskConvention, kMaskConventionNames>("maskConvention", "mask-convention", "attention"),
               "mask!=none"),
      usedWhen({"maskFill",
                "mask-fill",
                FieldType::EnumOrNumber,
                "attention",
                {"-inf"},
                0,
                0,
                nullptr,
                &readMaskFill,
                &writeMaskFill},
               "mask!=none"),
      numberField<&C::dropoutP>("dropout.p", "dropout", "dropout", 0, 1),
      usedWhen(seedField<&C::dropoutSeed>("dropout.seed", "dropout-seed", "dropout"), "dropout.p!=0"),
      // Modern variants, in pipeline order (config.h says what each mirrors).
      booleanField<&C::qkNorm>("qkNorm", "qk-norm", "modern"),
      enumField<&C::ropeStyle, kRopeStyleNames>("rope.style", "rope", "modern"),
      usedWhen(numberField<&C::ropeBase>("rope.base", "rope-base", "modern", 1, 1e9), "rope.style!=none"),
      usedWhen(enumField<&C::ropeScaling, kRopeScalingNames>("rope.scaling.type", "rope-scaling", "modern"),
               "rope.style!=none"),
      usedWhen(numberField<&C::ropeScalingFactor>("rope.scaling.factor", "rope-factor", "modern", 0.001, 1e6),
               "rope.scaling.type!=none"),
      usedWhen(integerField<&C::ropeOriginalMaxPositions>("rope.scaling.originalMaxPositions", "rope-original-max",
                                                          "modern", 1, 1e9),
               "rope.scaling.type!=none"),
      usedWhen(numberField<&C::ropeBetaFast>("rope.scaling.betaFast", "rope-beta-fast", "modern", 0.001, 1e6),
               "rope.scaling.type=yarn"),
      usedWhen(numberField<&C::ropeBetaSlow>("rope.scaling.betaSlow", "rope-beta-slow", "modern", 0.001, 1e6),
               "rope.scaling.type=yarn"),
      usedWhen(booleanField<&C::ropeTruncate>("rope.scaling.truncate", "rope-truncate", "modern"),
               "rope.scaling.type=yarn"),
      integerField<&C::numKVHeads>("numKVHeads", "kv-heads", "modern", 1, kMaxHeads),
      integerField<&C::window>("window", "window", "modern", 1, kMaxTokensPerSequence),
      integerField<&C::sinkTokens>("sinkTokens", "sink-tokens", "modern", 0, kMaxTokensPerSequence),
      {"sinkLogit",
       "sink-logit",
       FieldType::NumberOrList,
       "modern",
       {},
       -1e4,
       1e4,
       nullptr,
       &readSinkLogit,
       &writeSinkLogit},
      booleanField<&C::alibi>("alibi", "alibi", "modern"),
      numberField<&C::softcap>("softcap", "softcap", "modern", 0.001, 1e6),
      integerField<&C::diffDepth>("diff.depth", "diff-depth", "modern", 0, 1000),
      integerField<&C::mlaKvRank>("mla.kvRank", "mla-kv-rank", "modern", 1, kMaxDModel),
      integerField<&C::mlaNopeDim>("mla.nopeDim", "mla-nope-dim", "modern", 1, kMaxDModel),
      integerField<&C::mlaRopeDim>("mla.ropeDim", "mla-rope-dim", "modern", 2, kMaxDModel),
      integerField<&C::mlaValueDim>("mla.valueDim", "mla-value-dim", "modern", 1, kMaxDModel),
      booleanField<&C::mlaAbsorb>("mla.absorb", "mla-absorb", "modern"),
      booleanField<&C::outputGate>("outputGate", "output-gate", "modern"),
      // The trained model (tiny_model.h): with model "tiny" only text and checkpoint are read.
      enumField<&C::model, kModelNames>("model", "model", "trained"),
      usedWhen(integerField<&C::checkpoint>("checkpoint", "checkpoint", "trained", 0,
                                            static_cast<double>(kTinyCheckpoints.back())),
               "model=tiny"),
  };
}

const char* typeName(FieldType type) {
  switch (type) {
    case FieldType::String: return "string";
    case FieldType::StringList: return "string[]";
    case FieldType::TokenLists: return "string[][]";
    case FieldType::Integer: return "integer";
    case FieldType::Seed: return "seed";
    case FieldType::Number: return "number";
    case FieldType::Boolean: return "boolean";
    case FieldType::Enum: return "enum";
    case FieldType::EnumOrNumber: return "enum|number";
    case FieldType::NumberOrList: return "number|number[]";
    case FieldType::RandomInput: return "random-input";
    case FieldType::Matrix: return "matrix";
    case FieldType::MatrixMap: return "matrix-map";
    case FieldType::Edits: return "edits";
    case FieldType::EditsMap: return "edits-map";
  }
  return "?";
}

bool sameIgnoringCase(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

// The member names an object at `prefix` ("" is the root) may hold.
std::vector<std::string> childrenOf(const std::string& prefix) {
  std::vector<std::string> names;
  for (const FieldSpec& f : configSchema()) {
    const std::string path = f.path;
    if (!prefix.empty() && path.compare(0, prefix.size() + 1, prefix + ".") != 0) continue;
    const std::string rest = prefix.empty() ? path : path.substr(prefix.size() + 1);
    const std::string child = rest.substr(0, rest.find('.'));
    if (std::find(names.begin(), names.end(), child) == names.end()) names.push_back(child);
  }
  return names;
}

// What parseConfig asks of the table on every call, worked out once from it
// (the table never changes): the objects with their member names, and each
// field's path split at its dots and whether it is optional (writes "null"
// when unset).
struct SchemaShape {
  struct Object {
    std::string path;                // "" (the root), "weights", ...
    std::vector<std::string> names;  // childrenOf(path)
  };
  std::vector<Object> objects;
  std::vector<std::vector<std::string>> pathParts;  // per field: "weights.init" -> {"weights", "init"}
  std::vector<bool> nullable;                       // per field
};

const SchemaShape& schemaShape() {
  static const SchemaShape shape = [] {
    SchemaShape s;
    const AttentionConfig defaults;
    std::vector<std::string> objectPaths = {""};
    for (const FieldSpec& f : configSchema()) {
      s.nullable.push_back(f.write(defaults) == "null");
      std::vector<std::string> parts;
      const std::string path = f.path;
      for (size_t start = 0;;) {
        const size_t dot = path.find('.', start);
        parts.push_back(path.substr(start, dot - start));
        if (dot == std::string::npos) break;
        const std::string object = path.substr(0, dot);
        if (std::find(objectPaths.begin(), objectPaths.end(), object) == objectPaths.end())
          objectPaths.push_back(object);
        start = dot + 1;
      }
      s.pathParts.push_back(std::move(parts));
    }
    for (const std::string& path : objectPaths) {
      const bool isField =
          std::any_of(configSchema().begin(), configSchema().end(), [&](const FieldSpec& f) { return path == f.path; });
      if (!isField || path.empty()) s.objects.push_back({path, childrenOf(path)});
    }
    return s;
  }();
  return shape;
}

// The member names of the object at `prefix`.
const std::vector<std::string>& knownMembers(const std::string& prefix) {
  for (const SchemaShape::Object& object : schemaShape().objects)
    if (object.path == prefix) return object.names;
  static const std::vector<std::string> none;
  return none;
}

bool isObjectPath(const std::string& path) {
  for (const SchemaShape::Object& object : schemaShape().objects)
    if (object.path == path) return true;
  return false;
}

// Unknown members of the object at `prefix`, with a hint for a near miss;
// known objects are checked recursively.
Status checkMembers(const JsonValue& object, const std::string& prefix) {
  const std::vector<std::string>& known = knownMembers(prefix);
  for (const auto& member : object.members()) {
    const std::string path = prefix.empty() ? member.first : prefix + "." + member.first;
    if (std::find(known.begin(), known.end(), member.first) == known.end()) {
      for (const std::string& name : known)
        if (sameIgnoringCase(member.first, name))
          return fieldError(path, "unknown-field-did-you-mean", {{"field", path}, {"suggestion", name}});
      return fieldError(path.empty() ? "config" : path, "unknown-field", {{"field", path}});
    }
    // A known member that is no field is an object of the schema: looked into.
    if (!isObjectPath(path)) continue;
    if (Status s = expectType(member.second, JsonValue::Type::Object, path)) return s;
    if (Status s = checkMembers(member.second, path)) return s;
  }
  return {};
}

// The value at a path (split at its dots), or nullptr.
const JsonValue* lookup(const JsonValue& root, const std::vector<std::string>& parts) {
  const JsonValue* node = &root;
  for (const std::string& part : parts) {
    node = node->isObject() ? node->find(part) : nullptr;
    if (!node) return nullptr;
  }
  return node;
}

}  // namespace

const std::vector<FieldSpec>& configSchema() {
  static const std::vector<FieldSpec> schema = buildSchema();
  return schema;
}

Status parseConfig(const JsonValue& root, const Tensors& tensors, AttentionConfig& config) {
  config = AttentionConfig{};
  if (Status s = expectType(root, JsonValue::Type::Object, "config")) return s;
  if (Status s = checkSurrogates(root)) return s;
  if (Status s = checkMembers(root, "")) return s;
  std::string givenOneOf[2];  // the field given in each exclusive group ("input", "context")
  const SchemaShape& shape = schemaShape();
  const std::vector<FieldSpec>& schema = configSchema();
  for (size_t i = 0; i < schema.size(); ++i) {
    const FieldSpec& f = schema[i];
    const JsonValue* value = lookup(root, shape.pathParts[i]);
    if (!value) continue;
    if (value->isNull() && shape.nullable[i]) continue;  // null: not given
    if (f.oneOf) {
      std::string& first = givenOneOf[std::string(f.oneOf) == "input" ? 0 : 1];
      if (!first.empty()) {
        std::string names;
        for (const FieldSpec& g : configSchema())
          if (g.oneOf && std::string(g.oneOf) == f.oneOf) names += std::string(names.empty() ? "" : ", ") + g.path;
        return fieldError(first, "one-of-only", {{"names", names}});
      }
      first = f.path;
    }
    if (Status s = f.read(f, *value, tensors, config)) return s;
    config.givenFields.push_back(f.path);
  }
  return {};
}

std::vector<std::string> changedFields(const AttentionConfig& config) {
  const AttentionConfig defaults;
  std::vector<std::string> changed;
  for (const FieldSpec& f : configSchema()) {
    if (std::find(config.givenFields.begin(), config.givenFields.end(), f.path) == config.givenFields.end()) continue;
    // A field written as null (a matrix, a list) differs by being given at all.
    const std::string value = f.write(config);
    if (value == "null" || value != f.write(defaults)) changed.push_back(f.path);
  }
  return changed;
}

Status parseConfig(const JsonValue& root, AttentionConfig& config) {
  return parseConfig(root, VectorTypedArrays{}, config);
}

Status parseConfigJson(const std::string& jsonText, JsonValue& json) {
  if (static_cast<int64_t>(jsonText.size()) > kMaxConfigTextBytes)
    return fieldError(
        "config", "config-too-large",
        {{"size", std::to_string(jsonText.size() >> 20)}, {"limit", std::to_string(kMaxConfigTextBytes >> 20)}});
  JsonParseResult parsed = parseJson(jsonText, kMaxJsonValues);
  if (parsed.tooManyValues) return fieldError("config", "too-many-values", {{"limit", std::to_string(kMaxJsonValues)}});
  if (!parsed.ok)
    return fieldError(parsed.duplicateKeyPath.empty() ? "config" : parsed.duplicateKeyPath, parsed.errorCode.c_str(),
                      parsed.errorParams);
  json = std::move(parsed.value);
  return {};
}

Status parseConfigText(const std::string& jsonText, const Tensors& tensors, AttentionConfig& config) {
  JsonValue json = JsonValue::makeNull();
  if (Status s = parseConfigJson(jsonText, json)) return s;
  return parseConfig(json, tensors, config);
}

Status parseConfigText(const std::string& jsonText, AttentionConfig& config) {
  return parseConfigText(jsonText, VectorTypedArrays{}, config);
}

std::string schemaJson() {
  const AttentionConfig defaults;
  std::string out = "{\"version\":1,\"fields\":[";
  bool first = true;
  for (const FieldSpec& f : configSchema()) {
    out += first ? "" : ",";
    first = false;
    out += "{\"path\":" + jsonQuote(f.path) + ",\"name\":" + jsonQuote(f.name) +
           ",\"type\":" + jsonQuote(typeName(f.type)) + ",\"group\":" + jsonQuote(f.group) +
           ",\"default\":" + f.write(defaults);
    if (!f.choices.empty()) {
      out += ",\"choices\":[";
      for (size_t i = 0; i < f.choices.size(); ++i) out += (i ? "," : "") + jsonQuote(f.choices[i]);
      out += "]";
    }
    if (!f.kinds.empty()) {
      // {"none": [], "causal": ["causal"], ..., "causal+padding": ["causal", "padding"]}
      out += ",\"kinds\":{";
      for (size_t i = 0; i < f.choices.size(); ++i) {
        out += (i ? "," : "") + jsonQuote(f.choices[i]) + ":[";
        for (size_t k = 0; k < f.kinds[i].size(); ++k) out += (k ? "," : "") + jsonQuote(f.kinds[i][k]);
        out += "]";
      }
      out += "}";
    }
    if (f.type == FieldType::Integer || f.type == FieldType::Seed || f.type == FieldType::Number ||
        f.type == FieldType::NumberOrList)
      out += ",\"min\":" + formatNumber(f.min) + ",\"max\":" + formatNumber(f.max);
    if (f.oneOf) out += ",\"oneOf\":" + jsonQuote(f.oneOf);
    if (f.usedWhen) {
      // {"path": "mask", "differs": "none"} or {"path": "score", "equals": "additive"}
      const std::string condition = f.usedWhen;
      const size_t at = condition.find('=');
      const bool differs = at > 0 && condition[at - 1] == '!';
      out += ",\"usedWhen\":{\"path\":" + jsonQuote(condition.substr(0, differs ? at - 1 : at)) + "," +
             (differs ? "\"differs\":" : "\"equals\":") + jsonQuote(condition.substr(at + 1)) + "}";
    }
    out += ",\"help\":" + jsonQuote(std::string("field.") + f.path) + "}";
  }
  out += "],\"limits\":{\"tokensPerSequence\":" + std::to_string(kMaxTokensPerSequence) +
         ",\"batch\":" + std::to_string(kMaxBatch) + ",\"dModel\":" + std::to_string(kMaxDModel) +
         ",\"heads\":" + std::to_string(kMaxHeads) + ",\"vocab\":" + std::to_string(kMaxVocab) +
         ",\"intermediateBytes\":" + std::to_string(kMaxIntermediateBytes) +
         ",\"givenBytes\":" + std::to_string(kMaxGivenBytes) +
         ",\"additiveTerms\":" + std::to_string(kMaxAdditiveTerms) +
         ",\"configTextBytes\":" + std::to_string(kMaxConfigTextBytes) +
         ",\"jsonValues\":" + std::to_string(kMaxJsonValues) + "}";
  out += ",\"tinyModel\":{\"checkpoints\":[";
  for (size_t i = 0; i < kTinyCheckpoints.size(); ++i) out += (i ? "," : "") + std::to_string(kTinyCheckpoints[i]);
  out += "],\"context\":" + std::to_string(kTinyContext) + ",\"layers\":" + std::to_string(kTinyLayers) +
         ",\"heads\":" + std::to_string(kTinyHeads) + ",\"dModel\":" + std::to_string(kTinyDModel) +
         ",\"headDim\":" + std::to_string(kTinyHeadDim) + ",\"vocab\":" + std::to_string(kTinyVocab) +
         ",\"minRepeat\":" + std::to_string(kTinyMinRepeat) + "}";
  out += ",\"tensors\":[";
  for (size_t i = 0; i < kTensorNames.size(); ++i) out += (i ? "," : "") + jsonQuote(kTensorNames[i]);
  // The weights given as a vector ([[column, value]] edits, one row): config.h's isVectorWeight.
  out += "],\"vectorWeights\":[";
  bool firstVector = true;
  for (const char* name : kWeightNames)
    if (isVectorWeight(name)) {
      out += (firstVector ? "" : ",") + jsonQuote(name);
      firstVector = false;
    }
  out += "],\"errors\":[";
  for (size_t i = 0; i < errorCatalog().size(); ++i) {
    const ErrorKind& kind = errorCatalog()[i];
    std::string params;
    for (const std::string& name : templateParams(kind.english))
      params += (params.empty() ? "" : ",") + jsonQuote(name);
    out += (i ? "," : "") + std::string("{\"code\":") + jsonQuote(kind.code) + ",\"params\":[" + params +
           "],\"message\":" + jsonQuote(kind.english) + "}";
  }
  return out + "]}";
}

std::string settingsJson(const AttentionConfig& config) {
  // Each field's "path": as JSON, quoted once.
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> quoted;
    for (const FieldSpec& f : configSchema()) quoted.push_back(jsonQuote(f.path) + ":");
    return quoted;
  }();
  const std::vector<FieldSpec>& schema = configSchema();
  std::string out;
  out.reserve(512);
  out += '{';
  for (size_t i = 0; i < keys.size(); ++i) {
    const std::string value = schema[i].write(config);
    if (value == "null") continue;
    if (out.size() > 1) out += ',';
    out += keys[i];
    out += value;
  }
  out += '}';
  return out;
}

}  // namespace attention_lab
