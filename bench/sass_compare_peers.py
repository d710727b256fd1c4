"""Compile-only drivers for the CuTe DSL peer kernels of bench/sass_compare.py.

Run by sass_compare.py, one peer per process, with the Python of a venv
that has nvidia-cutlass-dsl installed (never a dependency of cutec):

    python sass_compare_peers.py PEER --examples DIR --out DIR

PEER is one of:
  gemv_seed        the NVFP4 GEMV of seed 004 (GPU MODE reference kernel),
                   kernel body as printed in the seed, host wrapper below
  gemm_tutorial0   CUTLASS examples .../tutorial_gemm/nvfp4_gemm_0.py
  persistent_1cta  CUTLASS examples .../dense_blockscaled_gemm_persistent.py,
                   mma tiler (128,256), cluster (1,1)
  persistent_2cta  the same, mma tiler (256,256), cluster (2,1)
  persistent_1cta_n128  the same, mma tiler (128,128), cluster (1,1): the
                   MMA shape of cutec's dual GEMM

Every peer is compiled for sm_100a with cute.compile and never launched: no
GPU is needed. The pointers come from cute.runtime.make_ptr (address 0) and
the problem sizes M, N, K, L are dynamic Int32 values, as the examples' own
compile paths do. The CUTLASS example files are imported from the directory
given by --examples (a checkout's examples/python/CuTeDSL); they are not
copied into this repository. They import torch at module level but use it
only to make and check data, so a stand-in `torch` module is installed
before importing them (no torch is needed).

CuTe DSL writes the kernel's PTX and cubin into CUTE_DSL_DUMP_DIR (set by
the caller to --out); sass_compare.py reads the PTX from there.
"""

import argparse
import os
import sys
import types


def install_torch_stand_in():
    """A `torch` module whose every attribute is an inert object: enough
    for `import torch` and for annotations such as torch.Tensor at import
    time. Anything that really computes with it fails loudly."""

    class Inert:
        def __init__(self, name):
            self._name = name

        def __getattr__(self, attr):
            return Inert(self._name + "." + attr)

        def __call__(self, *args, **kwargs):
            return Inert(self._name + "()")

        def __getitem__(self, key):
            return self

        def __or__(self, other):
            return self

        __ror__ = __or__

        def __mro_entries__(self, bases):
            return (object,)

        def __repr__(self):
            return "<torch stand-in %s>" % self._name

    module = types.ModuleType("torch")
    module.__getattr__ = lambda attr: Inert("torch." + attr)
    module.__path__ = []
    sys.modules.setdefault("torch", module)


install_torch_stand_in()

import cutlass  # noqa: E402
import cutlass.cute as cute  # noqa: E402
import cutlass.utils.blockscaled_layout as blockscaled_utils  # noqa: E402
from cutlass.cute.runtime import make_ptr  # noqa: E402

AB = cutlass.Float4E2M1FN
SF = cutlass.Float8E4M3FN
C = cutlass.Float16
SF_VEC = 16
# Problem size for the GEMMs (dynamic at run time; the value only matters
# to the host-side checks of the examples).
MNKL = (2048, 2048, 2048, 1)


def pointers(c_align=16):
    gmem = cute.AddressSpace.gmem
    return (make_ptr(AB, 0, gmem, assumed_align=16),
            make_ptr(AB, 0, gmem, assumed_align=16),
            make_ptr(SF, 0, gmem, assumed_align=32),
            make_ptr(SF, 0, gmem, assumed_align=32),
            make_ptr(C, 0, gmem, assumed_align=c_align))


def dynamic_mnkl():
    return tuple(cutlass.Int32(v) for v in MNKL)


def stream():
    import cuda.bindings.driver as cuda
    return cuda.CUstream(0)


