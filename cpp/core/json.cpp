#include "json.h"

#include <cstdlib>

namespace attention_lab {

const JsonValue* JsonValue::find(const std::string& key) const {
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

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  JsonParseResult parseDocument() {
    JsonParseResult result;
    skipSpace();
    JsonValue value = JsonValue::makeNull();
    if (!parseValue(value, 0)) return fail();
    skipSpace();
    if (pos_ != text_.size()) {
      error_ = "unexpected text after the JSON value";
      return fail();
    }
    result.ok = true;
    result.value = std::move(value);
    return result;
  }

 private:
  JsonParseResult fail() {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < pos_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    JsonParseResult result;
    result.error = "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + error_;
    return result;
  }

  void skipSpace() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  bool expectLiteral(const char* literal) {
    size_t i = 0;
    for (; literal[i]; ++i)
      if (pos_ + i >= text_.size() || text_[pos_ + i] != literal[i]) {
        error_ = "invalid literal";
        return false;
      }
    pos_ += i;
    return true;
  }

  bool parseValue(JsonValue& out, int depth) {
    if (depth > kMaxDepth) {
      error_ = "nested deeper than 64 levels";
      return false;
    }
    if (pos_ >= text_.size()) {
      error_ = "unexpected end of input";
      return false;
    }
    const char c = text_[pos_];
    if (c == '{') return parseObject(out, depth);
    if (c == '[') return parseArray(out, depth);
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
    if (c == '-' || (c >= '0' && c <= '9')) return parseNumber(out);
    error_ = std::string("unexpected character '") + c + "'";
    return false;
  }

  bool parseNumber(JsonValue& out) {
    const size_t start = pos_;
    if (text_[pos_] == '-') ++pos_;
    auto digits = [&]() {
      const size_t before = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      return pos_ > before;
    };
    if (!digits()) {
      error_ = "invalid number";
      return false;
    }
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      if (!digits()) {
        error_ = "invalid number";
        return false;
      }
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (!digits()) {
        error_ = "invalid number";
        return false;
      }
    }
    const std::string token = text_.substr(start, pos_ - start);
    out = JsonValue::makeNumber(std::strtod(token.c_str(), nullptr));
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

  bool parseHex4(uint32_t& cp) {
    if (pos_ + 4 > text_.size()) {
      error_ = "truncated \\u escape";
      return false;
    }
    cp = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[pos_++];
      cp <<= 4;
      if (h >= '0' && h <= '9') cp |= h - '0';
      else if (h >= 'a' && h <= 'f') cp |= h - 'a' + 10;
      else if (h >= 'A' && h <= 'F') cp |= h - 'A' + 10;
      else {
        error_ = "invalid \\u escape";
        return false;
      }
    }
    return true;
  }

  bool parseString(std::string& out) {
    ++pos_;  // opening quote
    while (true) {
      if (pos_ >= text_.size()) {
        error_ = "unterminated string";
        return false;
      }
      const char c = text_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) {
        error_ = "control character in string";
        return false;
      }
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) {
        error_ = "unterminated string";
        return false;
      }
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
        case 'u': {
          uint32_t cp;
          if (!parseHex4(cp)) return false;
          if (cp >= 0xD800 && cp <= 0xDBFF && pos_ + 6 <= text_.size() && text_[pos_] == '\\' &&
              text_[pos_ + 1] == 'u') {
            pos_ += 2;
            uint32_t low;
            if (!parseHex4(low)) return false;
            if (low >= 0xDC00 && low <= 0xDFFF) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            } else {
              appendUtf8(out, 0xFFFD);
              cp = low;
            }
          } else if (cp >= 0xD800 && cp <= 0xDFFF) {
            cp = 0xFFFD;  // a lone surrogate, as JSON.parse + UTF-8 encoding would give
          }
          appendUtf8(out, cp);
          break;
        }
        default:
          error_ = "invalid escape in string";
          return false;
      }
    }
  }

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
      JsonValue item = JsonValue::makeNull();
      if (!parseValue(item, depth + 1)) return false;
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
      error_ = "expected ',' or ']'";
      return false;
    }
  }

  bool parseObject(JsonValue& out, int depth) {
    ++pos_;
    std::vector<std::pair<std::string, JsonValue>> members;
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      out = JsonValue::makeObject(std::move(members));
      return true;
    }
    while (true) {
      skipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"') {
        error_ = "expected a quoted key";
        return false;
      }
      std::string key;
      if (!parseString(key)) return false;
      for (const auto& member : members)
        if (member.first == key) {
          error_ = "duplicate key \"" + key + "\"";
          return false;
        }
      skipSpace();
      if (pos_ >= text_.size() || text_[pos_] != ':') {
        error_ = "expected ':'";
        return false;
      }
      ++pos_;
      skipSpace();
      JsonValue value = JsonValue::makeNull();
      if (!parseValue(value, depth + 1)) return false;
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
      error_ = "expected ',' or '}'";
      return false;
    }
  }

  const std::string& text_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace

JsonParseResult parseJson(const std::string& text) { return Parser(text).parseDocument(); }

}  // namespace attention_lab
