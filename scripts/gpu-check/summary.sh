# gpu-check.sh's summary stage (sourced): the verdict of the whole check and one file to copy
# back from the machine, $build/summary.md: a table (program, mode, exit, verdict, what it
# means), the header choice, the doctor's times and the bench's table, then all of it and every
# program's output as one JSON object in a fenced block.
#
# Reads $build/rows.tsv (runs.sh), $build/headers/headers.tsv (headers.sh), $build/meta.tsv
# (key, value), $build/runs/doctor_ms.<mode> and $build/bench.json where they exist.

# The exit of the check: 1 a row failed (or nothing ran); else 3 a program passed in no mode
# (exit 3 everywhere: no usable GPU); else 0. The doctor passes with 0 or 2 (WARN).
overall_exit() {
  awk -F'\t' '
    $4 == "FAIL" { failed = 1 }
    $4 != "SKIP" { if (!($1 in ran)) count++; ran[$1] = 1; if ($4 == "PASS" || $4 == "WARN") passed[$1] = 1 }
    END {
      if (failed || count == 0) { print 1; exit }
      for (p in ran) if (!(p in passed)) { print 3; exit }
      print 0
    }' "$build/rows.tsv" 2>/dev/null || echo 1
}

overall_text() {
  case $1 in
    0) echo "all passed: every program computed on the GPU in at least one environment" ;;
    3) echo "NO USABLE GPU: a program could not use a GPU in any environment (the rows say why)" ;;
    *) echo "FAILED: a build, a result or a call failed (the FAIL rows)" ;;
  esac
}

# A JSON string of standard input's text (control characters other than tab, CR and LF dropped).
json_text() {
  tr -d '\000-\010\013\014\016-\037' | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' -e 's/\r/\\r/g' |
    awk 'BEGIN { ORS = ""; printf "\"" } { print (NR > 1 ? "\\n" : "") $0 } END { printf "\"" }'
}
json_of() { printf '%s' "$1" | json_text; }
json_number() { if [[ $1 =~ ^-?[0-9]+(\.[0-9]+)?$ ]]; then echo "$1"; else echo null; fi; }

# The rows of a tab-separated file as JSON objects with these keys ("#key": a number).
json_rows() {  # json_rows FILE KEY...
  local file=$1 sep="" line i value
  shift
  local keys=("$@") fields
  printf '['
  while IFS= read -r line; do
    IFS=$'\t' read -r -a fields <<<"$line"
    printf '%s{' "$sep"
    for i in "${!keys[@]}"; do
      value=${fields[$i]:-}
      [ "$i" -gt 0 ] && printf ', '
      case ${keys[$i]} in
        "#"*) printf '"%s": %s' "${keys[$i]#\#}" "$(json_number "$value")" ;;
        @*) printf '"%s": %s' "${keys[$i]#@}" "$([ -f "$value" ] && tail -c 20000 "$value" | json_text || echo null)" ;;
        *) printf '"%s": %s' "${keys[$i]}" "$(json_of "$value")" ;;
      esac
    done
    printf '}'
    sep=", "
  done <"$file"
  printf ']'
}

summary_json() {  # summary_json EXIT SECONDS
  local mode
  printf '{"gpu_check": {"exit": %s, "verdict": %s, "seconds": %s, ' "$1" "$(json_of "$(overall_text "$1")")" \
    "$(json_number "$2")"
  printf '"machine": %s},\n' "$(json_rows "$build/meta.tsv" key value)"
  printf ' "headers": %s,\n' "$(json_rows "$build/headers/headers.tsv" kind folder outcome why)"
  printf ' "runs": %s,\n' "$(json_rows "$build/rows.tsv" program mode "#exit" verdict meaning @output)"
  printf ' "doctor_ms_median_of_5": {'
  local sep=""
  for mode in plain found; do
    [ -f "$build/runs/doctor_ms.$mode" ] || continue
    printf '%s"%s": %s' "$sep" "$mode" "$(json_number "$(cat "$build/runs/doctor_ms.$mode")")"
    sep=", "
  done
  printf '},\n "bench": %s}\n' "$([ -s "$build/bench.json" ] && cat "$build/bench.json" || echo null)"
}

summary_table() {
  echo "| program | mode | exit | verdict | what it means |"
  echo "|---|---|---|---|---|"
  awk -F'\t' '{ gsub(/\|/, "/", $5); printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$build/rows.tsv"
}

# write_summary EXIT SECONDS: $build/summary.md, and the table on standard output.
write_summary() {
  local file=$build/summary.md mode
  touch "$build/rows.tsv" "$build/meta.tsv"
  mkdir -p "$build/headers"
  touch "$build/headers/headers.tsv"
  {
    echo "# scripts/gpu-check.sh: exit $1, $(overall_text "$1")"
    echo
    awk -F'\t' '{ printf "- %s: %s\n", $1, $2 }' "$build/meta.tsv"
    echo
    summary_table
    echo
    echo "Headers (chosen by compiling them):"
    awk -F'\t' '{ printf "- %s %s: %s (%s)\n", $1, $3, $2, $4 }' "$build/headers/headers.tsv"
    for mode in plain found; do
      [ -f "$build/runs/doctor_ms.$mode" ] && echo "- cushim-doctor ($mode): $(cat "$build/runs/doctor_ms.$mode") ms, median of 5"
    done
    if [ -f "$build/runs/gpu_bench.txt" ]; then
      printf '\nGPU bench (bench/gpu, ten interleaved runs of each build):\n\n```\n'
      cat "$build/runs/gpu_bench.txt"
      printf '```\n'
    fi
    printf '\nEverything above and every output, as JSON:\n\n```json\n'
    summary_json "$1" "$2"
    printf '```\n'
  } >"$file"
  summary_table
  echo "gpu-check: $(overall_text "$1")"
  echo "summary: $file"
}
