#!/usr/bin/env bash
# The check that needs an NVIDIA GPU, made to work the first time on a borrowed machine: it builds
# cushim-doctor, the examples (conv_forward, lstm_forward, toolkit_math, kernel_saxpy where nvcc
# is) and the GPU bench with the compiler directly (no CMake, no network: nothing is installed),
# runs them on this machine's GPU, and writes everything worth keeping to one file,
# build/gpu-check/summary.md. Stages (scripts/gpu-check/):
#   1. tools     a C++17 compiler (CXX, g++, c++, clang++) and nvcc (CUDACXX, PATH, the toolkits)
#   2. headers   the CUDA and cuDNN headers, chosen by compiling each candidate (headers.sh)
#   3. build     every program at once, one job per core (build.sh)
#   4. doctor    plain (as a user runs it) and with the libraries that match the headers
#                (CUSHIM_SEARCH_PATH), text, --json and --record, timed (runs.sh)
#   5. examples  each in both environments (runs.sh)
#   6. bench     direct linking and cushim interleaved (bench/gpu, runs.sh)
#   7. summary   the table and the same as JSON (summary.sh)
# Under 3 minutes on a 16-core machine.
#
# Exit: 0 every program computed on the GPU in at least one environment; 1 a build, a result or
# a call failed; 3 no usable GPU here (a program could not use one anywhere: the summary says
# why); 64 bad arguments.
# Usage: scripts/gpu-check.sh [--python PY]   (PY: a Python whose pip packages to consider first)
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build/gpu-check
python_given=()
case "$#:${1:-}" in
  0:) ;;
  2:--python) python_given=("$2") ;;
  *) echo "usage: scripts/gpu-check.sh [--python PY]" >&2; exit 64 ;;
esac
source "$root/scripts/gpu-check/headers.sh"
source "$root/scripts/gpu-check/build.sh"
source "$root/scripts/gpu-check/runs.sh"
source "$root/scripts/gpu-check/summary.sh"

started=$SECONDS
stage_started=$SECONDS
say() {
  [ "$stage_started" -lt "$SECONDS" ] && printf '(%d s)\n' $((SECONDS - stage_started))
  stage_started=$SECONDS
  printf '\n=== %s\n' "$*"
}
meta() { printf '%s\t%s\n' "$1" "$2" >>"$build/meta.tsv"; echo "$1: $2"; }

# The summary is written whatever stops the check.
finish() {
  say "summary"
  write_summary "$1" $((SECONDS - started))
  exit "$1"
}

find_tools() {
  cxx=${CXX:-$(command -v g++ || command -v c++ || command -v clang++ || true)}
  local toolkit
  nvcc=${CUDACXX:-$(command -v nvcc || true)}
  for toolkit in ${CUDA_HOME:-} ${CUDA_PATH:-} /usr/local/cuda $(ls -d /usr/local/cuda-* 2>/dev/null | sort -rV); do
    [ -z "$nvcc" ] && [ -x "$toolkit/bin/nvcc" ] && nvcc=$toolkit/bin/nvcc
  done
  meta date "$(date -u '+%Y-%m-%d %H:%M UTC')"
  meta commit "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$root" status --porcelain 2>/dev/null | grep -q . && echo ' (with uncommitted changes)')"
  meta os "$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME"), kernel $(uname -r), $(nproc) cores"
  local gpus
  gpus=$(timeout 10 nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | paste -sd';')
  meta gpu "${gpus:-none listed (nvidia-smi missing or failed)}"
  meta LD_LIBRARY_PATH "${LD_LIBRARY_PATH:-}"
  meta compiler "${cxx:-none} $([ -n "$cxx" ] && "$cxx" --version | head -n1)"
  meta nvcc "${nvcc:-none} $([ -n "$nvcc" ] && "$nvcc" --version | tail -n1)"
  [ -n "$cxx" ] || { echo "gpu-check: no C++ compiler (CXX, g++, c++, clang++): install one (apt-get install g++)"; return 1; }
}

main() {
  rm -rf "$build"
  mkdir -p "$build/headers"
  say "tools"
  find_tools || finish 1
  say "headers"
  work=$build/headers
  list_candidates "${python_given[@]}"
  choose_headers || finish 1
  meta headers "CUDA $((cuda_version / 1000)).$((cuda_version % 1000 / 10)) $cuda_include; cuDNN $cudnn_version $cudnn_include"
  meta library_folders "${library_folders:-none found beside the headers}"
  say "build ($build)"
  build_programs
  prepare_runs
  say "doctor"
  built cushim-doctor && run_doctor
  say "examples"
  run_examples
  say "bench"
  built gpu_bench && run_bench
  finish "$(overall_exit)"
}

main
