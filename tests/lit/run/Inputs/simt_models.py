"""NumPy models of examples/rmsnorm.cute and softmax.cute that perform the
kernels' f32 operations in the kernels' order, so they give the kernels'
results bit for bit: thread t of a row's CTA takes the row's 4-element
vectors t, t + 1024, ...; warps reduce with butterflies (offsets 16, ...,
1), and so do the 32 warps' results, one per lane; `a * b + c` is one fma
(cutec's --fmad); rsqrt and exp are the sequences of docs/language.md
"Math functions" (passes/ExpandMath.cpp), op for op."""
import numpy as np

THREADS, VEC = 1024, 4
F32 = np.float32


def fma(a, b, c):
    """a * b + c rounded once to f32, for finite f32 inputs: the product is
    exact in f64, the sum is rounded to odd in f64 (TwoSum, then the odd
    neighbour when inexact), which then rounds to f32 correctly."""
    a, b, c = (np.asarray(v, F32).astype(np.float64) for v in (a, b, c))
    p = a * b
    s = p + c
    bb = s - p
    e = (p - (s - bb)) + (c - bb)
    even = (s.view(np.uint64) & 1) == 0
    s = np.where((e != 0) & even, np.nextafter(s, np.where(e > 0, np.inf, -np.inf)), s)
    return s.astype(F32)


_EXP_Q = [float.fromhex(h) for h in ("0x1p-1", "0x1.55549p-3", "0x1.5554c2p-5",
                                     "0x1.123ae2p-7", "0x1.6d7814p-10")]
_LN2_HI, _LN2_LO = float.fromhex("0x1.62e43p-1"), float.fromhex("-0x1.05c61p-29")
_LOG2E_HI = float.fromhex("0x1.715476p+0")
_SHIFT = F32(float.fromhex("0x1.8p+23"))


def _pow2(n):
    return ((n + 127) << 23).astype(np.int32).view(F32)


def exp(x):
    """ExpandMath's exp: Cody-Waite reduction, a degree-6 polynomial, 2^j
    as two powers of two."""
    x = np.asarray(x, F32)
    x = np.where(x < F32(-104), F32(-104), x)
    x = np.where(x > F32(89), F32(89), x).astype(F32)
    j = (fma(x, F32(_LOG2E_HI), _SHIFT) - _SHIFT).astype(F32)
    r = fma(j, F32(-_LN2_HI), x)
    r = fma(j, F32(-_LN2_LO), r)
    q = np.full_like(r, F32(_EXP_Q[-1]))
    for c in reversed(_EXP_Q[:-1]):
        q = fma(q, r, F32(c))
    er = fma(fma(q, r, F32(1)), r, F32(1))
    n = j.astype(np.int32)
    half = n >> 1
    return ((er * _pow2(half)) * _pow2(n - half)).astype(F32)


def rsqrt(x):
    return (F32(1) / np.sqrt(np.asarray(x, F32))).astype(F32)


def _per_thread(x):
    """x (M, N) as (M, steps, THREADS, VEC): step i of thread t holds vector
    i * THREADS + t, and a mask of the vectors that exist."""
    m, n = x.shape
    vectors = n // VEC
    steps = -(-vectors // THREADS)
    padded = np.zeros((m, steps * THREADS * VEC), F32)
    padded[:, :n] = x
    valid = (np.arange(steps * THREADS) < vectors).reshape(steps, THREADS)
    return padded.reshape(m, steps, THREADS, VEC), valid


def _butterfly(v, combine):
    """Every lane's result of a warp butterfly over the last axis (THREADS)."""
    v = v.reshape(v.shape[0], -1, 32)
    lanes = np.arange(32)
    for offset in (16, 8, 4, 2, 1):
        v = combine(v, v[:, :, lanes ^ offset]).astype(F32)
    return v  # (M, warps, 32)



def rmsnorm(x, w, eps=F32(1e-6)):
    x, w = x.astype(F32), w.astype(F32)
    chunks, valid = _per_thread(x)
    squares = np.zeros((x.shape[0], THREADS), F32)
    for step in range(chunks.shape[1]):
        acc = squares
        for j in range(VEC):
            v = chunks[:, step, :, j]
            acc = fma(v, v, acc)
        squares = np.where(valid[step], acc, squares)
    warp = _butterfly(squares, np.add)[:, :, 0]
    total = _butterfly(warp, np.add)[:, 0, 0]
    scale = rsqrt((total / F32(x.shape[1])).astype(F32) + F32(eps))
    return ((x * scale[:, None]).astype(F32) * w[None, :]).astype(F32)


def softmax(x):
    x = x.astype(F32)
    chunks, valid = _per_thread(x)
    m = np.full((x.shape[0], THREADS), F32(-3.4028234663852886e38), F32)
    s = np.zeros_like(m)
    for step in range(chunks.shape[1]):
        v = chunks[:, step]
        m_new = np.fmax(m, np.fmax(np.fmax(v[..., 0], v[..., 1]), np.fmax(v[..., 2], v[..., 3])))
        e = exp((m - m_new).astype(F32))
        acc = fma(s, e, exp((v[..., 0] - m_new).astype(F32)))
        for j in range(1, VEC):
            acc = (acc + exp((v[..., j] - m_new).astype(F32))).astype(F32)
        s = np.where(valid[step], acc, s)
        m = np.where(valid[step], m_new, m)
    warp_max = _butterfly(m, np.fmax)
    wm = warp_max.reshape(m.shape)
    warp_sum = _butterfly((s * exp((m - wm).astype(F32))).astype(F32), np.add)[:, :, 0]
    warp_max = warp_max[:, :, 0]
    row_max = _butterfly(warp_max, np.fmax)[:, 0, 0]
    scaled = (warp_sum * exp((warp_max - row_max[:, None]).astype(F32))).astype(F32)
    row_sum = _butterfly(scaled, np.add)[:, 0, 0]
    inverse = (F32(1) / row_sum).astype(F32)
    y = exp((x - row_max[:, None]).astype(F32))
    return (y * inverse[:, None]).astype(F32)
