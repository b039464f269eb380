#!/usr/bin/env bash
# The race loops of test_threads (cushim_probe --mode loop: tests/probe/race_loops.hpp), each for
# much longer than the test command runs them: a nightly check, not part of scripts/test.sh.
#   scripts/stress.sh [RUNS [SECONDS]]   each scenario at most RUNS runs (default 5000) or SECONDS
#                                        seconds (default 600), whichever comes first
#   STRESS_PRESET=tsan scripts/stress.sh the same under ThreadSanitizer (the fork scenario left out:
#                                        TSan refuses a thread started after a fork with threads)
# Each run is a fresh process with a limit of its own (5 s); a scenario stops at the first run that
# hangs, dies of a signal or answers wrong. Exit 0 when every scenario passed, 1 otherwise.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
runs=${1:-5000}
seconds=${2:-600}
preset=${STRESS_PRESET:-default}
scripts/install-deps.sh
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" --target cushim_probe fake_cudnn_good fake_cudart_good
fixtures=$root/build/$preset/fixtures
cudnn=$(ls "$fixtures"/cudnn_good/libcudnn.so.*)
cudart=$(ls "$fixtures"/cudart_good/libcudart.so.*)
scenarios=(cancel-during-first-calls fifo-over-candidate fifo-flips-candidate candidate-cut)
[ "$preset" = tsan ] || scenarios=(fork-during-first-calls "${scenarios[@]}")
failed=0
for scenario in "${scenarios[@]}"; do
  environment=(env -i "PATH=/usr/bin:/bin" "TSAN_OPTIONS=halt_on_error=1:report_thread_leaks=0")
  case $scenario in
    fork-during-first-calls) environment+=("CUSHIM_CUDNN_PATH=$cudnn" "CUSHIM_CUDART_PATH=$cudart") ;;
    fifo-* | candidate-cut) environment+=("CUSHIM_CUDNN_PATH=$cudnn") ;;
  esac
  start=$SECONDS
  out=$("${environment[@]}" "build/$preset/tests/cushim_probe" --mode loop "$scenario" --runs "$runs" \
    --seconds "$seconds" --run-limit-ms 5000)
  printf '%s: %s runs in %d s%s\n' "$scenario" "$(sed -n 's/^loop.runs=//p' <<<"$out")" $((SECONDS - start)) \
    "$(sed -n 's/^loop.failure=/, FAILED: /p' <<<"$out")"
  grep -q '^loop.failed=0$' <<<"$out" || failed=1
done
exit $failed
