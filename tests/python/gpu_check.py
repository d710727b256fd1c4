"""The Python package on a GPU: every case of gpu_cases.py launched from
PyTorch tensors and compared byte for byte with its emulation (saved by
make_gpu_references.py) and with a NumPy reference; bad arguments refused
before a launch, the context still usable after; two kernels as custom ops
under torch.compile(fullgraph=True) and CUDA-graph capture; and the host
time of one call next to PyTorch's.

    PYTHONPATH=build/python python3 tests/python/gpu_check.py REF_DIR

Exits 0 when every check passes, 1 otherwise, 77 without a CUDA device.
"""

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import gpu_cases  # noqa: E402

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples")
failures = []


def check(condition, message):
    print(("ok    " if condition else "FAIL  ") + message, flush=True)
    if not condition:
        failures.append(message)


def to_torch(torch, array, dtype=None):
    t = torch.from_numpy(np.ascontiguousarray(array)).cuda()
    return t.view(dtype) if dtype is not None else t


def compile_case(cutec, case):
    return cutec.compile(os.path.join(EXAMPLES, case["file"]), kernel=case["kernel"],
                         arch=gpu_cases.ARCH)


def run_cases(torch, cutec, ref_dir):
    # Inputs whose NumPy arrays hold another type's bits.
    views = {("hopper_gemm_fp8", "mA"): "float8_e4m3fn", ("hopper_gemm_fp8", "mB"): "float8_e4m3fn",
             ("comparisons", "ab"): "bfloat16", ("comparisons", "bb"): "bfloat16"}
    for case in gpu_cases.cases():
        saved = np.load(os.path.join(ref_dir, case["name"] + ".npz"))
        kernel = compile_case(cutec, case)
        tensors = {}
        for name in case["inputs"]:
            view = views.get((case["name"], name))
            dtype = getattr(torch, view) if view else None
            tensors[name] = to_torch(torch, saved["in_" + name], dtype)
        # A table of addresses holds the device pointers of its tensors.
        for table, rows in case["tables"].items():
            tensors[table] = torch.tensor([[tensors[n].data_ptr() for n in row] for row in rows],
                                          dtype=torch.int64, device="cuda")
        args = [tensors[p.name] if p.kind == "tensor" else case["scalars"][p.name]
                for p in kernel.signature.arguments]
        kernel(*args, **case["sizes"])
        torch.cuda.synchronize()
        for name in case["outputs"]:
            got = tensors[name].cpu().numpy()
            emulated = saved["out_" + name]
            same = got.tobytes() == emulated.tobytes()
            differing = int((got.view(np.uint8) != emulated.view(np.uint8)).sum())
            check(same, f"{case['name']}: {name} equals the emulation byte for byte"
                  + ("" if same else f" ({differing} bytes differ)"))
        if case["reference"]:
            inputs = {k: saved["in_" + k] for k in case["inputs"]}
            for name, want in case["reference"](inputs).items():
                got = tensors[name].cpu().numpy().astype(np.float64)
                error = float(np.max(np.abs(got - want) / (np.abs(want) + 1e-30 + case[
                    "tolerance"])))
                close = np.allclose(got, want, rtol=case["tolerance"] or 1e-7,
                                    atol=case["tolerance"] * np.abs(want).max())
                check(close, f"{case['name']}: {name} matches the NumPy reference "
                      f"(max relative error {error:.2e})")


def expect_refusal(torch, cutec, what, call, exception):
    try:
        call()
    except exception as e:
        check(True, f"refused before launch: {what}: {type(e).__name__}: {e}")
        return
    except Exception as e:  # noqa: BLE001
        check(False, f"{what}: raised {type(e).__name__}: {e}, expected {exception.__name__}")
        return
    check(False, f"{what}: no exception")


