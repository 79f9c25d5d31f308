#include "tokens.h"

#include <algorithm>
#include <cstdint>
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

// The first `keep` tokens of `text`, split at whitespace and, where
// `alone(c)` is true, around the character c; `count` gets the number of
// tokens in all (so a long text is counted without keeping every token).
template <typename Alone>
std::vector<std::string> split(const std::string& text, Alone alone, size_t keep, size_t& count) {
  std::vector<std::string> tokens;
  std::string current;
  count = 0;
  auto finish = [&](std::string token) {
    if (count++ < keep) tokens.push_back(std::move(token));
  };
  for (size_t pos = 0; pos < text.size();) {
    uint32_t codePoint;
    const size_t length = decodeUtf8(text, pos, codePoint);
    const bool space = isPythonWhitespace(codePoint);
    if (space || alone(codePoint)) {
      if (!current.empty()) finish(std::move(current));
      current.clear();
      if (!space) finish(text.substr(pos, length));
    } else {
      current.append(text, pos, length);
    }
    pos += length;
  }
  if (!current.empty()) finish(std::move(current));
  return tokens;
}

bool in(uint32_t c, uint32_t first, uint32_t last) { return c >= first && c <= last; }

// A sentence of `count` tokens at `where`: not empty, and within the limit unless maxLen cuts it.
Status checkLength(size_t count, const std::string& where, std::optional<int64_t> maxLen) {
  if (count == 0) return fieldError(where, "empty-sentence", {{"field", where}});
  const int64_t kept = maxLen ? std::min<int64_t>(static_cast<int64_t>(count), *maxLen) : static_cast<int64_t>(count);
  if (kept > kMaxTokensPerSequence)
    return fieldError(
        where, "sentence-too-long",
        {{"field", where}, {"count", std::to_string(count)}, {"limit", std::to_string(kMaxTokensPerSequence)}});
  return {};
}

// Checked token lists [B][S], each at most maxLen long -> padded to the longest (or to maxLen).
void padSide(std::vector<std::vector<std::string>> lists, std::optional<int64_t> maxLen, TokenizedSide& out) {
  out = TokenizedSide{};
  size_t longest = 0;
  for (const auto& tokens : lists) longest = std::max(longest, tokens.size());
  out.tokens = std::move(lists);
  const size_t length = maxLen ? static_cast<size_t>(*maxLen) : longest;
  for (auto& tokens : out.tokens) {
    std::vector<bool> padding(length, false);
    for (size_t s = tokens.size(); s < length; ++s) padding[s] = true;
    if (tokens.size() < length) out.anyPadding = true;
    tokens.resize(length, kPadToken);
    out.isPadding.push_back(std::move(padding));
  }
}

Status checkBatch(size_t count, const std::string& field) {
  if (static_cast<int64_t>(count) <= kMaxBatch) return {};
  return fieldError(field, "too-many-sentences",
                    {{"field", field}, {"count", std::to_string(count)}, {"limit", std::to_string(kMaxBatch)}});
}

// How many tokens of a sentence are kept: maxLen, or one more than the limit (to report it).
size_t tokensToKeep(std::optional<int64_t> maxLen) {
  return static_cast<size_t>(maxLen ? *maxLen : kMaxTokensPerSequence + 1);
}

}  // namespace

std::vector<std::string> splitWhitespace(const std::string& text) {
  size_t count;
  return split(
      text, [](uint32_t) { return false; }, SIZE_MAX, count);
}

// The "auto" tokenizer's rule: str.split(), then each Han, Kana and Hangul
// character and each CJK or fullwidth punctuation mark is a token alone, as
// Chinese tutorials split with list(sentence), while a run of anything else
// (Latin words, digits, ASCII punctuation, fullwidth letters) stays one
// token: "我爱NLP和AI" -> 我 爱 NLP 和 AI. The ranges are listed in tokens.h;
// tests/reference/generate.py's is_standalone_cjk() is the same list.
bool isStandaloneCjk(uint32_t c) {
  const bool han = in(c, 0x3400, 0x4DBF) || in(c, 0x4E00, 0x9FFF) || in(c, 0xF900, 0xFAFF) || in(c, 0x20000, 0x3FFFF);
  const bool kana = in(c, 0x3040, 0x30FF) || in(c, 0x31F0, 0x31FF) || in(c, 0xFF66, 0xFF9F) || in(c, 0x1B000, 0x1B16F);
  const bool hangul = in(c, 0xAC00, 0xD7AF) || in(c, 0x1100, 0x11FF) || in(c, 0x3130, 0x318F) ||
                      in(c, 0xA960, 0xA97F) || in(c, 0xD7B0, 0xD7FF) || in(c, 0xFFA0, 0xFFDC);
  const bool fullwidthAlnum = in(c, 0xFF10, 0xFF19) || in(c, 0xFF21, 0xFF3A) || in(c, 0xFF41, 0xFF5A);
  const bool punctuation = in(c, 0x3000, 0x303F) || (in(c, 0xFF01, 0xFF65) && !fullwidthAlnum);
  return han || kana || hangul || punctuation;
}

std::vector<std::string> tokenizeText(const std::string& text, Tokenizer mode, size_t keep, size_t& count) {
  switch (mode) {
    case Tokenizer::Whitespace:
      return split(
          text, [](uint32_t) { return false; }, keep, count);
    case Tokenizer::Auto: return split(text, isStandaloneCjk, keep, count);
    case Tokenizer::Chars:
      return split(
          text, [](uint32_t) { return true; }, keep, count);
  }
  count = 0;
  return {};
}

std::vector<std::string> tokenizeText(const std::string& text, Tokenizer mode) {
  size_t count;
  return tokenizeText(text, mode, SIZE_MAX, count);
}

bool containsWhitespace(const std::string& text) {
  for (size_t pos = 0; pos < text.size();) {
    uint32_t codePoint;
    pos += decodeUtf8(text, pos, codePoint);
    if (isPythonWhitespace(codePoint)) return true;
  }
  return false;
}

Status tokenizeSide(const std::vector<std::string>& texts, Tokenizer mode, const std::string& field, bool indexed,
                    std::optional<int64_t> maxLen, TokenizedSide& out) {
  if (Status s = checkBatch(texts.size(), field)) return s;
  std::vector<std::vector<std::string>> lists;
  lists.reserve(texts.size());
  for (size_t b = 0; b < texts.size(); ++b) {
    size_t count;
    lists.push_back(tokenizeText(texts[b], mode, tokensToKeep(maxLen), count));
    if (Status s = checkLength(count, indexed ? field + "[" + std::to_string(b) + "]" : field, maxLen)) return s;
  }
  padSide(std::move(lists), maxLen, out);
  return {};
}

Status tokenizeSide(const std::vector<std::vector<std::string>>& tokens, const std::string& field,
                    std::optional<int64_t> maxLen, TokenizedSide& out) {
  if (Status s = checkBatch(tokens.size(), field)) return s;
  std::vector<std::vector<std::string>> lists;
  lists.reserve(tokens.size());
  for (size_t b = 0; b < tokens.size(); ++b) {
    if (Status s = checkLength(tokens[b].size(), field + "[" + std::to_string(b) + "]", maxLen)) return s;
    const size_t kept = std::min(tokens[b].size(), tokensToKeep(maxLen));
    lists.emplace_back(tokens[b].begin(), tokens[b].begin() + static_cast<std::ptrdiff_t>(kept));
  }
  padSide(std::move(lists), maxLen, out);
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
