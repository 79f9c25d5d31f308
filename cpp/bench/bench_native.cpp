// Native time per runAttention call for the cases in cases.json.
//   attention_lab_bench cpp/bench/cases.json
// Prints one JSON object: {"small": {"msPerCall": ..., "calls": ...}, ...}.
// A case with "tokens": N gets the sentence "w0 w1 ... w(N-1)".
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "attention.h"
#include "schema.h"

using namespace attention_lab;

namespace {

double millisecondsPerCall(const AttentionConfig& config, int* callsOut) {
  using Clock = std::chrono::steady_clock;
  // Repeat until 0.5 s have passed (at least 3 calls); report the median call.
  // A fresh result per call, as every caller of the API gets.
  std::vector<double> times;
  const auto start = Clock::now();
  while (times.size() < 3 || std::chrono::duration<double>(Clock::now() - start).count() < 0.5) {
    const auto t0 = Clock::now();
    AttentionResult result;
    const Status error = runAttention(config, result);
    times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    if (error) {
      std::fprintf(stderr, "bench: %s: %s\n", error->field.c_str(), error->message.c_str());
      std::exit(2);
    }
  }
  std::sort(times.begin(), times.end());
  *callsOut = static_cast<int>(times.size());
  return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: attention_lab_bench cases.json\n");
    return 2;
  }
  std::ifstream file(argv[1]);
  std::stringstream text;
  text << file.rdbuf();
  const JsonParseResult cases = parseJson(text.str());
  if (!cases.ok) {
    std::fprintf(stderr, "bench: %s: %s\n", argv[1], cases.error.c_str());
    return 2;
  }
  std::printf("{");
  bool first = true;
  for (const JsonValue& benchCase : cases.value.array()) {
    auto members = benchCase.find("config")->members();
    if (const JsonValue* tokens = benchCase.find("tokens")) {
      std::string sentence;
      for (int i = 0; i < static_cast<int>(tokens->number()); ++i) sentence += "w" + std::to_string(i) + " ";
      members.emplace_back("text", JsonValue::makeString(sentence));
    }
    AttentionConfig config;
    if (const Status error = parseConfig(JsonValue::makeObject(members), config)) {
      std::fprintf(stderr, "bench: %s: %s\n", error->field.c_str(), error->message.c_str());
      return 2;
    }
    int calls = 0;
    const double ms = millisecondsPerCall(config, &calls);
    std::printf("%s\"%s\": {\"msPerCall\": %.4f, \"calls\": %d}", first ? "" : ", ",
                benchCase.find("name")->string().c_str(), ms, calls);
    first = false;
  }
  std::printf("}\n");
  return 0;
}
