#!/usr/bin/env bash
# The main job: build cushim-doctor and run it on this machine. Extra arguments go to the doctor
# (--json, --search-dir DIR). Exit code is the doctor's (README.md, "The doctor").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
cmake --preset default -S "$root" >/dev/null
cmake --build "$root/build/default" --target cushim-doctor >/dev/null
exec "$root/build/default/doctor/cushim-doctor" "$@"
