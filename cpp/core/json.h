// A small, strict JSON reader (RFC 8259): enough for the attention config and
// the reference fixtures, with error messages that give the line and column
// (columns count characters, not bytes). Numbers are parsed as double with
// strtod (exact, so float32 values round-trip); a number beyond the range of a
// double (1e400, a 400-digit seed) is ±infinity that keeps its text, so that
// the config's reader names its field and the number as written (where
// JSON.parse would give Infinity). Strings are UTF-8: raw
// UTF-8 is kept as is, \u escapes and surrogate pairs are encoded as UTF-8,
// and a lone surrogate (which has no UTF-8 form) is kept in the 3 bytes its
// code point would take (\uD800 -> ED A0 80), as the JS API sends a raw one:
// schema.cpp names the field that holds it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "status.h"

namespace attention_lab {

class JsonValue {
 public:
  enum class Type { Null, Bool, Number, String, Array, Object };

  Type type() const { return type_; }
  bool isNull() const { return type_ == Type::Null; }
  bool isBool() const { return type_ == Type::Bool; }
  bool isNumber() const { return type_ == Type::Number; }
  bool isString() const { return type_ == Type::String; }
  bool isArray() const { return type_ == Type::Array; }
  bool isObject() const { return type_ == Type::Object; }

  bool boolean() const { return bool_; }
  // ±infinity for a number beyond the range of a double (isBeyondDouble).
  double number() const { return number_; }
  // A number the text wrote beyond the range of a double: 1e400, -1e400, 400 digits.
  bool isBeyondDouble() const;
  // Such a number's text, as written ("1e400"); empty for every other value.
  const std::string& numberText() const { return numberText_; }
  const std::string& string() const { return string_; }
  const std::vector<JsonValue>& array() const { return array_; }
  // Members in document order (duplicate keys are rejected by the parser).
  const std::vector<std::pair<std::string, JsonValue>>& members() const { return members_; }
  // nullptr when the object has no such member.
  const JsonValue* find(std::string_view key) const;

  // "a number", "a string", ...: used in error messages.
  static const char* typeName(Type type);

  static JsonValue makeNull() { return JsonValue(Type::Null); }
  static JsonValue makeBool(bool value);
  static JsonValue makeNumber(double value);
  // The number `text` (JSON number grammar) that strtod takes to ±infinity.
  static JsonValue makeNumberBeyondDouble(std::string text);
  static JsonValue makeString(std::string value);
  static JsonValue makeArray(std::vector<JsonValue> items);
  static JsonValue makeObject(std::vector<std::pair<std::string, JsonValue>> members);

 private:
  explicit JsonValue(Type type) : type_(type) {}
  Type type_ = Type::Null;
  bool bool_ = false;
  double number_ = 0;
  std::string numberText_;
  std::string string_;
  std::vector<JsonValue> array_;
  std::vector<std::pair<std::string, JsonValue>> members_;
};

struct JsonParseResult {
  bool ok = false;
  JsonValue value = JsonValue::makeNull();
  std::string error;             // "line 3, column 7: expected ',' or '}'"
  std::string errorCode;         // "json-expected-comma-brace": a code of jsonErrorKinds()
  ErrorParams errorParams;       // {"line": "3", "column": "7", ...}: the code's placeholders
  bool tooManyValues = false;    // the text holds more than maxValues values
  std::string duplicateKeyPath;  // "weights.values.W_Q" when a key is repeated
};

// Parses one JSON document. Also errors: duplicate keys in an object, leading
// zeros, trailing commas, text after the value, and nesting deeper than 64
// levels of arrays and objects, so that a hostile input cannot exhaust the
// (small, fixed) wasm stack; and more than `maxValues` values, so the parsed
// tree's memory is bounded before it is built.
JsonParseResult parseJson(const std::string& text, size_t maxValues = SIZE_MAX);

// Every kind of syntax error: {code, English template of what is wrong}. The
// error text is "line {line}, column {column}: " and the template filled in.
struct JsonErrorKind {
  const char* code;
  const char* english;
};
const std::vector<JsonErrorKind>& jsonErrorKinds();

}  // namespace attention_lab
