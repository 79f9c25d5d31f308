// The one error idiom of the engine: a fallible step returns a Status, empty
// when it succeeded, or the ConfigError that names the field at fault
// ("dModel", "weights.values.W_Q[2][0]"). Outputs go through reference
// parameters. C++ exceptions are off in wasm, so nothing throws.
//
//   if (Status s = parseConfig(json, config)) return s;
#pragma once

#include <optional>
#include <string>

namespace attention_lab {

// What went wrong, and in which field.
struct ConfigError {
  std::string field;
  std::string message;
};

using Status = std::optional<ConfigError>;

inline Status fieldError(std::string field, std::string message) {
  return ConfigError{std::move(field), std::move(message)};
}

}  // namespace attention_lab
