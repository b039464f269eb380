#!/usr/bin/env bash
# cushim runs inside other people's processes: no path in its headers may end the process.
# Fails, listing the lines, if any header calls abort/exit/terminate or throws.
set -u
hits=$(grep -rnE '(^|[^_a-zA-Z0-9.>])(std::)?(abort|exit|_Exit|quick_exit|terminate)[[:space:]]*\(|(^|[^_a-zA-Z0-9])throw[[:space:]]' \
  "$1" --include='*.hpp' --include='*.inc' | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//')
if [ -n "$hits" ]; then
  echo "calls that can end the host process:"
  echo "$hits"
  exit 1
fi
echo "no abort/exit/terminate/throw in $1"
