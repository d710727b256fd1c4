"""cuBLAS's f16 GEMM (f32 accumulation, f16 out) and e4m3 GEMM
(torch._scaled_mm with unit scales, f16 out) through PyTorch on the shapes
hopper_gemm_check times, C = A B^T with A (M, K) and B (N, K) row-major:
the peers of examples/hopper_gemm.cute and hopper_gemm_fp8.cute, measured
the same way (mean of 10 launches after a warm-up, CUDA events).

usage: python3 cublas_gemm.py
"""
import torch

SHAPES = [(8192, 8192, 8192), (4096, 4096, 4096), (128, 8192, 8192), (8192, 1024, 8192)]


def time_ms(gemm):
    gemm()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(10):
        gemm()
    stop.record()
    torch.cuda.synchronize()
    return start.elapsed_time(stop) / 10


def main():
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    print(f"cuBLAS via torch {torch.__version__} on {torch.cuda.get_device_name()}")
    one = torch.tensor(1.0, device="cuda")
    for kind in ("f16", "e4m3"):
        for m, n, k in SHAPES:
            a = torch.randn(m, k, device="cuda", dtype=torch.float16)
            b = torch.randn(n, k, device="cuda", dtype=torch.float16)
            if kind == "f16":
                ms = time_ms(lambda: torch.matmul(a, b.t()))
            else:
                a8, b8 = a.to(torch.float8_e4m3fn), b.to(torch.float8_e4m3fn)
                ms = time_ms(lambda: torch._scaled_mm(a8, b8.t(), scale_a=one, scale_b=one,
                                                      out_dtype=torch.float16))
            print(f"cublas {kind} M={m} N={n} K={k}: {ms:.3f} ms, "
                  f"{2.0 * m * n * k / (ms * 1e9):.1f} TFLOP/s")


if __name__ == "__main__":
    main()
