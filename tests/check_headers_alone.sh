#!/usr/bin/env bash
# Every header under include/ compiles on its own: each in a translation unit of its own, with the
# project's warnings, so a header says what it needs instead of relying on what came before it.
# On Linux every header but the Windows halves (detail/*/windows/), which os.hpp includes only for
# Windows; with MinGW those alone, as the rest is the same code. The generated api/*.inc are fragments of the
# headers that include them, not headers.
# usage: check_headers_alone.sh <c++ compiler> <include dir> <folder under it> <folder left out, or
#        -> [more -I/-D flags...]. Both folders may be patterns (cushim/detail/*/windows: each
#        stage's Windows half), expanded by the shell and by find.
set -u
cxx="$1" include="$2" folder="$3" skipped="$4"
shift 4
cd "$include" || exit 2
# shellcheck disable=SC2086  # $folder may be a pattern of several folders
headers=$(find $folder -name '*.hpp' -not -path "$skipped/*" | sort)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The definitions of the public API come after its declarations, as diagnostics.hpp enters them
# (CUSHIM_IMPLEMENTATION): these compile after <cushim/diagnostics.hpp>, the header they define, and
# include no public header themselves.
export CUSHIM_AFTER_PUBLIC=" cushim/detail/implementation.hpp cushim/detail/answers/diagnostics_impl.hpp "
# One compile per header, one per core at a time; each writes its errors to a log named after it.
printf '%s\n' $headers | xargs -P "$(nproc)" -I{} bash -c '
  log="$1/$(echo "$2" | tr / _).log"
  first=""
  case "$CUSHIM_AFTER_PUBLIC" in *" $2 "*) first="#include <cushim/diagnostics.hpp>\n" ;; esac
  printf "$first#include <%s>\n" "$2" | "$3" -std=c++17 -fsyntax-only -Wall -Wextra -Wpedantic -Werror \
    -I. "${@:4}" -x c++ - >"$log" 2>&1 || echo "$2" >>"$1/failed"' bash "$work" {} "$cxx" "$@"
count=$(printf '%s\n' $headers | grep -c .)
if [ -s "$work/failed" ]; then
  echo "$(grep -c . "$work/failed") of $count headers do not compile on their own:"
  for h in $(sort "$work/failed"); do
    echo "== $h"
    grep -m3 'error' "$work/$(echo "$h" | tr / _).log"
  done
  exit 1
fi
echo "all $count headers under include/$folder compile on their own"
