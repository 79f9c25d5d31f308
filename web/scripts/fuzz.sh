#!/usr/bin/env bash
# Coverage-guided fuzzing of the engine: libFuzzer with ASan and UBSan over the
# JSON reader (cpp/fuzz/json_fuzz.cpp) and the config parser plus the whole
# pipeline (cpp/fuzz/config_fuzz.cpp), seeded with the reference fixtures' configs,
# with a dictionary written from the schema (build/fuzz/config.dict); and over the
# safetensors reader of the tiny model's weights (cpp/fuzz/safetensors_fuzz.cpp),
# seeded with small hand-made files, with its own dictionary (cpp/fuzz/safetensors.dict).
#   fuzz.sh [seconds]   build into build/fuzz/, then run each target for `seconds` (default 60)
# A crash, a sanitizer report or a broken invariant exits non-zero and leaves the
# input in build/fuzz/crashes/; reproduce it with  build/fuzz/<target> <that file>.
# The corpus grows in build/fuzz/corpus/<target> from run to run.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds="${1:-60}"
out=build/fuzz
if ! command -v clang++ >/dev/null 2>&1; then
  echo "fuzz: clang++ is missing; run  bash web/scripts/setup.sh  to install it" >&2
  exit 1
fi

# The core is compiled here with clang and the sanitizers, not taken from the
# CMake library (g++, no instrumentation). An object is rebuilt when its source,
# any header of cpp/core or this script is newer. It is dated when its compile
# started, so a file saved during the compile is seen as newer next time.
# Line tables only: a sanitizer's report still names file and line, and the
# compile takes about 15 % less than with full debug information.
flags=(-std=c++17 -gline-tables-only -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -ffp-contract=off
  -Icpp/core -I/usr/include/eigen3)
