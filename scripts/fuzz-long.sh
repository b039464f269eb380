#!/usr/bin/env bash
# The long fuzzing run reported in the closing notes: each libFuzzer target for RUNS executions
# (default 1,000,000) from the seeds ctest uses (fixture libraries, MinGW DLLs, ld.so.cache,
# PATH-like lists and paths for the JSON escaper). Exits non-zero when a target finds a crash.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-1000000}
build="$root/build/default"
cmake --preset default -S "$root" >/dev/null
cmake --build "$build" >/dev/null
cd "$build"
declare -A seeds=(
  [fuzz_elf]="fixtures/cudnn_tree"
  [fuzz_pe]="pe_fixtures/x64 pe_fixtures/x86"
  [fuzz_search_lists]="fuzz/search_lists_seeds"
  [fuzz_json]="$root/tests/fuzz/json_seeds"
)
status=0
for target in fuzz_elf fuzz_pe fuzz_search_lists fuzz_json; do
  echo "=== $target: $runs runs, seeds ${seeds[$target]}"
  mkdir -p "fuzz/${target}_long"
  # shellcheck disable=SC2086  # each seed folder is its own argument
  if ! "fuzz/$target" -runs="$runs" -seed=2 -max_len=65536 "fuzz/${target}_long" ${seeds[$target]} \
    >"fuzz/$target.log" 2>&1; then
    status=1
  fi
  grep -E "INITED|DONE|^Done|ERROR|SUMMARY" "fuzz/$target.log" || true
done
exit $status
