#!/usr/bin/env bash
# The check CI cannot make: builds cushim-doctor, conv_forward and lstm_forward (Release, no tests,
# so no doctest), and kernel_saxpy (a program with its own kernel) where nvcc is, and runs them on
# this machine's NVIDIA GPU. Needs only this repository, a C++17
# compiler, the NVIDIA driver, and cuDNN with the CUDA runtime (headers and libraries), taken from
#   1. a Python environment's pip packages: site-packages/nvidia/cudnn with nvidia/cu13 or
#      nvidia/cuda_runtime (the Python: --python PY, else $VIRTUAL_ENV, ./.venv, ./venv, python3);
#   2. else the CUDA toolkit: $CUDA_HOME, $CUDA_PATH or /usr/local/cuda, cuDNN there, in $CUDNN_ROOT
#      or in /usr/include.
# cmake, ninja and g++ are installed with apt-get when missing and apt-get works; without CMake
# 3.25 the programs are built with the compiler directly. Takes a few minutes at most.
#
# Prints every program's output, then a summary. Exit: 0 every program passed; 1 one failed;
# 3 no usable GPU here (the examples exited 3: no driver, no GPU or no cuDNN); 64 bad arguments.
# Usage: scripts/gpu-check.sh [--python PY]
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build/gpu-check"
python=""
case "$#:${1:-}" in
  0:) ;;
  2:--python) python=$2 ;;
  *) echo "usage: scripts/gpu-check.sh [--python PY]" >&2; exit 64 ;;
esac

say() { printf '\n=== %s\n' "$*"; }

# --- Tools -----------------------------------------------------------------------------------------
cmake_is_new_enough() {
  command -v cmake >/dev/null || return 1
  local version
  version=$(cmake --version | head -n1 | grep -oE '[0-9]+\.[0-9]+' | head -n1)
  [ "$(printf '%s\n3.25\n' "$version" | sort -V | head -n1)" = "3.25" ]
}

