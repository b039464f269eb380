#!/usr/bin/env bash
# Every standard or system header a cushim header includes must be in detail/platform/system_headers.hpp,
# which the implementation includes before its size-optimised region opens (detail/platform/for_size.hpp):
# a header first seen inside the region would have its functions compiled with cushim's attributes,
# and clang refuses them on redeclarations. cushim's own headers and the NVIDIA ones the public header
# includes (cuDNN's and the runtime's) are not system ones; <windows.h> comes through
# windows/windows_h.hpp, which system_headers.hpp includes.
set -u
dir="$1/cushim"
listed=$(grep -hoE '^#include <[^>]+>' "$dir/detail/platform/system_headers.hpp" | sort -u)
used=$(grep -rhoE '^[[:space:]]*#include <[^>]+>' "$dir" --include='*.hpp' --exclude=windows_h.hpp | sed 's/^[[:space:]]*//' | sort -u |
  grep -vE '<(cushim/.*|cudnn\.h|cuda_runtime_api\.h)>')
missing=$(comm -23 <(printf '%s\n' "$used") <(printf '%s\n' "$listed"))
if [ -n "$missing" ]; then
  echo "detail headers include these, which detail/platform/system_headers.hpp does not list:"
  echo "$missing"
  exit 1
fi
echo "every system header of the cushim headers is in detail/platform/system_headers.hpp ($(printf '%s\n' "$listed" | grep -c .) listed)"
