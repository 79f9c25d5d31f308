// The JSON reader: strict RFC 8259, every error with its line and column.
#include "json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "text_format.h"

namespace attention_lab {
namespace {

// The value of a document that must parse.
JsonValue parsed(const std::string& text) {
  const JsonParseResult result = parseJson(text);
  EXPECT_TRUE(result.ok) << text << " -> " << result.error;
  return result.value;
}

// The string a one-string document holds.
std::string stringOf(const std::string& text) {
  const JsonValue value = parsed(text);
  EXPECT_TRUE(value.isString()) << text;
  return value.isString() ? value.string() : "";
}

double numberOf(const std::string& text) {
  const JsonValue value = parsed(text);
  EXPECT_TRUE(value.isNumber()) << text;
  return value.isNumber() ? value.number() : NAN;
}

// The error of a document that must not parse.
std::string errorOf(const std::string& text) {
  const JsonParseResult result = parseJson(text);
  EXPECT_FALSE(result.ok) << "accepted: " << text;
  EXPECT_FALSE(result.error.empty());
  return result.error;
}

#define EXPECT_ERROR(text, part)                                                          \
  do {                                                                                    \
    const std::string error_ = errorOf(text);                                             \
    EXPECT_NE(error_.find(part), std::string::npos) << (text) << "\n  error: " << error_; \
  } while (false)

std::string nestedArrays(int depth, const std::string& inside = "") {
  return std::string(static_cast<size_t>(depth), '[') + inside + std::string(static_cast<size_t>(depth), ']');
}

std::string nestedObjects(int depth) {
  std::string text;
  for (int i = 0; i < depth; ++i) text += "{\"a\": ";
  text += "1";
  for (int i = 0; i < depth; ++i) text += "}";
  return text;
}

// ---- values -------------------------------------------------------------------

TEST(Json, ReadsEveryKindOfValue) {
  const JsonValue v = parsed(R"( {"n": null, "t": true, "f": false, "x": -1.25, "s": "hi", "a": [1, [], {}],
                                  "o": {"k": "v"}} )");
  ASSERT_TRUE(v.isObject());
  EXPECT_TRUE(v.find("n")->isNull());
  EXPECT_TRUE(v.find("t")->boolean());
  EXPECT_FALSE(v.find("f")->boolean());
  EXPECT_EQ(v.find("x")->number(), -1.25);
  EXPECT_EQ(v.find("s")->string(), "hi");
  ASSERT_EQ(v.find("a")->array().size(), 3u);
  EXPECT_TRUE(v.find("a")->array()[1].isArray());
  EXPECT_TRUE(v.find("a")->array()[2].isObject());
  EXPECT_EQ(v.find("o")->find("k")->string(), "v");
  EXPECT_EQ(v.find("missing"), nullptr);
  // Members keep the document's order.
  std::string order;
  for (const auto& member : v.members()) order += member.first;
  EXPECT_EQ(order, "ntfxsao");
}

TEST(Json, Literals) {
  EXPECT_TRUE(parsed("null").isNull());
  EXPECT_TRUE(parsed(" true ").boolean());
  EXPECT_FALSE(parsed("false").boolean());
  EXPECT_ERROR("nul", "line 1, column 1: invalid literal: expected null");
  EXPECT_ERROR("[tru]", "line 1, column 2: invalid literal: expected true");
  EXPECT_ERROR("True", "line 1, column 1: unexpected character 'T'");
  EXPECT_ERROR("None", "unexpected character 'N'");
  EXPECT_ERROR("'a'", "unexpected character '''");
}

// ---- strings ------------------------------------------------------------------

TEST(JsonString, EveryEscape) {
  EXPECT_EQ(stringOf(R"("\"")"), "\"");
  EXPECT_EQ(stringOf(R"("\\")"), "\\");
  EXPECT_EQ(stringOf(R"("\/")"), "/");
  EXPECT_EQ(stringOf(R"("\b")"), "\b");
  EXPECT_EQ(stringOf(R"("\f")"), "\f");
  EXPECT_EQ(stringOf(R"("\n")"), "\n");
  EXPECT_EQ(stringOf(R"("\r")"), "\r");
  EXPECT_EQ(stringOf(R"("\t")"), "\t");
  EXPECT_EQ(stringOf(R"("a\"b\\c\/d\be\ff\ng\rh\ti")"), "a\"b\\c/d\be\ff\ng\rh\ti");
}

TEST(JsonString, UnicodeEscapesBecomeUtf8) {
  EXPECT_EQ(stringOf(R"("\u0041")"), "A");
  EXPECT_EQ(stringOf(R"("\u00e9\u00E9")"), "\xC3\xA9\xC3\xA9");  // é, either case of hex digit
  EXPECT_EQ(stringOf(R"("\u4e2d")"), "\xE4\xB8\xAD");            // 中
  EXPECT_EQ(stringOf(R"("\uFFFF")"), "\xEF\xBF\xBF");
  EXPECT_EQ(stringOf(R"("\u0000")"), std::string(1, '\0'));
  EXPECT_ERROR(R"("\u12)", "line 1, column 2: truncated \\u escape: expected 4 hex digits");
  EXPECT_ERROR(R"("\u12")", "line 1, column 2: invalid \\u escape: expected 4 hex digits");
  EXPECT_ERROR(R"("\u12G4")", "line 1, column 2: invalid \\u escape: expected 4 hex digits");
}

TEST(JsonString, SurrogatePairsBecomeOneCodePoint) {
  EXPECT_EQ(stringOf(R"("\uD83D\uDE00")"), "\xF0\x9F\x98\x80");  // U+1F600
  EXPECT_EQ(stringOf(R"("\ud83d\ude00")"), "\xF0\x9F\x98\x80");
  EXPECT_EQ(stringOf(R"("\uD800\uDC00")"), "\xF0\x90\x80\x80");  // U+10000, the first
  EXPECT_EQ(stringOf(R"("\uDBFF\uDFFF")"), "\xF4\x8F\xBF\xBF");  // U+10FFFF, the last
  EXPECT_EQ(stringOf(R"("x\uD83D\uDE00y")"), "x\xF0\x9F\x98\x80y");
}

TEST(JsonString, LoneSurrogatesKeepTheirThreeByteForm) {
  // A lone surrogate is no character and has no UTF-8 form. The reader keeps it as the 3 bytes its code
  // point would take (ED A0 80 for U+D800: generalized UTF-8), the form the JS API sends a raw one in, so
  // that the config's reader names the field that holds it (schema.cpp) rather than a line and column.
  EXPECT_EQ(stringOf(R"("\uD800")"), "\xED\xA0\x80");
  EXPECT_EQ(stringOf(R"("\udc00")"), "\xED\xB0\x80");
  EXPECT_EQ(stringOf(R"("ab\uD83Dcd")"),
            "ab\xED\xA0\xBD"
            "cd");
  // Only a high surrogate followed by a low one is a pair; anything else after it is read on its own.
  EXPECT_EQ(stringOf(R"("\uD83D\u0041")"),
            "\xED\xA0\xBD"
            "A");
  EXPECT_EQ(stringOf(R"("\uD83D\uD83D\uDE00")"), "\xED\xA0\xBD\xF0\x9F\x98\x80");
  EXPECT_EQ(stringOf(R"("\uDE00\uD83D")"), "\xED\xB8\x80\xED\xA0\xBD");
  EXPECT_EQ(stringOf(R"("\uD83D\n")"), "\xED\xA0\xBD\n");
  EXPECT_EQ(parsed(R"({"k\uDFFF": 1})").members().at(0).first, "k\xED\xBF\xBF");
  // The same bytes written raw are kept as they are.
  EXPECT_EQ(stringOf("\"a\xED\xA0\x80"
                     "b\""),
            "a\xED\xA0\x80"
            "b");
  // The escape after a high surrogate is still an escape of its own, checked as one.
  EXPECT_ERROR(R"("\uD83D\u12")", "line 1, column 8: invalid \\u escape: expected 4 hex digits");
  EXPECT_ERROR(R"("\uD83D)", "line 1, column 1: unterminated string");
}

TEST(JsonString, RawUtf8PassesThroughUnchanged) {
  const std::string text = "\xE6\x88\x91 \xE7\x88\xB1\xE3\x80\x80\xE4\xBD\xA0 \xF0\x9F\x98\x80 caf\xC3\xA9";
  EXPECT_EQ(stringOf("\"" + text + "\""), text);
  const JsonValue v = parsed("{\"" + text + "\": \"" + text + "\"}");
  ASSERT_EQ(v.members().size(), 1u);
  EXPECT_EQ(v.members()[0].first, text);
  EXPECT_EQ(v.members()[0].second.string(), text);
  // DEL and U+0080-U+009F are not JSON control characters.
  EXPECT_EQ(stringOf("\"\x7F\xC2\x85\""), "\x7F\xC2\x85");
}

TEST(JsonString, RawControlCharactersAreRejected) {
  EXPECT_EQ(errorOf("\"a\nb\""),
            "line 1, column 3: control character U+000A in a string: write it as an escape (\\n, \\t, \\u00XX)");
  EXPECT_ERROR("\"a\tb\"", "line 1, column 3: control character U+0009 in a string");
  EXPECT_ERROR("\"a\rb\"", "control character U+000D");
  EXPECT_ERROR(std::string("\"a\0b\"", 5), "line 1, column 3: control character U+0000");
  EXPECT_ERROR("\"\x1F\"", "control character U+001F");
  EXPECT_ERROR("{\"a\x01\": 1}", "line 1, column 4: control character U+0001");
}

TEST(JsonString, OtherStringErrors) {
  EXPECT_ERROR(R"("\x41")", "line 1, column 2: invalid escape \\x in a string");
  EXPECT_ERROR(R"("\')", "invalid escape \\'");
  EXPECT_ERROR(R"(["abc)", "line 1, column 2: unterminated string");
  EXPECT_ERROR(R"("abc\)", "line 1, column 1: unterminated string");
}

// ---- objects --------------------------------------------------------------------

TEST(JsonObject, DuplicateKeysAreRejectedByName) {
  EXPECT_EQ(errorOf(R"({"a": 1, "b": 2, "a": 3})"), "line 1, column 18: duplicate key \"a\"");
  EXPECT_ERROR(R"({"dModel": 8, "x": {"y": 1}, "dModel": 16})", "duplicate key \"dModel\"");
  EXPECT_ERROR(R"({"x": {"y": 1, "y": 2}})", "line 1, column 16: duplicate key \"y\"");
  // Keys are compared after unescaping.
  EXPECT_ERROR(R"({"A": 1, "\u0041": 2})", "duplicate key \"A\"");
  // The same key in different objects is fine.
  const JsonValue v = parsed(R"({"a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]})");
  EXPECT_EQ(v.find("a")->find("a")->number(), 1);
  EXPECT_EQ(v.find("b")->array()[1].find("a")->number(), 3);
}

