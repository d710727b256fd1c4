"""Timing on the GPU for the examples: the mean seconds of one call of `fn`,
measured with CUDA events over `repeats` calls after `warmup` calls."""

import torch


def cuda_seconds(fn, repeats=100, warmup=5):
    for _ in range(warmup):
        fn()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(repeats):
        fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / repeats * 1e-3
