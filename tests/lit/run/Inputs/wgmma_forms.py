"""A one-warpgroup wgmma kernel of one form and its inputs and exact NumPy
result into DIR: D (128, 128) = C + A (128, 64) B (128, 64)^T with a 64 x
64 instruction (2 x 2 instruction tiles, K in several blocks), C read from
global memory into the accumulator (scale-d) and D stored from it. Small
integers keep every floating-point sum exact; the integer forms take C
near the ends of the s32 range, so that wrapping and .satfinite (clamping
after each instruction's K block of 32) give different D.

usage: wgmma_forms.py DIR f16acc|fp8f16|tf32|s8u8|s8sat|rmem|rmem_tf32|rmem_fp8|rmem_s8sat
       wgmma_forms.py --kernels DIR   (every form's kernel, DIR/wgmma_FORM.cute)
"""
import os
import sys

M, N, K = 128, 128, 64

# form: (op, A type, B type, accumulator type, A from registers)
FORMS = {
    "f16acc": ("warpgroup.MmaF16BF16Op(f16, f16, (64, 64, 16))", "f16", "f16", "f16", False),
    "fp8f16": ("warpgroup.MmaF8Op(f8e4m3, f8e5m2, f16, (64, 64, 32))", "f8e4m3", "f8e5m2", "f16",
               False),
    "tf32": ("warpgroup.MmaTF32Op((64, 64, 8))", "tf32", "tf32", "f32", False),
    "s8u8": ("warpgroup.MmaI8Op(i8, u8, i32, (64, 64, 32))", "i8", "u8", "i32", False),
    "s8sat": ("warpgroup.MmaI8Op(i8, i8, i32, (64, 64, 32), satfinite=True)", "i8", "i8", "i32",
              False),
    "rmem": ("warpgroup.MmaF16BF16Op(f16, f32, (64, 64, 16), OperandSource.RMEM, "
             "OperandMajorMode.K, OperandMajorMode.K)", "f16", "f16", "f32", True),
    "rmem_tf32": ("warpgroup.MmaTF32Op((64, 64, 8), OperandSource.RMEM)", "tf32", "tf32", "f32",
                  True),
    "rmem_fp8": ("warpgroup.MmaF8Op(f8e5m2, f8e4m3, f16, (64, 64, 32), OperandSource.RMEM)",
                 "f8e5m2", "f8e4m3", "f16", True),
    "rmem_s8sat": ("warpgroup.MmaI8Op(u8, i8, i32, (64, 64, 32), OperandSource.RMEM, "
                   "satfinite=True)", "u8", "i8", "i32", True),
}

KERNEL = """@kernel(block=128, grid=(1, 1, 1))
def wgmma_{form}(mA: Tensor[{a}, ({m}, {k}):({k}, 1)], mB: Tensor[{b}, ({n}, {k}):({k}, 1)],
               mC: Tensor[{acc}, ({m}, {n}):({n}, 1)], mD: Tensor[{acc}, ({m}, {n}):({n}, 1)]):
    tidx = thread_idx().x
    tiled_mma = make_tiled_mma({op})
    thr_mma = tiled_mma.get_slice(tidx)
    sB = shared_tensor({b}, make_smem_layout_b(tiled_mma, ({m}, {n}, {k}), {b}, 1))
{smem_a}    bar = shared_tensor(u64, 1)
    if tidx == 0:
        mbarrier_init(bar[0], 1)
        fence_mbarrier_init()
    sync_threads()
    if tidx == 0:
        mbarrier_arrive_expect_tx(bar[0], {bytes})
        tma_load(local_tile(mB, ({n}, {k}), (_, _))[_, _, 0, 0], sB[_, _, 0], bar[0])
{load_a}    mbarrier_wait(bar[0], 0)
    acc = thr_mma.partition_C(mC).load()
{operand_a}    warpgroup.fence()
    acc = gemm(tiled_mma, acc, a, sB[_, _, 0], True)
    warpgroup.commit_group()
    warpgroup.wait_group(0)
    thr_mma.partition_C(mD).store(acc)
"""