TEST(JsonObject, ManyKeys) {
  std::string text = "{";
  for (int i = 0; i < 20000; ++i) text += (i ? ", \"k" : "\"k") + std::to_string(i) + "\": " + std::to_string(i);
  const JsonValue v = parsed(text + "}");
  ASSERT_EQ(v.members().size(), 20000u);
  EXPECT_EQ(v.find("k19999")->number(), 19999);
  EXPECT_ERROR(text + ", \"k12345\": 0}", "duplicate key \"k12345\"");
}

// Small objects are checked by a scan, larger ones by a hash set: around the
// switch, a repeat of the first, a middle and the last key is found either way.
TEST(JsonObject, DuplicateKeysAroundTheScanLimit) {
  for (int count = 1; count <= 40; ++count) {
    std::string text = "{";
    for (int i = 0; i < count; ++i) text += (i ? ", \"k" : "\"k") + std::to_string(i) + "\": " + std::to_string(i);
    EXPECT_EQ(parsed(text + "}").members().size(), static_cast<size_t>(count));
    for (int repeated : {0, count / 2, count - 1})
      EXPECT_ERROR(text + ", \"k" + std::to_string(repeated) + "\": 0}",
                   "duplicate key \"k" + std::to_string(repeated) + "\"");
    EXPECT_EQ(parsed(text + ", \"k" + std::to_string(count) + "\": 0}").members().size(),
              static_cast<size_t>(count + 1));
  }
}

