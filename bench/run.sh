#!/usr/bin/env bash
# cushim against direct linking, side by side (BENCHMARKS.md explains every figure):
#   1. per call: callgrind instructions per call and Google Benchmark wall time per call;
#   2. first use: instructions and wall time from process start to the first call, and memory;
#   3. cushim-doctor: wall time of the whole chain, warm cache, against a plain program that loads
#      the same libraries; its discovery of toolkits and Python environments on machines of 5,
#      20 and 80 environments with 4 toolkits (bench/tools/discovery_machine.py);
#   4. compile time of a TU through <cushim/cushim.hpp> (and one through <cushim/status.hpp>)
#      against the plain NVIDIA headers, and compile time and object size of the
#      CUSHIM_IMPLEMENTATION TU.
# Builds everything itself (direct compiler calls, into bench/build), prints a results table with
# PASS/FAIL per target and exits 0 even when a target is missed.
#
#   bench/run.sh            run everything (4 minutes on a quiet 2-core machine, 7 under load)
#   bench/run.sh --quick    fewer repetitions (a smoke test; figures less stable)
#   bench/run.sh --write    also replace the results section of BENCHMARKS.md
#
# Environment: CUDA_ROOT (default /usr/local/cuda: headers in include/, libraries in lib/),
# CUSHIM_ROOT (the cushim tree to measure, default this checkout), BENCH_BUILD (default
# bench/build), BENCH_COMPILERS (default "g++ clang++"), BENCH_N1 / BENCH_N2 (default 1000 /
# 101000), BENCH_JOBS (parallel builds and callgrind runs, default 2).
set -uo pipefail  # no -e: a failed part is reported and the rest still runs

here=$(cd "$(dirname "$0")" && pwd)
root=${CUSHIM_ROOT:-$(cd "$here/.." && pwd)}
cuda=${CUDA_ROOT:-/usr/local/cuda}
build=${BENCH_BUILD:-$here/build}
compilers=${BENCH_COMPILERS:-g++ clang++}
n1=${BENCH_N1:-1000}
n2=${BENCH_N2:-101000}
jobs_max=${BENCH_JOBS:-2}
quick=0
write_doc=0
for a in "$@"; do
  case $a in
    --quick) quick=1 ;;
    --write) write_doc=1 ;;
    -h | --help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument '$a'" >&2; exit 64 ;;
  esac
done
case "$root$build$cuda" in
  *[[:space:]]*) echo "run.sh: paths with spaces are not supported ($root, $build, $cuda)" >&2; exit 64 ;;
esac
started=$(date +%s)

# Repetitions: hyperfine runs for processes, rounds x runs for the small compiles, runs for the
# implementation TU, Google Benchmark repetitions.
if [ $quick -eq 1 ]; then
  proc_warmup=2 proc_runs=10 ct_rounds=1 ct_runs=3 impl_runs=1 gb_reps=2 gb_min_time=0.05
else
  proc_warmup=5 proc_runs=40 ct_rounds=5 ct_runs=3 impl_runs=3 gb_reps=5 gb_min_time=0.2
fi

say() { printf '== %s\n' "$*"; }

