// Prints the engine's config schema (schemaJson) for web/scripts/fuzz.sh, which
// writes the fuzzers' dictionary from it (web/scripts/fuzz-dict.js): built from
// the same core objects as the fuzz targets, so the dictionary names the fields
// of the parser being fuzzed. Not a fuzz target: it has its own main.
#include <cstdio>

#include "schema.h"

int main() {
  const std::string json = attention_lab::schemaJson();
  std::fwrite(json.data(), 1, json.size(), stdout);
  std::fputc('\n', stdout);
  return 0;
}