TEST(JsonObject, SyntaxErrors) {
  EXPECT_ERROR(R"({a: 1})", "line 1, column 2: expected a quoted key");
  EXPECT_ERROR(R"({"a" 1})", "line 1, column 6: expected ':'");
  EXPECT_ERROR(R"({"a": 1 "b": 2})", "line 1, column 9: expected ',' or '}'");
  EXPECT_ERROR(R"({"a": })", "line 1, column 7: unexpected character '}'");
  EXPECT_ERROR(R"({"a": 1)", "line 1, column 8: expected ',' or '}'");
}

// ---- numbers ------------------------------------------------------------------

TEST(JsonNumber, AcceptsTheJsonGrammar) {
  EXPECT_EQ(numberOf("0"), 0.0);
  EXPECT_EQ(numberOf("-0"), 0.0);
  EXPECT_TRUE(std::signbit(numberOf("-0")));
  EXPECT_EQ(numberOf("7"), 7.0);
  EXPECT_EQ(numberOf("-120"), -120.0);
  EXPECT_EQ(numberOf("0.5"), 0.5);
  EXPECT_EQ(numberOf("-0.0"), 0.0);
  EXPECT_EQ(numberOf("1.5e-3"), 1.5e-3);
  EXPECT_EQ(numberOf("1E+2"), 100.0);
  EXPECT_EQ(numberOf("1e2"), 100.0);
  EXPECT_EQ(numberOf("2E-0"), 2.0);
  EXPECT_EQ(numberOf("0e5"), 0.0);
  EXPECT_EQ(numberOf("1e308"), 1e308);
  EXPECT_EQ(numberOf("-1.7976931348623157e308"), -1.7976931348623157e308);  // -DBL_MAX
  EXPECT_EQ(numberOf("4.9e-324"), 4.9e-324);                                // the smallest denormal
  EXPECT_EQ(numberOf("1e-400"), 0.0);                                       // underflow rounds to 0, as in JavaScript
  // Exact: float32 values written with 9 digits round-trip.
  EXPECT_EQ(static_cast<float>(numberOf("0.100000001")), 0.1f);
  EXPECT_EQ(numberOf("0.1"), 0.1);
  EXPECT_EQ(numberOf("123456789012345678"), 123456789012345678.0);
}

