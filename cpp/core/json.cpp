#include "json.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <unordered_set>

#include "errors.h"

namespace attention_lab {

const std::vector<JsonErrorKind>& jsonErrorKinds() {
  static const std::vector<JsonErrorKind> kinds = {
      {"json-empty", "the input is empty: expected a JSON value"},
      {"json-trailing-text", "unexpected text after the JSON value"},
      {"json-unexpected-end", "unexpected end of input: expected a value"},
      {"json-too-many-values", "more than {limit} values"},
      {"json-too-deep", "nested deeper than {limit} levels"},
      {"json-non-finite", "NaN and Infinity are not JSON numbers"},
      {"json-unexpected-char", "unexpected character {char}"},
      {"json-unexpected-byte", "unexpected byte {byte} (not UTF-8)"},
      {"json-invalid-literal", "invalid literal: expected {literal}"},
      {"json-number-plus", "invalid number {number}: a JSON number has no leading '+'"},
      {"json-number-digit", "invalid number {number}: expected a digit"},
      {"json-number-leading-zero", "invalid number {number}: leading zeros are not allowed"},
      {"json-number-fraction", "invalid number {number}: expected a digit after '.'"},
      {"json-number-exponent", "invalid number {number}: expected a digit in the exponent"},
      {"json-number-invalid", "invalid number {number}: not a JSON number"},
      {"json-escape-truncated", "truncated \\u escape: expected 4 hex digits"},
      {"json-escape-hex", "invalid \\u escape: expected 4 hex digits"},
      {"json-unterminated-string", "unterminated string: no closing '\"'"},
      {"json-control-char", "control character {char} in a string: write it as an escape (\\n, \\t, \\u00XX)"},
      {"json-invalid-escape", "invalid escape {escape} in a string"},
      {"json-invalid-escape-char", "invalid escape in a string: \\ followed by character {char}"},
      {"json-invalid-escape-byte", "invalid escape in a string: \\ followed by byte {byte} (not UTF-8)"},
      {"json-trailing-comma", "expected a value after ',' (JSON allows no trailing comma)"},
      {"json-expected-comma-bracket", "expected ',' or ']'"},
      {"json-trailing-comma-key", "expected a quoted key (JSON allows no trailing comma)"},
      {"json-expected-key", "expected a quoted key"},
      {"json-duplicate-key", "duplicate key \"{key}\""},
      {"json-expected-colon", "expected ':'"},
      {"json-expected-comma-brace", "expected ',' or '}'"},
  };
  return kinds;
}

const JsonValue* JsonValue::find(std::string_view key) const {
  for (const auto& member : members_)
    if (member.first == key) return &member.second;
  return nullptr;
}

const char* JsonValue::typeName(Type type) {
  switch (type) {
    case Type::Null: return "null";
    case Type::Bool: return "a boolean";
    case Type::Number: return "a number";
    case Type::String: return "a string";
    case Type::Array: return "an array";
    case Type::Object: return "an object";
  }
  return "?";
}

JsonValue JsonValue::makeBool(bool value) {
  JsonValue v(Type::Bool);
  v.bool_ = value;
  return v;
}
JsonValue JsonValue::makeNumber(double value) {
  JsonValue v(Type::Number);
  v.number_ = value;
  return v;
}
bool JsonValue::isBeyondDouble() const { return type_ == Type::Number && std::isinf(number_); }

JsonValue JsonValue::makeNumberBeyondDouble(std::string text) {
  JsonValue v(Type::Number);
  v.number_ = text[0] == '-' ? -HUGE_VAL : HUGE_VAL;
  v.numberText_ = std::move(text);
  return v;
}
JsonValue JsonValue::makeString(std::string value) {
  JsonValue v(Type::String);
  v.string_ = std::move(value);
  return v;
}
JsonValue JsonValue::makeArray(std::vector<JsonValue> items) {
  JsonValue v(Type::Array);
  v.array_ = std::move(items);
  return v;
}
JsonValue JsonValue::makeObject(std::vector<std::pair<std::string, JsonValue>> members) {
  JsonValue v(Type::Object);
  v.members_ = std::move(members);
  return v;
}

namespace {

constexpr int kMaxDepth = 64;

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// The characters a number-like run of text is made of, for error messages.
bool isNumberChar(char c) {
  return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '+' || c == '-';
}

bool isContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Upper-case hex, at least `digits` digits: hex(0x41, 4) = "0041".
std::string hex(uint32_t value, size_t digits) {
  static const char* const kDigits = "0123456789ABCDEF";
  std::string s;
  for (; value > 0 || s.size() < digits; value >>= 4) s.insert(s.begin(), kDigits[value & 0xF]);
  return s;
}

class Parser {
 public:
  Parser(const std::string& text, size_t maxValues) : text_(text), maxValues_(maxValues) {}

