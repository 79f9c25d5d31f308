#include "config_json.h"

#include <cctype>
#include <cmath>
#include <initializer_list>

#include "size_limits.h"

namespace attention_lab {
namespace {

// Reads one JSON object's fields, remembering the dotted path for errors.
// The first error wins; later reads become no-ops.
class Reader {
 public:
  explicit Reader(ConfigError& error) : error_(error) {}

  bool failed() const { return !error_.field.empty(); }

  bool fail(const std::string& field, const std::string& message) {
    if (!failed()) error_ = {field, message};
    return false;
  }

  // Every member must be one of `known`; suggests a near miss.
  bool onlyKnownFields(const JsonValue& object, const std::string& prefix,
                       std::initializer_list<const char*> known) {
    for (const auto& member : object.members()) {
      bool found = false;
      for (const char* name : known) found = found || member.first == name;
      if (found) continue;
      std::string hint;
      for (const char* name : known)
        if (sameIgnoringCase(member.first, name)) hint = std::string(" (did you mean \"") + name + "\"?)";
      const std::string field = prefix.empty() ? member.first : prefix + "." + member.first;
      return fail(field, "unknown field \"" + field + "\"" + hint);
    }
    return true;
  }

  bool requireType(const JsonValue& value, JsonValue::Type type, const std::string& field) {
    if (value.type() == type) return true;
    return fail(field, field + " must be " + JsonValue::typeName(type) + ", got " + describe(value));
  }

  // A finite number. The JS API sends NaN and ±Infinity as the strings "NaN",
  // "Infinity" and "-Infinity" so that they can be named here.
  bool finiteNumber(const JsonValue& value, const std::string& field, double& out) {
    if (value.isNumber() && std::isfinite(value.number())) {
      out = value.number();
      return true;
    }
    return fail(field, field + " must be a finite number, got " + describe(value));
  }

  bool integer(const JsonValue& value, const std::string& field, int64_t& out, double min, double max) {
    double x;
    if (!finiteNumber(value, field, x)) return false;
    if (x != std::floor(x)) return fail(field, field + " must be a whole number, got " + describe(value));
    if (x < min || x > max)
      return fail(field, field + " (" + formatNumber(x) + ") must be between " + formatNumber(min) + " and " +
                             formatNumber(max));
    out = static_cast<int64_t>(x);
    return true;
  }

  bool seed(const JsonValue& value, const std::string& field, uint64_t& out) {
    int64_t s;
    // 2^53: every larger integer is already rounded by JSON/JS numbers.
    if (!integer(value, field, s, 0, 9007199254740992.0)) return false;
    out = static_cast<uint64_t>(s);
    return true;
  }

  bool string(const JsonValue& value, const std::string& field, std::string& out) {
    if (!requireType(value, JsonValue::Type::String, field)) return false;
    out = value.string();
    return true;
  }

  bool boolean(const JsonValue& value, const std::string& field, bool& out) {
    if (!requireType(value, JsonValue::Type::Bool, field)) return false;
    out = value.boolean();
    return true;
  }

  bool stringList(const JsonValue& value, const std::string& field, std::vector<std::string>& out) {
    if (!requireType(value, JsonValue::Type::Array, field)) return false;
    out.clear();
    for (size_t i = 0; i < value.array().size(); ++i) {
      std::string s;
      if (!string(value.array()[i], field + "[" + std::to_string(i) + "]", s)) return false;
      out.push_back(std::move(s));
    }
    return true;
  }

  // One of `choices`; the error lists them.
  bool choice(const JsonValue& value, const std::string& field, std::initializer_list<const char*> choices,
              int& out) {
    if (value.isString()) {
      int index = 0;
      for (const char* c : choices) {
        if (value.string() == c) {
          out = index;
          return true;
        }
        ++index;
      }
    }
    std::string list;
    for (const char* c : choices) list += std::string(list.empty() ? "" : ", ") + "\"" + c + "\"";
    return fail(field, field + " must be one of " + list + ", got " + describe(value));
  }

