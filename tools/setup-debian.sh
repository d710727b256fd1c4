#!/usr/bin/env bash
# Installs the Debian packages cutec needs to build and test, only those missing.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3 python3-numpy python3-dev python3-pip python3-pytest
  llvm-19-dev llvm-19-tools libclang-19-dev clang-19 libclang-rt-19-dev
  libfmt-dev libgtest-dev libbenchmark-dev libopenblas-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# nanobind (the Python package's bindings; Debian 12 has none) from PyPI,
# into the project's own .deps/python, where CMake looks for it.
root=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -d "$root/.deps/python/nanobind" ]; then
  echo "setup: installing nanobind into .deps/python"
  /usr/bin/python3 -m pip install -q --disable-pip-version-check --target "$root/.deps/python" \
    nanobind==3.1.0 ||
    echo "setup: nanobind could not be installed: the Python package will not be built" >&2
fi
