#!/usr/bin/env bash
# npm test: set up, build, then run every test suite, in three lanes that share
# the machine:
#   browser lane (in front, its output live; the longest):
#     wasm build -> the site's build -> the browser suite (Playwright)
#   Node lane (once the wasm build is done; nice 5):
#     lint -> TypeScript -> Vitest in Node
#   C++ lane (from the start; nice 10): web/scripts/test-cpp.sh
#     native build -> GoogleTest via CTest -> libFuzzer
# A page load in the browser suite waits on requests, the engine and its
# slices as much as it computes, so the other lanes fill the cores it leaves
# idle; their niceness keeps the browser lane in front. The background lanes' logs are printed when all
# are done (a failed lane's last). Each stage's wall-clock time is printed
# after it, and all of them, per lane, at the end.
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
  bash web/scripts/setup.sh --with-browser --with-torch --with-jupyter

# Background lanes, each in its own session (so that an interrupted run can stop them and their
# children). A session is its own scheduling group on Linux (autogroup: Chromium starts one too), so
# the lane's niceness is set on its group, where the kernel lets us, as well as on its processes.
declare -A lanes
background() {
  local name=$1 niceness=$2
  shift 2
  setsid bash -c '{ echo "$0" >/proc/self/autogroup; } 2>/dev/null || true; exec nice -n "$0" "$@"' \
    "$niceness" "$@" >"$logs/$name.log" 2>&1 &
  lanes[$name]=$!
}
# finish NAME: waits for a background lane (once; its status is kept), returning its exit status.
declare -A ended
finish() {
  if [ -z "${ended[$1]:-}" ]; then
    local status=0
    wait "${lanes[$1]}" || status=$?
    ended[$1]=$status
  fi
  return "${ended[$1]}"
}
stop_lanes() {
  for pid in "${lanes[@]}"; do kill -- "-$pid" 2>/dev/null || true; done
}
trap 'stop_lanes; exit 130' INT TERM

background cpp 10 bash web/scripts/test-cpp.sh "$timings"
# VitePress (for one recipe of the browser suite) installs beside the builds.
background vitepress 0 bash web/scripts/setup.sh --with-vitepress

timed browser 'Build: wasm (and the schema and types written from it)' bash web/scripts/build.sh wasm

background node 5 bash -c 'source web/scripts/timed.sh; timings=$1
  timed Node "Lint: clang-format, Prettier, ESLint" bash web/scripts/lint.sh &&
  timed Node "TypeScript: the .d.ts (index.d.ts, the element'"'"'s, and the types written from the schema)" \
    npx tsc -p web/tsconfig.json &&
  timed Node "Vitest in Node: the JS API, the CLI, the model, the view'"'"'s words and numbers" \
    npx vitest run --config web/vitest.config.js' node-lane "$timings"

browser_status=0
timed browser 'Build the site, the single file and the standalone element' \
  bash -c 'npx vite build --config web/vite.config.js && node web/scripts/build-single.js' &&
  timed browser 'Wait for the VitePress install (for the recipes)' finish vitepress &&
  timed browser 'The page, the element, embedding and the package in Debian'"'"'s Chromium (Playwright)' \
    npx vitest run --config web/vitest.e2e.config.js || browser_status=1

# The other lanes' ends, their logs, and the verdict: every lane must pass.
failed=()
[ "$browser_status" = 0 ] || failed+=(browser)
for name in vitepress node cpp; do
  if finish "$name"; then
    [ "$name" = vitepress ] || { echo "== [$name] lane log:" && cat "$logs/$name.log"; }
  else
    failed+=("$name")
  fi
done
for name in "${failed[@]}"; do
  [ "$name" = browser ] || { echo "== [$name] lane FAILED; its log:" && cat "$logs/$name.log"; }
done
# Needs both lanes' builds: the native core's schema (the fuzzer's dictionary) is the wasm build's.
if [ ${#failed[@]} = 0 ]; then
  FUZZ_DICT_REQUIRED=1 timed checks "The fuzzer's dictionary, from the native schema, is the wasm build's" \
    npx vitest run --config web/vitest.config.js tests/js/fuzz-dict.test.js || failed+=(checks)
fi
if [ ${#failed[@]} -gt 0 ]; then
  echo "== failed: ${failed[*]}"
  exit 1
fi
