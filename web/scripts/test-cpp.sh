#!/usr/bin/env bash
# npm test's C++ lane (test.sh runs it beside the JS lane, from the wasm build
# to the site's build): the native build, GoogleTest via CTest, then libFuzzer briefly.
#   test-cpp.sh TIMINGS_FILE
set -euo pipefail
cd "$(dirname "$0")/../.."
timings=$1
source web/scripts/timed.sh

timed 'C++' 'Build: native (g++, for the tests)' bash web/scripts/build.sh native
timed 'C++' 'GoogleTest via CTest' ctest --test-dir build/native --output-on-failure --parallel 2
timed 'C++' 'Fuzzing: libFuzzer + ASan + UBSan over the config parser and the pipeline, briefly' \
  bash web/scripts/fuzz.sh 10
