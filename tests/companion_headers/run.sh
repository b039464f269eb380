#!/usr/bin/env bash
# A program whose CUSHIM_IMPLEMENTATION file includes only each library's main header links through
# cushim, and its calls of the functions of the other headers reach the real libraries:
# calls.cpp linked with implementation.cpp (no NVIDIA library, CUSHIM_FAIL_FAST=1: a call cushim
# cannot route stops the process) prints what it prints linked with the libraries as usual.
#   run.sh CXX WORK_DIR CUSHIM_INCLUDE_DIR CUDA_INCLUDE_DIR CUDA_LIB_DIR
set -uo pipefail
cxx=$1 work=$2 include=$3 cuda_include=$4 cuda_lib=$5
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
flags=(-std=c++17 -O0 -Wall -Wextra -Wpedantic -Werror -isystem "$cuda_include")
"$cxx" "${flags[@]}" -DCUSHIM_CUBLAS -DCUSHIM_CUFFT -DCUSHIM_CUSOLVER -I"$include" -c "$here/implementation.cpp" \
  -o "$work/implementation.o" || exit 1
"$cxx" "${flags[@]}" -c "$here/calls.cpp" -o "$work/calls.o" || exit 1
"$cxx" "$work/calls.o" "$work/implementation.o" -o "$work/through_cushim" -ldl -pthread || exit 1
"$cxx" "$work/calls.o" -o "$work/direct" -L"$cuda_lib" -lcudart -lcublas -lcublasLt -lcufft -lcusolver \
  "-Wl,-rpath,$cuda_lib" || exit 1
direct=$("$work/direct") || { echo "the directly linked program failed"; exit 1; }
through=$(CUSHIM_FAIL_FAST=1 "$work/through_cushim") || { echo "the program through cushim failed"; exit 1; }
if [ "$direct" != "$through" ]; then
  diff <(echo "$direct") <(echo "$through")
  echo "through cushim the calls returned something else than linked directly"
  exit 1
fi
echo "$through"
echo "linked with the main headers alone, the $(grep -c . <<<"$through") calls returned what they return linked directly"
