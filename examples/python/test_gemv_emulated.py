"""Testing a kernel in CI without a GPU: the NVFP4 GEMV run through cutec's
emulation on NumPy arrays and checked against a NumPy reference.

    PYTHONPATH=build/python python3 -m pytest examples/python/test_gemv_emulated.py

c[m, l] = sum over k of a[m, k, l] * sfa(m, k, l) * b[0, k, l] * sfb(k, l), with
a and b e2m1 (4-bit) values two to a byte and one ue4m3 scale factor per 16
elements of k, in the swizzled scale-factor layout the kernel's signature
prints.
"""

import os

import numpy as np
import pytest

import cutec

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
E2M1 = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6])


def ue4m3(codes):
    exponent, mantissa = (codes >> 3) & 0xF, codes & 7
    return np.where(exponent == 0, mantissa / 8 * 2.0**-6,
                    (1 + mantissa / 8) * 2.0**(exponent.astype(np.float64) - 7))


def scale_index(row, k_block, rows_total_blocks, k_blocks):
    """The offset of the scale factor of (row, 16-element block of k) in the
    layout (((32,4),ceil(M/128)),((16,4),ceil(K/64))):(((16,4),512*ceil(K/64)),((0,1),512))."""
    r32, r4, r_tile = row % 32, (row // 32) % 4, row // 128
    k4, k_tile = k_block % 4, k_block // 4
    return r32 * 16 + r4 * 4 + r_tile * 512 * k_blocks // 4 + k4 + k_tile * 512


@pytest.mark.parametrize("kernel_name", ["nvfp4_gemv", "nvfp4_gemv_warp"])
def test_gemv_matches_numpy(kernel_name):
    M, K, L = 128, 256, 1
    rng = np.random.default_rng(0)
    a_codes = rng.integers(0, 16, (L, M, K), dtype=np.uint8)
    b_codes = rng.integers(0, 16, (L, 128, K), dtype=np.uint8)
    sfa_codes = rng.integers(0x30, 0x40, (M, K // 16), dtype=np.uint8)
    sfb_codes = rng.integers(0x30, 0x40, (K // 16,), dtype=np.uint8)

    pack = lambda codes: (codes.reshape(-1)[0::2] | (codes.reshape(-1)[1::2] << 4)).astype(
        np.uint8)
    sfa = np.zeros(M * K // 16, np.uint8)
    sfb = np.zeros(128 * K // 16, np.uint8)
    for row in range(M):
        for kb in range(K // 16):
            sfa[scale_index(row, kb, M // 128, K // 16)] = sfa_codes[row, kb]
    for kb in range(K // 16):
        sfb[scale_index(0, kb, 1, K // 16)] = sfb_codes[kb]
    c = np.zeros(M * L, np.float16)

    kernel = cutec.compile(os.path.join(EXAMPLES, f"{kernel_name}.cute"))
    kernel.emulate(pack(a_codes), pack(b_codes), sfa, sfb, c, M=M, K=K, L=L)

    a = E2M1[a_codes[0]] * np.repeat(ue4m3(sfa_codes), 16, axis=1)
    b = E2M1[b_codes[0, 0]] * np.repeat(ue4m3(sfb_codes), 16)
    want = (a @ b).astype(np.float16)
    np.testing.assert_allclose(c.astype(np.float64), want.astype(np.float64), rtol=2e-3,
                               atol=1e-2)


def test_bad_arguments_name_the_parameter():
    kernel = cutec.compile(os.path.join(EXAMPLES, "nvfp4_gemv.cute"))
    with pytest.raises(ValueError, match="K = 100 breaks the kernel's assumption divby"):
        kernel.emulate(*(np.zeros(1 << 16, np.uint8) for _ in range(4)),
                       np.zeros(128, np.float16), M=128, K=100, L=1)
