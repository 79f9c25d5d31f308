#include "tokens.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "size_limits.h"

namespace attention_lab {
namespace {

// Decodes the UTF-8 sequence at text[pos]; returns its length in bytes.
// A byte that does not start a valid sequence (a stray continuation byte; a
// truncated, overlong or surrogate sequence; one beyond U+10FFFF) decodes
// alone, as U+DC80-U+DCFF like Python's surrogateescape, so it is never
// whitespace: a lone 0x85 or 0xA0 byte is not U+0085 or U+00A0.
size_t decodeUtf8(const std::string& text, size_t pos, uint32_t& codePoint) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(pos);
  size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
  codePoint = 0xDC00 + lead;
  if (length == 0 || pos + length > text.size()) return 1;
  uint32_t decoded = length == 1 ? lead : lead & (0x7F >> length);
  for (size_t i = 1; i < length; ++i) {
    if ((byte(pos + i) & 0xC0) != 0x80) return 1;
    decoded = (decoded << 6) | (byte(pos + i) & 0x3F);
  }
  static const uint32_t kSmallest[5] = {0, 0, 0x80, 0x800, 0x10000};  // below: overlong
  if (decoded < kSmallest[length] || decoded > 0x10FFFF || (decoded >= 0xD800 && decoded <= 0xDFFF)) return 1;
  codePoint = decoded;
  return length;
}

bool isPythonWhitespace(uint32_t c) {
  return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

}  // namespace

std::vector<std::string> splitWhitespace(const std::string& text) {
  std::vector<std::string> tokens;
  std::string current;
  for (size_t pos = 0; pos < text.size();) {
    uint32_t codePoint;
    const size_t length = decodeUtf8(text, pos, codePoint);
    if (isPythonWhitespace(codePoint)) {
      if (!current.empty()) tokens.push_back(std::move(current));
      current.clear();
    } else {
      current.append(text, pos, length);
    }
    pos += length;
  }
  if (!current.empty()) tokens.push_back(std::move(current));
  return tokens;
}

Status tokenizeSide(const std::vector<std::string>& texts, const std::string& field, bool indexed,
                    std::optional<int64_t> maxLen, TokenizedSide& out) {
  if (static_cast<int64_t>(texts.size()) > kMaxBatch)
    return fieldError(field, field + " has " + std::to_string(texts.size()) + " sentences; the batch limit is " +
                                 std::to_string(kMaxBatch));
  out = TokenizedSide{};
  size_t longest = 0;
  for (size_t b = 0; b < texts.size(); ++b) {
    const std::string where = indexed ? field + "[" + std::to_string(b) + "]" : field;
    std::vector<std::string> tokens = splitWhitespace(texts[b]);
    if (tokens.empty()) return fieldError(where, where + " is empty: type at least one token");
    if (maxLen && static_cast<int64_t>(tokens.size()) > *maxLen) tokens.resize(static_cast<size_t>(*maxLen));
    if (static_cast<int64_t>(tokens.size()) > kMaxTokensPerSequence)
      return fieldError(where, where + " has " + std::to_string(tokens.size()) + " tokens; the limit is " +
                                   std::to_string(kMaxTokensPerSequence) + " per sentence");
    longest = std::max(longest, tokens.size());
    out.tokens.push_back(std::move(tokens));
  }
  const size_t length = maxLen ? static_cast<size_t>(*maxLen) : longest;
  for (auto& tokens : out.tokens) {
    std::vector<bool> padding(length, false);
    for (size_t s = tokens.size(); s < length; ++s) padding[s] = true;
    if (tokens.size() < length) out.anyPadding = true;
    tokens.resize(length, kPadToken);
    out.isPadding.push_back(std::move(padding));
  }
  return {};
}

Vocabulary buildVocabulary(const std::optional<std::vector<std::string>>& given,
                           const std::vector<const TokenizedSide*>& sides) {
  Vocabulary vocab;
  if (given) {
    vocab.tokens = *given;
    return vocab;
  }
  bool anyPadding = false;
  for (const TokenizedSide* side : sides) anyPadding = anyPadding || side->anyPadding;
  std::unordered_map<std::string, size_t> seen;
  if (anyPadding) {
    vocab.tokens.push_back(kPadToken);
    seen.emplace(kPadToken, 0);
  }
  for (const TokenizedSide* side : sides)
    for (size_t b = 0; b < side->tokens.size(); ++b)
      for (size_t s = 0; s < side->tokens[b].size(); ++s) {
        if (side->isPadding[b][s]) continue;
        const std::string& token = side->tokens[b][s];
        if (seen.emplace(token, vocab.tokens.size()).second) vocab.tokens.push_back(token);
      }
  return vocab;
}

std::vector<std::vector<int64_t>> tokenIds(const TokenizedSide& side, const Vocabulary& vocab,
                                           std::vector<std::string>* unknownTokens) {
  std::unordered_map<std::string, int64_t> index;
  for (size_t i = 0; i < vocab.tokens.size(); ++i) index.emplace(vocab.tokens[i], static_cast<int64_t>(i));
  const auto pad = index.find(kPadToken);
  const int64_t padId = pad == index.end() ? 0 : pad->second;
  // The unknown tokens listed so far, this call's and earlier calls' (the context side appends after the queries').
  std::unordered_set<std::string> listed;
  if (unknownTokens) listed.insert(unknownTokens->begin(), unknownTokens->end());
  std::vector<std::vector<int64_t>> ids;
  for (size_t b = 0; b < side.tokens.size(); ++b) {
    std::vector<int64_t> row;
    for (size_t s = 0; s < side.tokens[b].size(); ++s) {
      if (side.isPadding[b][s]) {
        row.push_back(padId);
        continue;
      }
      const auto found = index.find(side.tokens[b][s]);
      if (found != index.end()) {
        row.push_back(found->second);
        continue;
      }
      row.push_back(0);
      if (unknownTokens && listed.insert(side.tokens[b][s]).second) unknownTokens->push_back(side.tokens[b][s]);
    }
    ids.push_back(std::move(row));
  }
  return ids;
}

}  // namespace attention_lab
