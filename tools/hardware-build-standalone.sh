#!/usr/bin/env bash
# Builds the hardware checks on a GPU machine that cannot build cutec (no
# LLVM or CMake there), with g++ and the CUDA driver API only, from this
# source tree and a folder GEN holding what cutec generated for them on a
# machine that has it: build/tests/hardware/*.sm_90a.ptx, *_emu.cpp,
# *_emu.h and *_launch.h. Then run them as tools/hardware-check.sh does,
# with OUT for the build's bin/ and GEN for its tests/hardware/.
#   tools/hardware-build-standalone.sh GEN OUT
set -euo pipefail
cd "$(dirname "$0")/.."
gen=$(realpath "$1")
out=$2
mkdir -p "$out/runtime"
# No fused multiply-adds: the emulation rounds each operation as the PTX does.
flags=(-std=c++20 -O2 -ffp-contract=off -I. -I"$gen" -Itests/emulation -Itests/hardware
       -Itests/runtime -I/usr/local/cuda/include)
# Each compile in the background; a failed one fails the script.
pids=()
finish() {
  for pid in "${pids[@]}"; do wait "$pid"; done
  pids=()
}
for source in $(find runtime -name '*.cpp'); do
  g++ "${flags[@]}" -c "$source" -o "$out/runtime/$(basename "$source" .cpp).o" &
  pids+=($!)
done
finish
check() {
  local name=$1
  shift
  g++ "${flags[@]}" "$@" "$out"/runtime/*.o -o "$out/$name" -L/usr/local/cuda/lib64 \
    -L/usr/local/cuda/lib64/stubs -lcuda -lpthread
}
/usr/local/cuda/bin/nvcc -ptx -arch=sm_90a -O3 -fmad=false tests/hardware/HandwrittenGemv.cu \
  -o "$gen/handwritten_gemv.sm_90a.ptx" &
pids+=($!)
check gemv_hardware_check tests/hardware/GemvHardwareCheck.cpp "$gen/nvfp4_gemv_emu.cpp" \
  "$gen/nvfp4_gemv_warp_emu.cpp" &
pids+=($!)
check tma_tile_copy_check tests/hardware/TmaTileCopyCheck.cpp "$gen/tma_tile_copy_emu.cpp" &
pids+=($!)
check tma_model_check tests/hardware/TmaModelCheck.cpp &
pids+=($!)
check warp_roles_check tests/hardware/WarpRolesCheck.cpp "$gen/warp_specialized_emu.cpp" &
pids+=($!)
check persistent_transform_check tests/hardware/PersistentTransformCheck.cpp \
  "$gen/persistent_transform_emu.cpp" &
pids+=($!)
check hopper_gemm_check tests/hardware/HopperGemmCheck.cpp "$gen/hopper_gemm_emu.cpp" \
  "$gen/hopper_gemm_fp8_emu.cpp" &
pids+=($!)
check simt_kernels_check tests/hardware/SimtKernelsCheck.cpp "$gen/vector_add_emu.cpp" \
  "$gen/transpose_emu.cpp" "$gen/rmsnorm_emu.cpp" "$gen/softmax_emu.cpp" \
  "$gen/softmax_cluster_emu.cpp" &
pids+=($!)
check warp_primitives_check tests/hardware/WarpPrimitivesCheck.cpp "$gen/shuffles_emu.cpp" \
  "$gen/warp_reduction_emu.cpp" "$gen/block_reduction_emu.cpp" "$gen/atomics_emu.cpp" &
pids+=($!)
check sfu_check tests/hardware/SfuCheck.cpp "$gen/fast_math_emu.cpp" &
pids+=($!)
forms=()
for form in f16acc fp8f16 tf32 s8u8 s8sat rmem rmem_tf32 rmem_fp8 rmem_s8sat; do
  forms+=("$gen/wgmma_${form}_emu.cpp")
done
check wgmma_forms_check tests/hardware/WgmmaFormsCheck.cpp "${forms[@]}" &
pids+=($!)
finish
echo "built the hardware checks in $out"
