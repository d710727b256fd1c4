"""Arguments are checked before anything runs; each mistake names the
parameter (the same checks guard a GPU launch)."""

import os

import numpy as np
import pytest

import cutec
from conftest import ROOT, example


@pytest.fixture(scope="module")
def add():
    return cutec.compile(example("vector_add.cute"))


@pytest.fixture(scope="module")
def softmax():
    return cutec.compile(example("softmax.cute"))


def f32(*shape):
    return np.zeros(shape, np.float32)


def test_wrong_dtype(add):
    with pytest.raises(TypeError, match="mB: the kernel's f32 elements are passed as float32, "
                                        "got float64"):
        add.emulate(f32(8), np.zeros(8), f32(8))


def test_not_a_tensor(add):
    with pytest.raises(TypeError, match="mA: expected a tensor"):
        add.emulate([1.0] * 8, f32(8), f32(8))


def test_sizes_that_contradict(add):
    with pytest.raises(ValueError, match="N: mA's dimension 0 says 8 but mC's dimension 0 says 9"):
        add.emulate(f32(8), f32(8), f32(9))


def test_a_keyword_size_wins_and_is_checked(add):
    with pytest.raises(ValueError, match="mA: dimension 0 has 8 elements but the layout "
                                         r"\(N\):\(1\) with N=16 has 16"):
        add.emulate(f32(8), f32(8), f32(8), N=16)


def test_assumptions(softmax):
    with pytest.raises(ValueError, match=r"N = 6 breaks the kernel's assumption divby\(N, 4\)"):
        softmax.emulate(f32(2, 6), f32(2, 6))


def test_strides_must_be_the_layout_s(softmax):
    with pytest.raises(ValueError, match=r"mY: dimension 0 has stride 1 but the layout "
                                         r"\(M,N\):\(N,1\) with M=2, N=8 has stride 8"):
        softmax.emulate(f32(2, 8), f32(8, 2).T)


def test_memory_images_must_be_contiguous_and_large_enough(softmax):
    with pytest.raises(ValueError, match="must be contiguous"):
        softmax.emulate(f32(4, 4, 4)[:, :, ::2], f32(2, 8))
    with pytest.raises(ValueError, match=r"mX: the kernel reaches 64 bytes \(16 f32 elements, "
                                         r"the cosize of \(M,N\):\(N,1\) with M=2, N=8\) but "
                                         r"the tensor holds 40"):
        softmax.emulate(f32(10), f32(2, 8))


def test_sizes_that_cannot_be_inferred():
    k = cutec.compile(example("warp_specialized.cute"))
    with pytest.raises(ValueError, match=r"the sizes K, L are not determined by the tensors' "
                                         r"shapes; give them as keywords \(K=\.\.\., L=\.\.\.\)"):
        k.emulate(f32(256 * 4), f32(256))
    with pytest.raises(ValueError, match="K = 0: a size must be from 1 to 2147483647"):
        k.emulate(f32(256 * 4), f32(256), K=0, L=1)


def test_argument_list_mistakes(add):
    with pytest.raises(TypeError, match=r"takes 3 arguments \(mA, mB, mC\), got 4"):
        add.emulate(f32(8), f32(8), f32(8), f32(8))
    with pytest.raises(TypeError, match="missing mC"):
        add.emulate(f32(8), f32(8))
    with pytest.raises(TypeError, match="has no parameter or dynamic size 'M'"):
        add.emulate(f32(8), f32(8), f32(8), M=3)
    with pytest.raises(TypeError, match="'mA' given twice"):
        add.emulate(f32(8), f32(8), f32(8), mA=f32(8))


def test_scalar_mistakes():
    k = cutec.compile(example("rmsnorm.cute"))
    with pytest.raises(TypeError, match="eps: the f32 parameter takes a number, got str"):
        k.emulate(f32(1, 4), f32(4), f32(1, 4), "small")


def test_cpu_arrays_cannot_launch(add):
    with pytest.raises(ValueError, match="mA: the tensor is on cpu, but the kernel runs on a "
                                         "CUDA GPU"):
        add(f32(8), f32(8), f32(8))


def test_packed_fp4_counts_two_elements_per_byte():
    k = cutec.compile(example("nvfp4_gemv.cute"))
    a = np.zeros((128, 32, 1), np.uint8)  # (M, K/2, L) bytes for (M,K,L):(K,1,K*M)
    # K is inferred as 64 (32 bytes of two elements each); the scale factors
    # given are too small for it.
    with pytest.raises(ValueError, match=r"mSFA: the kernel reaches 512 bytes .* with M=128, "
                                         r"K=64, L=1\) but the tensor holds 1"):
        k.emulate(a, np.zeros((128, 32, 1), np.uint8), np.zeros(1, np.uint8),
                  np.zeros(1, np.uint8), np.zeros(128, np.float16))


def test_an_assumed_alignment_is_checked_for_its_tensor_only():
    # aligned(y, 32): y 16 bytes past a 32-byte boundary is refused, x at
    # any 16-byte boundary is fine.
    rows = cutec.compile(os.path.join(ROOT, "tests", "lit", "passes", "Inputs",
                                      "wide-stores.cute"), kernel="rows")
    backing = np.zeros(32 * 48 + 16, np.float16)
    skip = ((16 - backing.ctypes.data % 32) % 32) // 2
    y = backing[skip:skip + 32 * 48].reshape(32, 48)
    assert y.ctypes.data % 32 == 16
    with pytest.raises(ValueError, match="y: the kernel needs its address to be a multiple of "
                                         "32 bytes"):
        rows.emulate(f32(32, 48), y)