  JsonParseResult parseDocument() {
    JsonParseResult result;
    skipSpace();
    if (pos_ == text_.size()) return fail("json-empty");
    JsonValue value = JsonValue::makeNull();
    if (!parseValue(value, 0)) return fail();
    skipSpace();
    if (pos_ != text_.size()) return fail("json-trailing-text");
    result.ok = true;
    result.value = std::move(value);
    return result;
  }

 private:
  // The error at pos_, as "line L, column C: message". Columns count
  // characters (code points), not bytes.
  JsonParseResult fail(const char* code, ErrorParams params = {}) {
    error(code, std::move(params), pos_);
    return fail();
  }
  JsonParseResult fail() {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < pos_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else if (!isContinuationByte(text_[i])) {
        ++column;
      }
    }
    JsonParseResult result;
    result.errorCode = errorCode_;
    result.errorParams = {{"line", std::to_string(line)}, {"column", std::to_string(column)}};
    result.errorParams.insert(result.errorParams.end(), errorParams_.begin(), errorParams_.end());
    const char* english = "";
    for (const JsonErrorKind& kind : jsonErrorKinds())
      if (errorCode_ == kind.code) english = kind.english;
    result.error = "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " +
                   fillTemplate(english, errorParams_);
    result.tooManyValues = tooManyValues_;
    result.duplicateKeyPath = duplicatePath_;
    return result;
  }

  // Records the error `code` (of jsonErrorKinds) at `at` (the start of what is wrong); always false.
  bool error(const char* code, ErrorParams params, size_t at) {
    errorCode_ = code;
    errorParams_ = std::move(params);
    pos_ = at;
    return false;
  }

  // The character at text_[at] for a message: {"char", "'x'"}, or
  // {"char", "U+XXXX"} for a control or non-ASCII character (a whole UTF-8
  // sequence), or {"byte", "0xXX"} for a byte that is not UTF-8.
  std::pair<std::string, std::string> describeChar(size_t at) const {
    const unsigned char lead = static_cast<unsigned char>(text_[at]);
    if (lead >= 0x20 && lead < 0x7F) return {"char", std::string("'") + static_cast<char>(lead) + "'"};
    const size_t length = lead < 0x80           ? 1
                          : (lead >> 5) == 0x6  ? 2
                          : (lead >> 4) == 0xE  ? 3
                          : (lead >> 3) == 0x1E ? 4
                                                : 0;
    const std::pair<std::string, std::string> notUtf8 = {"byte", "0x" + hex(lead, 2)};
    if (length == 0 || at + length > text_.size()) return notUtf8;
    uint32_t cp = length == 1 ? lead : lead & (0x7F >> length);
    for (size_t i = 1; i < length; ++i) {
      if (!isContinuationByte(text_[at + i])) return notUtf8;
      cp = (cp << 6) | (static_cast<unsigned char>(text_[at + i]) & 0x3F);
    }
    return {"char", "U+" + hex(cp, 4)};
  }

  bool startsWith(const char* literal) const { return text_.compare(pos_, std::strlen(literal), literal) == 0; }

  void skipSpace() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  bool expectLiteral(const char* literal) {
    if (!startsWith(literal)) return error("json-invalid-literal", {{"literal", literal}}, pos_);
    pos_ += std::strlen(literal);
    return true;
  }

  // `depth`: how many arrays and objects enclose this value.
  bool parseValue(JsonValue& out, int depth) {
    if (pos_ >= text_.size()) return error("json-unexpected-end", {}, pos_);
    // Each value costs a JsonValue: the count bounds the tree's memory before it is built.
    if (++values_ > maxValues_) {
      tooManyValues_ = true;
      return error("json-too-many-values", {{"limit", std::to_string(maxValues_)}}, pos_);
    }
    const char c = text_[pos_];
    if (c == '{' || c == '[') {
      if (depth + 1 > kMaxDepth) return error("json-too-deep", {{"limit", std::to_string(kMaxDepth)}}, pos_);
      return c == '{' ? parseObject(out, depth + 1) : parseArray(out, depth + 1);
    }
    if (c == '"') {
      std::string s;
      if (!parseString(s)) return false;
      out = JsonValue::makeString(std::move(s));
      return true;
    }
    if (c == 't') {
      if (!expectLiteral("true")) return false;
      out = JsonValue::makeBool(true);
      return true;
    }
    if (c == 'f') {
      if (!expectLiteral("false")) return false;
      out = JsonValue::makeBool(false);
      return true;
    }
    if (c == 'n') {
      if (!expectLiteral("null")) return false;
      out = JsonValue::makeNull();
      return true;
    }
    if (startsWith("NaN") || startsWith("Infinity") || startsWith("-Infinity"))
      return error("json-non-finite", {}, pos_);
    if (c == '-' || c == '+' || c == '.' || isDigit(c)) return parseNumber(out);
    const auto what = describeChar(pos_);
    return error(what.first == "char" ? "json-unexpected-char" : "json-unexpected-byte", {what}, pos_);
  }

