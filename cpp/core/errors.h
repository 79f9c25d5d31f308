// The catalog of error and warning codes: each code with its one English
// template, whose {placeholders} are the code's parameters. The engine builds
// every message from here (fieldError in status.h); the schema exports the
// list ({code, params, message}) so the UI can render an error in another
// language from web/i18n's template for the code, filled with the same
// parameters, and a test can check every language has a template for every
// code with exactly these parameters.
#pragma once

#include <string>
#include <vector>

#include "status.h"

namespace attention_lab {

struct ErrorKind {
  std::string code;     // "out-of-range"
  std::string english;  // "{field} ({got}) must be between {min} and {max}"
};

// Every code the engine and its JS API report, errors and warnings: the
// engine's own, then the JSON reader's (json.h) with the text
// "config is not valid JSON: line {line}, column {column}: " before theirs.
const std::vector<ErrorKind>& errorCatalog();

// The catalog entry of `code`, or nullptr.
const ErrorKind* findErrorKind(const std::string& code);

// The placeholder names of a template, in order of first appearance.
std::vector<std::string> templateParams(const std::string& english);

// The template with each {name} replaced by the value of that parameter (a
// placeholder without a parameter stays as written).
std::string fillTemplate(const std::string& english, const ErrorParams& params);

// A warning of a run: a code of the catalog, its parameters, its English text.
struct Warning {
  std::string code;
  ErrorParams params;
  std::string message;
  bool operator==(const Warning& other) const {
    return code == other.code && params == other.params && message == other.message;
  }
  bool operator!=(const Warning& other) const { return !(*this == other); }
};
Warning makeWarning(const char* code, ErrorParams params);

}  // namespace attention_lab
