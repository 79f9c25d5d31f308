// A small JSON reader: enough for the attention config and the reference
// fixtures, with error messages that give the line and column. Numbers are
// parsed as double with strtod (exact, so float32 values round-trip).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

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
  double number() const { return number_; }
  const std::string& string() const { return string_; }
  const std::vector<JsonValue>& array() const { return array_; }
  // Members in document order (duplicate keys are rejected by the parser).
  const std::vector<std::pair<std::string, JsonValue>>& members() const { return members_; }
  // nullptr when the object has no such member.
  const JsonValue* find(const std::string& key) const;

  // "a number", "a string", ...: used in error messages.
  static const char* typeName(Type type);

  static JsonValue makeNull() { return JsonValue(Type::Null); }
  static JsonValue makeBool(bool value);
  static JsonValue makeNumber(double value);
  static JsonValue makeString(std::string value);
  static JsonValue makeArray(std::vector<JsonValue> items);
  static JsonValue makeObject(std::vector<std::pair<std::string, JsonValue>> members);

 private:
  explicit JsonValue(Type type) : type_(type) {}
  Type type_ = Type::Null;
  bool bool_ = false;
  double number_ = 0;
  std::string string_;
  std::vector<JsonValue> array_;
  std::vector<std::pair<std::string, JsonValue>> members_;
};

struct JsonParseResult {
  bool ok = false;
  JsonValue value = JsonValue::makeNull();
  std::string error;  // "line 3, column 7: expected ',' or '}'"
};

// Parses one JSON document. Nesting deeper than 64 levels is an error, so a
// hostile input cannot exhaust the (small, fixed) wasm stack.
JsonParseResult parseJson(const std::string& text);

}  // namespace attention_lab
