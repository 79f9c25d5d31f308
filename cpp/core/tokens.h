// Sentences -> tokens -> ids: whitespace split, padding/truncation, vocab.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config.h"

namespace attention_lab {

inline const char* const kPadToken = "<pad>";

// Python's str.split(): splits on runs of Unicode whitespace (ASCII space and
// controls \t\n\v\f\r, \x1c-\x1f, U+0085, U+00A0, U+1680, U+2000-U+200A,
// U+2028, U+2029, U+202F, U+205F, U+3000), so "我 爱 你" and full-width
// spaces tokenize as the reference generator's Python does.
std::vector<std::string> splitWhitespace(const std::string& text);

// One side of the attention (queries or context), tokenized and padded.
struct TokenizedSide {
  std::vector<std::vector<std::string>> tokens;  // [B][S], padded with "<pad>"
  std::vector<std::vector<bool>> isPadding;      // [B][S]
  bool anyPadding = false;
};

// Splits every sentence, then pads all to the longest (or pads/truncates to
// maxLen). `field` names the config field for errors: "text", or with
// `indexed` a list ("texts[2]").
Status tokenizeSide(const std::vector<std::string>& texts, const std::string& field, bool indexed,
                    std::optional<int64_t> maxLen, TokenizedSide& out);

struct Vocabulary {
  std::vector<std::string> tokens;  // id = index
};

// The given vocab, or "<pad>" (if any padding happened) then the unique tokens
// in order of first appearance, queries first, then context.
Vocabulary buildVocabulary(const std::optional<std::vector<std::string>>& given,
                           const std::vector<const TokenizedSide*>& sides);

// ids [B][S]; padding maps to the id of "<pad>" (0 if the vocab has none), and
// unknown tokens to 0 and are appended to *unknownTokens unless already listed
// there, so a run lists each once, in order of first appearance.
std::vector<std::vector<int64_t>> tokenIds(const TokenizedSide& side, const Vocabulary& vocab,
                                           std::vector<std::string>* unknownTokens);

}  // namespace attention_lab
