// The one error idiom of the engine: a fallible step returns a Status, empty
// when it succeeded, or the ConfigError that names the field at fault
// ("dModel", "weights.values.W_Q[2][0]"). Outputs go through reference
// parameters. C++ exceptions are off in wasm, so nothing throws.
//
//   if (Status s = parseConfig(json, config)) return s;
//
// Every error has a code from the catalog in errors.h ("out-of-range") and
// named parameters ({"field": "dModel", "got": "0", ...}); its English
// message is the code's one English template filled with them, so the UI can
// show the same error in another language from the code and the parameters.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace attention_lab {

// Named parameters of an error or warning, in the order they were given.
using ErrorParams = std::vector<std::pair<std::string, std::string>>;

// What went wrong, and in which field.
struct ConfigError {
  std::string field;
  std::string code;     // a code of errorCatalog() (errors.h)
  ErrorParams params;   // exactly the placeholders of the code's template
  std::string message;  // the English text: the template filled with params
};

using Status = std::optional<ConfigError>;

// The error `code` on `field`, its message filled in from the catalog's
// English template (errors.cpp).
Status fieldError(std::string field, const char* code, ErrorParams params = {});

}  // namespace attention_lab
