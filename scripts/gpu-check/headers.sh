# gpu-check.sh's header stage (sourced): which CUDA and cuDNN headers to build with, chosen by
# compiling them, and the library folders that match them.
#
# Candidates, in order of preference: the folders named by CUDA_HOME, CUDA_PATH, CUDNN_INCLUDE_DIR
# and CUDNN_ROOT, then the pip packages of the Python environments (site-packages/nvidia/cu*,
# nvidia/cuda_runtime, nvidia/cudnn), then the toolkits under /usr/local, then the system's
# /usr/include. A folder is a CUDA candidate if it has cuda_runtime_api.h and a cuDNN candidate if
# it has cudnn_version.h. The CUDA headers are the first candidate whose
#   #include <cuda_runtime_api.h>
# compiles; the cuDNN headers the first candidate with which, those CUDA headers after it,
#   #include <cushim/cushim.hpp>
# compiles and reads both from the folders meant (a cuDNN folder with CUDA headers of its own
# would replace the chosen ones). Every other candidate is reported with why it was passed over.
#
# Needs: cxx, root, work (a folder for the trial files). Sets cuda_include, cudnn_include,
# cuda_version (CUDART_VERSION), cudnn_version (M.m.p), library_folders (':'-separated: the
# folders of libcudnn.so.<major> and libcudart.so.<major> beside the chosen headers, then those
# beside the other CUDA candidates of the same major) and writes $work/headers.tsv: kind,
# folder, outcome (chosen, passed over), why.

cuda_candidates=() cudnn_candidates=()
cuda_include="" cudnn_include="" cuda_version="" cudnn_version="" library_folders=""

# The site-packages folders of the Python environments named or found (--python, VIRTUAL_ENV,
# ./.venv, ./venv, python3 on PATH).
python_site_packages() {
  local python
  for python in "$@" "${VIRTUAL_ENV:+$VIRTUAL_ENV/bin/python}" "$root/.venv/bin/python" "$root/venv/bin/python" \
    "$(command -v python3 || true)"; do
    [ -n "$python" ] && [ -x "$python" ] || continue
    timeout 20 "$python" -c 'import sysconfig; p = sysconfig.get_paths(); print(p["purelib"]); print(p["platlib"])' \
      2>/dev/null
  done | awk '!seen[$0]++'
}

# list_candidates [PYTHON]: fills cuda_candidates and cudnn_candidates from this machine.
list_candidates() {
  local dirs=() site dir
  dirs+=(${CUDA_HOME:+"$CUDA_HOME/include"} ${CUDA_PATH:+"$CUDA_PATH/include"} ${CUDNN_INCLUDE_DIR:+"$CUDNN_INCLUDE_DIR"}
    ${CUDNN_ROOT:+"$CUDNN_ROOT/include"})
  while IFS= read -r site; do
    for dir in "$site"/nvidia/cu[0-9]*/include "$site"/nvidia/cuda_runtime/include "$site"/nvidia/cudnn/include; do
      dirs+=("$dir")
    done
  done < <(python_site_packages "$@")
  dirs+=(/usr/local/cuda/include $(ls -d /usr/local/cuda-*/include 2>/dev/null | sort -rV) /usr/include
    "/usr/include/$(uname -m)-linux-gnu")
  local seen=" " real
  for dir in "${dirs[@]}"; do
    real=$(realpath -e "$dir" 2>/dev/null) || continue
    case $seen in *" $real "*) continue ;; esac
    seen+="$real "
    [ -f "$dir/cuda_runtime_api.h" ] && cuda_candidates+=("$dir")
    [ -f "$dir/cudnn_version.h" ] && cudnn_candidates+=("$dir")
  done
}

# try_compile NAME SOURCE FLAGS...: 0 when SOURCE compiles; its first error line in $work/NAME.error.
try_compile() {
  local name=$1 source=$2
  shift 2
  printf '%s\n' "$source" >"$work/$name.cpp"
  "$cxx" -std=c++17 -fsyntax-only "$@" "$work/$name.cpp" >"$work/$name.log" 2>&1 && return 0
  grep -m1 -E 'error|Error' "$work/$name.log" | sed "s|^$work/$name.cpp:[0-9:]* ||" >"$work/$name.error"
  return 1
}

# included_from NAME HEADER FLAGS...: the folder the compiler reads HEADER from for $work/NAME.cpp.
included_from() {
  local name=$1 header=$2
  shift 2
  "$cxx" -std=c++17 -E "$@" "$work/$name.cpp" 2>/dev/null |
    sed -n "s|^# [0-9]* \"\\(.*\\)/$header\".*|\\1|p" | head -n1 | xargs -r realpath -e 2>/dev/null
}

# The value of a header's "#define MACRO value".
header_define() { awk -v m="$2" '$1 == "#define" && $2 == m {print $3; exit}' "$1"; }

record_candidate() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$work/headers.tsv"; }