# --- Seed 004: the GPU MODE NVFP4 GEMV reference kernel -----------------
# The @cute.kernel below is the kernel printed in seed 004 (one thread per
# output row, a CTA covers 128 rows, one loop iteration covers 64 k values).
# The host function is written here: it gives the tensors the layouts the
# seed prints (A (M,K,L):(K,1,M*K), B padded to 128 rows, C (M,1,L),
# scale factors in the blocked ((32,4),(16,4)) atom tiled over the shape).

gemv_tiler = (128, 1, 64)
gemv_threads = 128


@cute.kernel
def gemv_seed_kernel(mA_mkl: cute.Tensor, mB_nkl: cute.Tensor,
                     mSFA_mkl: cute.Tensor, mSFB_nkl: cute.Tensor,
                     mC_mnl: cute.Tensor):
    bidx, bidy, bidz = cute.arch.block_idx()
    tidx, _, _ = cute.arch.thread_idx()

    gA_mkl = cute.local_tile(mA_mkl, cute.slice_(gemv_tiler, (None, 0, None)), (None, None, None))
    gSFA_mkl = cute.local_tile(mSFA_mkl, cute.slice_(gemv_tiler, (None, 0, None)), (None, None, None))
    gB_nkl = cute.local_tile(mB_nkl, cute.slice_(gemv_tiler, (0, None, None)), (None, None, None))
    gSFB_nkl = cute.local_tile(mSFB_nkl, cute.slice_(gemv_tiler, (0, None, None)), (None, None, None))
    gC_mnl = cute.local_tile(mC_mnl, cute.slice_(gemv_tiler, (None, None, 0)), (None, None, None))

    tCgC = gC_mnl[tidx, None, bidx, bidy, bidz]
    tCgC = cute.make_tensor(tCgC.iterator, 1)
    res = cute.zeros_like(tCgC, cutlass.Float32)

    k_tile_cnt = gA_mkl.layout[3].shape
    for k_tile in range(k_tile_cnt):
        tAgA = gA_mkl[tidx, None, bidx, k_tile, bidz]
        tBgB = gB_nkl[0, None, bidy, k_tile, bidz]
        tAgSFA = gSFA_mkl[tidx, None, bidx, k_tile, bidz]
        tBgSFB = gSFB_nkl[0, None, bidy, k_tile, bidz]

        tArA = cute.make_rmem_tensor_like(tAgA, cutlass.Float32)
        tBrB = cute.make_rmem_tensor_like(tBgB, cutlass.Float32)
        tArSFA = cute.make_rmem_tensor_like(tAgSFA, cutlass.Float32)
        tBrSFB = cute.make_rmem_tensor_like(tBgSFB, cutlass.Float32)

        tArA.store(tAgA.load().to(cutlass.Float32))
        tBrB.store(tBgB.load().to(cutlass.Float32))
        tArSFA.store(tAgSFA.load().to(cutlass.Float32))
        tBrSFB.store(tBgSFB.load().to(cutlass.Float32))

        for i in cutlass.range_constexpr(gemv_tiler[2]):
            res += tArA[i] * tArSFA[i] * tBrB[i] * tBrSFB[i]

    tCgC.store(res.to(cutlass.Float16))


@cute.jit
def gemv_seed_host(a_ptr: cute.Pointer, b_ptr: cute.Pointer,
                   sfa_ptr: cute.Pointer, sfb_ptr: cute.Pointer,
                   c_ptr: cute.Pointer, mkl: tuple):
    m, k, l = mkl
    k32 = cute.assume(k, 32)
    a = cute.make_tensor(a_ptr, cute.make_layout((m, k32, l), stride=(k32, 1, cute.assume(m * k, 32))))
    b = cute.make_tensor(b_ptr, cute.make_layout((128, k32, l), stride=(k32, 1, cute.assume(128 * k, 32))))
    c = cute.make_tensor(c_ptr, cute.make_layout((cute.assume(m, 32), 1, l), stride=(1, 1, m)))
    sfa = cute.make_tensor(sfa_ptr, blockscaled_utils.tile_atom_to_shape_SF(a.shape, SF_VEC))
    sfb = cute.make_tensor(sfb_ptr, blockscaled_utils.tile_atom_to_shape_SF(b.shape, SF_VEC))
    gemv_seed_kernel(a, b, sfa, sfb, c).launch(
        grid=(cute.ceil_div(c.shape[0], 128), 1, c.shape[2]),
        block=[gemv_threads, 1, 1], cluster=(1, 1, 1))


