// Prints the engine's config schema (schemaJson). Built twice, each time from the
// core objects beside it: natively for web/scripts/fuzz.sh, which writes the
// fuzzers' dictionary from it (web/scripts/fuzz-dict.js), so the dictionary names
// the fields of the parser being fuzzed; and as wasm under Node for
// web/scripts/write-schema.js, which writes web/api/generated/schema.js, the
// schema of the engine's wasm. Not a fuzz target: it has its own main.
#include <cstdio>

#include "schema.h"

int main() {
  const std::string json = attention_lab::schemaJson();
  std::fwrite(json.data(), 1, json.size(), stdout);
  std::fputc('\n', stdout);
  return 0;
}
