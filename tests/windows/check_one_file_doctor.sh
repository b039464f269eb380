#!/usr/bin/env bash
# doctor_windows_one_file: scripts/doctor-windows.sh builds cushim-doctor.exe into a folder of its
# own; its import table names only DLLs every Windows has, and it runs under Wine from that folder
# with nothing beside it (no driver here: exit 1 with the fix). Prints its size and imports.
#   check_one_file_doctor.sh <objdump> <output folder>
set -euo pipefail
objdump=$1
out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out"
CUSHIM_NO_INSTALL=1 "$root/scripts/doctor-windows.sh" "$out" >/dev/null
exe=$out/cushim-doctor.exe
dlls=$("$objdump" -p "$exe" | sed -n 's/^[[:space:]]*DLL Name: //p' | sort -u)
echo "cushim-doctor.exe: $(stat -c %s "$exe") bytes, imports: $(echo $dlls)"
for dll in $dlls; do
  case "${dll^^}" in
    KERNEL32.DLL | ADVAPI32.DLL | MSVCRT.DLL | USER32.DLL | SHELL32.DLL | OLE32.DLL) ;;
    *)
      echo "cushim-doctor.exe imports $dll, which not every Windows has"
      exit 1
      ;;
  esac
done
set +e
report=$(cd "$out" && env -u CUDA_PATH -u CUDNN_PATH wine ./cushim-doctor.exe --no-discover 2>&1)
code=$?
set -e
first=$(printf '%s\n' "$report" | head -n 1 | tr -d '\r')
if [ "$code" -ne 1 ] || [ "$first" != "No stack can use a GPU: no NVIDIA driver was found" ]; then
  echo "expected exit 1 and the headline without a driver; got exit $code:"
  printf '%s\n' "$report"
  exit 1
fi
echo "runs under Wine alone: exit $code, \"$first\""