def compile_gemv_seed(examples):
    a, b, sfa, sfb, c = pointers()
    mkl = (cutlass.Int32(MNKL[0]), cutlass.Int32(MNKL[2]), cutlass.Int32(MNKL[3]))
    cute.compile(gemv_seed_host, a, b, sfa, sfb, c, mkl)


# --- CUTLASS examples ----------------------------------------------------

TUTORIAL0 = "cute/blackwell/tutorial/tutorial_gemm/nvfp4_gemm_0.py"
PERSISTENT = "cute/blackwell/kernel/blockscaled_gemm/dense_blockscaled_gemm_persistent.py"


def import_example(examples, rel):
    import importlib.util
    path = os.path.join(examples, rel)
    if not os.path.isfile(path):
        raise SystemExit("peer source not found: %s" % path)
    if examples not in sys.path:
        sys.path.insert(0, examples)  # nvfp4_gemm_0 imports cute.blackwell...utils
    spec = importlib.util.spec_from_file_location("peer_example", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compile_gemm_tutorial0(examples):
    ex = import_example(examples, TUTORIAL0)
    # As tutorial_gemm/utils.py run() does: a fresh kernel object, the five
    # pointers (C aligned to 32 there), the problem size and a stream.
    a, b, sfa, sfb, c = pointers(c_align=32)
    cute.compile(ex.Sm100BlockScaledDenseGemmKernel(), a, b, sfa, sfb, c,
                 dynamic_mnkl(), stream())


def compile_persistent(examples, tiler, cluster):
    ex = import_example(examples, PERSISTENT)
    gemm = ex.Sm100BlockScaledPersistentDenseGemmKernel(SF_VEC, tiler, cluster)
    ok = ex.Sm100BlockScaledPersistentDenseGemmKernel.can_implement(
        MNKL, AB, AB, SF, C, "k", "k", "n", SF_VEC, tiler, cluster)
    if not ok:
        raise SystemExit("can_implement refused tiler %s cluster %s" % (tiler, cluster))
    # max_active_clusters normally comes from the GPU; 148 SMs (B200) / cluster size.
    max_active_clusters = 148 // (cluster[0] * cluster[1])
    # ex.scaled_mm is the example's compile-only path (make_ptr + cute.compile).
    ex.scaled_mm(gemm, AB, AB, C, SF, "k", "k", "n", max_active_clusters, stream())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("peer", choices=["gemv_seed", "gemm_tutorial0", "persistent_1cta", "persistent_2cta",
                                     "persistent_1cta_n128"])
    ap.add_argument("--examples", required=True, help="CUTLASS examples/python/CuTeDSL directory")
    ap.add_argument("--out", required=True, help="existing CUTE_DSL_DUMP_DIR")
    args = ap.parse_args()
    if os.environ.get("CUTE_DSL_DUMP_DIR") != args.out:
        raise SystemExit("set CUTE_DSL_DUMP_DIR=%s (and CUTE_DSL_ARCH, CUTE_DSL_KEEP) before starting" % args.out)
    examples = os.path.abspath(args.examples)
    if args.peer == "gemv_seed":
        compile_gemv_seed(examples)
    elif args.peer == "gemm_tutorial0":
        compile_gemm_tutorial0(examples)
    elif args.peer == "persistent_1cta":
        compile_persistent(examples, (128, 256), (1, 1))
    elif args.peer == "persistent_1cta_n128":
        compile_persistent(examples, (128, 128), (1, 1))
    else:
        compile_persistent(examples, (256, 256), (2, 1))


if __name__ == "__main__":
    main()
