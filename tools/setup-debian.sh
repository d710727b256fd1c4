#!/usr/bin/env bash
# Installs the Debian packages cutec needs to build and test, only those missing.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3 python3-numpy
  llvm-19-dev llvm-19-tools libclang-19-dev clang-19 libclang-rt-19-dev
  libfmt-dev libgtest-dev libbenchmark-dev libopenblas-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