# ---------------------------------------------------------------------------------------------
# Tools
need=()
command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null || need+=(valgrind)
command -v hyperfine >/dev/null || need+=(hyperfine)
[ -f /usr/include/benchmark/benchmark.h ] || need+=(libbenchmark-dev)
command -v g++ >/dev/null || need+=(g++)
command -v gcc >/dev/null || need+=(gcc)
case " $compilers " in *" clang++ "*) command -v clang++ >/dev/null || need+=(clang) ;; esac
command -v python3 >/dev/null || need+=(python3)
command -v objdump >/dev/null || need+=(binutils)
command -v strace >/dev/null || need+=(strace)
[ -x /usr/bin/time ] || need+=(time)
if [ ${#need[@]} -gt 0 ]; then
  say "installing ${need[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq >/dev/null 2>&1
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null 2>&1 ||
    echo "run.sh: apt-get could not install ${need[*]}; the parts that need them are skipped" >&2
fi
have() { command -v "$1" >/dev/null; }
have python3 || { echo "run.sh: python3 is required for the report" >&2; exit 1; }
has_gbench=0
[ -f /usr/include/benchmark/benchmark.h ] && has_gbench=1

# ---------------------------------------------------------------------------------------------
# Layout and bookkeeping. Everything is rebuilt on each run.
if [ -e "$build" ] && [ ! -f "$build/.bench-build" ] && [ -n "$(ls -A "$build" 2>/dev/null)" ]; then
  echo "run.sh: $build exists and was not made by run.sh; not deleting it (set BENCH_BUILD)" >&2
  exit 64
fi
rm -rf "$build"
mkdir -p "$build"/{obj,bin,logs,cg,hf,gb,fixture}
touch "$build/.bench-build"
results=$build/results.txt
: >"$results"
put() { printf '%s %s\n' "$1" "$2" >>"$results"; }

# Measured programs run with a fixed, minimal environment. "hinted": CUDA_HOME names the toolkit
# (as in NVIDIA's containers); "bare": no variable cushim reads is set, so its search goes on to
# /etc/ld.so.cache.
env_bare=(env -i "PATH=/usr/bin:/bin" "HOME=${HOME:-/root}" "LANG=C")
env_hinted=("${env_bare[@]}" "CUDA_HOME=$cuda")
fixture_file=$build/fixture/libcudnn.so.9
env_fixture=("${env_hinted[@]}" "CUSHIM_CUDNN_PATH=$fixture_file" "BENCH_CUDNN_FILE=$fixture_file")
cuda_major=$(awk '/^#define CUDART_VERSION /{print int($3 / 1000)}' "$cuda/include/cuda_runtime_api.h" 2>/dev/null)
fixture_blas=$build/fixture/libcublas.so.$cuda_major
# cuFFT's and cuSPARSE's files carry their own majors (libcufft.so.12 for CUDA 13).
cufft_major=$(awk '/^#define CUFFT_VER_MAJOR /{print $3}' "$cuda/include/cufft.h" 2>/dev/null)
cusparse_major=$(awk '/^#define CUSPARSE_VER_MAJOR /{print $3}' "$cuda/include/cusparse.h" 2>/dev/null)
fixture_cufft=$build/fixture/libcufft.so.$cufft_major
fixture_cusparse=$build/fixture/libcusparse.so.$cusparse_major
env_blas=("${env_hinted[@]}" "CUSHIM_CUBLAS_PATH=$fixture_blas" "CUSHIM_CUFFT_PATH=$fixture_cufft"
  "CUSHIM_CUSPARSE_PATH=$fixture_cusparse")
# The implementation file opted into every library needs nvml.h, which not every toolkit has (the
# 13.0 one here): where it is missing, the stand-in cushim's tests use.
stand_in=()
if [ ! -f "$cuda/include/nvml.h" ]; then
  python3 "$root/tests/api_tables/synthetic_nvml.py" "$build/stand_in" && stand_in=(-isystem "$build/stand_in")
fi
# A machine of discovery_machine.py: its fixed places under CUSHIM_DISCOVERY_ROOT, its home and
# PATH; the doctor's own search reads that machine's fixed places too (it has no ld.so.cache).
for n in 0 5 20 80; do
  declare -a "env_disc$n=(env -i PATH=$build/discovery/m$n/usr/bin HOME=$build/discovery/m$n/home/user CUSHIM_DISCOVERY_ROOT=$build/discovery/m$n LANG=C)"
done
# The doctor on that machine: its own loads find this toolkit's libraries, as the floor it is compared with.
env_doctor20=("${env_disc20[@]}" "CUSHIM_SEARCH_PATH=$cuda/lib")
plain_load_libraries=("libcudart.so.$cuda_major" libcudnn.so.9 libcudnn_graph.so.9 libcudnn_ops.so.9 libcudnn_cnn.so.9
  libcudnn_adv.so.9 libcudnn_heuristic.so.9 libcudnn_engines_precompiled.so.9 libcudnn_engines_runtime_compiled.so.9
  "libcublas.so.$cuda_major" "libcublasLt.so.$cuda_major" "libnvrtc.so.$cuda_major")

# Background jobs, at most $jobs_max at a time; a failed one is listed in $build/failed.
job() {
  local name=$1
  shift
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
  ("$@" >"$build/logs/$name.log" 2>&1 || echo "$name" >>"$build/failed") &
}

cxx_tag() { case $1 in clang++*) echo clang ;; *) echo gcc ;; esac; }
cxxflags=(-std=c++17 -O2 -I"$root/include" -isystem "$cuda/include")
# The toolchain's default link (Debian: no --as-needed), as an application's build would do it.
link_direct=(-L"$cuda/lib" -lcudnn -lcudart "-Wl,-rpath,$cuda/lib")
link_direct_fixture=(-L"$build/fixture" -L"$cuda/lib" -lcudnn -lcudart "-Wl,-rpath,$build/fixture:$cuda/lib")
link_shim=(-ldl -pthread)