  // number[] or number[][] -> GivenValues; rows must have equal lengths.
  // null (an entry or a whole row) keeps the drawn value there.
  bool matrix(const JsonValue& value, const std::string& field, GivenValues& out) {
    if (!requireType(value, JsonValue::Type::Array, field)) return false;
    const auto& rows = value.array();
    out = GivenValues{};
    size_t firstRow = 0;
    while (firstRow < rows.size() && rows[firstRow].isNull()) ++firstRow;
    if (firstRow < rows.size() && rows[firstRow].isArray()) {
      const size_t cols = rows[firstRow].array().size();
      out.shape = {static_cast<int64_t>(rows.size()), static_cast<int64_t>(cols)};
      out.data.reserve(rows.size() * cols);
      for (size_t r = 0; r < rows.size(); ++r) {
        const std::string rowField = field + "[" + std::to_string(r) + "]";
        if (rows[r].isNull()) {
          out.data.resize(out.data.size() + cols, 0.0f);
          out.given.resize(out.data.size(), false);
          continue;
        }
        if (!requireType(rows[r], JsonValue::Type::Array, rowField)) return false;
        if (rows[r].array().size() != cols)
          return fail(rowField, rowField + " has " + std::to_string(rows[r].array().size()) + " numbers, but row " +
                                    std::to_string(firstRow) + " has " + std::to_string(cols));
        if (!appendNumbers(rows[r], rowField, out)) return false;
      }
      return true;
    }
    out.shape = {static_cast<int64_t>(rows.size())};
    return appendNumbers(value, field, out);
  }

  static std::string describe(const JsonValue& value) {
    switch (value.type()) {
      case JsonValue::Type::Number: return formatNumber(value.number());
      case JsonValue::Type::String: {
        std::string s = value.string();
        if (s.size() > 40) s = s.substr(0, 40) + "...";
        return "\"" + s + "\"";
      }
      default: return JsonValue::typeName(value.type());
    }
  }

  static std::string formatNumber(double x) {
    if (x == std::floor(x) && std::fabs(x) < 1e15) return std::to_string(static_cast<long long>(x));
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", x);
    return buffer;
  }

 private:
  bool appendNumbers(const JsonValue& row, const std::string& field, GivenValues& out) {
    for (size_t c = 0; c < row.array().size(); ++c) {
      const bool given = !row.array()[c].isNull();
      double x = 0;
      if (given && !finiteNumber(row.array()[c], field + "[" + std::to_string(c) + "]", x)) return false;
      out.data.push_back(static_cast<float>(x));
      out.given.push_back(given);
    }
    return true;
  }

  static bool sameIgnoringCase(const std::string& a, const std::string& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
        return false;
    return true;
  }

