# gpu-check.sh's build stage (sourced): every program with the compiler directly, as README.md,
# "Build systems" says a program without CMake is built (the headers, -ldl -pthread, no CUDA
# library), all at once: cushim-doctor, conv_forward, lstm_forward, toolkit_math (where the CUDA
# headers have cuFFT's, cuRAND's and cuSOLVER's), kernel_saxpy (where nvcc is), and the GPU bench
# (bench/gpu: gpu_bench linked directly and through cushim from one object, and its harness).
# No -Werror: another compiler's new warnings must not stop a check of the GPU (cushim's own
# builds make every warning an error); they are in the logs.
#
# Needs: cxx, nvcc (or empty), root, build, cuda_include, cudnn_include, cuda_version,
# cudnn_version, library_folders. Sets programs (what was built), not_built ("name: why": left
# out) and failed_builds (names); the logs are $build/logs/<name>.log.

programs=() not_built=() failed_builds=()

# Background jobs, one per core at most; a failed one is listed in $build/failed, each one's
# seconds in $build/logs/seconds.
build_job() {
  local name=$1
  shift
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n; done
  (
    started=$SECONDS
    "$@" >"$build/logs/$name.log" 2>&1 || echo "$name" >>"$build/failed"
    echo "$name $((SECONDS - started)) s" >>"$build/logs/seconds"
  ) &
}

header_flags() {
  local flags=(-std=c++17 -O2 -Wall -Wextra -I"$root/include" -isystem "$cudnn_include")
  [ "$cuda_include" = "$cudnn_include" ] || flags+=(-isystem "$cuda_include")
  printf '%s\n' "${flags[@]}"
}

# The libraries the directly linked bench needs: the headers' majors, from the folders beside
# them (or where the linker looks by default), with their RUNPATH.
direct_link_flags() {
  local folder
  for folder in ${library_folders//:/ }; do printf '%s\n' "-L$folder" "-Wl,-rpath,$folder"; done
  printf '%s\n' "-l:libcudnn.so.${cudnn_version%%.*}" "-l:libcudart.so.$((cuda_version / 1000))"
}

build_bench() {
  local flags direct
  mapfile -t flags < <(header_flags)
  mapfile -t direct < <(direct_link_flags)
  "$cxx" "${flags[@]}" -c "$root/bench/gpu/gpu_bench.cpp" -o "$build/gpu_bench.o" &&
    "$cxx" "${flags[@]}" -c "$root/bench/src/cushim_impl.cpp" -o "$build/cushim_impl.o" &&
    "$cxx" "$build/gpu_bench.o" "$build/cushim_impl.o" -o "$build/gpu_bench_cushim" -ldl -pthread &&
    "$cxx" "$build/gpu_bench.o" -o "$build/gpu_bench_direct" "${direct[@]}" &&
    "$cxx" -std=c++17 -O2 -Wall -Wextra "$root/bench/gpu/interleave.cpp" -o "$build/interleave"
}

# docs/building.md, "Programs with kernels": the .cu by nvcc, the implementation file by the host
# compiler, linked by nvcc with -cudart none.
build_kernel_saxpy() {
  local flags
  mapfile -t flags < <(header_flags)
  "$nvcc" -std=c++17 -O2 -I"$root/include" -isystem "$cudnn_include" -isystem "$cuda_include" -ccbin "$cxx" \
    -c "$root/examples/kernel_saxpy.cu" -o "$build/kernel_saxpy.o" &&
    "$cxx" "${flags[@]}" -c "$root/examples/kernel_saxpy_shim.cpp" -o "$build/kernel_saxpy_shim.o" &&
    "$nvcc" -ccbin "$cxx" -cudart none "$build/kernel_saxpy.o" "$build/kernel_saxpy_shim.o" \
      -o "$build/kernel_saxpy" -ldl -lpthread
}

build_example() {  # build_example NAME SOURCE [MACROS...]
  local name=$1 source=$2 flags
  shift 2
  mapfile -t flags < <(header_flags)
  "$cxx" "${flags[@]}" "$@" "$root/examples/$source" -o "$build/$name" -ldl -pthread
}

# The doctor module (doctor/): its main and its one translation unit.
build_doctor() {  # build_doctor [MACROS...]
  local flags
  mapfile -t flags < <(header_flags)
  "$cxx" "${flags[@]}" "$@" -I"$root/doctor" "$root/doctor/main.cpp" "$root/doctor/doctor.cpp" -o "$build/cushim-doctor" \
    -ldl -pthread
}

# The opt-in libraries whose main headers the CUDA headers have.
has_headers() {
  local header
  for header in "$@"; do [ -f "$cuda_include/$header" ] || return 1; done
}

build_programs() {
  rm -rf "$build/logs" "$build/failed"
  mkdir -p "$build/logs"
  local doctor_opt_in=() wanted=(cushim-doctor conv_forward lstm_forward) name
  # As CMake builds the doctor (doctor/CMakeLists.txt): with cuBLAS and NVRTC where their headers are.
  has_headers cublas_v2.h nvrtc.h && doctor_opt_in=(-DCUSHIM_CUBLAS -DCUSHIM_NVRTC)
  build_job cushim-doctor build_doctor "${doctor_opt_in[@]}"
  build_job conv_forward build_example conv_forward conv_forward.cpp
  build_job lstm_forward build_example lstm_forward lstm_forward.cpp
  if has_headers cufft.h curand.h cusolverDn.h; then
    wanted+=(toolkit_math)
    build_job toolkit_math build_example toolkit_math toolkit_math.cpp -DCUSHIM_CUFFT -DCUSHIM_CURAND -DCUSHIM_CUSOLVER
  else
    not_built+=("toolkit_math: cufft.h, curand.h or cusolverDn.h is not in $cuda_include")
  fi
  if [ -n "$nvcc" ]; then
    wanted+=(kernel_saxpy)
    build_job kernel_saxpy build_kernel_saxpy
  else
    not_built+=("kernel_saxpy: no nvcc (CUDACXX, PATH, the toolkits' bin/)")
  fi
  wanted+=(gpu_bench)
  build_job gpu_bench build_bench
  wait
  echo "built, each: $(sort "$build/logs/seconds" | paste -sd, | sed 's/,/, /g')"
  for name in "${wanted[@]}"; do
    if grep -qxF "$name" "$build/failed" 2>/dev/null; then
      failed_builds+=("$name")
      echo "--- $name did not build; the errors of $build/logs/$name.log:"
      grep -E 'error|undefined' "$build/logs/$name.log" | head -n 8
    else
      programs+=("$name")
    fi
  done
}
