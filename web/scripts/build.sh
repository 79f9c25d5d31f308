#!/usr/bin/env bash
# Builds the C++ core.  build.sh native   -> build/native (tests)
#                       build.sh wasm     -> web/api/generated/attention-lab-wasm.js, attention-lab-tiny.js, attention-lab-checkpoint.js,
#                                            lzma-decode.wasm (the single builds' decoder),
#                                            the schema (schema.js, .json) and the types written from
#                                            it (schema-types.d.ts, element-properties.d.ts)
#                                            (+ build/wasm/gemm_wasm_check.js,
#                                            random_wasm_check.js and memory_budget_wasm_check.js,
#                                            run by the tests)
#                       build.sh native-bench -> build/native: npm run bench's native contestants
#                                            (our engine and plain Eigen, -msse4.2 and -march=native)
#                       build.sh wasm-bench -> build/wasm/gemm_bench.js, simd_peak.js (npm run bench)
set -euo pipefail
cd "$(dirname "$0")/../.."
jobs=$(nproc 2>/dev/null || echo 2)

for target in "$@"; do
  case "$target" in
    native)
      cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
      cmake --build build/native -j "$jobs"
      ;;
    native-bench)
      cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
      cmake --build build/native -j "$jobs" --target attention_lab_bench_sse42 attention_lab_bench_march_native \
        bench_eigen_attention_sse42 bench_eigen_attention_march_native
      ;;
    wasm)
      # Debian's emcc finds its JS dependencies (acorn) only through NODE_PATH.
      export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
      emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DCMAKE_FIND_ROOT_PATH=/usr >/dev/null
      cmake --build build/wasm -j "$jobs" --target attention_lab_wasm attention_lab_tiny_wasm attention_lab_checkpoint_wasm attention_lab_lzma_wasm schema_dump gemm_wasm_check random_wasm_check \
        memory_budget_wasm_check
      node web/scripts/write-schema.js
      node web/scripts/write-types.js
      ;;
    wasm-bench)
      export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
      emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DCMAKE_FIND_ROOT_PATH=/usr >/dev/null
      cmake --build build/wasm -j "$jobs" --target gemm_bench simd_peak
      ;;
    *)
      echo "build.sh: unknown target '$target' (native, native-bench, wasm or wasm-bench)" >&2
      exit 2
      ;;
  esac
done