compile() {
  touch "$2.started"
  clang++ "${flags[@]}" -c "$1" -o "$2.tmp" && mv "$2.tmp" "$2" && touch -r "$2.started" "$2"
  local status=$?
  rm -f "$2.started"
  return "$status"
}
mkdir -p "$out/obj"
pids=()
for src in cpp/core/*.cpp cpp/fuzz/*.cpp; do
  obj="$out/obj/$(basename "${src%.cpp}").o"
  if [ ! -f "$obj" ] || [ -n "$(find "$src" cpp/core/*.h web/scripts/fuzz.sh -newer "$obj")" ]; then
    echo "fuzz: compiling $src"
    compile "$src" "$obj" &
    pids+=($!)
  fi
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
[ "$failed" = 0 ] || exit 1
core=()
for src in cpp/core/*.cpp; do core+=("$out/obj/$(basename "${src%.cpp}").o"); done
targets=(json_fuzz config_fuzz safetensors_fuzz)
for target in "${targets[@]}"; do
  clang++ "${flags[@]}" "$out/obj/$target.o" "${core[@]}" -o "$out/$target"
done

# The dictionary: written from the schema of these very objects (schema_dump prints
# it; a program of its own, so linked without libFuzzer's main), then the hand-kept
# tokens that are no part of the schema (cpp/fuzz/json.dict).
clang++ -fsanitize=address,undefined -fsanitize=fuzzer-no-link "$out/obj/schema_dump.o" "${core[@]}" -o "$out/schema_dump"
"$out/schema_dump" >"$out/schema.json"
node web/scripts/fuzz-dict.js "$out/schema.json" cpp/fuzz/json.dict >"$out/config.dict"

# Seeds: each fixture's "config", and a few hand-written ones for what no
# fixture has (edits, typed arrays, a randn query over a tokenized context).
seeds="$out/seeds"
rm -rf "$seeds"
mkdir -p "$seeds"
node --input-type=module -e '
import fs from "node:fs";
const [dir, seeds] = process.argv.slice(1);
for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".json"))) {
  const fixture = JSON.parse(fs.readFileSync(`${dir}/${name}`, "utf8"));
  if (fixture && typeof fixture.config === "object") fs.writeFileSync(`${seeds}/${name}`, JSON.stringify(fixture.config));
}' tests/reference/fixtures "$seeds"
echo '{"text":"edit the cat","dModel":4,"numHeads":2,"embedding":{"edits":[["cat",1,2.5],[0,3,-1]]},"weights":{"edits":{"W_Q":[[0,1,0.5]],"b_O":[[2,1]]}}}' >"$seeds/hand-edits.json"
echo '{"text":"typed arrays","dModel":2,"numHeads":1,"weights":{"values":{"W_Q":{"$tensor":0,"shape":[2,2]},"b_O":{"$tensor":3,"shape":[2]}}}}' >"$seeds/hand-typed-arrays.json"
echo '{"input":{"randn":[1,2,4]},"contextText":"a b c","dModel":4,"numHeads":2,"mask":"causal+padding","maxLen":4}' >"$seeds/hand-randn-context.json"
echo '{"model":"tiny","checkpoint":750,"text":"ab 注意 ab 注意 ","dModel":16}' >"$seeds/hand-tiny.json"
echo '{"model":"tiny","text":"aa"}' >"$seeds/hand-tiny-twice.json"

# The safetensors target's seeds: files of the two small tensors it asks for (a [2, 2], b [3], F16):
# a whole one, one with a NaN, one of another dtype, one whose data is cut short; and a GPT-2 checkpoint.
tensor_seeds="$out/seeds-safetensors"
rm -rf "$tensor_seeds"
mkdir -p "$tensor_seeds"
node --input-type=module -e '
import fs from "node:fs";
const dir = process.argv[1];
const file = (header, data) => {
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  return Buffer.concat([length, json, Buffer.from(data)]);
};
const tensors = (dtype = "F16") => ({
  __metadata__: { format: "pt" },
  a: { dtype, shape: [2, 2], data_offsets: [0, 8] },
  b: { dtype, shape: [3], data_offsets: [8, 14] },
});
const halves = [0x3c00, 0xc000, 0x3800, 0x0001, 0x7bff, 0x8000, 0x3555];
const bytes = (list) => Buffer.from(new Uint16Array(list).buffer);
fs.writeFileSync(`${dir}/whole`, file(tensors(), bytes(halves)));
fs.writeFileSync(`${dir}/nan`, file(tensors(), bytes([0x7e00, ...halves.slice(1)])));
fs.writeFileSync(`${dir}/f32`, file(tensors("F32"), bytes(halves)));
fs.writeFileSync(`${dir}/cut`, file(tensors(), bytes(halves.slice(0, 3))));
// A whole GPT-2 checkpoint of the target'"'"'s 1-layer model of width 2 (n_inner 8, 2 positions, 2 tokens), BF16,
// under "transformer.": its forward runs.
const gpt2 = [["wte.weight", [2, 2]], ["wpe.weight", [2, 2]], ["h.0.ln_1.weight", [2]], ["h.0.ln_1.bias", [2]],
  ["h.0.attn.c_attn.weight", [2, 6]], ["h.0.attn.c_attn.bias", [6]], ["h.0.attn.c_proj.weight", [2, 2]],
  ["h.0.attn.c_proj.bias", [2]], ["h.0.ln_2.weight", [2]], ["h.0.ln_2.bias", [2]], ["h.0.mlp.c_fc.weight", [2, 8]],
  ["h.0.mlp.c_fc.bias", [8]], ["h.0.mlp.c_proj.weight", [8, 2]], ["h.0.mlp.c_proj.bias", [2]], ["ln_f.weight", [2]],
  ["ln_f.bias", [2]]];
const header = {};
const values = [];
for (const [name, shape] of gpt2) {
  const count = shape.reduce((a, b) => a * b, 1);
  header[`transformer.${name}`] = { dtype: "BF16", shape, data_offsets: [2 * values.length, 2 * (values.length + count)] };
  for (let i = 0; i < count; ++i) values.push(0x3f80 + ((values.length * 37) % 64) - 32);  // near 1.0
}
fs.writeFileSync(`${dir}/gpt2`, file(header, bytes(values)));' "$tensor_seeds"

# The targets run side by side when there are two cores or more (libFuzzer runs one thread; each
# still gets its `seconds` of wall time), else one after the other.
parallel=0
[ "$(nproc 2>/dev/null || echo 1)" -ge 2 ] && parallel=1
fuzz() {
  local target=$1 target_seeds=$seeds dict=$out/config.dict
  if [ "$target" = safetensors_fuzz ]; then
    target_seeds=$tensor_seeds
    dict=cpp/fuzz/safetensors.dict
  fi
  "$out/$target" "$out/corpus/$target" "$target_seeds" -dict="$dict" -max_len=4096 -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$out/crashes/$target-" >"$out/$target.log" 2>&1
}
runs=()
for target in "${targets[@]}"; do
  mkdir -p "$out/corpus/$target" "$out/crashes"
  echo "== fuzz: $target for ${seconds} s (log: $out/$target.log)"
  if [ "$parallel" = 1 ]; then
    fuzz "$target" &
    runs+=($!)
  fi
done

status=0
for k in "${!targets[@]}"; do
  target=${targets[$k]}
  log="$out/$target.log"
  if [ "$parallel" = 1 ]; then wait "${runs[$k]}"; else fuzz "$target"; fi && ok=1 || ok=0
  if [ "$ok" = 1 ]; then
    # "#123456 DONE cov: 1234 ft: 5678 corp: 90/12Kb lim: 4096 exec/s: 6172 rss: 120Mb", and the totals.
    echo "fuzz: $target"
    grep -E '^#[0-9]+[[:space:]]+DONE|^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)' "$log" ||
      tail -n 5 "$log"
  else
    status=1
    tail -n 60 "$log"
    crash=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
    echo "fuzz: $target FAILED; the input is ${crash:-(not written, see $log)}" >&2
    [ -n "$crash" ] && echo "fuzz: reproduce with  $out/$target $crash" >&2
  fi
done
exit "$status"