def run_refusals(torch, cutec):
    add = cutec.compile(os.path.join(EXAMPLES, "vector_add.cute"), arch=gpu_cases.ARCH)
    soft = cutec.compile(os.path.join(EXAMPLES, "softmax.cute"), arch=gpu_cases.ARCH)
    gemm = cutec.compile(os.path.join(EXAMPLES, "hopper_gemm.cute"), arch=gpu_cases.ARCH)
    a = torch.randn(4096, device="cuda")
    b = torch.randn(4096, device="cuda")
    c = torch.empty(4096, device="cuda")
    expect_refusal(torch, cutec, "a float16 tensor for f32", lambda: add(a.half(), b, c),
                   TypeError)
    expect_refusal(torch, cutec, "a CPU tensor", lambda: add(a.cpu(), b, c), ValueError)
    expect_refusal(torch, cutec, "an address 4 bytes past 16-byte alignment",
                   lambda: add(a[1:], b[1:], c[1:]), ValueError)
    expect_refusal(torch, cutec, "tensors of different lengths", lambda: add(a, b[:100], c),
                   ValueError)
    x = torch.randn(8, 1022, device="cuda")
    expect_refusal(torch, cutec, "N = 1022 against assume divby(N, 4)",
                   lambda: soft(x, torch.empty_like(x)), ValueError)
    x = torch.randn(8, 1024, device="cuda")
    expect_refusal(torch, cutec, "a transposed output (wrong strides)",
                   lambda: soft(x, torch.empty(1024, 8, device="cuda").t()), ValueError)
    A = torch.randn(256, 256, device="cuda", dtype=torch.float16)
    expect_refusal(torch, cutec, "a size keyword the tensors contradict",
                   lambda: gemm(A, A, torch.empty(256, 256, device="cuda",
                                                  dtype=torch.float16), M=512), ValueError)
    expect_refusal(torch, cutec, "a missing argument", lambda: add(a, b), TypeError)
    add(a, b, c)
    torch.cuda.synchronize()
    check(torch.equal(c, a + b), "the context is usable after the refusals (vector_add right)")


def run_torch_integration(torch, cutec):
    add = cutec.compile(os.path.join(EXAMPLES, "vector_add.cute"), arch=gpu_cases.ARCH)
    soft = cutec.compile(os.path.join(EXAMPLES, "softmax.cute"), arch=gpu_cases.ARCH)
    add_op = add.as_torch_op("cutec_check::vector_add", mutates_args=("mC",))
    soft_op = soft.as_torch_op("cutec_check::softmax", mutates_args=("mY",))

    def f(x, y):
        s = torch.empty_like(x)
        add_op(x.view(-1), y.view(-1), s.view(-1))
        out = torch.empty_like(s)
        soft_op(s, out)
        return out * 2

    x = torch.randn(64, 1024, device="cuda")
    y = torch.randn(64, 1024, device="cuda")
    want = torch.softmax(x + y, dim=1) * 2
    eager = f(x, y)
    compiled = torch.compile(f, fullgraph=True)
    got = compiled(x, y)
    torch.cuda.synchronize()
    check(torch.allclose(eager, want, rtol=1e-5, atol=1e-7),
          "two cutec ops called eagerly match torch.softmax(x + y)")
    check(torch.equal(got, eager), "torch.compile(fullgraph=True) through two cutec ops: equal "
          "to eager")
    static_x, static_y = x.clone(), y.clone()
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        f(static_x, static_y)  # warm-up outside the capture
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static_out = f(static_x, static_y)
    new_x, new_y = torch.randn_like(x), torch.randn_like(y)
    static_x.copy_(new_x)
    static_y.copy_(new_y)
    graph.replay()
    torch.cuda.synchronize()
    check(torch.equal(static_out, f(new_x, new_y)), "CUDA graph capture and replay of two cutec "
          "ops on new inputs: equal to eager")


def run_other_frameworks(cutec):
    add = cutec.compile(os.path.join(EXAMPLES, "vector_add.cute"), arch=gpu_cases.ARCH)
    try:
        import cupy
        a, b = cupy.arange(1000, dtype=cupy.float32), cupy.ones(1000, dtype=cupy.float32)
        c = cupy.zeros(1000, dtype=cupy.float32)
        add(a, b, c)
        cupy.cuda.runtime.deviceSynchronize()
        check(bool((c == a + b).all()), "CuPy arrays (__cuda_array_interface__)")
    except ImportError:
        print("skip  CuPy is not installed")
    try:
        os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
        import jax
        import jax.numpy as jnp
        gpu = jax.devices("gpu")[0]
        a = jax.device_put(jnp.arange(1000, dtype=jnp.float32), gpu)
        b = jax.device_put(jnp.ones(1000, dtype=jnp.float32), gpu)
        c = jax.device_put(jnp.zeros(1000, dtype=jnp.float32), gpu)
        c.block_until_ready()
        add(a, b, c)  # JAX arrays are immutable; the kernel writes c's buffer in place
        import torch
        torch.cuda.synchronize()
        check(bool((np.asarray(c) == np.asarray(a) + 1).all()), "JAX arrays (__dlpack__)")
    except (ImportError, RuntimeError) as e:
        print(f"skip  JAX: {e}")


