#!/usr/bin/env bash
# Two plugins in one host, each with its own CUSHIM_IMPLEMENTATION (plugin.cpp; plugin_b without
# the CUDA runtime), loaded in both orders, the first RTLD_LOCAL or RTLD_GLOBAL. Each must report
# its own state: its configure() accepted, its own CUDA runtime setting, its own search (which
# finds the other's cuDNN already in the process and reuses it: one file, one handle).
#   run.sh CXX "EXTRA FLAGS" WORK_DIR FIXTURE_DIR CUDNN_FILE CUDNN_VERSION INCLUDE_DIR...
set -u
cxx=$1 extra=$2 work=$3 fixtures=$4 cudnn_file=$5 v=$6
shift 6
includes=()
for dir in "$@"; do includes+=(-I"$dir"); done
mkdir -p "$work"
flags=(-std=c++17 -Wall -Wextra -Werror -fPIC $extra "${includes[@]}")
here=$(cd "$(dirname "$0")" && pwd)
# plugin_a versions its stubs (CUSHIM_VERSIONED_STUBS and cushim.map, beside cushim's headers: the
# first include folder), plugin_b leaves them unversioned, as a shared library does by default.
map="$1/cushim/cushim.map"
"$cxx" "${flags[@]}" -DCUSHIM_VERSIONED_STUBS -shared "$here/plugin.cpp" -o "$work/plugin_a.so" \
  -Wl,--version-script="$map" -ldl -pthread || exit 1
"$cxx" "${flags[@]}" -DCUSHIM_NO_CUDART -shared "$here/plugin.cpp" -o "$work/plugin_b.so" -ldl -pthread || exit 1
"$cxx" -std=c++17 -Wall -Wextra -Werror "$here/host.cpp" -o "$work/plugin_host" -ldl || exit 1

a_cudnn=$fixtures/cudnn_good/$cudnn_file
b_cudnn=$fixtures/cudnn_tree/$cudnn_file
failures=0
expect() {  # expect OUTPUT LINE
  if ! grep -qxF -- "$2" <<<"$1"; then
    echo "MISSING: $2"
    failures=$((failures + 1))
  fi
}
for mode in local global; do
  out=$("$work/plugin_host" "$work/plugin_a.so" "$a_cudnn" "$work/plugin_b.so" "$b_cudnn" $mode)
  echo "--- a then b, a $mode"; echo "$out"
  expect "$out" "first: configured=yes cudnn.found_by=options.files[cudnn] cudnn.path=$a_cudnn cudnn.version=$v cudart=ok"
  expect "$out" "second: configured=yes cudnn.found_by=already loaded in this process cudnn.path=$a_cudnn cudnn.version=$v cudart=disabled"
  out=$("$work/plugin_host" "$work/plugin_b.so" "$b_cudnn" "$work/plugin_a.so" "$a_cudnn" $mode)
  echo "--- b then a, b $mode"; echo "$out"
  expect "$out" "first: configured=yes cudnn.found_by=options.files[cudnn] cudnn.path=$b_cudnn cudnn.version=$v cudart=disabled"
  expect "$out" "second: configured=yes cudnn.found_by=already loaded in this process cudnn.path=$b_cudnn cudnn.version=$v cudart=ok"
done
# The stubs and the public API are the plugin's own: exported, but protected from interposition;
# plugin_a's stubs under cushim's version, which NVIDIA's versioned imports never bind to.
for plugin in plugin_a plugin_b; do
  symbol=' cudnnGetVersion$'
  [ "$plugin" = plugin_a ] && symbol=' cudnnGetVersion@@CUSHIM_1$'
  if ! readelf --dyn-syms -W "$work/$plugin.so" | grep -E "$symbol" | grep -q PROTECTED; then
    echo "MISSING: cudnnGetVersion is not PROTECTED ($symbol) in $plugin.so"
    failures=$((failures + 1))
  fi
  if readelf --dyn-syms -W "$work/$plugin.so" | c++filt | grep -q 'cushim::detail'; then
    echo "MISSING: $plugin.so exports cushim::detail symbols"
    failures=$((failures + 1))
  fi
done
# CUSHIM_INTERPOSABLE (docs/api.md) gives the stubs default visibility, as plain global functions
# (neither protected nor weak), in both stub forms.
for form in "" -DCUSHIM_PORTABLE_STUBS; do
  "$cxx" "${flags[@]}" -DCUSHIM_INTERPOSABLE $form -shared "$here/plugin.cpp" -o "$work/plugin_c.so" -ldl -pthread ||
    exit 1
  if ! readelf --dyn-syms -W "$work/plugin_c.so" | grep -E ' cudnnGetVersion$' | grep -qE 'FUNC +GLOBAL +DEFAULT'; then
    echo "MISSING: cudnnGetVersion is not a GLOBAL DEFAULT function under CUSHIM_INTERPOSABLE $form"
    readelf --dyn-syms -W "$work/plugin_c.so" | grep -E ' cudnnGetVersion$'
    failures=$((failures + 1))
  fi
done
echo "$failures failures"
[ "$failures" -eq 0 ]
