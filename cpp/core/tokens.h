// Sentences -> tokens -> ids: the tokenizer, padding/truncation, vocab.
//
// The tokenizers (config "tokenizer"; tests/reference/generate.py's
// tokenize(text, mode) is the same in Python):
//   "whitespace"  str.split()
//   "auto"        str.split(), then within each word every Han, Kana and Hangul
//                 character and every CJK or fullwidth punctuation mark is a
//                 token of its own (as Chinese tutorials do with list(sentence)),
//                 and runs of other characters stay together:
//                 "我爱NLP和AI" -> 我 爱 NLP 和 AI; "Hello, world" -> Hello, world
//   "chars"       every code point that is not whitespace: list(s.replace(" ", ""))
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

// Whether `codePoint` is a token of its own for the "auto" tokenizer:
//   Han        U+3400-4DBF (Extension A), U+4E00-9FFF, U+F900-FAFF (compatibility),
//              U+20000-3FFFF (the supplementary ideographic planes)
//   Kana       U+3040-309F, U+30A0-30FF (incl. the prolonged sound mark U+30FC),
//              U+31F0-31FF, U+FF66-FF9F (halfwidth), U+1B000-1B16F
//   Hangul     U+AC00-D7AF (syllables), U+1100-11FF, U+3130-318F, U+A960-A97F,
//              U+D7B0-D7FF (jamo), U+FFA0-FFDC (halfwidth)
//   Punctuation U+3000-303F (CJK symbols and punctuation), U+FF01-FF65 except
//              the fullwidth digits and Latin letters (U+FF10-FF19, FF21-FF3A, FF41-FF5A)
bool isStandaloneCjk(uint32_t codePoint);

// One sentence -> its tokens, by `mode`.
std::vector<std::string> tokenizeText(const std::string& text, Tokenizer mode);
// The same, keeping only the first `keep` tokens; `count` gets how many there are in all.
std::vector<std::string> tokenizeText(const std::string& text, Tokenizer mode, size_t keep, size_t& count);

// Whether `text` holds a character str.split() splits on.
bool containsWhitespace(const std::string& text);

// One side of the attention (queries or context), tokenized and padded.
struct TokenizedSide {
  std::vector<std::vector<std::string>> tokens;  // [B][S], padded with "<pad>"
  std::vector<std::vector<bool>> isPadding;      // [B][S]
  bool anyPadding = false;
};

// Splits every sentence with `mode`, then pads all to the longest (or
// pads/truncates to maxLen). `field` names the config field for errors:
// "text", or with `indexed` a list ("texts[2]").
Status tokenizeSide(const std::vector<std::string>& texts, Tokenizer mode, const std::string& field, bool indexed,
                    std::optional<int64_t> maxLen, TokenizedSide& out);
// Pre-split tokens (config tokens/contextTokens, checked by the schema's
// reader), padded or truncated the same way; errors name "tokens[2]".
Status tokenizeSide(const std::vector<std::vector<std::string>>& tokens, const std::string& field,
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