  // number = [-] (0 | [1-9][0-9]*) [. [0-9]+] [(e|E) [+|-] [0-9]+]. One
  // beyond the range of a double keeps its text (makeNumberBeyondDouble).
  bool parseNumber(JsonValue& out) {
    const size_t start = pos_;
    auto invalid = [&](const char* code) {
      size_t end = start;
      while (end < text_.size() && isNumberChar(text_[end])) ++end;
      return error(code, {{"number", text_.substr(start, end - start)}}, start);
    };
    auto digits = [&]() {
      const size_t before = pos_;
      while (pos_ < text_.size() && isDigit(text_[pos_])) ++pos_;
      return pos_ > before;
    };
    if (text_[pos_] == '+') return invalid("json-number-plus");
    if (text_[pos_] == '-') ++pos_;
    if (pos_ >= text_.size() || !isDigit(text_[pos_])) return invalid("json-number-digit");
    if (text_[pos_] == '0') {
      ++pos_;
      if (pos_ < text_.size() && isDigit(text_[pos_])) return invalid("json-number-leading-zero");
    } else {
      digits();
    }
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      if (!digits()) return invalid("json-number-fraction");
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (!digits()) return invalid("json-number-exponent");
    }
    if (pos_ < text_.size() && isNumberChar(text_[pos_]) && text_[pos_] != '-' && text_[pos_] != '+')
      return invalid("json-number-invalid");
    const std::string token = text_.substr(start, pos_ - start);
    const double value = std::strtod(token.c_str(), nullptr);
    out = std::isinf(value) ? JsonValue::makeNumberBeyondDouble(token) : JsonValue::makeNumber(value);
    return true;
  }

