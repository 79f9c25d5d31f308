// The config schema: one table row per field, with its JSON path, the short
// name that the CLI flag, the element attribute and the form control use,
// its type, enum values and limits. Defaults are read off a default-built
// AttentionConfig, so config.h holds each default once.
//
// Parsing, the range checks (each in one place: the row's reader), the
// "did you mean" hints and the exported schema (lab.schema, `attention-lab
// --schema`, web/api/generated/schema.json) all come from this table.
#pragma once

#include <string>
#include <vector>

#include "config.h"
#include "json.h"
#include "typed_arrays.h"

namespace attention_lab {

enum class FieldType {
  String,        // "text"
  StringList,    // ["a", "b"]
  TokenLists,    // [["a", "b"], ["c"]]: pre-split tokens, one list per sentence
  Integer,       // a whole number within [min, max]
  Seed,          // a whole number within [0, 2^53]
  Number,        // a finite number within [min, max]
  Boolean,       // true / false
  Enum,          // one of `choices`
  EnumOrNumber,  // one of `choices`, or a finite number
  NumberOrList,  // a finite number within [min, max], or a list of them
  RandomInput,   // {"randn": [B, S, dModel]} or {"rand": [B, S, dModel]}
  Matrix,        // number[][] (null keeps the drawn number), or a typed array
  MatrixMap,     // {name: Matrix} for the names in `choices`
  Edits,         // [[row or token, col, value], ...]
  EditsMap,      // {name: Edits} for the names in `choices`
};

struct FieldSpec;
// Reads one present field from JSON into the config. `tensors` holds the
// typed arrays a JS caller sent beside the JSON text ({"$tensor": k}).
using FieldReader = Status (*)(const FieldSpec& spec, const JsonValue& value, const TypedArrays& tensors,
                               AttentionConfig& config);
// Writes the field's value in `config` as JSON text ("null" when unset).
using FieldWriter = std::string (*)(const AttentionConfig& config);

struct FieldSpec {
  const char* path;  // "weights.init"
  const char* name;  // "init": CLI --init, <attention-lab init>, the form control
  FieldType type;
  const char* group;  // input | model | embedding | weights | attention | dropout | modern | trained
  std::vector<const char*> choices;
  double min = 0, max = 0;
  const char* oneOf = nullptr;  // fields that exclude each other ("input": text, texts, tokens, input)
  FieldReader read = nullptr;
  FieldWriter write = nullptr;
  // When the field has an effect: "score=additive", "mask!=none" (another
  // field's value). The form hides it otherwise; the engine still reads it.
  const char* usedWhen = nullptr;
  // Per choice (in the order of `choices`), the one-kind choices it combines: the mask's
  // "causal+padding" holds "causal" and "padding", "none" holds none. Empty for the other fields.
  std::vector<std::vector<const char*>> kinds = {};
};

// The table, in the order fields are read, shown and documented.
const std::vector<FieldSpec>& configSchema();

// JSON -> config. Unknown fields (with a "did you mean" hint), wrong types,
// values out of range and non-finite numbers are errors naming the field.
// Checks that need several fields or the sizes are in validate.h.
Status parseConfig(const JsonValue& json, const TypedArrays& tensors, AttentionConfig& config);
Status parseConfig(const JsonValue& json, AttentionConfig& config);
// The config text as JSON under the engine's rules (size, number of values,
// grammar, duplicate keys), without reading any field: a syntax error is
// reported on the field "config", a repeated key on its path.
Status parseConfigJson(const std::string& jsonText, JsonValue& json);
// Parses the text first; a syntax error is reported on the field "config".
// The text's size and its number of values are checked before parsing, so a
// huge config is an error and not an out-of-memory trap.
Status parseConfigText(const std::string& jsonText, const TypedArrays& tensors, AttentionConfig& config);
Status parseConfigText(const std::string& jsonText, AttentionConfig& config);

// The paths of the fields parseConfig read from the JSON (config.givenFields)
// whose value is not the default (a field written as null, such as a matrix,
// counts as soon as it is given), in schema order.
std::vector<std::string> changedFields(const AttentionConfig& config);

// The schema as JSON: {"version", "fields": [{path, name, type, group,
// default, choices?, kinds?, min?, max?, oneOf?, usedWhen?, help}], "limits",
// "tinyModel": {checkpoints, context, layers, heads, dModel, headDim, vocab},
// "tensors", "errors": [{code, params, message}]} (errors.h's catalog).
std::string schemaJson();

// The scalar settings of a config as JSON ({"dModel": 8, "weights.qkvBias": true, ...}),
// keyed by path; unset optional fields are left out.
std::string settingsJson(const AttentionConfig& config);

}  // namespace attention_lab
