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
    mkdir -p out
    "$build/bin/cutec" layout --draw 'tile_to_shape(((32,4),(16,4)):((16,4),(0,1)),(128,64,1),(2,1,3))'
    echo "wrote nothing else yet: the kernel language arrives with issue 3"
    ;;
  test)
    ctest --test-dir "$build" --output-on-failure -j "$jobs"
    ;;
  *)
    echo "usage: tools/dev.sh [example|test]" >&2
    exit 2
    ;;
esac
