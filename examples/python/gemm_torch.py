"""The Hopper GEMMs (f16 and fp8 e4m3 inputs, f16 output, f32 accumulation)
called on PyTorch tensors, checked against torch.matmul and timed next to
it. Needs an sm_90 GPU (H100/H200).

    PYTHONPATH=build/python python3 examples/python/gemm_torch.py [M N K]

C = A @ B.T with A (M, K) and B (N, K) row-major, as torch.nn.functional.linear
computes it.
"""

import os
import sys

import torch

import cutec
from timing import cuda_seconds

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..")


def main(M, N, K):
    gemm = cutec.compile(os.path.join(EXAMPLES, "hopper_gemm.cute"), arch="sm_90a")
    gemm_fp8 = cutec.compile(os.path.join(EXAMPLES, "hopper_gemm_fp8.cute"), arch="sm_90a")
    flops = 2 * M * N * K

    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(N, K, device="cuda", dtype=torch.float16)
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    gemm(a, b, c)
    want = torch.matmul(a, b.t())
    error = ((c.float() - want.float()).abs().max() / want.float().abs().max()).item()
    ours = cuda_seconds(lambda: gemm(a, b, c))
    theirs = cuda_seconds(lambda: torch.matmul(a, b.t(), out=c))
    print(f"f16 {M}x{N}x{K}: max error {error:.1e} of the largest value; "
          f"cutec {flops / ours / 1e12:.0f} TFLOP/s, torch.matmul (cuBLAS) "
          f"{flops / theirs / 1e12:.0f} TFLOP/s ({theirs / ours:.0%})")

    a8 = (torch.randn(M, K, device="cuda") / 4).to(torch.float8_e4m3fn)
    b8 = (torch.randn(N, K, device="cuda") / 4).to(torch.float8_e4m3fn)
    gemm_fp8(a8, b8, c)
    one = torch.tensor(1.0, device="cuda")
    want = torch._scaled_mm(a8, b8.t(), scale_a=one, scale_b=one, out_dtype=torch.float16)
    error = ((c.float() - want.float()).abs().max() / want.float().abs().max()).item()
    ours = cuda_seconds(lambda: gemm_fp8(a8, b8, c))
    theirs = cuda_seconds(lambda: torch._scaled_mm(a8, b8.t(), scale_a=one, scale_b=one,
                                            out_dtype=torch.float16))
    print(f"fp8 {M}x{N}x{K}: max error {error:.1e} of the largest value; "
          f"cutec {flops / ours / 1e12:.0f} TFLOP/s, torch._scaled_mm (cuBLASLt) "
          f"{flops / theirs / 1e12:.0f} TFLOP/s ({theirs / ours:.0%})")


if __name__ == "__main__":
    sizes = [int(s) for s in sys.argv[1:4]] or [8192, 8192, 8192]
    main(*sizes)