def kernel(form):
    op, a, b, acc, rmem = FORMS[form]
    sizes = dict(m=M, n=N, k=K)
    if rmem:
        smem_a, load_a = "", ""
        operand_a = "    a = thr_mma.partition_A(mA).load()\n"
        size = "size_in_bytes(sB[_, _, 0])"
    else:
        smem_a = ("    sA = shared_tensor({a}, make_smem_layout_a(tiled_mma, ({m}, {n}, {k}), {a}, "
                  "1))\n").format(a=a, **sizes)
        load_a = ("        tma_load(local_tile(mA, ({m}, {k}), (_, _))[_, _, 0, 0], sA[_, _, 0], "
                  "bar[0])\n").format(**sizes)
        operand_a = "    a = sA[_, _, 0]\n"
        size = "size_in_bytes(sA[_, _, 0]) + size_in_bytes(sB[_, _, 0])"
    return KERNEL.format(form=form, op=op, a=a, b=b, acc=acc, smem_a=smem_a, load_a=load_a,
                         operand_a=operand_a, bytes=size, **sizes)


def fp8_code(value, mantissa_bits, bias):
    """The e4m3/e5m2 code of an integer in -4..4 (exact in both)."""
    if value == 0:
        return 0
    sign = 0x80 if value < 0 else 0
    magnitude = abs(int(value))
    exponent = magnitude.bit_length() - 1
    mantissa = (magnitude - (1 << exponent)) << mantissa_bits >> exponent
    return sign | (exponent + bias) << mantissa_bits | mantissa


def encode(x, dtype):
    import numpy as np
    if dtype == "f16":
        return x.astype(np.float16)
    if dtype in ("tf32", "f32"):
        return x.astype(np.float32)
    if dtype == "f8e4m3":
        return np.vectorize(lambda v: fp8_code(v, 3, 7))(x).astype(np.uint8)
    if dtype == "f8e5m2":
        return np.vectorize(lambda v: fp8_code(v, 2, 15))(x).astype(np.uint8)
    return x.astype({"i8": np.int8, "u8": np.uint8, "i32": np.int32}[dtype])


def main():
    if sys.argv[1] == "--kernels":
        os.makedirs(sys.argv[2], exist_ok=True)
        for form in FORMS:
            with open(os.path.join(sys.argv[2], f"wgmma_{form}.cute"), "w") as f:
                f.write(kernel(form))
        return
    import numpy as np  # only the data needs it, not the kernels
    out, form = sys.argv[1], sys.argv[2]
    op, ta, tb, tacc, rmem = FORMS[form]
    rng = np.random.default_rng(sum(map(ord, form)))
    integer = tacc == "i32"
    low_a, high_a = (-128, 128) if ta == "i8" else (0, 256) if ta == "u8" else (-4, 5)
    low_b, high_b = (-128, 128) if tb == "i8" else (0, 256) if tb == "u8" else (-4, 5)
    a = rng.integers(low_a, high_a, size=(M, K), dtype=np.int64)
    b = rng.integers(low_b, high_b, size=(N, K), dtype=np.int64)
    if integer:
        # Half of C near the top and bottom of s32, so that sums cross them.
        c = rng.integers(-2**31, 2**31, size=(M, N), dtype=np.int64)
        ends = rng.random((M, N)) < 0.5
        c[ends] = np.where(rng.random(ends.sum()) < 0.5, 2**31 - 1, -2**31) - \
            rng.integers(-2**20, 2**20, size=ends.sum())
        c = np.clip(c, -2**31, 2**31 - 1)
    else:
        c = rng.integers(-8, 9, size=(M, N), dtype=np.int64)
    d = c.copy()
    block = 256 // {"f16": 16, "tf32": 32}.get(ta, 8)
    for k0 in range(0, K, block):
        d = d + a[:, k0:k0 + block] @ b[:, k0:k0 + block].T
        if form.endswith("s8sat"):
            d = np.clip(d, -2**31, 2**31 - 1)
    if integer and not form.endswith("s8sat"):
        d = (d + 2**31) % 2**32 - 2**31
    os.makedirs(out, exist_ok=True)
    np.save(os.path.join(out, "a.npy"), encode(a, ta))
    np.save(os.path.join(out, "b.npy"), encode(b, tb))
    np.save(os.path.join(out, "c.npy"), encode(c, tacc))
    np.save(os.path.join(out, "ref.npy"), encode(d, tacc).reshape(-1))
    with open(os.path.join(out, "kernel.cute"), "w") as f:
        f.write(kernel(form))


main()
