"""The example kernels the GPU check launches from PyTorch: for each, its
source, sizes, inputs (NumPy, from a fixed seed), the tensors it writes,
and a NumPy reference where one is simple to state.

make_gpu_references.py emulates each case here (no GPU needed) and saves
inputs and outputs; gpu_check.py, on the GPU machine, launches the same
kernels on the same inputs as PyTorch tensors and compares the bytes."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lit", "run", "Inputs"))
import comparisons_data  # noqa: E402

ARCH = "sm_90a"
SMS = 132  # an H200's SMs: the persistent kernels' grids use sm_count()


def _wide_f32(rng, shape):
    return (rng.standard_normal(shape) * np.exp2(rng.integers(-20, 20, shape))).astype(
        np.float32)


def _fp8_e4m3(rng, shape):
    codes = rng.integers(0, 256, shape, dtype=np.uint8)
    return np.where((codes & 0x7F) == 0x7F, codes & 0xF0, codes).astype(np.uint8)


def _f16(rng, shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float16)


def _softmax(x):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _attention(i, seq, d, causal):
    """O and LSE of flash_attention_hopper.cute's inputs in float64."""
    q, k, v = (i[n].astype(np.float64).reshape(-1, seq, d) for n in ("mQ", "mK", "mV"))
    s = q @ k.transpose(0, 2, 1) * np.float64(np.float32(d ** -0.5))
    if causal:
        s = np.where(np.arange(seq)[None, :] > np.arange(seq)[:, None], -np.inf, s)
    top = s.max(axis=-1, keepdims=True)
    e = np.exp(s - top)
    total = e.sum(axis=-1, keepdims=True)
    return {"mO": (e / total @ v).reshape(-1), "mLSE": (top + np.log(total)).reshape(-1)}


