#!/usr/bin/env bash
# On a machine with a Hopper GPU (sm_90a) and nvcc: builds
# tests/hardware/WgmmaNumericsCheck.cu with nvcc alone (no CMake) and runs it:
# random wgmma.mma_async tiles of every form on the GPU, compared bit for bit
# with the model in runtime/numerics/WgmmaNumerics.h. Arguments go to the check
# (--scale S, --dump FILE, --record DIR); to refresh the recorded cases of
# tests/runtime/WgmmaNumericsTest.cpp:
#   tools/wgmma-numerics-check.sh --record tests/data/wgmma
set -euo pipefail
cd "$(dirname "$0")/.."
out=${WGMMA_CHECK_BUILD:-build/wgmma-check}
mkdir -p "$out"
nvcc -std=c++20 -O2 -gencode=arch=compute_90a,code=sm_90a -I. -o "$out/WgmmaNumericsCheck" \
  tests/hardware/WgmmaNumericsCheck.cu runtime/numerics/WgmmaNumerics.cpp runtime/numerics/FloatFormat.cpp \
  2> >(grep -v -e 'C7517' -e 'C7519' >&2)
"$out/WgmmaNumericsCheck" "$@"
