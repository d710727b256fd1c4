"""PyTorch's peers of the SIMT examples on the shapes simt_kernels_check
times, measured the same way (mean of 20 launches after a warm-up, CUDA
events) and counted the same way (the bytes each must read and write):
torch.add (examples/vector_add.cute), x.t().contiguous() (transpose.cute),
F.rms_norm with a weight (rmsnorm.cute) and torch.softmax over rows
(softmax.cute and softmax_cluster.cute), all f32; next to torch's
device-to-device copy of the same bytes.

usage: python3 torch_simt_peers.py
"""
import torch
import torch.nn.functional as F

LAUNCHES = 20
ADD = [1000003, 1 << 20, (1 << 28) + 3]
TRANSPOSE = [(256, 4096), (8192, 8192), (12289, 4097), (4097, 12289)]
RMSNORM = [(1, 8192), (8, 8192), (4096, 4096), (16384, 8192)]
SOFTMAX = [(1, 32000), (8, 128000), (32, 65536), (4096, 32000), (16384, 8192)]


def time_ms(op):
    op()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(LAUNCHES):
        op()
    stop.record()
    torch.cuda.synchronize()
    return start.elapsed_time(stop) / LAUNCHES


def report(title, op, nbytes):
    ms = time_ms(op)
    src = torch.empty(int(nbytes) // 8, dtype=torch.float32, device="cuda")
    dst = torch.empty_like(src)
    copy = 2 * src.numel() * 4 / (time_ms(lambda: dst.copy_(src)) * 1e6)
    gb = nbytes / (ms * 1e6)
    print(f"{title}: {ms:.4f} ms, {gb:.1f} GB/s = {100 * gb / copy:.1f}% of a copy of the same "
          f"bytes ({copy:.1f} GB/s)")


def main():
    print(f"torch {torch.__version__} on {torch.cuda.get_device_name()}")
    f32 = dict(dtype=torch.float32, device="cuda")
    for n in ADD:
        a, b = torch.randn(n, **f32), torch.randn(n, **f32)
        c = torch.empty_like(a)
        report(f"torch.add N={n}", lambda: torch.add(a, b, out=c), 12.0 * n)
    for m, n in TRANSPOSE:
        x = torch.randn(m, n, **f32)
        report(f"x.t().contiguous() M={m} N={n}", lambda: x.t().contiguous(), 8.0 * m * n)
    for m, n in RMSNORM:
        x, w = torch.randn(m, n, **f32), torch.randn(n, **f32)
        report(f"F.rms_norm M={m} N={n}", lambda: F.rms_norm(x, (n,), w, eps=1e-6),
               8.0 * m * n + 4.0 * n)
    for m, n in SOFTMAX:
        x = torch.randn(m, n, **f32)
        report(f"torch.softmax M={m} N={n}", lambda: torch.softmax(x, dim=1), 8.0 * m * n)


if __name__ == "__main__":
    main()