# ---------------------------------------------------------------------------------------------
# Machine and versions
cudnn_h=$cuda/include/cudnn_version.h
cudnn_v=$(awk '/^#define CUDNN_(MAJOR|MINOR|PATCHLEVEL) /{printf "%s%s", sep, $3; sep="."}' "$cudnn_h" 2>/dev/null)
cudart_v=$(awk '/^#define CUDART_VERSION /{print $3}' "$cuda/include/cuda_runtime_api.h" 2>/dev/null)
put meta.date "$(date -u '+%Y-%m-%d %H:%M UTC')"
put meta.cpu "$(awk -F': ' '/^model name/{print $2; exit}' /proc/cpuinfo)"
put meta.cores "$(nproc)"
put meta.memory "$(awk '/^MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
put meta.os "$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME"), kernel $(uname -r)"
put meta.gcc "$(g++ --version | head -1)"
have clang++ && put meta.clang "$(clang++ --version | head -1)"
have valgrind && put meta.valgrind "$(valgrind --version)"
have hyperfine && put meta.hyperfine "$(hyperfine --version)"
put meta.gbench "$(dpkg-query -W -f='${Version}' libbenchmark-dev 2>/dev/null || echo missing)"
put meta.cudnn "$cudnn_v ($cuda)"
put meta.cudart "$cudart_v"
put meta.load_start "$(cut -d' ' -f1-3 /proc/loadavg)"
put meta.command "bench/run.sh $*"
put meta.n "$n1 $n2"
put meta.root "$root"
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
  dirty=$(git -C "$root" status --porcelain -- include | wc -l)
  put meta.commit "$(git -C "$root" rev-parse --short HEAD)$([ "$dirty" -gt 0 ] && echo " + $dirty uncommitted change(s) under include/")"
fi