  ConfigError& error_;
};

// text / texts / input (or contextText / contextTexts / contextInput).
bool readSequence(Reader& reader, const JsonValue& root, const char* textKey, const char* textsKey,
                  const char* inputKey, SequenceSource& out) {
  const JsonValue* text = root.find(textKey);
  const JsonValue* texts = root.find(textsKey);
  const JsonValue* input = root.find(inputKey);
  const int given = (text != nullptr) + (texts != nullptr) + (input != nullptr);
  if (given > 1)
    return reader.fail(textKey, std::string("give only one of ") + textKey + ", " + textsKey + " and " + inputKey);
  if (text) {
    std::string s;
    if (!reader.string(*text, textKey, s)) return false;
    out.texts = {s};
  } else if (texts) {
    if (!reader.stringList(*texts, textsKey, out.texts)) return false;
    if (out.texts.empty()) return reader.fail(textsKey, std::string(textsKey) + " is empty: give at least one sentence");
  } else if (input) {
    const std::string field = inputKey;
    if (!reader.requireType(*input, JsonValue::Type::Object, field)) return false;
    if (!reader.onlyKnownFields(*input, field, {"randn"})) return false;
    const JsonValue* randn = input->find("randn");
    if (!randn) return reader.fail(field + ".randn", field + ".randn is required: [B, S, dModel]");
    if (!reader.requireType(*randn, JsonValue::Type::Array, field + ".randn")) return false;
    if (randn->array().size() != 3)
      return reader.fail(field + ".randn", field + ".randn must be [B, S, dModel], 3 numbers");
    std::array<int64_t, 3> shape{};
    for (size_t i = 0; i < 3; ++i)
      if (!reader.integer(randn->array()[i], field + ".randn[" + std::to_string(i) + "]", shape[i], 1, 1e9))
        return false;
    out.randn = shape;
  }
  return true;
}

bool readEmbedding(Reader& reader, const JsonValue& value, AttentionConfig& config) {
  if (!reader.requireType(value, JsonValue::Type::Object, "embedding")) return false;
  if (!reader.onlyKnownFields(value, "embedding", {"values", "positional"})) return false;
  if (const JsonValue* values = value.find("values")) {
    GivenValues table;
    if (!reader.matrix(*values, "embedding.values", table)) return false;
    if (table.shape.size() != 2)
      return reader.fail("embedding.values", "embedding.values must be a matrix [len(vocab), dModel]");
    config.embeddingValues = std::move(table);
  }
  if (const JsonValue* positional = value.find("positional")) {
    int choice;
    if (!reader.choice(*positional, "embedding.positional", {"none", "sinusoidal"}, choice)) return false;
    config.positional = static_cast<Positional>(choice);
  }
  return true;
}

bool readWeights(Reader& reader, const JsonValue& value, AttentionConfig& config) {
  if (!reader.requireType(value, JsonValue::Type::Object, "weights")) return false;
  if (!reader.onlyKnownFields(value, "weights", {"init", "layout", "qkvBias", "outProj", "seed", "values"}))
    return false;
  int choice;
  if (const JsonValue* v = value.find("init")) {
    if (!reader.choice(*v, "weights.init", {"torch-linear", "torch-rand", "torch-mha", "identity"}, choice))
      return false;
    config.init = static_cast<WeightInit>(choice);
  }
  if (const JsonValue* v = value.find("layout")) {
    if (!reader.choice(*v, "weights.layout", {"fused", "per-head"}, choice)) return false;
    config.layout = static_cast<ProjectionLayout>(choice);
  }
  if (const JsonValue* v = value.find("qkvBias")) {
    bool b;
    if (!reader.boolean(*v, "weights.qkvBias", b)) return false;
    config.qkvBias = b;
  }
  if (const JsonValue* v = value.find("outProj"))
    if (!reader.boolean(*v, "weights.outProj", config.outProj)) return false;
  if (const JsonValue* v = value.find("seed")) {
    uint64_t s;
    if (!reader.seed(*v, "weights.seed", s)) return false;
    config.weightsSeed = s;
  }
  if (const JsonValue* values = value.find("values")) {
    if (!reader.requireType(*values, JsonValue::Type::Object, "weights.values")) return false;
    if (!reader.onlyKnownFields(*values, "weights.values",
                                {"W_Q", "W_K", "W_V", "W_O", "b_Q", "b_K", "b_V", "b_O"}))
      return false;
    for (const auto& member : values->members()) {
      GivenValues t;
      if (!reader.matrix(member.second, "weights.values." + member.first, t)) return false;
      config.weightValues[member.first] = std::move(t);
    }
  }
  return true;
}

bool readScale(Reader& reader, const JsonValue& value, AttentionConfig& config) {
  if (value.isNumber()) {
    if (!reader.finiteNumber(value, "scale", config.customScale)) return false;
    config.scale = ScaleMode::Custom;
    return true;
  }
  if (value.isString() && (value.string() == "NaN" || value.string() == "Infinity" || value.string() == "-Infinity"))
    return reader.fail("scale", "scale must be a finite number, got " + value.string());
  int choice;
  if (!reader.choice(value, "scale", {"head-dim", "d-model", "none"}, choice)) {
    return false;
  }
  config.scale = static_cast<ScaleMode>(choice);
  return true;
}

bool readMask(Reader& reader, const JsonValue& root, AttentionConfig& config) {
  if (const JsonValue* v = root.find("mask")) {
    int choice;
    if (!reader.choice(*v, "mask", {"none", "causal", "padding", "causal+padding"}, choice)) return false;
    config.causalMask = choice == 1 || choice == 3;
    config.paddingMask = choice == 2 || choice == 3;
  }
  if (const JsonValue* v = root.find("maskFill")) {
    if (v->isString() && (v->string() == "-inf" || v->string() == "-Infinity")) {
      config.maskFill = -std::numeric_limits<float>::infinity();
    } else if (v->isNumber()) {
      double fill;
      if (!reader.finiteNumber(*v, "maskFill", fill)) return false;
      config.maskFill = static_cast<float>(fill);
      if (!std::isfinite(config.maskFill))
        return reader.fail("maskFill", "maskFill (" + Reader::formatNumber(fill) + ") does not fit in float32");
    } else {
      return reader.fail("maskFill", "maskFill must be \"-inf\" or a finite number, got " + Reader::describe(*v));
    }
  }
  return true;
}

bool readDropout(Reader& reader, const JsonValue& value, AttentionConfig& config) {
  if (!reader.requireType(value, JsonValue::Type::Object, "dropout")) return false;
  if (!reader.onlyKnownFields(value, "dropout", {"p", "seed"})) return false;
  if (const JsonValue* p = value.find("p")) {
    if (!reader.finiteNumber(*p, "dropout.p", config.dropoutP)) return false;
    if (config.dropoutP < 0 || config.dropoutP > 1)
      return reader.fail("dropout.p", "dropout.p (" + Reader::formatNumber(config.dropoutP) +
                                          ") must be between 0 and 1");
  }
  if (const JsonValue* s = value.find("seed")) {
    uint64_t seed;
    if (!reader.seed(*s, "dropout.seed", seed)) return false;
    config.dropoutSeed = seed;
  }
  return true;
}

}  // namespace

ConfigParseResult parseConfig(const JsonValue& root) {
  ConfigParseResult result;
  Reader reader(result.error);
  AttentionConfig& config = result.config;
  if (!reader.requireType(root, JsonValue::Type::Object, "config")) return result;
  if (!reader.onlyKnownFields(root, "",
                              {"text", "texts", "input", "contextText", "contextTexts", "contextInput", "vocab",
                               "maxLen", "dModel", "numHeads", "seed", "embedding", "weights", "scale", "mask",
                               "maskFill", "dropout"}))
    return result;

  if (!readSequence(reader, root, "text", "texts", "input", config.input)) return result;
  if (!config.input.present()) {
    reader.fail("text", "text is required: type a sentence (or give texts or input)");
    return result;
  }
  if (!readSequence(reader, root, "contextText", "contextTexts", "contextInput", config.context)) return result;

  if (const JsonValue* v = root.find("vocab")) {
    std::vector<std::string> vocab;
    if (!reader.stringList(*v, "vocab", vocab)) return result;
    config.vocab = std::move(vocab);
  }
  if (const JsonValue* v = root.find("maxLen"); v && !v->isNull()) {
    int64_t maxLen;
    if (!reader.integer(*v, "maxLen", maxLen, 1, kMaxTokensPerSequence)) return result;
    config.maxLen = maxLen;
  }
  if (const JsonValue* v = root.find("dModel"))
    if (!reader.integer(*v, "dModel", config.dModel, 1, kMaxDModel)) return result;
  if (const JsonValue* v = root.find("numHeads"))
    if (!reader.integer(*v, "numHeads", config.numHeads, 1, kMaxHeads)) return result;
  if (const JsonValue* v = root.find("seed"))
    if (!reader.seed(*v, "seed", config.seed)) return result;
  if (const JsonValue* v = root.find("embedding"))
    if (!readEmbedding(reader, *v, config)) return result;
  if (const JsonValue* v = root.find("weights"))
    if (!readWeights(reader, *v, config)) return result;
  if (const JsonValue* v = root.find("scale"))
    if (!readScale(reader, *v, config)) return result;
  if (!readMask(reader, root, config)) return result;
  if (const JsonValue* v = root.find("dropout"))
    if (!readDropout(reader, *v, config)) return result;

  result.ok = !reader.failed();
  return result;
}

ConfigParseResult parseConfigText(const std::string& jsonText) {
  const JsonParseResult parsed = parseJson(jsonText);
  if (!parsed.ok) {
    ConfigParseResult result;
    result.error = {"config", "config is not valid JSON: " + parsed.error};
    return result;
  }
  return parseConfig(parsed.value);
}

}  // namespace attention_lab
