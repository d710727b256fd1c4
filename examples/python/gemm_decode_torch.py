"""Decode-shaped GEMMs on Hopper (few rows of A, N = K = 8192 by default),
f16 and fp8 e4m3 inputs, f16 output: the Hopper GEMMs for large shapes
(hopper_gemm.cute, hopper_gemm_fp8.cute), hopper_gemm_decode.cute, the
swap-AB kernels of hopper_gemm_swap_ab.cute and the choice among them by M,
each checked against PyTorch and timed next to it (torch.matmul: cuBLAS;
torch._scaled_mm: cuBLASLt). Needs an sm_90 GPU (H100/H200).

    PYTHONPATH=build/python python3 examples/python/gemm_decode_torch.py [N K]

C = A @ B.T with A (M, K) and B (N, K) row-major. Each row prints the
TFLOP/s of every kernel, of the choice by M ("by shape") and of PyTorch,
the choice's share of PyTorch's, and the fastest kernel (what CHOICE
should pick at that M).
"""

import os
import sys

import torch

import cutec
from timing import cuda_seconds

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..")
SWAP_AB = os.path.join(EXAMPLES, "hopper_gemm_swap_ab.cute")

# The swap-AB tiles (rows of B x rows of A) of each input type; "_mc2":
# the A tile multicast over pairs of CTAs, so that each SM reads half of
# it from L2.
SWAP_AB_TILES = {
    "f16": ("64x16", "64x32", "64x64", "64x128", "128x64", "128x128",
            "64x64_mc2", "64x128_mc2", "128x128_mc2", "64x256_mc2"),
    "fp8": ("64x16", "64x32", "64x64_mc2", "64x128_mc2", "128x128_mc2"),
}

# The kernel for M rows, per input type: the first entry whose bound is at
# or above M (the fastest on an H200 at N = K = 8192). The swap-AB tiles put
# B's rows in wgmma's 64-row slot and A's M rows in its N, so that N = 8192
# gives one tile per SM up to M = 256; above, the large GEMMs' 128 x 256
# tiles fill the GPU.
CHOICE = {
    "f16": ((16, "swap_ab_64x16"), (32, "swap_ab_64x32"), (64, "hopper_gemm_decode"),
            (128, "swap_ab_64x128"), (256, "swap_ab_128x128")),
    "fp8": ((16, "swap_ab_64x16"), (32, "swap_ab_64x32"), (64, "swap_ab_64x64_mc2"),
            (128, "swap_ab_64x128_mc2"), (256, "swap_ab_128x128_mc2")),
}


def compile_kernels(kind):
    """The kernels for `kind` ("f16" or "fp8"), by name."""
    large = "hopper_gemm" if kind == "f16" else "hopper_gemm_fp8"
    kernels = {large: cutec.compile(os.path.join(EXAMPLES, large + ".cute"), arch="sm_90a")}
    if kind == "f16":
        kernels["hopper_gemm_decode"] = cutec.compile(
            os.path.join(EXAMPLES, "hopper_gemm_decode.cute"), arch="sm_90a")
    prefix = "hopper_gemm_swap_ab_" + ("" if kind == "f16" else "fp8_")
    for tile in SWAP_AB_TILES[kind]:
        kernels["swap_ab_" + tile] = cutec.compile(SWAP_AB, kernel=prefix + tile, arch="sm_90a")
    return kernels, kernels[large]


def by_shape(kind, kernels, large, M):
    for rows, name in CHOICE[kind]:
        if M <= rows:
            return kernels[name]
    return large


def operands(kind, M, N, K):
    """A, B and PyTorch's C = A @ B.T (f32) and the call that times it."""
    if kind == "f16":
        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        b = torch.randn(N, K, device="cuda", dtype=torch.float16)
        return a, b, torch.matmul(a, b.t()).float(), lambda c: torch.matmul(a, b.t(), out=c)
    a = (torch.randn(M, K, device="cuda") / 4).to(torch.float8_e4m3fn)
    b = (torch.randn(N, K, device="cuda") / 4).to(torch.float8_e4m3fn)
    one = torch.tensor(1.0, device="cuda")

    def scaled_mm(c=None):
        return torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one, out_dtype=torch.float16)
    return a, b, scaled_mm().float(), scaled_mm


def main(N, K):
    for kind, peer in (("f16", "cuBLAS"), ("fp8", "cuBLASLt")):
        kernels, large = compile_kernels(kind)

        def linear(a, b, c):
            by_shape(kind, kernels, large, a.shape[0])(a, b, c)

        for M in (16, 32, 64, 128, 256, 512):
            a, b, want, theirs = operands(kind, M, N, K)
            c = torch.empty(M, N, device="cuda", dtype=torch.float16)
            flops = 2 * M * N * K
            row = [f"{kind} M={M:<4}"]
            tflops = {}
            for name, fn in (*kernels.items(), ("by shape", linear)):
                c.zero_()
                fn(a, b, c)
                error = ((c.float() - want).abs().max() / want.abs().max()).item()
                assert error < 1e-2, f"{kind} {name}: error {error}"
                tflops[name] = flops / cuda_seconds(lambda: fn(a, b, c)) / 1e12
                row.append(f"{name} {tflops[name]:4.0f}")
            peer_tflops = flops / cuda_seconds(lambda: theirs(c)) / 1e12
            fastest = max(kernels, key=tflops.get)
            share = tflops["by shape"] / peer_tflops
            row.append(f"{peer} {peer_tflops:4.0f} TFLOP/s; by shape {share:.0%} of {peer}, "
                       f"fastest {fastest} ({tflops[fastest] / peer_tflops:.0%})")
            print("  ".join(row), flush=True)


if __name__ == "__main__":
    sizes = [int(x) for x in sys.argv[1:3]] or [8192, 8192]
    main(*sizes)
