#!/usr/bin/env bash
# gpu-check.sh's summary (scripts/gpu-check/summary.sh) from fixture rows: the check's exit for
# each mix of verdicts, the table, and the JSON block, which must parse and give back every
# output byte for byte (quotes, backslashes, tabs, a doctor's JSON report).
#   test_summary.sh REPOSITORY_ROOT PYTHON WORK_DIR
set -uo pipefail
root=$1 python=$2 build=$3/build
rm -rf "$3" && mkdir -p "$build/runs" "$build/headers"
failures=0
check() {  # check DESCRIPTION COMMAND...
  if "${@:2}"; then echo "ok: $1"; else echo "FAILED: $1"; failures=$((failures + 1)); fi
}
# shellcheck source=../../scripts/gpu-check/summary.sh
source "$root/scripts/gpu-check/summary.sh"

rows() {  # rows ROW...: each "program;mode;exit;verdict;meaning;output file"
  : >"$build/rows.tsv"
  [ $# -eq 0 ] || printf '%s\n' "$@" | tr ';' '\t' >"$build/rows.tsv"
}
exit_for() { rows "$@"; overall_exit; }
check "no usable GPU: every program exit 3, the doctor WARN" test "$(exit_for \
  'cushim-doctor;plain;2;WARN;w;' 'conv_forward;plain;3;NO_GPU;n;' 'conv_forward;found;3;NO_GPU;n;')" = 3
check "a failed run fails the check" test "$(exit_for 'conv_forward;plain;0;PASS;p;' 'lstm_forward;plain;4;FAIL;f;')" = 1
check "a program that fails to build fails the check" test "$(exit_for 'conv_forward;-;-;FAIL;the build failed;')" = 1
check "passed in one environment is passed" test "$(exit_for \
  'conv_forward;plain;3;NO_GPU;n;' 'conv_forward;found;0;PASS;p;' 'cushim-doctor;plain;2;WARN;w;')" = 0
check "one program without a pass anywhere: no usable GPU for it" test "$(exit_for \
  'conv_forward;found;0;PASS;p;' 'toolkit_math;found;3;NO_GPU;n;')" = 3
check "what was not built is no failure" test "$(exit_for 'conv_forward;found;0;PASS;p;' 'kernel_saxpy;-;-;SKIP;no nvcc;')" = 0
check "nothing ran: failed" test "$(exit_for)" = 1

printf 'conv_forward: no usable GPU or cuDNN: "quoted" \\ back\\slash\ttab\nsecond line\n' >"$build/runs/conv.txt"
printf '{"verdict": {"exit_code": 1, "text": "say \\"no\\""}}\n' >"$build/runs/doctor.json"
rows 'cushim-doctor --json;plain;1;NO_GPU;nothing can use a GPU here: the report as JSON;'"$build/runs/doctor.json" \
  'conv_forward;plain;3;NO_GPU;no usable GPU or library: a | in it;'"$build/runs/conv.txt" \
  'kernel_saxpy;-;-;SKIP;not built: no nvcc;'
printf 'cuda\t/opt/cuda/include\tchosen\tthe first whose cuda_runtime_api.h compiles (CUDA 13.0)\n' >"$build/headers/headers.tsv"
printf 'gpu\tNVIDIA H200, 580.159.04\nLD_LIBRARY_PATH\t/usr/local/nvidia/lib64\n' >"$build/meta.tsv"
echo 345 >"$build/runs/doctor_ms.plain"
echo '{"runs": 10, "figures": [{"key": "first_create_ms", "ratio": 1.01}]}' >"$build/bench.json"
echo "bench table" >"$build/runs/gpu_bench.txt"
shown=$(write_summary 3 42)
check "the table on standard output, then the verdict and the file" \
  grep -qxF "| conv_forward | plain | 3 | NO_GPU | no usable GPU or library: a / in it |" <<<"$shown"
check "the file's title says the exit" grep -qx "# scripts/gpu-check.sh: exit 3, NO USABLE GPU: .*" "$build/summary.md"
check "the file has the table" grep -qxF "| kernel_saxpy | - | - | SKIP | not built: no nvcc |" "$build/summary.md"
check "the file has the bench's table" grep -qxF "bench table" "$build/summary.md"
"$python" - "$build" <<'EOF'
import json, re, sys
build = sys.argv[1]
text = open(f"{build}/summary.md").read()
data = json.loads(re.search(r"```json\n(.*)```", text, re.S).group(1))
expected = {
    "exit": data["gpu_check"]["exit"] == 3 and data["gpu_check"]["seconds"] == 42,
    "machine": data["gpu_check"]["machine"][0] == {"key": "gpu", "value": "NVIDIA H200, 580.159.04"},
    "headers": data["headers"][0]["outcome"] == "chosen" and data["headers"][0]["folder"] == "/opt/cuda/include",
    "rows": [r["program"] for r in data["runs"]] == ["cushim-doctor --json", "conv_forward", "kernel_saxpy"],
    "exit codes": [r["exit"] for r in data["runs"]] == [1, 3, None],
    "an output byte for byte": data["runs"][1]["output"] == open(f"{build}/runs/conv.txt").read().rstrip("\n"),
    "the doctor's JSON, readable again": json.loads(data["runs"][0]["output"])["verdict"]["text"] == 'say "no"',
    "no output: null": data["runs"][2]["output"] is None,
    "doctor time": data["doctor_ms_median_of_5"] == {"plain": 345},
    "bench": data["bench"]["figures"][0]["ratio"] == 1.01,
}
for what, ok in expected.items():
    print(("ok: " if ok else "FAILED: ") + "JSON: " + what)
sys.exit(0 if all(expected.values()) else 1)
EOF
check "the JSON block" test $? -eq 0

[ $failures -eq 0 ] && echo "the summary as expected" || echo "$failures check(s) failed"
[ $failures -eq 0 ]
