#!/usr/bin/env bash
# npm run lint: the C++ is clang-formatted, the JS/TS/CSS Prettier-formatted,
# and ESLint's recommended rules hold.   lint.sh --fix   formats in place.
set -euo pipefail
cd "$(dirname "$0")/../.."
cpp_files=$(git ls-files --cached --others --exclude-standard -- 'cpp/*.cpp' 'cpp/*.h' 'tests/cpp/*.cpp' 'tests/cpp/*.h')
prettier_globs=('web/**/*.{js,ts,css}' 'tests/**/*.{js,ts}' '*.js')
if [ "${1:-}" = "--fix" ]; then
  clang-format -i $cpp_files
  npx prettier --log-level warn --write "${prettier_globs[@]}"
  npx eslint --fix .
else
  clang-format --dry-run --Werror $cpp_files
  npx prettier --log-level warn --check "${prettier_globs[@]}"
  npx eslint .
fi
echo "lint: clean"