install_missing_tools() {
  local missing=()
  command -v g++ >/dev/null || command -v c++ >/dev/null || missing+=(g++)
  cmake_is_new_enough || missing+=(cmake)
  command -v ninja >/dev/null || missing+=(ninja-build)
  [ ${#missing[@]} -eq 0 ] && return
  command -v apt-get >/dev/null || { echo "no apt-get: cannot install ${missing[*]}"; return; }
  local sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo -n)
  echo "installing ${missing[*]} with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  timeout 120 "${sudo_cmd[@]}" apt-get update -qq &&
    timeout 240 "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
    echo "apt-get could not install ${missing[*]}; going on with what is here"
}

# --- cuDNN and the CUDA runtime ---------------------------------------------------------------------
cudnn_include="" cuda_include="" search_path="" nvcc=""

pick_python() {
  [ -n "$python" ] && return
  for candidate in "${VIRTUAL_ENV:+$VIRTUAL_ENV/bin/python}" "$root/.venv/bin/python" "$root/venv/bin/python" \
    "$(command -v python3 || true)"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then python=$candidate && return; fi
  done
}

# The pip layout: site-packages/nvidia/cudnn/{include,lib} and nvidia/cu13 or nvidia/cuda_runtime.
find_in_python() {
  pick_python
  [ -n "$python" ] || return 1
  local site
  site=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' 2>/dev/null) || return 1
  [ -f "$site/nvidia/cudnn/include/cudnn_version.h" ] || return 1
  cudnn_include=$site/nvidia/cudnn/include
  search_path=$site/nvidia/cudnn/lib
  for package in cu13 cuda_runtime; do
    if [ -f "$site/nvidia/$package/include/cuda_runtime_api.h" ]; then
      cuda_include=$site/nvidia/$package/include
      search_path=$search_path:$site/nvidia/$package/lib
      break
    fi
  done
  echo "cuDNN from the pip packages of $python ($site/nvidia)"
}

find_in_toolkit() {
  local cuda_home=${CUDA_HOME:-${CUDA_PATH:-/usr/local/cuda}}
  [ -n "$cuda_include" ] || { [ -f "$cuda_home/include/cuda_runtime_api.h" ] && cuda_include=$cuda_home/include; }
  for dir in ${CUDNN_ROOT:+"$CUDNN_ROOT/include"} "$cuda_home/include" /usr/include /usr/include/x86_64-linux-gnu; do
    if [ -z "$cudnn_include" ] && [ -f "$dir/cudnn_version.h" ]; then cudnn_include=$dir; fi
  done
  echo "CUDA toolkit: $cuda_home"
}

header_version() { grep -m1 -E "^#define $2 " "$1" | awk '{print $3}'; }

# --- Build -----------------------------------------------------------------------------------------
programs=(cushim-doctor conv_forward lstm_forward)
# nvcc for kernel_saxpy: CUDACXX, PATH or the toolkit's bin/; without it kernel_saxpy is skipped.
find_nvcc() {
  local cuda_home=${CUDA_HOME:-${CUDA_PATH:-/usr/local/cuda}}
  nvcc=${CUDACXX:-$(command -v nvcc || true)}
  [ -n "$nvcc" ] || { [ -x "$cuda_home/bin/nvcc" ] && nvcc=$cuda_home/bin/nvcc; }
  if [ -n "$nvcc" ]; then
    programs+=(kernel_saxpy)
    echo "nvcc: $nvcc"
  else
    echo "nvcc: not found (CUDACXX, PATH, \$CUDA_HOME/bin): kernel_saxpy is not built"
  fi
}

build_with_cmake() {
  local generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DCUSHIM_BUILD_TESTS=OFF \
    -DCUSHIM_BUILD_EXAMPLES=ON -DCUSHIM_CUDA_INCLUDE_DIR="$cuda_include" -DCUSHIM_CUDNN_INCLUDE_DIR="$cudnn_include" \
    ${nvcc:+-DCMAKE_CUDA_COMPILER="$nvcc"} &&
    cmake --build "$build" --parallel --target "${programs[@]}" &&
    for p in "${programs[@]}"; do cp "$build/examples/$p" "$build/$p"; done
}

# What the "Without CMake" line of README.md, "Build systems" says: the headers, -ldl -pthread, no CUDA library.
build_with_compiler() {
  local cxx=${CXX:-$(command -v g++ || command -v c++)}
  mkdir -p "$build"
  local flags=(-std=c++17 -O2 -I "$root/include" -isystem "$cuda_include" -isystem "$cudnn_include")
  for p in cushim-doctor conv_forward lstm_forward; do
    local source=${p//-/_}
    "$cxx" "${flags[@]}" -Wall -Wextra -Wpedantic -Werror "$root/examples/$source.cpp" -o "$build/$p" -ldl -pthread ||
      return 1
  done
  if [[ " ${programs[*]} " == *" toolkit_math "* ]]; then
    "$cxx" "${flags[@]}" -Wall -Wextra -Wpedantic -Werror -DCUSHIM_CUFFT -DCUSHIM_CURAND -DCUSHIM_CUSOLVER \
      "$root/examples/toolkit_math.cpp" -o "$build/toolkit_math" -ldl -pthread || return 1
  fi
  # docs/building.md, "Programs with kernels": the .cu by nvcc, the implementation file by the host compiler,
  # linked with -cudart none.
  [ -z "$nvcc" ] && return 0
  "$nvcc" "${flags[@]}" -ccbin "$cxx" -c "$root/examples/kernel_saxpy.cu" -o "$build/kernel_saxpy.o" &&
    "$cxx" "${flags[@]}" -c "$root/examples/kernel_saxpy_shim.cpp" -o "$build/kernel_saxpy_shim.o" &&
    "$nvcc" -ccbin "$cxx" -cudart none "$build/kernel_saxpy.o" "$build/kernel_saxpy_shim.o" -o "$build/kernel_saxpy" \
      -ldl -lpthread
}

# --- Run -------------------------------------------------------------------------------------------
declare -A exit_code
run_program() {
  local name=$1
  shift
  say "$name $*"
  timeout 120 "$build/$name" "$@"
  exit_code[$name]=$?
}

# "PASS|WARN|NO_GPU|FAIL  what the exit code means", per program.
meaning() {
  case "$1:$2" in
    cushim-doctor:0) echo "PASS    usable: the libraries load and a GPU works" ;;
    cushim-doctor:2) echo "WARN    usable with warnings (see its report)" ;;
    cushim-doctor:1) echo "NO_GPU  cuDNN or the CUDA runtime unavailable" ;;
    *:0) echo "PASS    matches the CPU reference" ;;
    *:1) echo "FAIL    differs from the CPU reference" ;;
    *:3) echo "NO_GPU  no usable GPU or cuDNN on this machine" ;;
    *:4) echo "FAIL    a CUDA or cuDNN call failed (see its output)" ;;
    *:124) echo "FAIL    timed out" ;;
    *) echo "FAIL    exit code $2" ;;
  esac
}

