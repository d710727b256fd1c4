#!/usr/bin/env bash
# On a machine with an NVIDIA GPU (Hopper or newer) and the CUDA driver:
# builds cutec and runs the hardware check, which requires the GEMV's sm_90a
# PTX on the GPU and its emulation on the CPU to give byte-identical outputs
# for six shapes, and prints the kernel's bandwidth; then the TMA model check,
# which requires cp.async.bulk.tensor's shared-memory images on the GPU and in
# the emulator to be byte-identical (and both tensor-map encoders to agree).
#   tools/hardware-check.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target gemv_hardware_check tma_model_check
"$build/bin/gemv_hardware_check" "$build/tests/hardware/nvfp4_gemv.sm_90a.ptx"
"$build/bin/tma_model_check"