# ---------------------------------------------------------------------------------------------
# 4. Compile time first, while this script runs nothing else. The -O2 implementation objects
#    made here are the ones the benchmark programs link.
say "compile time (include overhead, implementation TU)"
include_tus=(plain cushim plain_std status)
for cxx in $compilers; do
  t=$(cxx_tag "$cxx")
  mkdir -p "$build/obj/$t" "$build/bin/$t"
  for o in O0 O2; do
    cmds=()
    for tu in "${include_tus[@]}"; do
      cmds+=(-n "$tu" "$cxx -std=c++17 -$o -I$root/include -isystem $cuda/include -c $here/src/include_$tu.cpp -o $build/obj/$t/include_${tu}_$o.o")
    done
    if have hyperfine; then
      for ((r = 1; r <= ct_rounds; r++)); do
        # Alternate the order between rounds so that a drift in machine load hits all TUs alike.
        order=("${cmds[@]}")
        if ((r % 2 == 0)); then
          order=()
          for ((i = ${#cmds[@]} - 3; i >= 0; i -= 3)); do order+=("${cmds[@]:i:3}"); done
        fi
        hyperfine -N --warmup 1 --runs "$ct_runs" --export-json "$build/hf/ct_${t}_${o}_r$r.json" "${order[@]}" \
          >>"$build/logs/compile_time.log" 2>&1 || echo "ct_${t}_$o" >>"$build/failed"
      done
    fi
  done
  for o in O0 O2; do
    out=$build/obj/$t/impl_$o.o
    cmd="$cxx -std=c++17 -$o -I$root/include -isystem $cuda/include -c $here/src/cushim_impl.cpp -o $out"
    if have hyperfine; then
      hyperfine -N --runs "$impl_runs" -n "impl" --export-json "$build/hf/impl_${t}_$o.json" "$cmd" \
        >>"$build/logs/compile_time.log" 2>&1
    else
      $cmd >>"$build/logs/compile_time.log" 2>&1
    fi
    if [ -f "$out" ]; then
      put "impl.size.$t.$o" "$(stat -c %s "$out") $(size "$out" | awk 'NR==2{print $1, $2, $3}')"
    else
      echo "impl_${t}_$o" >>"$build/failed"
    fi
  done
  [ -f "$build/obj/$t/impl_O2.o" ] && cp "$build/obj/$t/impl_O2.o" "$build/obj/$t/impl.o"
  # What the implementation file costs an application (issue "Cheap to build"): compiler CPU time
  # (user), its peak memory and the object's text, for cuDNN + runtime and with every library
  # opted in; the NVIDIA headers with <string> and <vector> are the yardstick for a noisy machine.
  for cfg in plain_std:include_plain_std default:cushim_impl opt_in:cushim_impl_opt_in; do
    for o in O0 O2; do
      out=$build/obj/$t/cost_${cfg%%:*}_$o.o
      for ((r = 1; r <= impl_runs; r++)); do
        /usr/bin/time -f "%U %M" -o "$build/logs/cost.time" "$cxx" -std=c++17 "-$o" -I"$root/include" \
          -isystem "$cuda/include" "${stand_in[@]}" -c "$here/src/${cfg#*:}.cpp" -o "$out" \
          >>"$build/logs/compile_time.log" 2>&1 &&
          put "cost.$t.${cfg%%:*}.$o" "$(cat "$build/logs/cost.time") $(size "$out" | awk 'NR==2{print $1, $2}')"
      done
    done
  done
done

# ---------------------------------------------------------------------------------------------
# Build the benchmark programs.
say "building"
# Measurement-only variants, each built from a patched COPY of include/ (tools/patch_copy.py;
# BENCHMARKS.md, "Misses: why, and the proposed fixes"): "relaxed" (the per-call fix), "preflight_off" and
# "preflight_root_only" (first use). A variant whose pattern no longer matches is skipped.
patched=()
for p in relaxed preflight_off preflight_root_only; do
  mkdir -p "$build/include_$p"
  cp -r "$root/include/." "$build/include_$p/"
  if python3 "$here/tools/patch_copy.py" "$build/include_$p" "$p" 2>>"$build/logs/patch.log"; then
    patched+=("$p")
    put "patched.$p" 1
  else
    put "patched.$p" 0
  fi
done
is_patched() { case " ${patched[*]} " in *" $1 "*) return 0 ;; esac; return 1; }
variants=(direct cushim guarded)
is_patched relaxed && variants+=(relaxed)
first_variants=(direct cushim guarded opt_in)
is_patched preflight_off && first_variants+=(preflight_off)
is_patched preflight_root_only && first_variants+=(preflight_root_only)

job fixture gcc -std=c11 -O2 -fPIC -shared -Wl,-soname,libcudnn.so.9 -isystem "$cuda/include" \
  "$here/src/fixture_cudnn.c" -o "$fixture_file"
job fixture-blas gcc -std=c11 -O2 -fPIC -shared "-Wl,-soname,libcublas.so.$cuda_major" -isystem "$cuda/include" \
  "$here/src/fixture_cublas.c" -o "$fixture_blas"
job fixture-cufft gcc -std=c11 -O2 -fPIC -shared "-Wl,-soname,libcufft.so.$cufft_major" -isystem "$cuda/include" \
  -DFIXTURE_CUFFT "$here/src/fixture_math.c" -o "$fixture_cufft"
job fixture-cusparse gcc -std=c11 -O2 -fPIC -shared "-Wl,-soname,libcusparse.so.$cusparse_major" \
  -isystem "$cuda/include" -DFIXTURE_CUSPARSE "$here/src/fixture_math.c" -o "$fixture_cusparse"
for cxx in $compilers; do
  t=$(cxx_tag "$cxx")
  o=$build/obj/$t
  job "$t-percall" "$cxx" "${cxxflags[@]}" -c "$here/src/percall.cpp" -o "$o/percall.o"
  job "$t-percall-blas" "$cxx" "${cxxflags[@]}" -c "$here/src/percall_blas.cpp" -o "$o/percall_blas.o"
  job "$t-impl-opt-in" "$cxx" "${cxxflags[@]}" "${stand_in[@]}" -c "$here/src/cushim_impl_opt_in.cpp" -o "$o/opt_in.o"
  job "$t-stub-forms" "$cxx" -std=c++17 -O2 -c "$here/src/stub_forms.cpp" -o "$o/stub_forms.o"
  job "$t-guarded" "$cxx" "${cxxflags[@]}" "-DBENCH_CUDA_LIB_DIR=\"$cuda/lib\"" -c "$here/src/guarded_stubs.cpp" -o "$o/guarded.o"
  [ $has_gbench -eq 1 ] && job "$t-gbench" "$cxx" "${cxxflags[@]}" -c "$here/src/gbench.cpp" -o "$o/gbench.o"
  for p in "${patched[@]}"; do
    # The first-use variants are measured with g++ only.
    [ "$p" != relaxed ] && [ "$t" != gcc ] && continue
    job "$t-impl-$p" "$cxx" -std=c++17 -O2 -I"$build/include_$p" -isystem "$cuda/include" \
      -c "$here/src/cushim_impl.cpp" -o "$o/$p.o"
  done
done
job first-use g++ "${cxxflags[@]}" -c "$here/src/first_use.cpp" -o "$build/obj/gcc/first_use.o"
job doctor-O2 g++ -std=c++17 -O2 -DNDEBUG -I"$root/include" -isystem "$cuda/include" \
  "$root/doctor/main.cpp" "$root/doctor/doctor.cpp" -o "$build/bin/cushim-doctor-O2" "${link_shim[@]}"
job doctor-O0 g++ -std=c++17 -O0 -g -I"$root/include" -isystem "$cuda/include" \
  "$root/doctor/main.cpp" "$root/doctor/doctor.cpp" -o "$build/bin/cushim-doctor-O0" "${link_shim[@]}"
# The doctor as CMake builds it (opted into cuBLAS, cuBLASLt and NVRTC), the same without its
# probe_in_child (a copy of its source with that one line changed: what the probe costs), and the
# floor under both: a plain program that dlopens the libraries they report on.
opt_in_flags=(-DCUSHIM_CUBLAS -DCUSHIM_NVRTC)
job doctor-opt-in g++ -std=c++17 -O2 -DNDEBUG "${opt_in_flags[@]}" -I"$root/include" -isystem "$cuda/include" \
  "$root/doctor/main.cpp" "$root/doctor/doctor.cpp" -o "$build/bin/cushim-doctor-opt-in" "${link_shim[@]}"
mkdir -p "$build/doctor_no_probe"
cp -r "$root/doctor/." "$build/doctor_no_probe/"
sed -i 's/options.probe_in_child = true;/options.probe_in_child = false;/' "$build/doctor_no_probe/doctor.cpp"
if grep -q "probe_in_child = false;" "$build/doctor_no_probe/doctor.cpp"; then
  job doctor-no-probe g++ -std=c++17 -O2 -DNDEBUG "${opt_in_flags[@]}" -I"$root/include" -isystem "$cuda/include" \
    "$build/doctor_no_probe/main.cpp" "$build/doctor_no_probe/doctor.cpp" -o "$build/bin/cushim-doctor-no-probe" \
    "${link_shim[@]}"
fi
job plain-load gcc -std=c11 -O2 "$here/src/plain_load.c" -o "$build/bin/plain_load" -ldl
# Discovery: the library files of its machines (empty libraries with the real sonames, DT_NEEDED
# and RUNPATH), the machines of 0, 5, 20 and 80 environments, and discovery alone.
disc=$build/discovery
disc_lib() {  # file [link arguments...]
  local file=$1
  shift
  gcc -std=c11 -O2 -fPIC -shared "-Wl,-soname,$file" -Wl,--no-as-needed -Wl,--enable-new-dtags \
    "$here/src/fixture_discovery.c" -o "$disc/libs/$file" -L"$disc/libs" "$@"
}
discovery_machines() {
  mkdir -p "$disc/libs" || return 1
  local wheels='$ORIGIN/../../nvidia/cublas/lib:$ORIGIN/../../nvidia/cuda_runtime/lib:$ORIGIN/../../nvidia/cudnn/lib'
  disc_lib libcublasLt.so.12 && disc_lib libcudart.so.12 &&
    disc_lib libcublas.so.12 -l:libcublasLt.so.12 '-Wl,-rpath,$ORIGIN' &&
    disc_lib libcudnn.so.9 '-Wl,-rpath,$ORIGIN' || return 1
  for s in graph ops cnn adv heuristic engines_precompiled engines_runtime_compiled; do
    disc_lib "libcudnn_$s.so.9" '-Wl,-rpath,$ORIGIN' || return 1
  done
  disc_lib libtorch_cuda.so -l:libcudnn.so.9 -l:libcudart.so.12 -l:libcublas.so.12 "-Wl,-rpath,$wheels:\$ORIGIN" &&
    disc_lib libonnxruntime_providers_cuda.so -l:libcudnn.so.9 -l:libcudart.so.12 -l:libcublas.so.12 \
      "-Wl,-rpath,$wheels" &&
    disc_lib _pywrap_tensorflow_internal.so '-Wl,-rpath,$ORIGIN/..' || return 1
  for n in 0 5 20 80; do
    local t=4
    [ "$n" -eq 0 ] && t=0
    python3 "$here/tools/discovery_machine.py" --libs "$disc/libs" --root "$disc/m$n" --environments "$n" \
      --toolkits "$t" || return 1
  done
}
job discovery-machines discovery_machines
job discovery g++ -std=c++17 -O2 -DNDEBUG -I"$root/include" -I"$root/doctor" -isystem "$cuda/include" "$here/src/discovery.cpp" \
  -o "$build/bin/discovery" "${link_shim[@]}"
wait
ln -sf libcudnn.so.9 "$build/fixture/libcudnn.so"
ln -sf "libcublas.so.$cuda_major" "$build/fixture/libcublas.so"

# Links: the same caller object behind each variant.
link_variants() {  # tag program "variant..." extra-libs...
  local t=$1 p=$2 vs=$3 o=$build/obj/$1 b=$build/bin/$1 cxx v
  shift 3
  cxx=$([ "$t" = clang ] && echo clang++ || echo g++)
  for v in $vs; do
    case $v in
      direct)
        job "$t-$p-direct" "$cxx" "$o/$p.o" -o "$b/${p}_direct" "${link_direct[@]}" "$@"
        job "$t-$p-direct-fixture" "$cxx" "$o/$p.o" -o "$b/${p}_direct_fixture" "${link_direct_fixture[@]}" "$@"
        ;;
      cushim) job "$t-$p-cushim" "$cxx" "$o/$p.o" "$o/impl.o" -o "$b/${p}_cushim" "$@" "${link_shim[@]}" ;;
      opt_in) job "$t-$p-opt_in" "$cxx" "$o/$p.o" "$o/opt_in.o" -o "$b/${p}_opt_in" "$@" "${link_shim[@]}" ;;
      guarded) job "$t-$p-guarded" "$cxx" "$o/$p.o" "$o/guarded.o" -o "$b/${p}_guarded" "$@" -ldl ;;
      *) job "$t-$p-$v" "$cxx" "$o/$p.o" "$o/$v.o" -o "$b/${p}_$v" "$@" "${link_shim[@]}" ;;
    esac
  done
}
for cxx in $compilers; do
  t=$(cxx_tag "$cxx")
  link_variants "$t" percall "${variants[*]}"
  [ $has_gbench -eq 1 ] && link_variants "$t" gbench "${variants[*]}" -lbenchmark -pthread
