#!/usr/bin/env bash
# Every test: the default build, the core suite loading through Boost.DLL, the same suite as the
# default under AddressSanitizer + UBSan, the concurrency tests under ThreadSanitizer, and the
# Windows build (MinGW-w64) run under Wine.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/install-deps.sh
for preset in default boost asan tsan windows; do
  echo "=== $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset"
  ctest --preset "$preset"
done
