// JSON -> AttentionConfig. Checks the schema: known fields only, the right
// types, known enum values, finite numbers, integers where counts are meant.
// Checks that need sizes (divisibility, limits, value shapes) are in
// validate.h, so configs built in C++ get them too.
#pragma once

#include <string>

#include "config.h"
#include "json.h"

namespace attention_lab {

struct ConfigParseResult {
  bool ok = false;
  AttentionConfig config;
  ConfigError error;
};

ConfigParseResult parseConfig(const JsonValue& json);
// Parses the text first; a syntax error is reported on the field "config".
ConfigParseResult parseConfigText(const std::string& jsonText);

}  // namespace attention_lab