done
link_variants gcc first_use "${first_variants[*]}"
# cuBLAS per call: the fixture linked directly, or cushim opted into cuBLAS.
for cxx in $compilers; do
  t=$(cxx_tag "$cxx")
  job "$t-percall_blas-direct" "$cxx" "$build/obj/$t/percall_blas.o" -o "$build/bin/$t/percall_blas_direct" \
    -L"$build/fixture" -lcublas -l:libcufft.so.$cufft_major -l:libcusparse.so.$cusparse_major \
    "-Wl,-rpath,$build/fixture"
  job "$t-percall_blas-cushim" "$cxx" "$build/obj/$t/percall_blas.o" "$build/obj/$t/opt_in.o" \
    -o "$build/bin/$t/percall_blas_cushim" "${link_shim[@]}"
done
wait
if [ -f "$build/failed" ]; then
  echo "run.sh: these steps failed (logs in $build/logs): $(sort -u "$build/failed" | tr '\n' ' ')" >&2
fi

# The loops must make one call per iteration: one call instruction in each loop function.
for cxx in $compilers; do
  t=$(cxx_tag "$cxx")
  [ -f "$build/obj/$t/percall.o" ] || continue
  for f in loop_version loop_errstr loop_getdevice loop_conv loop_sgemm loop_c2c loop_spmv; do
    obj=$build/obj/$t/percall.o
    case $f in loop_sgemm | loop_c2c | loop_spmv) obj=$build/obj/$t/percall_blas.o ;; esac
    calls=$(objdump -dCr --no-show-raw-insn "$obj" |
      awk -v f="$f" '/^[0-9a-f]+ </{inside = index($0, f "(") > 0}
        inside && /\tcall/{n++} inside && /R_X86_64_PLT32/{sub(/-0x4$/, "", $NF); to = to sep $NF; sep = ","}
        END{print n + 0 "(" to ")"}')
    put "loopcalls.$t.$f" "$calls"
  done
done

# ---------------------------------------------------------------------------------------------
# Callgrind: total instructions of one process run.
cg_run() {  # key env-and-command...
  local key=$1
  shift
  "$@" >"$build/cg/$key.stdout" 2>"$build/cg/$key.stderr"
  echo $? >"$build/cg/$key.rc"
}
callgrind=("$(command -v valgrind)" --tool=callgrind)  # by path: the discovery machines have a PATH of their own
cg_job() {  # key env-array-name program args...
  local key=$1 envname=$2
  shift 2
  local -n envref=$envname
  [ -x "$1" ] || { echo "missing $1" >"$build/cg/$key.stderr"; echo 127 >"$build/cg/$key.rc"; return; }
  job "cg-$key" cg_run "$key" "${envref[@]}" "${callgrind[@]}" --callgrind-out-file="$build/cg/$key.out" "$@"
}
cg_collect() {
  local f key ir
  for f in "$build"/cg/*.rc; do
    key=$(basename "$f" .rc)
    ir=$(awk '/^totals:/{print $2}' "$build/cg/$key.out" 2>/dev/null)
    put "cg.$key" "${ir:-none} $(cat "$f")"
  done
}

if have valgrind; then
  say "1. per call: callgrind, N = $n1 and $n2"
  for cxx in $compilers; do
    t=$(cxx_tag "$cxx")
    for v in "${variants[@]}"; do
      for n in $n1 $n2; do
        cg_job "percall.$t.$v.version.$n" env_hinted "$build/bin/$t/percall_$v" version "$n"
        cg_job "percall.$t.$v.errstr.$n" env_hinted "$build/bin/$t/percall_$v" errstr "$n"
        cg_job "percall.$t.$v.getdevice.$n" env_hinted "$build/bin/$t/percall_$v" getdevice "$n"
        p=percall_$v
        [ "$v" = direct ] && p=percall_direct_fixture
        cg_job "percall.$t.$v.conv.$n" env_fixture "$build/bin/$t/$p" conv "$n"
      done
    done
    for v in direct cushim; do
      for n in $n1 $n2; do
        for m in sgemm c2c spmv; do
          cg_job "percall.$t.$v.$m.$n" env_blas "$build/bin/$t/percall_blas_$v" "$m" "$n"
        done
      done
    done
  done
  say "2. first use: callgrind"
  for v in "${first_variants[@]}"; do
    for m in none cudnn both; do
      cg_job "first.$v.$m.hinted" env_hinted "$build/bin/gcc/first_use_$v" "$m"
      cg_job "first.$v.$m.bare" env_bare "$build/bin/gcc/first_use_$v" "$m"
    done
  done
  say "3. doctor: callgrind"
  for e in hinted bare; do
    cg_job "doctor.$e" "env_$e" "$build/bin/cushim-doctor-O2"
  done
  for n in 0 5 20 80; do
    cg_job "discovery.$n" "env_disc$n" "$build/bin/discovery" "$n"
  done
  # The doctor as scripts/doctor.sh builds it (opted in), with and without its discovery.
  cg_job "doctor.discover20" env_doctor20 "$build/bin/cushim-doctor-opt-in"
  cg_job "doctor.no_discover20" env_doctor20 "$build/bin/cushim-doctor-opt-in" --no-discover
  wait
  cg_collect
  # Where the cushim first use spends its instructions (inclusive, top functions).
  if [ -f "$build/cg/first.cushim.cudnn.hinted.out" ]; then
    callgrind_annotate --inclusive=yes "$build/cg/first.cushim.cudnn.hinted.out" 2>/dev/null |
      head -60 >"$build/first_use_cushim_annotate.txt"
    callgrind_annotate --inclusive=yes "$build/cg/first.direct.cudnn.hinted.out" 2>/dev/null |
      head -60 >"$build/first_use_direct_annotate.txt"
  fi
else
  echo "run.sh: valgrind missing: instruction counts skipped" >&2
fi

# ---------------------------------------------------------------------------------------------
# Google Benchmark: wall time per call.
if [ $has_gbench -eq 1 ]; then
  say "1. per call: Google Benchmark"
  for cxx in $compilers; do
    t=$(cxx_tag "$cxx")
    for v in "${variants[@]}"; do
      gb=("--benchmark_min_time=$gb_min_time" "--benchmark_repetitions=$gb_reps" --benchmark_report_aggregates_only=true
        --benchmark_out_format=json)
      b=$build/bin/$t/gbench_$v
      [ -x "$b" ] && "${env_hinted[@]}" "$b" "${gb[@]}" --benchmark_filter='BM_cudnnGetVersion|BM_cudaGetErrorString' \
        --benchmark_out="$build/gb/$t.$v.real.json" >>"$build/logs/gbench.log" 2>&1
      [ "$v" = direct ] && b=$build/bin/$t/gbench_direct_fixture
      [ -x "$b" ] && "${env_fixture[@]}" "$b" "${gb[@]}" --benchmark_filter='BM_cudnnConvolutionForward' \
        --benchmark_out="$build/gb/$t.$v.fixture.json" >>"$build/logs/gbench.log" 2>&1
    done
  done
fi

# ---------------------------------------------------------------------------------------------
# First use and doctor: wall time (hyperfine, warm cache) and memory.
say "2. first use: wall time and memory"
for v in "${first_variants[@]}"; do
  for m in none cudnn both; do
    for e in hinted bare; do
      b=$build/bin/gcc/first_use_$v
      [ -x "$b" ] || continue
      envname=env_$e
      declare -n envref=$envname
      mem=$("${envref[@]}" "$b" "$m" rss 2>/dev/null | awk -F= '{printf "%s ", $2}')
      unset -n envref
      put "rss.$v.$m.$e" "${mem:-none}"
    done
  done
done
if have strace; then
  for v in "${first_variants[@]}"; do
    for m in none cudnn both; do
      for e in hinted bare; do
        b=$build/bin/gcc/first_use_$v
        [ -x "$b" ] || continue
        envname=env_$e
        declare -n envref=$envname
        "${envref[@]}" strace -f -o "$build/logs/strace.$v.$m.$e" "$b" "$m" >/dev/null 2>&1
        unset -n envref
        put "syscalls.$v.$m.$e" "$(grep -vc -e '+++' -e '---' "$build/logs/strace.$v.$m.$e" 2>/dev/null)"
      done
    done
  done
fi
if have hyperfine; then
  for e in hinted bare; do
    cmds=()
    for v in "${first_variants[@]}"; do
      for m in none cudnn both; do
        [ -x "$build/bin/gcc/first_use_$v" ] && cmds+=(-n "$v.$m" "$build/bin/gcc/first_use_$v $m")
      done
    done
    envname=env_$e
    declare -n envref=$envname
    [ ${#cmds[@]} -gt 0 ] && "${envref[@]}" "$(command -v hyperfine)" -N --warmup "$proc_warmup" --runs "$proc_runs" \
      --export-json "$build/hf/first_$e.json" "${cmds[@]}" >>"$build/logs/first_use.log" 2>&1
    say "3. doctor: wall time ($e)"
    cmds=()
    for o in O2 O0; do
      [ -x "$build/bin/cushim-doctor-$o" ] && cmds+=(-n "doctor.$o" "$build/bin/cushim-doctor-$o")
    done
    # -i: the doctor exits 1 on this machine (without a driver no stack can use a GPU).
    [ ${#cmds[@]} -gt 0 ] && "${envref[@]}" "$(command -v hyperfine)" -N -i --warmup "$proc_warmup" \
      --runs "$proc_runs" --export-json "$build/hf/doctor_$e.json" "${cmds[@]}" >>"$build/logs/doctor.log" 2>&1
    unset -n envref
  done
  # What two situations cost the first use of both libraries (env hinted): every candidate
  # probed in a child process first (probe_in_child), and a CUSHIM_SEARCH_PATH of 10,000 entries
  # (absent, empty, relative and repeated folders).
  long_list=$(python3 -c "print(':'.join(['/n%d' % i, '', 'r', '/tmp'][i % 4] for i in range(10000)))")
  b=$build/bin/gcc/first_use_cushim
  if [ -x "$b" ]; then
    "${env_hinted[@]}" "$(command -v hyperfine)" -N --warmup "$proc_warmup" --runs "$proc_runs" \
      --export-json "$build/hf/situations.json" -n "plain" "$b both" \
      -n "probe_in_child" "env CUSHIM_PROBE_IN_CHILD=1 $b both" \
      -n "search_path_10000" "env CUSHIM_SEARCH_PATH=$long_list $b both" >>"$build/logs/first_use.log" 2>&1
  fi
  say "3. doctor: discovery and the plain-load floor"
  if [ -x "$build/bin/discovery" ] && [ -d "$build/discovery/m80" ]; then
    cmds=()
    for n in 0 5 20 80; do
      declare -n envref=env_disc$n
      cmds+=(-n "discovery.$n" "${envref[*]} $build/bin/discovery $n")
      unset -n envref
    done
    declare -n envref=env_doctor20
    cmds+=(-n "doctor.discover20" "${envref[*]} $build/bin/cushim-doctor-opt-in"
      -n "doctor.no_discover20" "${envref[*]} $build/bin/cushim-doctor-opt-in --no-discover"
      -n "doctor.O2.discover20" "${envref[*]} $build/bin/cushim-doctor-O2"
      -n "doctor.O2.no_discover20" "${envref[*]} $build/bin/cushim-doctor-O2 --no-discover")
    unset -n envref
    "$(command -v hyperfine)" -N -i --warmup "$proc_warmup" --runs "$proc_runs" \
      --export-json "$build/hf/discovery.json" "${cmds[@]}" >>"$build/logs/discovery.log" 2>&1
  fi
  cmds=()
  [ -x "$build/bin/plain_load" ] && cmds+=(-n "plain_load" "$build/bin/plain_load ${plain_load_libraries[*]}")
  [ -x "$build/bin/cushim-doctor-opt-in" ] && cmds+=(-n "doctor.opt_in" "$build/bin/cushim-doctor-opt-in --no-discover")
  [ -x "$build/bin/cushim-doctor-no-probe" ] &&
    cmds+=(-n "doctor.opt_in_no_probe" "$build/bin/cushim-doctor-no-probe --no-discover")
  [ ${#cmds[@]} -gt 0 ] && "${env_bare[@]}" "$(command -v hyperfine)" -N -i --warmup "$proc_warmup" \
    --runs "$proc_runs" --export-json "$build/hf/doctor_floor.json" "${cmds[@]}" >>"$build/logs/doctor.log" 2>&1
  for e in hinted bare; do
    envname=env_$e
    declare -n envref=$envname
    if [ -x "$build/bin/cushim-doctor-O2" ]; then
      "${envref[@]}" "$build/bin/cushim-doctor-O2" >"$build/doctor_$e.txt" 2>&1
      put "doctor.exit.$e" $?
    fi
    unset -n envref
  done
fi

# ---------------------------------------------------------------------------------------------
put meta.load_end "$(cut -d' ' -f1-3 /proc/loadavg)"
put meta.seconds "$(($(date +%s) - started))"
report=(python3 "$here/tools/report.py" --build "$build" --compilers "$compilers")
[ $write_doc -eq 1 ] && report+=(--write "$here/../BENCHMARKS.md")
"${report[@]}"
exit 0
