#!/usr/bin/env bash
# On a machine with an NVIDIA GPU (Hopper or newer) and the CUDA driver:
# builds cutec and runs the hardware checks. Each requires the GPU and the
# emulator to agree byte for byte:
#  - gemv_hardware_check: each GEMV example's sm_90a PTX for six shapes; it
#    also prints the device-to-device copy bandwidth and each kernel's
#    bandwidth on the GPU MODE shapes, next to hand-written CUDA peers
#    (tests/hardware/HandwrittenGemv.cu, nvcc -O3 -fmad=false);
#  - tma_tile_copy_check: the TMA tile copies of examples/tma_tile_copy.cute
#    (every swizzle mode, fp4, boxes past the edges), shared-memory images and
#    read-back tiles;
#  - tma_model_check: hand-written cp.async.bulk.tensor probes of the
#    emulator's TMA model, and both tensor-map encoders;
#  - warp_roles_check: examples/warp_specialized.cute (named barriers,
#    elect.sync, setmaxnreg) for four shapes, and the lane elect.sync elects;
#  - persistent_transform_check: examples/persistent_transform.cute (a
#    persistent grid of one CTA per SM with a tile scheduler, a TMA warp and
#    pipeline, TMA stores with bulk groups, a named barrier, setmaxnreg) for
#    six shapes;
#  - hopper_gemm_check: examples/hopper_gemm.cute and hopper_gemm_fp8.cute
#    (wgmma, the accumulator in registers) on four shapes each with exact and
#    with rounding sums, and their TFLOP/s; tests/hardware/cublas_gemm.py
#    prints cuBLAS's on the same shapes where PyTorch is installed;
#  - simt_kernels_check: examples/vector_add.cute, transpose.cute,
#    rmsnorm.cute, softmax.cute and softmax_cluster.cute (a row over a
#    cluster of 8 or 16 CTAs) on ragged, decode-sized and large shapes,
#    and their GB/s next to cuMemcpyDtoD of the same bytes;
#    tests/hardware/torch_simt_peers.py prints PyTorch's on the same shapes
#    where PyTorch is installed;
#  - warp_primitives_check: the warp shuffles, warp and block reductions
#    and atomics of the emulation tests (tests/lit/run/Inputs) on three
#    sizes, GPU against emulation;
#  - sfu_check: exp2/exp/rsqrt with fastmath=True and rcp_approx, GPU
#    against emulation on random inputs and on every f32 input;
#  - wgmma_forms_check: every wgmma form as cutec compiles it (A from shared
#    memory and from registers), GPU against emulation on full-range inputs;
#  - tools/wgmma-numerics-check.sh: every wgmma form against the emulator's
#    numerics model on random tiles;
#  - tests/python/gpu_check.py (where PyTorch is installed): the Python
#    package launching the example kernels and every comparison
#    operator over the special values of f32, f16 and bf16
#    (tests/lit/run/Inputs/comparisons.cute) on PyTorch tensors, each
#    compared byte for byte with its emulation (saved first by
#    make_gpu_references.py) and with NumPy; bad arguments refused before a
#    launch; custom ops under torch.compile and CUDA graphs; CuPy and JAX
#    arrays; and the host time per call next to PyTorch's.
#   tools/hardware-check.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target gemv_hardware_check tma_tile_copy_check tma_model_check \
  warp_roles_check persistent_transform_check hopper_gemm_check simt_kernels_check \
  warp_primitives_check sfu_check wgmma_forms_check
"$build/bin/gemv_hardware_check" "$build/tests/hardware/nvfp4_gemv.sm_90a.ptx" \
  "$build/tests/hardware/nvfp4_gemv_warp.sm_90a.ptx" "$build/tests/hardware/handwritten_gemv.sm_90a.ptx"
"$build/bin/tma_tile_copy_check" "$build/tests/hardware/tma_tile_copy.sm_90a.ptx"
"$build/bin/tma_model_check"
"$build/bin/warp_roles_check" "$build/tests/hardware/warp_specialized.sm_90a.ptx"
"$build/bin/persistent_transform_check" "$build/tests/hardware/persistent_transform.sm_90a.ptx"
"$build/bin/hopper_gemm_check" "$build/tests/hardware/hopper_gemm.sm_90a.ptx" \
  "$build/tests/hardware/hopper_gemm_fp8.sm_90a.ptx"
"$build/bin/simt_kernels_check" "$build/tests/hardware/vector_add.sm_90a.ptx" \
  "$build/tests/hardware/transpose.sm_90a.ptx" "$build/tests/hardware/rmsnorm.sm_90a.ptx" \
  "$build/tests/hardware/softmax.sm_90a.ptx" "$build/tests/hardware/softmax_cluster.sm_90a.ptx"
"$build/bin/warp_primitives_check" "$build/tests/hardware/shuffles.sm_90a.ptx" \
  "$build/tests/hardware/warp_reduction.sm_90a.ptx" \
  "$build/tests/hardware/block_reduction.sm_90a.ptx" "$build/tests/hardware/atomics.sm_90a.ptx"
"$build/bin/sfu_check" "$build/tests/hardware/fast_math.sm_90a.ptx"
forms=()
for form in f16acc fp8f16 tf32 s8u8 s8sat rmem rmem_tf32 rmem_fp8 rmem_s8sat; do
  forms+=("$build/tests/hardware/wgmma_$form.sm_90a.ptx")
done
"$build/bin/wgmma_forms_check" "${forms[@]}"
if python3 -c 'import torch' 2>/dev/null; then
  python3 tests/hardware/cublas_gemm.py
  python3 tests/hardware/torch_simt_peers.py
fi
tools/wgmma-numerics-check.sh
if python3 -c 'import torch' 2>/dev/null; then
  cmake --build "$build" --target cutec_python
  PYTHONPATH="$build/python" python3 tests/python/make_gpu_references.py "$build/gpu-references"
  PYTHONPATH="$build/python" python3 tests/python/gpu_check.py "$build/gpu-references"
fi
