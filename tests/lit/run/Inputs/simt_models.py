"""NumPy models of examples/rmsnorm.cute, softmax.cute and
softmax_cluster.cute that perform the kernels' f32 operations in the
kernels' order, so they give the kernels' results bit for bit: thread t of
a row's CTA takes the row's 4-element vectors t, t + 1024, ... (in
softmax_cluster, thread t of CTA rank r of the row's cluster of C the
vectors r * 1024 + t, + C * 1024, ...); warps reduce with butterflies
(offsets 16, ..., 1), and so do the 32 warps' results, one per lane, and
the C CTAs' results over groups of C lanes; `a * b + c` is one fma
(cutec's --fmad); rsqrt and exp are the sequences of docs/language.md
"Math functions" (passes/lowering/ExpandMath.cpp), op for op."""
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


def _per_thread(x, threads=THREADS):
    """x (M, N) as (M, steps, threads, VEC): step i of thread t holds vector
    i * threads + t, and a mask of the vectors that exist."""
    m, n = x.shape
    vectors = n // VEC
    steps = -(-vectors // threads)
    padded = np.zeros((m, steps * threads * VEC), F32)
    padded[:, :n] = x
    valid = (np.arange(steps * threads) < vectors).reshape(steps, threads)
    return padded.reshape(m, steps, threads, VEC), valid


def _butterfly(v, combine, group=32):
    """Every lane's result of a butterfly over groups of `group` lanes
    (offsets group / 2, ..., 1) along the last axis."""
    v = v.reshape(v.shape[0], -1, group)
    lanes = np.arange(group)
    offset = group // 2
    while offset:
        v = combine(v, v[:, :, lanes ^ offset]).astype(F32)
        offset //= 2
    return v  # (M, groups, group)



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


def _online(x, threads):
    """Each thread's running maximum m and sum s of exp(x - m) over its
    vectors (M, threads), updated vector by vector."""
    chunks, valid = _per_thread(x, threads)
    m = np.full((x.shape[0], threads), F32(-3.4028234663852886e38), F32)
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
    return m, s


def _combine(m, s, group):
    """The pairs of each run of `group` lanes combined: their maximum W by a
    butterfly, then the butterfly sum of s * exp(m - W); (M, runs) each."""
    w = _butterfly(m, np.fmax, group)
    scaled = (s * exp((m - w.reshape(m.shape)).astype(F32))).astype(F32)
    return w[:, :, 0], _butterfly(scaled, np.add, group)[:, :, 0]


def softmax(x, ctas=1):
    """examples/softmax.cute, or with `ctas` softmax_cluster.cute's kernel
    for clusters of that many CTAs."""
    x = x.astype(F32)
    m, s = _combine(*_online(x, ctas * THREADS), 32)   # per warp
    m, s = _combine(m, s, THREADS // 32)                # per CTA
    if ctas > 1:
        m, s = _combine(m, s, ctas)                     # per cluster
    row_max, row_sum = m[:, 0], s[:, 0]
    inverse = (F32(1) / row_sum).astype(F32)
    y = exp((x - row_max[:, None]).astype(F32))
    return (y * inverse[:, None]).astype(F32)
