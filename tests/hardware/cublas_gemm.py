"""cuBLAS's f16 GEMM (f32 accumulation, f16 out) through PyTorch on the shapes
hopper_gemm_check times, C = A B^T with A (M, K) and B (N, K) row-major:
the peer of examples/hopper_gemm.cute, measured the same way (mean of 10
launches after a warm-up, CUDA events).

usage: python3 cublas_gemm.py
"""
import torch

SHAPES = [(8192, 8192, 8192), (4096, 4096, 4096), (128, 8192, 8192), (8192, 1024, 8192)]


def main():
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    print(f"cuBLAS via torch {torch.__version__} on {torch.cuda.get_device_name()}")
    for m, n, k in SHAPES:
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(n, k, device="cuda", dtype=torch.float16)
        torch.matmul(a, b.t())
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(10):
            torch.matmul(a, b.t())
        stop.record()
        torch.cuda.synchronize()
        ms = start.elapsed_time(stop) / 10
        print(f"cublas M={m} N={n} K={k}: {ms:.3f} ms, {2.0 * m * n * k / (ms * 1e9):.1f} TFLOP/s")


if __name__ == "__main__":
    main()
