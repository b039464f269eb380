#!/usr/bin/env bash
# cushim runs inside other people's processes: no path in its headers may end the process, except
# the one opt-in fail-fast call in detail/stubs/fail_fast.hpp. Fails, listing the lines, if any other
# header calls abort/exit/terminate or throws, or if fail_fast.hpp has more than its one abort.
set -u
hits=$(grep -rnE '(^|[^_a-zA-Z0-9.>])(std::)?(abort|exit|_Exit|quick_exit|terminate)[[:space:]]*\(|(^|[^_a-zA-Z0-9])throw[[:space:]]' \
  "$1" --include='*.hpp' --include='*.inc' | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//')
allowed=$(printf '%s\n' "$hits" | grep -E '^[^:]*/detail/stubs/fail_fast\.hpp:[0-9]+:[[:space:]]*std::abort\(\);$')
others=$(printf '%s\n' "$hits" | grep -vE '^[^:]*/detail/stubs/fail_fast\.hpp:' | grep -v '^$')
count=$(printf '%s\n' "$allowed" | grep -c .)
if [ -n "$others" ] || [ "$count" -ne 1 ] || [ "$(printf '%s\n' "$hits" | grep -c .)" -ne 1 ]; then
  echo "calls that can end the host process (only one std::abort() in detail/stubs/fail_fast.hpp is allowed):"
  echo "$hits"
  exit 1
fi
echo "no abort/exit/terminate/throw in $1 but the opt-in fail-fast stop"