  static void appendUtf8(std::string& s, uint32_t cp) {
    if (cp < 0x80) {
      s += static_cast<char>(cp);
    } else if (cp < 0x800) {
      s += static_cast<char>(0xC0 | (cp >> 6));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      s += static_cast<char>(0xE0 | (cp >> 12));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      s += static_cast<char>(0xF0 | (cp >> 18));
      s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  // How many hex digits (at most 4) stand at text_[at...]; `value` gets them.
  int hexDigitsAt(size_t at, uint32_t& value) const {
    value = 0;
    int count = 0;
    for (; count < 4 && at + count < text_.size(); ++count) {
      const char h = text_[at + count];
      const int digit = h >= '0' && h <= '9'   ? h - '0'
                        : h >= 'a' && h <= 'f' ? h - 'a' + 10
                        : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                               : -1;
      if (digit < 0) break;
      value = value << 4 | static_cast<uint32_t>(digit);
    }
    return count;
  }

  // The 4 hex digits of the \u escape that starts at `escape` (its backslash).
  bool parseHex4(size_t escape, uint32_t& cp) {
    const int count = hexDigitsAt(escape + 2, cp);
    if (count < 4)
      return error(escape + 2 + count >= text_.size() ? "json-escape-truncated" : "json-escape-hex", {}, escape);
    pos_ = escape + 6;
    return true;
  }

  // \uXXXX, or a surrogate pair \uD83D\uDE00 as one code point. A lone
  // surrogate (half of a pair: no character, and no UTF-8 form) is kept in the
  // 3 bytes its code point would take (ED A0 80 for \uD800), the form the JS
  // API sends a raw one in, so that the config's reader names the field that
  // holds it; what follows it is read on its own.
  bool parseUnicodeEscape(std::string& out) {
    const size_t escape = pos_ - 2;
    uint32_t cp, low;
    if (!parseHex4(escape, cp)) return false;
    if (cp >= 0xD800 && cp <= 0xDBFF && text_.compare(pos_, 2, "\\u") == 0 && hexDigitsAt(pos_ + 2, low) == 4 &&
        low >= 0xDC00 && low <= 0xDFFF) {
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      pos_ += 6;
    }
    appendUtf8(out, cp);
    return true;
  }

  // A string; raw UTF-8 is copied unchanged.
  bool parseString(std::string& out) {
    const size_t open = pos_++;
    while (true) {
      // A run of plain characters is appended at once.
      const size_t run = pos_;
      while (pos_ < text_.size() && text_[pos_] != '"' && text_[pos_] != '\\' &&
             static_cast<unsigned char>(text_[pos_]) >= 0x20)
        ++pos_;
      out.append(text_, run, pos_ - run);
      if (pos_ >= text_.size()) return error("json-unterminated-string", {}, open);
      const char c = text_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20)
        return error("json-control-char", {{"char", "U+" + hex(static_cast<unsigned char>(c), 4)}}, pos_ - 1);
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) return error("json-unterminated-string", {}, open);
      const char e = text_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u':
          if (!parseUnicodeEscape(out)) return false;
          break;
        default:
          if (e > 0x20 && e < 0x7F)
            return error("json-invalid-escape", {{"escape", "\\" + std::string(1, e)}}, pos_ - 2);
          const auto what = describeChar(pos_ - 1);
          return error(what.first == "char" ? "json-invalid-escape-char" : "json-invalid-escape-byte", {what},
                       pos_ - 2);
      }
    }
  }

  // After a ',': the closing bracket here would be a trailing comma.
  bool trailingComma(char close) const { return pos_ < text_.size() && text_[pos_] == close; }

  bool parseArray(JsonValue& out, int depth) {
    ++pos_;
    std::vector<JsonValue> items;
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      out = JsonValue::makeArray(std::move(items));
      return true;
    }
    while (true) {
      skipSpace();
      if (!items.empty() && trailingComma(']')) return error("json-trailing-comma", {}, pos_);
      JsonValue item = JsonValue::makeNull();
      if (!parseValue(item, depth)) return false;
      items.push_back(std::move(item));
      skipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == ']') {
        ++pos_;
        out = JsonValue::makeArray(std::move(items));
        return true;
      }
      return error("json-expected-comma-bracket", {}, pos_);
    }
  }

  // Whether `key` is already a member: a scan while the object is small, a
  // hash set of its keys once it is large (filled then), so a hostile object
  // with many keys stays linear.
  static bool repeatedKey(const std::vector<std::pair<std::string, JsonValue>>& members,
                          std::unordered_set<std::string>& keys, const std::string& key) {
    constexpr size_t kScanned = 16;
    if (members.size() < kScanned) {
      for (const auto& member : members)
        if (member.first == key) return true;
      return false;
    }
    if (keys.empty())
      for (const auto& member : members) keys.insert(member.first);
    return !keys.insert(key).second;
  }

  bool parseObject(JsonValue& out, int depth) {
    ++pos_;
    std::vector<std::pair<std::string, JsonValue>> members;
    std::unordered_set<std::string> keys;
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      out = JsonValue::makeObject(std::move(members));
      return true;
    }
    while (true) {
      skipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"')
        return error(!members.empty() && trailingComma('}') ? "json-trailing-comma-key" : "json-expected-key", {},
                     pos_);
      const size_t keyStart = pos_;
      std::string key;
      if (!parseString(key)) return false;
      if (repeatedKey(members, keys, key)) {
        for (std::string_view k : keyPath_) (duplicatePath_ += k) += ".";
        duplicatePath_ += key;
        return error("json-duplicate-key", {{"key", key}}, keyStart);
      }
      skipSpace();
      if (pos_ >= text_.size() || text_[pos_] != ':') return error("json-expected-colon", {}, pos_);
      ++pos_;
      skipSpace();
      JsonValue value = JsonValue::makeNull();
      keyPath_.push_back(key);
      if (!parseValue(value, depth)) return false;
      keyPath_.pop_back();
      members.emplace_back(std::move(key), std::move(value));
      skipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == '}') {
        ++pos_;
        out = JsonValue::makeObject(std::move(members));
        return true;
      }
      return error("json-expected-comma-brace", {}, pos_);
    }
  }

  const std::string& text_;
  size_t pos_ = 0;
  const size_t maxValues_;
  size_t values_ = 0;
  bool tooManyValues_ = false;
  std::vector<std::string_view> keyPath_;  // the keys of the objects being parsed, outermost first
  std::string duplicatePath_;
  const char* errorCode_ = "";
  ErrorParams errorParams_;
};

}  // namespace

JsonParseResult parseJson(const std::string& text, size_t maxValues) { return Parser(text, maxValues).parseDocument(); }

}  // namespace attention_lab
