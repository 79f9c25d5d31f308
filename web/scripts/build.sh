#!/usr/bin/env bash
# Builds the C++ core.  build.sh native   -> build/native (tests, benchmark)
#                       build.sh wasm     -> web/api/generated/attention-lab-wasm.js
#                                            (+ build/wasm/gemm_wasm_check.js and
#                                            random_wasm_check.js, run by the tests)
#                       build.sh wasm-bench -> build/wasm/gemm_bench.js (npm run bench)
set -euo pipefail
cd "$(dirname "$0")/../.."
jobs=$(nproc 2>/dev/null || echo 2)

for target in "$@"; do
  case "$target" in
    native)
      cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
      cmake --build build/native -j "$jobs"
      ;;
    wasm)
      # Debian's emcc finds its JS dependencies (acorn) only through NODE_PATH.
      export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
      emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DCMAKE_FIND_ROOT_PATH=/usr >/dev/null
      cmake --build build/wasm -j "$jobs" --target attention_lab_wasm gemm_wasm_check random_wasm_check
      node web/scripts/write-schema.js
      ;;
    wasm-bench)
      export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
      emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DCMAKE_FIND_ROOT_PATH=/usr >/dev/null
      cmake --build build/wasm -j "$jobs" --target gemm_bench
      ;;
    *)
      echo "build.sh: unknown target '$target' (native, wasm or wasm-bench)" >&2
      exit 2
      ;;
  esac
done
