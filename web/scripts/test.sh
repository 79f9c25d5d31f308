#!/usr/bin/env bash
# npm test: set up, build both targets, then run every test suite.
set -euo pipefail
cd "$(dirname "$0")/../.."

bash web/scripts/setup.sh --with-browser --with-torch --with-jupyter --with-vitepress
bash web/scripts/build.sh native wasm

echo "== Lint: clang-format, Prettier, ESLint"
bash web/scripts/lint.sh

echo "== C++ (GoogleTest via CTest)"
ctest --test-dir build/native --output-on-failure

echo "== Fuzzing: libFuzzer + ASan + UBSan over the config parser and the pipeline, briefly"
bash web/scripts/fuzz.sh 15

echo "== TypeScript: the hand-written .d.ts"
npx tsc -p web/tsconfig.json

echo "== JS API and CLI on the wasm build (Vitest)"
npx vitest run --config web/vitest.config.js

echo "== Build the site, the single file and the standalone element"
npx vite build --config web/vite.config.js
node web/scripts/build-single.js

echo "== The page, the element, embedding and the package in Debian's Chromium (Playwright)"
npx vitest run --config web/vitest.e2e.config.js
