#!/usr/bin/env bash
# npm run lint: the C++ is clang-formatted, the JS/TS/CSS Prettier-formatted,
# and ESLint's recommended rules hold.   lint.sh --fix   formats in place.
set -euo pipefail
cd "$(dirname "$0")/../.."
cpp_files=$(git ls-files --cached --others --exclude-standard -- 'cpp/*.cpp' 'cpp/*.h' 'tests/cpp/*.cpp' 'tests/cpp/*.h')
prettier_globs=('web/**/*.{js,ts,css}' 'tests/**/*.{js,ts,tsx}')
# The ESLint config sits in web/ (the top level holds only the repository's own files).
eslint=(npx eslint --config web/eslint.config.js)
if [ "${1:-}" = "--fix" ]; then
  clang-format -i $cpp_files
  npx prettier --log-level warn --write "${prettier_globs[@]}"
  "${eslint[@]}" --fix .
else
  clang-format --dry-run --Werror $cpp_files
  npx prettier --log-level warn --check "${prettier_globs[@]}"
  "${eslint[@]}" .
fi
echo "lint: clean"
