#!/usr/bin/env bash
# gpu-check.sh's choice of headers (scripts/gpu-check/headers.sh) on fixture folders: a CUDA 13
# wheel's include without crt/ (its cuda_runtime_api.h includes crt/host_defines.h, as on the GPU
# machine), a toolkit's include without cuDNN, a cuDNN-only include (a wheel's: its cudnn.h needs
# the CUDA headers), and a CUDA 12 toolkit with cuDNN in its include folder.
#   test_headers.sh CXX REPOSITORY_ROOT WORK_DIR
set -uo pipefail
cxx=$1 root=$2 fixtures=$3/fixtures
work=$3/work
rm -rf "$3" && mkdir -p "$work"
failures=0
check() {  # check DESCRIPTION COMMAND...
  if "${@:2}"; then echo "ok: $1"; else echo "FAILED: $1"; failures=$((failures + 1)); fi
}
tsv_has() { grep -qxF "$(printf '%s\t%s\t%s\t' "$1" "$2" "$3")$4" "$work/headers.tsv"; }
tsv_matches() { grep -qE "^$1	$2	$3	$4" "$work/headers.tsv"; }

make_folder() {  # make_folder FOLDER FILE CONTENT [FILE CONTENT]...
  local folder=$1
  shift
  mkdir -p "$fixtures/$folder"
  while [ $# -gt 0 ]; do
    mkdir -p "$(dirname "$fixtures/$folder/$1")"
    printf '%s\n' "$2" >"$fixtures/$folder/$1"
    shift 2
  done
}
cudnn_files() {  # cudnn_files FOLDER MINOR: cudnn_version.h and a cudnn.h that needs the CUDA headers
  make_folder "$1" cudnn_version.h "#define CUDNN_MAJOR 9
#define CUDNN_MINOR $2
#define CUDNN_PATCHLEVEL 0" cudnn.h '#include "cudnn_version.h"
#include <cuda_runtime_api.h>
#ifndef CUDART_VERSION
#error "cudnn.h: no CUDA runtime headers"
#endif'
}
make_folder wheel/nvidia/cu13/include cuda_runtime_api.h '#include "crt/host_defines.h"
#define CUDART_VERSION 13000' ../lib/libcudart.so.13 ''
make_folder toolkit/include cuda_runtime_api.h '#define CUDART_VERSION 13000' ../lib64/libcudart.so.13 ''
cudnn_files wheel/nvidia/cudnn/include 19
make_folder wheel/nvidia/cudnn/lib libcudnn.so.9 ''
cudnn_files toolkit12/include 10
make_folder toolkit12/include cuda_runtime_api.h '#define CUDART_VERSION 12090' ../lib/libcudart.so.12 ''

wheel_cuda=$fixtures/wheel/nvidia/cu13/include wheel_cudnn=$fixtures/wheel/nvidia/cudnn/include
toolkit=$fixtures/toolkit/include toolkit12=$fixtures/toolkit12/include
# shellcheck source=../../scripts/gpu-check/headers.sh
source "$root/scripts/gpu-check/headers.sh"

echo "--- the wheel's CUDA headers, then the toolkit's; the wheel's cuDNN"
cuda_candidates=("$wheel_cuda" "$toolkit") cudnn_candidates=("$wheel_cudnn")
choose_headers
check "the pair is chosen" test $? -eq 0
check "the toolkit's CUDA headers" test "$cuda_include" = "$toolkit"
check "CUDART_VERSION read" test "$cuda_version" = 13000
check "the wheel's cuDNN headers" test "$cudnn_include" = "$wheel_cudnn"
check "cuDNN's version read" test "$cudnn_version" = 9.19.0
check "the wheel's CUDA headers passed over, saying what they lack" \
  tsv_matches cuda "$wheel_cuda" "passed over" "does not compile: .*crt/host_defines.h: No such file"
check "the toolkit's: why chosen" tsv_has cuda "$toolkit" chosen \
  "the first whose cuda_runtime_api.h compiles (CUDA 13.0)"
check "the libraries beside the headers, cuDNN's first, then the wheel's of the same CUDA major" \
  test "$library_folders" = "$fixtures/wheel/nvidia/cudnn/lib:$fixtures/toolkit/lib64:$fixtures/wheel/nvidia/cu13/lib"

echo "--- a cuDNN folder with CUDA headers of its own, then the wheel's cuDNN"
cuda_candidates=("$toolkit") cudnn_candidates=("$toolkit12" "$wheel_cudnn")
choose_headers
check "the wheel's cuDNN headers" test "$cudnn_include" = "$wheel_cudnn"
check "the CUDA 12 toolkit passed over: its CUDA headers would replace the chosen ones" \
  tsv_has cudnn "$toolkit12" "passed over" \
  "cuDNN 9.10.0: its folder's own CUDA headers ($toolkit12) would replace the chosen ones"

echo "--- each alone: a toolkit with cuDNN in it; the toolkit and the wheel's cuDNN; both compile, the first chosen"
cuda_candidates=("$toolkit12") cudnn_candidates=("$toolkit12")
choose_headers
check "one folder for both" test "$cuda_include:$cudnn_include:$cuda_version" = "$toolkit12:$toolkit12:12090"
check "no libcudnn beside them: the runtime's folder alone" test "$library_folders" = "$fixtures/toolkit12/lib"
cuda_candidates=("$toolkit" "$toolkit12") cudnn_candidates=("$wheel_cudnn")
choose_headers
check "a later candidate that compiles is passed over as such" \
  tsv_has cuda "$toolkit12" "passed over" "compiles; an earlier candidate was chosen"
check "another CUDA major's libraries are not named" \
  test "$library_folders" = "$fixtures/wheel/nvidia/cudnn/lib:$fixtures/toolkit/lib64"

echo "--- only the wheel's CUDA headers"
cuda_candidates=("$wheel_cuda") cudnn_candidates=("$wheel_cudnn")
out=$(choose_headers)
check "no pair" test $? -eq 1
check "says so" grep -q "no CUDA headers that compile" <<<"$out"

echo "--- the candidates of a machine: CUDA_HOME and CUDNN_INCLUDE_DIR first, a cuDNN-only folder no CUDA candidate"
cuda_candidates=() cudnn_candidates=()
CUDA_HOME=$fixtures/toolkit CUDNN_INCLUDE_DIR=$wheel_cudnn list_candidates
check "CUDA_HOME's include first" test "${cuda_candidates[0]}" = "$toolkit"
check "CUDNN_INCLUDE_DIR first" test "${cudnn_candidates[0]}" = "$wheel_cudnn"
check "the cuDNN-only folder is no CUDA candidate" \
  bash -c '! printf "%s\n" "${@:2}" | grep -qxF "$1"' _ "$wheel_cudnn" "${cuda_candidates[@]}"

[ $failures -eq 0 ] && echo "every header choice as expected" || echo "$failures check(s) failed"
[ $failures -eq 0 ]
