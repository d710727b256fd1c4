#!/usr/bin/env bash
# On a machine with an NVIDIA GPU (Hopper or newer) and the CUDA driver:
# builds cutec and runs the hardware check, which requires each GEMV
# example's sm_90a PTX on the GPU and its emulation on the CPU to give
# byte-identical outputs for six shapes, and prints the device-to-device copy
# bandwidth and each kernel's bandwidth on the GPU MODE shapes.
#   tools/hardware-check.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target gemv_hardware_check
"$build/bin/gemv_hardware_check" "$build/tests/hardware/nvfp4_gemv.sm_90a.ptx" \
  "$build/tests/hardware/nvfp4_gemv_warp.sm_90a.ptx"
