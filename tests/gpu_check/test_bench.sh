#!/usr/bin/env bash
# The GPU bench as far as it runs here (bench/gpu): each build of gpu_bench says "no GPU" and exits
# 3 without one (on a machine with a GPU it prints every figure instead), and so does the harness
# given them; the harness itself, with stand-in programs of known figures: the runs alternate, the
# medians, quartiles, ratios and verdicts, its JSON, and what stops it.
#   test_bench.sh INTERLEAVE GPU_BENCH_DIRECT GPU_BENCH_CUSHIM PYTHON WORK_DIR
set -uo pipefail
interleave=$1 direct=$2 cushim=$3 python=$4 work=$5
rm -rf "$work" && mkdir -p "$work"
failures=0
check() {  # check DESCRIPTION COMMAND...
  if "${@:2}"; then echo "ok: $1"; else echo "FAILED: $1"; failures=$((failures + 1)); fi
}
has() { grep -qE "$2" <<<"$1"; }
keys_first='^first_create_ms=[0-9.]+$'
keys_calls='cudaGetDevice_ns=.*cudnnSetStream_ns=.*cudaStreamQuery_ns=.*cudnnConvolutionForward_us='

for build in "$direct" "$cushim"; do
  name=$(basename "$build")
  out=$("$build" first "$(date +%s%N)")
  code=$?
  if [ $code -eq 3 ]; then
    check "$name first: no GPU, exit 3, says why" has "$out" '^no GPU: cudnnCreate returned .*; cudaGetDeviceCount: '
  else
    check "$name first: a GPU here, its time to cudnnCreate" has "$code $out" "^0 $keys_first"
  fi
  out=$("$build" calls)
  code=$?
  if [ $code -eq 3 ]; then
    check "$name calls: no GPU, exit 3, says why" has "$out" '^no GPU: cudaGetDeviceCount: '
  else
    check "$name calls: a GPU here, every figure" has "$code $(echo $out)" "^0 .*$keys_calls"
  fi
  "$build" >/dev/null 2>&1
  check "$name: bad arguments exit 64" test $? -eq 64
done

out=$("$interleave" 2 "$direct" "$cushim" "$work/real.json")
code=$?
if [ $code -eq 3 ]; then
  check "the harness: no GPU, exit 3, the run's reason repeated" has "$out" '^interleave: no GPU: '
  check "the harness: no JSON without figures" test ! -e "$work/real.json"
else
  check "the harness: a GPU here, measured" test $code -eq 0 -a -s "$work/real.json"
fi

# Stand-ins: "direct" reports 100 (first) and 40 ns, "cushim" 110 and 42 or 40 ns; each logs its
# run. `first` must get a CLOCK_MONOTONIC time in ns, taken just before it started.
stand_in() {  # stand_in NAME FIRST_VALUE GETDEVICE_VALUES [EXIT] [LEAVE_OUT]
  cat >"$work/$1" <<EOF
#!/usr/bin/env bash
echo "$1 \$1" >>"$work/order"
if [ "\$1" = first ]; then
  now=\$($python -c 'import time; print(time.monotonic_ns())')
  [ \$((now - \$2)) -ge 0 ] && [ \$((now - \$2)) -lt 10000000000 ] || echo "bad start \$2" >>"$work/order"
  echo first_create_ms=$2
  exit ${4:-0}
fi
values=($3)
echo cudaGetDevice_ns=\${values[\$((\$(grep -c "$1 calls" "$work/order") % \${#values[@]}))]}
printf '%s\n' cudnnSetStream_ns=12 cudaStreamQuery_ns=300 cudnnConvolutionForward_us=8.5 | grep -v "${5:-none}="
exit ${4:-0}
EOF
  chmod +x "$work/$1"
}
stand_in direct 100 "40"
stand_in cushim 110 "40 42"
out=$("$interleave" 4 "$work/direct" "$work/cushim" "$work/fake.json")
check "stand-ins: exit 0" test $? -eq 0
check "runs alternate: D C, then C D, first then calls" test "$(head -n 8 "$work/order" | paste -sd' ')" \
  = "direct first cushim first direct calls cushim calls cushim first direct first cushim calls direct calls"
check "every first run got its start time" bash -c '! grep -q "bad start" "$1"' _ "$work/order"
check "a difference beyond the quartiles is shown" \
  has "$out" '^process start to the first successful cudnnCreate \(ms\) +100 \[100-100\] \(100-100\) +110 \[110-110\] \(110-110\) +1\.100  cushim slower$'
check "one inside them is not" has "$out" '^cudaGetDevice, per call \(ns\) +40 .* 41 \[40-42\] \(40-42\) +1\.025  within the spread$'
check "the whole process's time is measured by the harness" has "$out" '^whole process: .* \(ms\) +[0-9.]+ '
"$python" - "$work/fake.json" <<'EOF'
import json, sys
data = json.load(open(sys.argv[1]))
figures = {f["key"]: f for f in data["figures"]}
ok = (data["runs"] == 4 and len(figures) == 6 and figures["first_create_ms"]["difference_shown"] is True
      and figures["first_create_ms"]["cushim"]["values"] == [110] * 4
      and figures["cudaGetDevice_ns"]["cushim"]["median"] == 41
      and figures["cudaGetDevice_ns"]["difference_shown"] is False
      and abs(figures["cudnnSetStream_ns"]["ratio"] - 1) < 1e-9)
print("ok: the JSON" if ok else "FAILED: the JSON: " + json.dumps(data)[:2000])
sys.exit(0 if ok else 1)
EOF
check "the JSON file" test $? -eq 0

stand_in cushim 110 "40" 4
out=$("$interleave" 2 "$work/direct" "$work/cushim")
check "a failed run stops it: exit 1, named" test $? -eq 1 -a -n "$(grep "cushim failed (exit 4)" <<<"$out")"
stand_in cushim 110 "40" 0 cudaStreamQuery_ns
out=$("$interleave" 2 "$work/direct" "$work/cushim")
check "a figure a run left out: exit 1, named" test $? -eq 1 -a -n "$(grep "cudaStreamQuery_ns: not every run printed it" <<<"$out")"
"$interleave" 1 "$work/direct" "$work/cushim" >/dev/null 2>&1
check "fewer than 2 runs: exit 64" test $? -eq 64

[ $failures -eq 0 ] && echo "the bench as expected" || echo "$failures check(s) failed"
[ $failures -eq 0 ]
