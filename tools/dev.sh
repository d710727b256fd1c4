#!/usr/bin/env bash
# One entry point for a fresh Debian machine: install what is missing, configure,
# build, then either compile the example or run every test.
#   tools/dev.sh example   compile the example kernel with the freshly built cutec, then
#                          compile and emulate it from Python
#   tools/dev.sh test      run the whole test suite (ctest), then again under ASan+UBSan
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-example}
build=${CUTEC_BUILD_DIR:-build}
jobs=$(nproc)

tools/setup-debian.sh
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${CUTEC_CMAKE_ARGS:-} >/dev/null

case "$mode" in
  example)
    # Only the compiler and what it links: the tests and benchmarks are the
    # test command's to build.
    cmake --build "$build" -j "$jobs" --target cutec
    # The NVFP4 GEMV to PTX (assembled when ptxas is there) and to its C++
    # emulation, and the seeds' layouts checked.
    mkdir -p out
    "$build/bin/cutec" examples/nvfp4_gemv.cute -o out/nvfp4_gemv.ptx
    echo "wrote out/nvfp4_gemv.ptx ($(wc -l < out/nvfp4_gemv.ptx) lines)"
    if [ -x /usr/local/cuda/bin/ptxas ]; then
      /usr/local/cuda/bin/ptxas -arch=sm_100a out/nvfp4_gemv.ptx -o out/nvfp4_gemv.cubin
      echo "ptxas -arch=sm_100a accepted it"
    fi
    "$build/bin/cutec" examples/nvfp4_gemv.cute --emit=emu -o out/nvfp4_gemv_emu.cpp
    echo "wrote out/nvfp4_gemv_emu.cpp and out/nvfp4_gemv_emu.h"
    "$build/bin/cutec" layout --check < examples/seed_layouts.txt
    # The same from Python: the package (and cutec-run, which emulates)
    # compiles the GEMV and checks it on the CPU against NumPy.
    if ! cmake --build "$build" --target help | grep -q '^cutec_python:'; then
      echo "no Python package in this build (see the CMake warning): skipping the Python part"
      exit 0
    fi
    cmake --build "$build" -j "$jobs" --target cutec_python
    PYTHONPATH="$build/python" /usr/bin/python3 -c '
import cutec
gemv = cutec.compile("examples/nvfp4_gemv.cute")
print(gemv.signature)'
    PYTHONPATH="$build/python" /usr/bin/python3 -m pytest -q -p no:cacheprovider \
      examples/python/test_gemv_emulated.py
    ;;
  test)
    cmake --build "$build" -j "$jobs"
    ctest --test-dir "$build" --output-on-failure -j "$jobs"
    # The whole suite again under AddressSanitizer and UBSan (CI runs both;
    # CUTEC_SKIP_SANITIZERS=1 skips this for a quick local run).
    if [ -z "${CUTEC_SKIP_SANITIZERS:-}" ]; then
      cmake -S . -B "$build-asan" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCUTEC_SANITIZE=ON \
        -DCUTEC_BUILD_BENCHMARKS=OFF >/dev/null
      cmake --build "$build-asan" -j "$jobs"
      # The emulations' object code is the same in both builds: reuse it.
      CUTEC_TEST_CACHE_DIR="$PWD/$build/cutec-cache" \
        ctest --test-dir "$build-asan" --output-on-failure -j "$jobs"
    fi
    ;;
  *)
    echo "usage: tools/dev.sh [example|test]" >&2
    exit 2
    ;;
esac