def host_time(call, torch, batches=200, batch=100):
    """Host time per call: the time to issue `batch` calls after a
    synchronize, so the launch queue never fills and the GPU's own pace
    never shows (a long back-to-back loop measures that instead)."""
    for _ in range(200):
        call()
    total = 0.0
    for _ in range(batches):
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(batch):
            call()
        total += time.perf_counter() - start
    return total / (batches * batch) * 1e6


def back_to_back_time(call, count=20000):
    """Time per call of a long loop: bound by whichever is slower, issuing
    the launches or the GPU running them."""
    start = time.perf_counter()
    for _ in range(count):
        call()
    return (time.perf_counter() - start) / count * 1e6


def run_overhead(torch, cutec):
    add = cutec.compile(os.path.join(EXAMPLES, "vector_add.cute"), arch=gpu_cases.ARCH)
    gemm = cutec.compile(os.path.join(EXAMPLES, "hopper_gemm.cute"), arch=gpu_cases.ARCH)
    a, b, c = (torch.randn(1024, device="cuda") for _ in range(3))
    A = torch.randn(128, 128, device="cuda", dtype=torch.float16)
    C = torch.empty(128, 128, device="cuda", dtype=torch.float16)
    op = add.as_torch_op("cutec_check::vector_add_overhead", mutates_args=("mC",))
    s = torch.cuda.current_stream()
    start = time.perf_counter()
    add(a, b, c)
    first = (time.perf_counter() - start) * 1e6
    from cutec import _native
    raw_launch = _native.launch
    raw = (add._functions[a.device.index or 0], (1, 1, 1), (256, 1, 1), (0, 0, 0), 0,
           torch.cuda.current_stream().cuda_stream, a.device.index or 0, "pppu",
           (a.data_ptr(), b.data_ptr(), c.data_ptr(), 1024))
    clustered = raw[:3] + ((1, 1, 1),) + raw[4:]
    timed = [
        ("cutec vector_add(a, b, c)", lambda: add(a, b, c)),
        ("cutec vector_add(a, b, c, stream=s)", lambda: add(a, b, c, stream=s)),
        ("torch.add(a, b, out=c)", lambda: torch.add(a, b, out=c)),
        ("cuLaunchKernel alone (cutec._native.launch, values prepared)",
         lambda: raw_launch(*raw)),
        ("cuLaunchKernelEx alone (the same with a 1x1x1 cluster attribute)",
         lambda: raw_launch(*clustered)),
        ("cutec op via torch.ops", lambda: op(a, b, c)),
        ("cutec hopper_gemm(A, B, C) (3 tensor maps)", lambda: gemm(A, A, C)),
        ("torch.matmul(A, B.T, out=C)", lambda: torch.matmul(A, A.t(), out=C)),
    ]
    print("PyTorch tensors read through DLPack's exchange API:", _native.exchange_api_in_use())
    print(f"first call of cutec vector_add (loads the module, checks, plans): {first:.1f} us")
    print("time per call in microseconds: host = issuing 100 calls after a synchronize "
          "(mean of 200 such batches); back-to-back = a loop of 20000 calls")
    print("     host  back-to-back")
    for what, call in timed:
        host = host_time(call, torch)
        loop = back_to_back_time(call)
        torch.cuda.synchronize()
        print(f"  {host:7.2f}  {loop:7.2f}  {what}")


def main(ref_dir):
    try:
        import torch
    except ImportError:
        print("skipped: no PyTorch")
        return 77
    if not torch.cuda.is_available():
        print("skipped: no CUDA device")
        return 77
    import cutec
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
    for stage in (lambda: run_cases(torch, cutec, ref_dir), lambda: run_refusals(torch, cutec),
                  lambda: run_torch_integration(torch, cutec),
                  lambda: run_other_frameworks(cutec),
                  lambda: run_overhead(torch, cutec)):
        try:
            stage()
        except Exception as e:  # noqa: BLE001
            import traceback
            traceback.print_exc()
            failures.append(f"{type(e).__name__}: {e}")
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
