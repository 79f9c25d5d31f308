#!/usr/bin/env bash
# npm test: set up, build both targets, then run every test suite.
# Each stage's wall-clock time is printed after it, and all of them at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."

timings=()
stage_name=''
stage_started=$SECONDS
# stage "title": ends the stage running (its time noted) and starts the next.
stage() {
  if [ -n "$stage_name" ]; then
    local took=$((SECONDS - stage_started))
    timings+=("$(printf '%5d s  %s' "$took" "$stage_name")")
    echo "== ${stage_name}: ${took} s"
  fi
  stage_name="$1"
  stage_started=$SECONDS
  [ -n "$stage_name" ] && echo "== $stage_name"
  return 0
}
# At the end, or at the stage that failed: the table of times.
summary() {
  local status=$?
  stage ''
  echo "== Wall-clock time per stage (total ${SECONDS} s$([ "$status" = 0 ] || echo ", stopped by a failure")):"
  printf '%s\n' "${timings[@]}"
}
trap summary EXIT

stage "Setup: Debian packages and npm ci, when missing"
bash web/scripts/setup.sh --with-browser --with-torch --with-jupyter --with-vitepress

stage "Build: native and wasm"
bash web/scripts/build.sh native wasm

stage "Lint: clang-format, Prettier, ESLint"
bash web/scripts/lint.sh

stage "C++ (GoogleTest via CTest)"
ctest --test-dir build/native --output-on-failure

stage "Fuzzing: libFuzzer + ASan + UBSan over the config parser and the pipeline, briefly"
bash web/scripts/fuzz.sh 15

stage "TypeScript: the .d.ts (index.d.ts, the element's, and the types the build wrote from the schema)"
npx tsc -p web/tsconfig.json

stage "JS API and CLI on the wasm build (Vitest)"
npx vitest run --config web/vitest.config.js

stage "Build the site, the single file and the standalone element"
npx vite build --config web/vite.config.js
node web/scripts/build-single.js

stage "The page, the element, embedding and the package in Debian's Chromium (Playwright)"
npx vitest run --config web/vitest.e2e.config.js