TEST(JsonNumber, RejectsWhatJsonDoesNotAllow) {
  EXPECT_EQ(errorOf("08"), "line 1, column 1: invalid number 08: leading zeros are not allowed");
  EXPECT_ERROR("[1, -01]", "line 1, column 5: invalid number -01: leading zeros are not allowed");
  EXPECT_ERROR("00", "leading zeros are not allowed");
  EXPECT_ERROR("+1", "line 1, column 1: invalid number +1: a JSON number has no leading '+'");
  EXPECT_ERROR(".5", "invalid number .5: expected a digit");
  EXPECT_ERROR("-.5", "invalid number -.5: expected a digit");
  EXPECT_ERROR("1.", "invalid number 1.: expected a digit after '.'");
  EXPECT_ERROR("1.e5", "invalid number 1.e5: expected a digit after '.'");
  EXPECT_ERROR("1e", "invalid number 1e: expected a digit in the exponent");
  EXPECT_ERROR("1e+", "invalid number 1e+: expected a digit in the exponent");
  EXPECT_ERROR("-", "invalid number -: expected a digit");
  EXPECT_ERROR("0x10", "invalid number 0x10: not a JSON number");
  EXPECT_ERROR("1.5.2", "invalid number 1.5.2: not a JSON number");
  EXPECT_ERROR("12abc", "invalid number 12abc: not a JSON number");
  EXPECT_ERROR("NaN", "line 1, column 1: NaN and Infinity are not JSON numbers");
  EXPECT_ERROR("[1, Infinity]", "line 1, column 5: NaN and Infinity are not JSON numbers");
  EXPECT_ERROR("-Infinity", "NaN and Infinity are not JSON numbers");
}

TEST(JsonNumber, BeyondTheRangeOfADoubleKeepsItsText) {
  // JavaScript's JSON.parse gives Infinity. The reader keeps the number as ±infinity with its text, so that
  // the config's reader names the field it is in and the number as written (schema.cpp), not a line and
  // column of the text.
  EXPECT_EQ(numberOf("1e400"), INFINITY);
  EXPECT_EQ(describeJson(parsed("1e400")), "1e400");
  const JsonValue list = parsed("[0, -1e400, 1.8e308, 1" + std::string(400, '0') + "]");
  ASSERT_EQ(list.array().size(), 4u);
  EXPECT_EQ(list.array()[1].number(), -INFINITY);
  EXPECT_EQ(describeJson(list.array()[1]), "-1e400");
  EXPECT_EQ(describeJson(list.array()[2]), "1.8e308");
  // A long one is cut for messages, as a long string is.
  EXPECT_EQ(describeJson(list.array()[3]), "1" + std::string(39, '0') + "...");
  // The largest double is an ordinary number; so is one that underflows (to 0, as JSON.parse reads it).
  EXPECT_EQ(numberOf("1.7976931348623157e308"), 1.7976931348623157e308);
  EXPECT_EQ(describeJson(parsed("1.7976931348623157e308")), "1.7976931348623157e+308");
  EXPECT_EQ(numberOf("1e-400"), 0);
}

// ---- structure ------------------------------------------------------------------

