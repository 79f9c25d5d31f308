// Readers of a Hugging Face checkpoint's config.json fields, shared by the
// families (gpt2_config.cpp, llama_config.cpp). Every error names its field
// as "config.json.<key>" and uses the catalogued codes (errors.cpp).
#pragma once

#include <cstdint>
#include <string>

#include "json.h"
#include "status.h"

namespace attention_lab {

// The field of config.json's `key` as an error names it: "config.json.n_embd".
std::string configJsonField(const char* key);

// config.json's text -> its top-level object (`kMaxConfigValues` values at most), or an error on "config.json".
Status parseConfigJsonObject(const std::string& text, JsonParseResult& out);

// wrong-type: `field` must be `expected`, got v's type.
Status configWrongType(const std::string& field, const char* expected, const JsonValue& v);

// config.json's whole number `key` in [min, max]; `fallback` (config.json's other name
// for it, n_ctx for n_positions) is read when `key` is absent. Absent: model-config-missing.
Status readConfigSize(const JsonValue& json, const char* key, int64_t min, int64_t max, int64_t& out,
                      const char* fallback = nullptr);

// A number `key` in [min, max] (the texts the error prints for them), rounded to float32 as a
// Python float meets a float32 tensor; absent: `out` is left as it is (the default).
Status readConfigFloat(const JsonValue& json, const char* key, double min, double max, const char* minText,
                       const char* maxText, float& out);

// A boolean `key`; absent or null: `out` is left as it is (the default).
Status readConfigBool(const JsonValue& json, const char* key, bool& out);

// A field the forward computes one way only: absent, or the one value (`choice`, as JSON writes it).
Status readConfigFixed(const JsonValue& json, const char* key, const JsonValue& choice, const char* choiceText);

// The weights of `count` float32s within kMaxModelWeightBytes, or model-too-large on "config.json".
Status checkModelWeightCount(int64_t count);

}  // namespace attention_lab
