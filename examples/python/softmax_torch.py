"""A drop-in for torch.softmax(x, dim=-1) on float32 CUDA matrices, built on
cutec's softmax kernels: one CTA per row for rows up to 8K elements, and a
cluster of 8 or 16 CTAs sharing a row through distributed shared memory for
longer rows. Checked against torch.softmax and timed next to it.

    PYTHONPATH=build/python python3 examples/python/softmax_torch.py
"""

import os

import torch

import cutec
from timing import cuda_seconds

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
_kernels = {}


def _kernel(name):
    if name not in _kernels:
        source = "softmax.cute" if name == "softmax" else "softmax_cluster.cute"
        _kernels[name] = cutec.compile(os.path.join(EXAMPLES, source),
                                       kernel=None if name == "softmax" else name)
    return _kernels[name]


def softmax(x):
    """torch.softmax(x, dim=-1) for a 2-D float32 CUDA tensor whose rows hold a
    multiple of 4 elements."""
    n = x.shape[-1]
    name = "softmax" if n <= 8192 else "softmax_cluster8" if n <= 65536 else "softmax_cluster16"
    y = torch.empty_like(x)
    _kernel(name)(x.contiguous(), y)
    return y


def main():
    for rows, cols in [(4096, 1024), (4096, 8192), (256, 32768), (64, 131072)]:
        x = torch.randn(rows, cols, device="cuda") * 4
        got, want = softmax(x), torch.softmax(x, dim=-1)
        error = ((got - want).abs() / want.abs().clamp_min(1e-30)).max().item()
        ours, theirs = (1e6 * cuda_seconds(lambda: softmax(x)),
                         1e6 * cuda_seconds(lambda: torch.softmax(x, dim=-1)))
        print(f"{rows}x{cols}: max relative error {error:.1e}; cutec {ours:.1f} us, "
              f"torch.softmax {theirs:.1f} us ({theirs / ours:.2f}x)")


if __name__ == "__main__":
    main()