TEST(JsonStructure, NestingLimitIs64Levels) {
  EXPECT_TRUE(parseJson(nestedArrays(64)).ok);
  EXPECT_TRUE(parseJson(nestedArrays(64, "1")).ok);
  EXPECT_TRUE(parseJson(nestedObjects(64)).ok);
  EXPECT_EQ(errorOf(nestedArrays(65)), "line 1, column 65: nested deeper than 64 levels");
  EXPECT_ERROR(nestedArrays(65, "1"), "line 1, column 65: nested deeper than 64 levels");
  EXPECT_ERROR(nestedObjects(65), "nested deeper than 64 levels");
  EXPECT_ERROR(nestedArrays(1000000), "nested deeper than 64 levels");  // no stack overflow
  // Arrays and objects count alike.
  std::string mixed;
  for (int i = 0; i < 32; ++i) mixed += "[{\"a\": ";
  std::string closing;
  for (int i = 0; i < 32; ++i) closing += "}]";
  EXPECT_TRUE(parseJson(mixed + "1" + closing).ok);
  EXPECT_ERROR(mixed + "[1]" + closing, "nested deeper than 64 levels");
}

TEST(JsonStructure, TrailingCommasAreRejected) {
  EXPECT_EQ(errorOf("[1, 2,]"), "line 1, column 7: expected a value after ',' (JSON allows no trailing comma)");
  EXPECT_EQ(errorOf(R"({"a": 1,})"), "line 1, column 9: expected a quoted key (JSON allows no trailing comma)");
  EXPECT_ERROR("[1,\n]", "line 2, column 1: expected a value after ','");
  EXPECT_ERROR("[1,,2]", "line 1, column 4: unexpected character ','");
  EXPECT_ERROR("[,1]", "line 1, column 2: unexpected character ','");
  EXPECT_ERROR("[1 2]", "line 1, column 4: expected ',' or ']'");
  EXPECT_ERROR("[1", "line 1, column 3: expected ',' or ']'");
}

TEST(JsonStructure, TextAfterTheValueIsRejected) {
  EXPECT_EQ(errorOf("{} {}"), "line 1, column 4: unexpected text after the JSON value");
  EXPECT_ERROR("1 2", "line 1, column 3: unexpected text after the JSON value");
  EXPECT_ERROR("[]x", "line 1, column 3: unexpected text after the JSON value");
  EXPECT_ERROR("null\n,", "line 2, column 1: unexpected text after the JSON value");
  EXPECT_TRUE(parseJson(" \t\r\n{} \n\t ").ok);  // whitespace is fine
}

TEST(JsonStructure, EmptyInputIsRejected) {
  EXPECT_EQ(errorOf(""), "line 1, column 1: the input is empty: expected a JSON value");
  EXPECT_EQ(errorOf(" \n\t "), "line 2, column 3: the input is empty: expected a JSON value");
  EXPECT_ERROR("[", "line 1, column 2: unexpected end of input: expected a value");
  EXPECT_ERROR("{\"a\":", "line 1, column 6: unexpected end of input: expected a value");
}

// ---- positions ------------------------------------------------------------------

TEST(JsonErrors, GiveLineAndColumn) {
  EXPECT_EQ(errorOf("{\n  \"a\": 1,\n  \"b\": tru\n}"), "line 3, column 8: invalid literal: expected true");
  EXPECT_EQ(errorOf("{\r\n  \"a\": 1,\r\n  \"a\": 2\r\n}"), "line 3, column 3: duplicate key \"a\"");
  // Columns count characters: the two CJK characters are 6 bytes but 2 columns.
  EXPECT_EQ(errorOf("[\"\xE4\xB8\xAD\xE6\x96\x87\", x]"), "line 1, column 8: unexpected character 'x'");
  // A character that is not printable ASCII is named by its code point.
  EXPECT_EQ(errorOf("\xEF\xBB\xBF{}"), "line 1, column 1: unexpected character U+FEFF");  // a byte-order mark
  EXPECT_EQ(errorOf("\xF0\x9F\x98\x80"), "line 1, column 1: unexpected character U+1F600");
  EXPECT_EQ(errorOf("[\x01]"), "line 1, column 2: unexpected character U+0001");
  EXPECT_EQ(errorOf("[\xFF]"), "line 1, column 2: unexpected byte 0xFF (not UTF-8)");
}

TEST(JsonValue, TypeNames) {
  EXPECT_STREQ(JsonValue::typeName(JsonValue::Type::Null), "null");
  EXPECT_STREQ(JsonValue::typeName(JsonValue::Type::Number), "a number");
  EXPECT_STREQ(JsonValue::typeName(JsonValue::Type::Object), "an object");
  EXPECT_EQ(JsonValue::makeString("x").type(), JsonValue::Type::String);
  EXPECT_EQ(JsonValue::makeArray({JsonValue::makeBool(true)}).array()[0].boolean(), true);
}

}  // namespace
}  // namespace attention_lab
