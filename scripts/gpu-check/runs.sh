# gpu-check.sh's run stages (sourced): the examples and the doctor in two environments, and the
# GPU bench. "plain": as a user runs them, without any CUSHIM_ variable; "found": with
# CUSHIM_SEARCH_PATH naming the library folders beside the chosen headers (headers.sh), which
# are the libraries the programs were compiled for. Every run is a row of $build/rows.tsv:
# program, mode, exit, verdict, what it means, its output file.
#
# Needs: build, programs, library_folders.

runs_dir() { echo "$build/runs"; }

# The command prefix of a mode: env without the CUSHIM_ variables, plus the search path when found.
mode_env() {
  local prefix=(env) variable
  for variable in $(compgen -e | grep '^CUSHIM_'); do prefix+=(-u "$variable"); done
  [ "$1" = found ] && prefix+=("CUSHIM_SEARCH_PATH=$library_folders")
  printf '%s\n' "${prefix[@]}"
}

modes() { if [ -n "$library_folders" ]; then echo plain found; else echo plain; fi; }

# "VERDICT  meaning" of an exit code. The examples (docs/examples.md, "Examples") and the bench
# (bench/gpu/gpu_bench.cpp); the doctor (README.md, "The doctor").
meaning() {  # meaning PROGRAM EXIT
  case "$1:$2" in
    cushim-doctor*:0) echo "PASS    a GPU works, no stack has a problem" ;;
    cushim-doctor*:2) echo "WARN    a GPU works for a stack, another has a problem" ;;
    cushim-doctor*:1) echo "NO_GPU  nothing can use a GPU here" ;;
    cushim-doctor*:73) echo "FAIL    the --record file could not be written" ;;
    gpu_bench:0) echo "PASS    measured: direct and cushim side by side (the bench table)" ;;
    gpu_bench:1) echo "FAIL    a bench run failed or lacked a figure" ;;
    *:0) echo "PASS    matches the CPU reference" ;;
    *:1) echo "FAIL    differs from the CPU reference" ;;
    *:3) echo "NO_GPU  no usable GPU or library" ;;
    *:4) echo "FAIL    a CUDA or library call failed" ;;
    *:124) echo "FAIL    timed out" ;;
    *) echo "FAIL    exit code $2" ;;
  esac
}

# record_row PROGRAM MODE EXIT OUTPUT_FILE [WHY]: WHY, else the program's own line about its
# result (an example's "<name>: ..." line), follows the meaning.
record_row() {
  local program=$1 mode=$2 code=$3 output=$4 why=${5:-} verdict text
  verdict=$(meaning "$program" "$code")
  text=${verdict#* }
  text=${text#"${text%%[! ]*}"}
  [ -n "$why" ] || why=$(grep -m1 -E "^(${program%% *}: (no usable|.* failed|max abs error)|no GPU|interleave:)" "$output" 2>/dev/null)
  why=${why//$'\t'/ }
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$program" "$mode" "$code" "${verdict%% *}" "$text${why:+: $why}" "$output" \
    >>"$build/rows.tsv"
}

# record_unbuilt PROGRAM VERDICT WHY: a program the build left out (SKIP) or could not make (FAIL).
record_unbuilt() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" - - "$2" "$3" "" >>"$build/rows.tsv"; }

run_examples() {
  local mode name prefix output
  for mode in $(modes); do
    mapfile -t prefix < <(mode_env "$mode")
    for name in conv_forward lstm_forward toolkit_math kernel_saxpy; do
      built "$name" || continue
      output=$(runs_dir)/$name.$mode.txt
      printf '\n=== %s (%s)\n' "$name" "$mode"
      timeout 120 "${prefix[@]}" "$build/$name" >"$output" 2>&1
      local code=$?
      cat "$output"
      record_row "$name" "$mode" "$code" "$output"
    done
  done
}

# The doctor as a user runs it (text), --json and --record, in each mode; the text run also
# timed five times more (the median is in the summary).
run_doctor() {
  local mode prefix output code i
  for mode in $(modes); do
    mapfile -t prefix < <(mode_env "$mode")
    output=$(runs_dir)/cushim-doctor.$mode.txt
    printf '\n=== cushim-doctor (%s)\n' "$mode"
    timeout 120 "${prefix[@]}" "$build/cushim-doctor" >"$output" 2>&1
    code=$?
    cat "$output"
    record_row cushim-doctor "$mode" "$code" "$output" "$(grep -m1 '^verdict' "$output")"
    timeout 120 "${prefix[@]}" "$build/cushim-doctor" --json >"$(runs_dir)/cushim-doctor.$mode.json" 2>&1
    record_row "cushim-doctor --json" "$mode" $? "$(runs_dir)/cushim-doctor.$mode.json" "the report as JSON"
    timeout 120 "${prefix[@]}" "$build/cushim-doctor" --record "$(runs_dir)/record.$mode.txt" \
      >"$(runs_dir)/cushim-doctor.$mode.record-run.txt" 2>&1
    code=$?
    record_row "cushim-doctor --record" "$mode" "$code" "$(runs_dir)/record.$mode.txt" "the versions found"
    printf '\n=== cushim-doctor --record (%s): %s\n' "$mode" "$(runs_dir)/record.$mode.txt"
    cat "$(runs_dir)/record.$mode.txt" 2>/dev/null
    for i in 1 2 3 4 5; do
      local start=$(date +%s%N)
      timeout 120 "${prefix[@]}" "$build/cushim-doctor" >/dev/null 2>&1
      echo $((($(date +%s%N) - start) / 1000000))
    done | sort -n | sed -n 3p >"$(runs_dir)/doctor_ms.$mode"
    echo "cushim-doctor ($mode): median of 5 runs $(cat "$(runs_dir)/doctor_ms.$mode") ms"
  done
}

# The bench in the found mode (both builds then use the same library files), ten runs of each.
run_bench() {
  local mode=plain prefix output
  [ -n "$library_folders" ] && mode=found
  mapfile -t prefix < <(mode_env "$mode")
  output=$(runs_dir)/gpu_bench.txt
  printf '\n=== GPU bench: direct and cushim, interleaved (bench/gpu)\n'
  timeout 150 "${prefix[@]}" "$build/interleave" 10 "$build/gpu_bench_direct" "$build/gpu_bench_cushim" \
    "$build/bench.json" >"$output" 2>&1
  local code=$?
  cat "$output"
  record_row gpu_bench "$mode" "$code" "$output"
}

# The rows of the programs the build left out or could not make, before any run.
prepare_runs() {
  rm -rf "$(runs_dir)" "$build/rows.tsv" "$build/bench.json"
  mkdir -p "$(runs_dir)"
  local line
  for line in "${not_built[@]}"; do record_unbuilt "${line%%:*}" SKIP "not built: ${line#*: }"; done
  for line in "${failed_builds[@]}"; do record_unbuilt "$line" FAIL "the build failed ($build/logs/$line.log)"; done
}

built() { [[ " ${programs[*]} " == *" $1 "* ]]; }
