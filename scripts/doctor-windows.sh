#!/usr/bin/env bash
# cushim-doctor.exe for Windows, built here on Linux as one file: MinGW-w64 with everything linked
# statically, so it needs only DLLs every Windows has (KERNEL32, ADVAPI32, msvcrt, ...; the test
# doctor_windows_one_file checks its import table). Copy it to the Windows machine and run it
# there (README.md, "The doctor").
#   scripts/doctor-windows.sh [OUTPUT_DIR]   default build/doctor-windows; prints the exe's path
# The NVIDIA headers (cuda_runtime_api.h, cudnn.h) are the machine's own, as for the CMake build:
# $CUDAToolkit_ROOT/include (default /usr/local/cuda/include), cudnn.h there or in
# $CUDNN_INCLUDE_DIR. CUSHIM_NO_INSTALL=1 skips scripts/install-deps.sh (the test sets it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build/doctor-windows}
[ "${CUSHIM_NO_INSTALL:-}" = 1 ] || "$root/scripts/install-deps.sh"
cuda_include=${CUDAToolkit_ROOT:-/usr/local/cuda}/include
cudnn_include=${CUDNN_INCLUDE_DIR:-$cuda_include}
for header in "$cuda_include/cuda_runtime_api.h" "$cudnn_include/cudnn.h"; do
  if [ ! -f "$header" ]; then
    echo "doctor-windows: $header is missing: set CUDAToolkit_ROOT (and CUDNN_INCLUDE_DIR)" >&2
    exit 1
  fi
done
# cuBLAS, cuBLASLt and NVRTC when the toolkit has their headers, as doctor/CMakeLists.txt opts in.
opt_in=()
[ -f "$cuda_include/cublas_v2.h" ] && [ -f "$cuda_include/cublasLt.h" ] && opt_in+=(-DCUSHIM_CUBLAS)
[ -f "$cuda_include/nvrtc.h" ] && opt_in+=(-DCUSHIM_NVRTC)
mkdir -p "$out"
# -posix: the thread model with std::mutex; -s: no symbols (a third of the size).
x86_64-w64-mingw32-g++-posix -std=gnu++17 -O2 -s -static "${opt_in[@]}" -I"$root/include" -I"$root/doctor" \
  -isystem "$cuda_include" -isystem "$cudnn_include" "$root/doctor/main.cpp" "$root/doctor/doctor.cpp" \
  -o "$out/cushim-doctor.exe"
echo "$out/cushim-doctor.exe"
