#!/usr/bin/env bash
# npm test: set up, build, then run every test suite.
#   1. Setup (Debian packages and npm ci, when missing).
#   2. Two lanes side by side, each keeping a core busy:
#        JS lane:  wasm build -> lint -> TypeScript -> Vitest in Node -> the site's build
#        C++ lane: native build -> GoogleTest via CTest -> libFuzzer   (web/scripts/test-cpp.sh)
#      The C++ lane's output is printed when it ends.
#   3. The browser suite (Playwright, two files at a time), alone on the machine:
#      a page load keeps both cores busy, and its tests wait on what the page does.
# Each stage's wall-clock time is printed after it, and all of them at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."

logs=build/test-logs
mkdir -p "$logs"
timings="$logs/timings.txt"
: >"$timings"
source web/scripts/timed.sh

summary() {
  local status=$?
  echo "== Wall-clock time per stage (total ${SECONDS} s$([ "$status" = 0 ] || echo ", stopped by a failure")):"
  cat "$timings"
}
trap summary EXIT

timed setup 'Setup: Debian packages and npm ci, when missing' \
  bash web/scripts/setup.sh --with-browser --with-torch --with-jupyter --with-mkdocs

# The C++ lane and the site generators' installs (VitePress, Docusaurus, Astro, Hexo: for the recipes of
# the browser suite; each redone only when its pinned versions change) in the background, each in its own
# session, so that a failure or an interrupt here stops them and their children.
setsid bash web/scripts/test-cpp.sh "$timings" >"$logs/cpp.log" 2>&1 &
cpp=$!
setsid bash web/scripts/setup.sh --with-vitepress --with-docusaurus --with-astro --with-hexo >"$logs/sites.log" 2>&1 &
sites=$!
stop_background() {
  kill -- "-$cpp" "-$sites" 2>/dev/null || true
}
trap 'stop_background; exit 130' INT TERM

js_lane() {
  timed JS 'Build: wasm (and the schema and types written from it)' bash web/scripts/build.sh wasm &&
    timed JS 'Lint: clang-format, Prettier, ESLint' bash web/scripts/lint.sh &&
    timed JS 'TypeScript: the .d.ts (index.d.ts, the element'"'"'s, and the types written from the schema)' \
      npx tsc -p web/tsconfig.json &&
    timed JS 'Vitest in Node: the JS API, the CLI, the model, the view'"'"'s words and numbers' \
      npx vitest run --config web/vitest.config.js &&
    timed JS 'Build the site, the single file and the standalone element' \
      bash -c 'npx vite build --config web/vite.config.js && node web/scripts/build-single.js'
}

js_status=0
js_lane || js_status=$?
if [ "$js_status" != 0 ]; then
  stop_background
  echo "== [C++] stopped; its log so far:"
  cat "$logs/cpp.log"
  exit "$js_status"
fi
cpp_status=0
wait "$cpp" || cpp_status=$?
echo "== [C++] its log:"
cat "$logs/cpp.log"
if [ "$cpp_status" != 0 ]; then
  stop_background
  exit "$cpp_status"
fi

# Needs both lanes' builds: the native core's schema (the fuzzer's dictionary) is the wasm build's.
FUZZ_DICT_REQUIRED=1 timed checks "The fuzzer's dictionary, from the native schema, is the wasm build's" \
  npx vitest run --config web/vitest.config.js tests/js/fuzz-dict.test.js

sites_status=0
wait "$sites" || sites_status=$?
grep 'installed in' "$logs/sites.log" || true
if [ "$sites_status" != 0 ]; then
  cat "$logs/sites.log"
  exit "$sites_status"
fi
timed browser 'The page, the element, embedding and the package in Debian'"'"'s Chromium (Playwright)' \
  npx vitest run --config web/vitest.e2e.config.js