choose_cuda() {
  local i=0 dir
  for dir in "${cuda_candidates[@]}"; do
    i=$((i + 1))
    if [ -n "$cuda_include" ]; then
      try_compile "cuda_$i" '#include <cuda_runtime_api.h>' -isystem "$dir" &&
        record_candidate cuda "$dir" "passed over" "compiles; an earlier candidate was chosen" ||
        record_candidate cuda "$dir" "passed over" "does not compile: $(cat "$work/cuda_$i.error")"
    elif try_compile "cuda_$i" '#include <cuda_runtime_api.h>' -isystem "$dir"; then
      cuda_include=$dir
      cuda_version=$(header_define "$dir/cuda_runtime_api.h" CUDART_VERSION)
      record_candidate cuda "$dir" chosen "the first whose cuda_runtime_api.h compiles (CUDA $((cuda_version / 1000)).$((cuda_version % 1000 / 10)))"
    else
      record_candidate cuda "$dir" "passed over" "does not compile: $(cat "$work/cuda_$i.error")"
    fi
  done
}

# cudnn_pair_fails DIR NAME: empty when DIR's cuDNN headers compile with the chosen CUDA headers
# through cushim and are the ones read; else why not.
cudnn_pair_fails() {
  local dir=$1 name=$2 flags used
  flags=(-I"$root/include" -isystem "$dir" -isystem "$cuda_include")
  try_compile "$name" '#include <cushim/cushim.hpp>' "${flags[@]}" ||
    { echo "does not compile with the chosen CUDA headers: $(cat "$work/$name.error")"; return; }
  used=$(included_from "$name" cuda_runtime_api.h "${flags[@]}")
  [ "$used" = "$(realpath -e "$cuda_include")" ] ||
    { echo "its folder's own CUDA headers ($used) would replace the chosen ones"; return; }
  used=$(included_from "$name" cudnn_version.h "${flags[@]}")
  [ "$used" = "$(realpath -e "$dir")" ] || echo "the chosen CUDA folder's cuDNN headers ($used) would replace these"
}

choose_cudnn() {
  local i=0 dir why version
  for dir in "${cudnn_candidates[@]}"; do
    i=$((i + 1))
    version="cuDNN $(header_define "$dir/cudnn_version.h" CUDNN_MAJOR).$(header_define "$dir/cudnn_version.h" \
      CUDNN_MINOR).$(header_define "$dir/cudnn_version.h" CUDNN_PATCHLEVEL)"
    why=$(cudnn_pair_fails "$dir" "cudnn_$i")
    if [ -n "$why" ]; then
      record_candidate cudnn "$dir" "passed over" "$version: $why"
    elif [ -n "$cudnn_include" ]; then
      record_candidate cudnn "$dir" "passed over" "$version: compiles; an earlier candidate was chosen"
    else
      cudnn_include=$dir
      cudnn_version=${version#cuDNN }
      record_candidate cudnn "$dir" chosen "$version: the first that compiles with the chosen CUDA headers"
    fi
  done
}

# The folder beside an include folder that holds FILE: lib, lib64, the multiarch lib of /usr.
library_folder_of() {
  local include=$1 file=$2 real dir
  real=$(realpath -e "$include")
  for dir in "$real/../lib" "$real/../lib64" "$include/../lib" "$include/../lib64" "$real/../lib/$(uname -m)-linux-gnu"; do
    [ -e "$dir/$file" ] && { realpath -e "$dir"; return; }
  done
}

# choose_headers: the pair, the library folders, and what was said about every candidate.
choose_headers() {
  : >"$work/headers.tsv"
  cuda_include="" cudnn_include="" cuda_version="" cudnn_version="" library_folders=""
  choose_cuda
  [ -n "$cuda_include" ] && choose_cudnn
  local kind dir outcome why
  while IFS=$'\t' read -r kind dir outcome why; do
    printf '  %-5s %-11s %s\n        %s\n' "$kind" "$outcome" "$dir" "$why"
  done <"$work/headers.tsv"
  [ -n "$cuda_include" ] || { echo "no CUDA headers that compile: cuda_runtime_api.h in none of the candidates above"; return 1; }
  [ -n "$cudnn_include" ] || { echo "no cuDNN headers that compile with the chosen CUDA headers"; return 1; }
  local folders=() dir major=$((cuda_version / 1000))
  folders+=("$(library_folder_of "$cudnn_include" "libcudnn.so.${cudnn_version%%.*}")")
  folders+=("$(library_folder_of "$cuda_include" "libcudart.so.$major")")
  # Then the libraries of the other CUDA candidates of that major, whose headers need not compile
  # (a wheel's folder: its cuFFT, cuBLAS, ... beside a toolkit that may lack them).
  for dir in "${cuda_candidates[@]}"; do
    [ "$(($(header_define "$dir/cuda_runtime_api.h" CUDART_VERSION) / 1000))" = "$major" ] &&
      folders+=("$(library_folder_of "$dir" "libcudart.so.$major")")
  done
  library_folders=$(printf '%s\n' "${folders[@]}" | awk 'NF && !seen[$0]++' | paste -sd:)
  echo "chosen: CUDA headers $cuda_include, cuDNN $cudnn_version headers $cudnn_include"
  echo "their libraries: ${library_folders:-no libcudnn.so.${cudnn_version%%.*} or libcudart.so.$((cuda_version / 1000)) beside them}"
}
