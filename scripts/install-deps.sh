#!/usr/bin/env bash
# Installs what building and testing cushim needs on a fresh Debian 12 machine. Quick no-op when
# everything is present. The CUDA toolkit and cuDNN headers/libraries are the user's (default
# /usr/local/cuda); they are not installed here.
# Boost (headers only) serves the tests alone: the Boost.DLL backend's preset and the export oracle.
# libboost1.81-dev, not libboost-dev (1.74): 1.74's library_info reads only .symtab, so it lists
# nothing for stripped libraries such as NVIDIA's, and skips protected symbols (fixed in 1.77).
set -euo pipefail
packages=(cmake ninja-build g++ clang lld python3 binutils doctest-dev mingw-w64 wine64 wine meson pkg-config make
  libboost1.81-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
