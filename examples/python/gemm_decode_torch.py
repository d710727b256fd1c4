"""Decode-shaped f16 GEMMs on Hopper (few rows of A, N = K = 8192 by
default): hopper_gemm.cute, hopper_gemm_decode.cute and the choice between
them by M, each checked against torch.matmul and timed next to it (cuBLAS).
Needs an sm_90 GPU (H100/H200).

    PYTHONPATH=build/python python3 examples/python/gemm_decode_torch.py [N K]

C = A @ B.T with A (M, K) and B (N, K) row-major.
"""

import os
import sys

import torch

import cutec
from timing import cuda_seconds

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..")

# hopper_gemm_decode's 64 x 64 tiles fill the GPU from one row of tiles;
# above this many rows hopper_gemm's 128 x 256 tiles take over.
DECODE_ROWS = 128


def main(N, K):
    large = cutec.compile(os.path.join(EXAMPLES, "hopper_gemm.cute"), arch="sm_90a")
    decode = cutec.compile(os.path.join(EXAMPLES, "hopper_gemm_decode.cute"), arch="sm_90a")

    def linear(a, b, c):
        (decode if a.shape[0] <= DECODE_ROWS else large)(a, b, c)

    for M in (16, 32, 64, 128, 256, 512):
        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        b = torch.randn(N, K, device="cuda", dtype=torch.float16)
        c = torch.empty(M, N, device="cuda", dtype=torch.float16)
        want = torch.matmul(a, b.t()).float()
        flops = 2 * M * N * K
        row = [f"f16 M={M:<4}"]
        for name, fn in (("hopper_gemm", large), ("hopper_gemm_decode", decode),
                         ("by shape", linear)):
            c.zero_()
            fn(a, b, c)
            error = ((c.float() - want).abs().max() / want.abs().max()).item()
            assert error < 1e-2, f"{name}: error {error}"
            seconds = cuda_seconds(lambda: fn(a, b, c))
            row.append(f"{name} {flops / seconds / 1e12:4.0f}")
        seconds = cuda_seconds(lambda: torch.matmul(a, b.t(), out=c))
        row.append(f"cuBLAS {flops / seconds / 1e12:4.0f} TFLOP/s")
        print("  ".join(row), flush=True)


if __name__ == "__main__":
    sizes = [int(x) for x in sys.argv[1:3]] or [8192, 8192]
    main(*sizes)
