#!/usr/bin/env bash
# Every test: the default build, the core suite loading through Boost.DLL, the same suite as the
# default under AddressSanitizer + UBSan, the concurrency tests under ThreadSanitizer, and the
# Windows build (MinGW-w64) run under Wine. Each stage's time is printed at its end.
#   scripts/test.sh          everything (what CI runs)
#   scripts/test.sh --quick  the edit-build-test loop: the default preset's core suites (label
#                            quick: behaviour, tables, headers), no consumers, fuzzers or Wine
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
quick=false
case "${1:-}" in
  --quick) quick=true ;;
  "") ;;
  *) echo "usage: scripts/test.sh [--quick]" >&2; exit 64 ;;
esac
scripts/install-deps.sh
stage() {
  local start=$SECONDS
  echo "=== $1"
  cmake --preset "$1" >/dev/null
  if $quick; then
    cmake --build --preset "$1" --target quick_tests
    ctest --preset "$1" -L quick
  else
    cmake --build --preset "$1"
    ctest --preset "$1"
  fi
  printf '=== %s: %d:%02d\n' "$1" $(((SECONDS - start) / 60)) $(((SECONDS - start) % 60))
}
if $quick; then
  stage default
  exit 0
fi
for preset in default boost asan tsan windows; do
  stage "$preset"
done