build_programs() {
  if cmake_is_new_enough; then
    build_with_cmake && return
    echo "the CMake build failed; trying the compiler directly"
  else
    echo "no CMake 3.25: building with the compiler directly"
  fi
  build_with_compiler
}

main() {
  local started=$SECONDS
  say "tools"
  install_missing_tools
  say "cuDNN and the CUDA runtime"
  find_in_python || find_in_toolkit
  if [ -z "$cuda_include" ] || [ -z "$cudnn_include" ]; then
    echo "gpu-check: cuda_runtime_api.h (${cuda_include:-not found}) or cudnn_version.h (${cudnn_include:-not found})"
    echo "is missing: install cuDNN and the CUDA runtime (pip install nvidia-cudnn-cu12, or the CUDA toolkit)"
    exit 1
  fi
  local cudart_version
  cudart_version=$(header_version "$cuda_include/cuda_runtime_api.h" CUDART_VERSION)
  echo "headers: CUDA runtime $((cudart_version / 1000)).$((cudart_version % 1000 / 10)) in $cuda_include"
  echo "         cuDNN $(header_version "$cudnn_include/cudnn_version.h" CUDNN_MAJOR).$(header_version \
    "$cudnn_include/cudnn_version.h" CUDNN_MINOR) in $cudnn_include"
  if [ -n "$search_path" ]; then
    export CUSHIM_SEARCH_PATH=$search_path
    echo "CUSHIM_SEARCH_PATH=$CUSHIM_SEARCH_PATH"
  fi
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  find_nvcc
  # cuFFT, cuRAND and cuSOLVER's headers (the toolkit's): toolkit_math.
  if [ -f "$cuda_include/cufftXt.h" ] && [ -f "$cuda_include/curand.h" ] && [ -f "$cuda_include/cusolverRf.h" ]; then
    programs+=(toolkit_math)
  else
    echo "cufftXt.h, curand.h or cusolverRf.h not in $cuda_include: toolkit_math is not built"
  fi

  say "build ($build)"
  build_programs || { echo "gpu-check: FAILED: the build failed"; exit 1; }

  run_program cushim-doctor --record "$build/environment_versions.txt"
  say "$build/environment_versions.txt"
  cat "$build/environment_versions.txt"
  run_program conv_forward
  run_program lstm_forward
  [[ " ${programs[*]} " == *" toolkit_math "* ]] && run_program toolkit_math
  [ -n "$nvcc" ] && run_program kernel_saxpy

  say "summary ($((SECONDS - started)) s)"
  local failed=0 no_gpu=0
  for program in "${programs[@]}"; do
    local verdict
    verdict=$(meaning "$program" "${exit_code[$program]}")
    printf '%-14s exit %-3s %s\n' "$program" "${exit_code[$program]}" "$verdict"
    case $verdict in FAIL*) failed=1 ;; NO_GPU*) no_gpu=1 ;; esac
  done
  if [ $failed -eq 1 ]; then
    echo "gpu-check: FAILED"
    exit 1
  fi
  if [ $no_gpu -eq 1 ]; then
    echo "gpu-check: NO USABLE GPU: the examples could not compute here (the doctor's report above says why)"
    exit 3
  fi
  echo "gpu-check: all passed"
}

main