def cases():
    rng = np.random.default_rng(2026)
    out = []

    def case(name, file, sizes, inputs, outputs, kernel=None, scalars=None, reference=None,
             tolerance=0.0, tables=None):
        """tables: a parameter that holds addresses -> the nested list of the
        input names whose addresses it holds, in its memory order."""
        out.append(dict(name=name, file=file, kernel=kernel, sizes=sizes, inputs=inputs,
                        outputs=outputs, scalars=scalars or {}, reference=reference,
                        tolerance=tolerance, tables=tables or {}))

    n = 1000
    a, b = _wide_f32(rng, n), _wide_f32(rng, n)
    case("vector_add", "vector_add.cute", {}, {"mA": a, "mB": b, "mC": np.zeros(n, np.float32)},
         ["mC"], reference=lambda i: {"mC": i["mA"] + i["mB"]})
    x = _wide_f32(rng, (200, 300))
    case("transpose", "transpose.cute", {}, {"mIn": x, "mOut": np.zeros((300, 200), np.float32)},
         ["mOut"], reference=lambda i: {"mOut": i["mIn"].T})
    x = (rng.standard_normal((64, 1024)) * 4).astype(np.float32)
    case("softmax", "softmax.cute", {}, {"mX": x, "mY": np.zeros_like(x)}, ["mY"],
         reference=lambda i: {"mY": _softmax(i["mX"])}, tolerance=1e-5)
    x = (rng.standard_normal((8, 8192)) * 4).astype(np.float32)
    case("softmax_cluster8", "softmax_cluster.cute", {}, {"mX": x, "mY": np.zeros_like(x)},
         ["mY"], kernel="softmax_cluster8", reference=lambda i: {"mY": _softmax(i["mX"])},
         tolerance=1e-5)
    x = (rng.standard_normal((4, 16384)) * 4).astype(np.float32)
    case("softmax_cluster16", "softmax_cluster.cute", {}, {"mX": x, "mY": np.zeros_like(x)},
         ["mY"], kernel="softmax_cluster16", reference=lambda i: {"mY": _softmax(i["mX"])},
         tolerance=1e-5)
    x = rng.standard_normal((64, 1024)).astype(np.float32)
    w = rng.standard_normal(1024).astype(np.float32)

    def rmsnorm(i):
        xs = i["mX"].astype(np.float64)
        return {"mY": xs / np.sqrt((xs * xs).mean(axis=1, keepdims=True) + 1e-6) * i["mW"]}
    case("rmsnorm", "rmsnorm.cute", {}, {"mX": x, "mW": w, "mY": np.zeros_like(x)}, ["mY"],
         scalars={"eps": 1e-6}, reference=rmsnorm, tolerance=1e-5)
    M, N, K = 256, 512, 256
    A, B = _f16(rng, (M, K)), _f16(rng, (N, K))
    gemm = lambda i: {"mC": i["mA"].astype(np.float32) @ i["mB"].astype(np.float32).T}
    case("hopper_gemm", "hopper_gemm.cute", {}, {"mA": A, "mB": B,
                                                 "mC": np.zeros((M, N), np.float16)},
         ["mC"], reference=gemm, tolerance=2e-2)
    A8, B8 = _fp8_e4m3(rng, (M, K)), _fp8_e4m3(rng, (N, K))
    case("hopper_gemm_fp8", "hopper_gemm_fp8.cute", {}, {"mA": A8, "mB": B8,
                                                         "mC": np.zeros((M, N), np.float16)},
         ["mC"])
    M, K, L = 256, 512, 2
    for kernel in ("nvfp4_gemv", "nvfp4_gemv_warp"):
        case(kernel, f"{kernel}.cute", {"M": M, "K": K, "L": L},
             {"mA": rng.integers(0, 256, M * K * L // 2, dtype=np.uint8),
              "mB": rng.integers(0, 256, 128 * K * L // 2, dtype=np.uint8),
              "mSFA": rng.integers(0x30, 0x40, M * K * L // 16, dtype=np.uint8),
              "mSFB": rng.integers(0x30, 0x40, 128 * K * L // 16, dtype=np.uint8),
              "mC": np.zeros(M * L, np.float16)}, ["mC"])
    x = _wide_f32(rng, (256, 256))
    case("persistent_transform", "persistent_transform.cute", {},
         {"mX": x, "mY": np.zeros((256, 256), np.float16)}, ["mY"],
         scalars={"alpha": 1.5, "beta": -0.25})
    # Every comparison operator over each type's special values (the
    # cross product): the GPU's setp.eq/neu/lt/le/gt/ge on f32, f16 and bf16.
    # `file` is relative to examples/.
    pairs = comparisons_data.inputs()
    n = len(pairs["a"])
    case("comparisons", "../tests/lit/run/Inputs/comparisons.cute", {"N": n},
         {**pairs, "r": np.zeros((n, 20), np.int32), "folded": np.zeros(12, np.int32)},
         ["r", "folded"], reference=comparisons_data.expected)
    K, L = 8, 4
    case("warp_specialized", "warp_specialized.cute", {"K": K, "L": L},
         {"x": rng.standard_normal(256 * K * L).astype(np.float32),
          "y": np.zeros(256 * L, np.float32)}, ["y"])
    # A wgmma GEMM whose epilogue adds bias[col] through a make_tensor view
    # and stores only inside C, by the accumulator's coordinates.
    M, N = 100, 75
    A = rng.integers(-4, 5, (M, 64)).astype(np.float16)
    B = rng.integers(-4, 5, (N, 64)).astype(np.float16)
    bias = (rng.integers(-64, 64, N) / 8).astype(np.float32)
    case("masked_bias", "../tests/lit/run/Inputs/wgmma_coords.cute", {"M": M, "N": N},
         {"mA": A, "mB": B, "bias": bias, "mC": np.zeros((M, N), np.float32)}, ["mC"],
         kernel="masked_bias",
         reference=lambda i: {"mC": i["mA"].astype(np.float32) @ i["mB"].astype(np.float32).T
                              + i["bias"]})
    # Register fragments as values (tests/lit/run/fragment-values.test,
    # online-softmax.test): selects, reductions per mode, warp reductions
    # and broadcasts of fragments.
    tests = "../tests/lit/run/Inputs/"
    x = rng.uniform(-2, 2, (32, 2, 4)).astype(np.float32)
    outputs = {"assigned": (32, 2, 4), "nested": (32, 8), "selected": (32, 3, 8),
               "filled": (32, 8), "reduced": (32, 7), "exact": (32, 4, 8),
               "approx": (32, 2, 3, 8), "broadcast": (32, 2, 4), "lanes": (32, 6)}
    case("fragment_values", tests + "fragment_values.cute", {},
         dict({"x": x}, **{k: np.zeros(v, np.float32) for k, v in outputs.items()}),
         list(outputs), scalars={"s": 0.75})
    s = (rng.standard_normal((64, 128)) * 3).astype(np.float32)
    case("online_softmax", tests + "online_softmax.cute", {},
         {"mS": s, "mP": np.zeros_like(s), "mStats": np.zeros((64, 2), np.float32)},
         ["mP", "mStats"])
    # wgmma accumulators across loops (tests/lit/run/wgmma-across-loops.test):
    # a group in flight from one loop into the next keeps its registers, and
    # an accumulator operand the next iteration reads again is copied.
    a = rng.integers(-3, 4, (64, 16)).astype(np.float16)
    b = rng.integers(-3, 4, (64, 16)).astype(np.float16)
    d = rng.integers(-50, 50, (64, 64)).astype(np.float32)
    product = a.astype(np.float32) @ b.astype(np.float32).T
    for name, extra, want in (("two_loops", {}, 3 * product),
                              ("reused", {"mD": d}, 3 * (d + product))):
        case("wgmma_" + name, tests + "wgmma_across_loops.cute", {},
             dict({"mA": a, "mB": b, "mC": np.zeros((64, 64), np.float32)}, **extra), ["mC"],
             kernel=name, scalars={"n": 3}, reference=lambda i, want=want: {"mC": want})
    # FlashAttention (examples/flash_attention_hopper.cute): the tensors as
    # memory images of row-major (batch, heads, seq, d) arrays, a ragged
    # sequence of two query tiles and two key blocks, causal and not.
    batch, heads, seq = 1, 2, 192
    for d in (64, 128):
        q, k, v = (_f16(rng, batch * heads * seq * d) for _ in range(3))
        for causal in (False, True):
            name = f"flash_attention_d{d}" + ("_causal" if causal else "")
            case(name, "flash_attention_hopper.cute", {"S": seq, "H": heads, "B": batch},
                 {"mQ": q, "mK": k, "mV": v, "mO": np.zeros_like(q),
                  "mLSE": np.zeros(batch * heads * seq, np.float32)}, ["mO", "mLSE"],
                 kernel=name, scalars={"scale": d ** -0.5},
                 reference=lambda i, d=d, causal=causal: _attention(i, seq, d, causal),
                 tolerance=2e-3)
    # The swap-AB decode GEMMs (examples/hopper_gemm_swap_ab.cute): 16 rows
    # of A in 64 x 16 tiles, and ragged M, N and K with A multicast over
    # clusters of two, in one consumer's 64 x 128 tiles and in the two
    # consumers' 128 x 128 tiles (the transposed stores clipped to C).
    for kernel, (M, N, K) in (("hopper_gemm_swap_ab_64x16", (16, 256, 512)),
                              ("hopper_gemm_swap_ab_64x128_mc2", (100, 328, 200)),
                              ("hopper_gemm_swap_ab_128x128_mc2", (130, 264, 136))):
        A, B = _f16(rng, (M, K)), _f16(rng, (N, K))
        case(kernel, "hopper_gemm_swap_ab.cute", {}, {"mA": A, "mB": B,
                                                      "mC": np.zeros((M, N), np.float16)},
             ["mC"], kernel=kernel, reference=gemm, tolerance=2e-2)
    for kernel, (M, N, K) in (("hopper_gemm_swap_ab_fp8_64x16", (16, 256, 512)),
                              ("hopper_gemm_swap_ab_fp8_128x128_mc2", (130, 264, 272))):
        case(kernel, "hopper_gemm_swap_ab.cute", {},
             {"mA": _fp8_e4m3(rng, (M, K)), "mB": _fp8_e4m3(rng, (N, K)),
              "mC": np.zeros((M, N), np.float16)}, ["mC"], kernel=kernel)
    # The line-by-line port of CUTLASS's CuTe DSL Hopper GEMM, on a batch of
    # two with M and N not multiples of its 128 x 256 tile; the tensors are
    # the (M, K, L):(K, 1, M*K) memory images.
    Mp, Np, Kp, Lp = 320, 776, 512, 2
    port_rng = np.random.default_rng(28)
    Ap, Bp = _f16(port_rng, (Lp, Mp, Kp)), _f16(port_rng, (Lp, Np, Kp))
    case("dense_gemm_persistent_hopper", "ports/dense_gemm_persistent_hopper.cute",
         {"M": Mp, "N": Np, "K": Kp, "L": Lp},
         {"mA_mkl": Ap.reshape(-1), "mB_nkl": Bp.reshape(-1),
          "mC_mnl": np.zeros(Lp * Mp * Np, np.float16)}, ["mC_mnl"],
         reference=lambda i: {"mC_mnl": (i["mA_mkl"].reshape(Lp, Mp, Kp).astype(np.float32)
                                         @ i["mB_nkl"].reshape(Lp, Np, Kp).astype(np.float32)
                                         .transpose(0, 2, 1)).reshape(-1)},
         tolerance=2e-2)
    # A grouped GEMV over separately allocated groups of different sizes
    # (tests/lit/run/grouped-gemv.test): per group an A, x and y reached
    # through a table of addresses, the sizes from a table of (M, K).
    sizes = [(5, 7), (130, 3), (64, 33), (1, 1000)]
    groups = {}
    for g, (m, k) in enumerate(sizes):
        groups.update({f"a{g}": rng.standard_normal((m, k)).astype(np.float32),
                       f"x{g}": rng.standard_normal(k).astype(np.float32),
                       f"y{g}": np.zeros(m, np.float32)})
    case("grouped_gemv", tests + "grouped_gemv.cute", {"G": len(sizes)},
         dict(groups, mk=np.array(sizes, np.int32)), [f"y{g}" for g in range(len(sizes))],
         tables={"ptrs": [[f"a{g}", f"x{g}", f"y{g}"] for g in range(len(sizes))]},
         reference=lambda i: {f"y{g}": i[f"a{g}"].astype(np.float64) @ i[f"x{g}"]
                              for g in range(len(sizes))}, tolerance=1e-4)
    return out
