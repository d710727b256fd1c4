#!/usr/bin/env bash
# One entry point for a fresh Debian machine: install what is missing, configure,
# build, then either compile the example or run every test.
#   tools/dev.sh example   compile examples/ with the freshly built cutec
#   tools/dev.sh test      run the whole test suite (ctest)
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-example}
build=${CUTEC_BUILD_DIR:-build}
jobs=$(nproc)

tools/setup-debian.sh
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${CUTEC_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$jobs"

case "$mode" in
  example)
    # The seeds' layouts, checked, and the scale-factor atom drawn.
    "$build/bin/cutec" layout --check < examples/seed_layouts.txt
    "$build/bin/cutec" layout --draw '((32,4),(16,4)):((16,4),(0,1))' | head -12
    ;;
  test)
    ctest --test-dir "$build" --output-on-failure -j "$jobs"
    ;;
  *)
    echo "usage: tools/dev.sh [example|test]" >&2
    exit 2
    ;;
esac
