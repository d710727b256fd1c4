"""A NumPy model of examples/flash_attention_hopper.cute's arithmetic, bit
for bit: the same operations in the same order as the kernel's PTX.

- wgmma (f16 operands, f32 accumulator), as measured on an H100
  (docs/emulator.md, "Hopper tensor-core numerics"): per instruction of 16
  products, every term (the accumulator and each exact product) cut toward
  zero to a multiple of 2^(E - 25), E the largest alignment exponent, the
  cut terms added exactly and the sum rounded toward zero to f32;
- ex2.approx.ftz.f32 from the H100's table (runtime/numerics/SfuTables.cpp,
  decoded as runtime/numerics/SfuTable.cpp does);
- fma.rn.f32 exactly (a TwoSum of the exact product and the addend);
- log2 as pass expand-math writes it (passes/lowering/ExpandMath.cpp).

The kernel's order: per key block of 128, S = Q K^T (d/16 instructions),
the mask, the row maximum, P = ex2(fma(S, scale_log2, -top * scale_log2)),
the correction ex2((top_old - top) * scale_log2), each lane's sum of its 32
columns of the block (lane t of a row holds columns 8j + 2t + c, added in
the order j, c) folded in by fma(sum, correction, block sum), O *=
correction, O += f16(P) V (8 instructions); at the end the four lanes' sums
added by the butterfly (t0 + t2) + (t1 + t3), O * (1 / sum) to f16 and
LSE = fma(top, scale_log2, log2(sum)) * f32(ln 2).
"""
import base64
import os
import re

import numpy as np

f32 = np.float32
BLOCK = 128
LOG2E = f32(1.4426950408889634)
LN2 = f32(0.6931471805599453)
NO_TERM = -100000  # the alignment exponent of a zero term: never the largest
SFU_TABLES = os.path.join(os.path.dirname(__file__), "../../../../runtime/numerics/SfuTables.cpp")


# --- wgmma -------------------------------------------------------------------

def _fields(bits, exp_bits, man_bits, bias):
    """Magnitude, exponent of its unit, alignment exponent and sign of each code."""
    bits = bits.astype(np.int64)
    e = (bits >> man_bits) & ((1 << exp_bits) - 1)
    m = bits & ((1 << man_bits) - 1)
    mag = np.where(e > 0, m | (1 << man_bits), m)
    lead = np.where(e > 0, e, 1) - bias
    lead = np.where(mag == 0, NO_TERM, lead)
    return mag, lead - man_bits, lead, (bits >> (exp_bits + man_bits)) & 1


def _cut(mag, exp, negative, unit):
    """mag * 2^exp cut toward zero to a multiple of 2^unit, in units, signed."""
    shift = unit - exp
    cut = np.where(shift >= 0, mag >> np.clip(shift, 0, 63), mag << np.clip(-shift, 0, 63))
    return np.where(negative == 1, -cut, cut)


def wgmma_step(acc, a, b):
    """acc (f32, shape X) + sum over the last axis of a * b (f16, shape X + (16,))."""
    am, ae, al, an = _fields(acc.view(np.uint32), 8, 23, 127)
    pm_a, pe_a, pl_a, pn_a = _fields(a.view(np.uint16), 5, 10, 15)
    pm_b, pe_b, pl_b, pn_b = _fields(b.view(np.uint16), 5, 10, 15)
    pm = pm_a * pm_b
    pl = np.where(pm == 0, NO_TERM, pl_a + pl_b)
    lead = np.maximum(pl.max(axis=-1), al)
    unit = lead - 25
    total = (_cut(pm, pe_a + pe_b, pn_a ^ pn_b, unit[..., None]).sum(axis=-1)
             + _cut(am, ae, an, unit))
    # The sum rounded toward zero to f32 (normal results here).
    mag = np.abs(total)
    top = np.frexp(mag.astype(np.float64))[1] - 1 + unit   # the leading bit's exponent
    quantum = np.maximum(top, -126) - 23
    kept = np.where(quantum > unit, mag >> np.clip(quantum - unit, 0, 63), mag)
    scale = np.where(quantum > unit, quantum, unit)
    value = np.ldexp(kept.astype(np.float64), scale).astype(f32)
    return np.where(total < 0, -value, value).astype(f32)


def gemm(acc, a, b):
    """acc + a @ b.T by wgmma instructions of 16 along K, in order: a (R, K),
    b (C, K) f16, acc (R, C) f32."""
    for k in range(0, a.shape[1], 16):
        acc = wgmma_step(acc, a[:, None, k:k + 16], b[None, :, k:k + 16])
    return acc


# --- the special-function unit's ex2 ------------------------------------------

class _Ex2Table:
    def __init__(self):
        text = open(SFU_TABLES).read()
        body = text[text.index("kEx2Segments[] = {"):text.index("kEx2Table")]
        segments = re.findall(r"\{(-?\d+), (-?\d+)LL, (-?\d+)LL, (-?\d+)LL\}", body)
        self.fits = np.array(segments, dtype=np.int64)
        listed = "".join(re.findall(r'"([A-Za-z0-9+/=]*)"', body[body.index("kEx2Listed"):]))
        index, value, shift, entries = -1, 0, 0, []
        for byte in base64.b64decode(listed):
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte & 0x80:
                continue
            index += value >> 1
            entries.append(index << 1 | (value & 1))
            value, shift = 0, 0
        self.listed = np.array(entries, dtype=np.int64)

    def __getitem__(self, index):
        fit = self.fits[index >> 17]
        base, a, b, c = fit[..., 0], fit[..., 1], fit[..., 2], fit[..., 3]
        x = index & ((1 << 17) - 1)
        value = base + ((a + b * x + ((c * x * x) >> 8)) >> 40)
        at = np.minimum(np.searchsorted(self.listed, index << 1), len(self.listed) - 1)
        hit = (self.listed[at] >> 1) == index
        return value + np.where(hit, np.where(self.listed[at] & 1, 1, -1), 0)


_EX2 = None


def ex2(x):
    """ex2.approx.ftz.f32 as the H100 computes it (runtime/numerics/Sfu.cpp)."""
    global _EX2
    if _EX2 is None:
        _EX2 = _Ex2Table()
    bits = np.asarray(x, f32).view(np.uint32).astype(np.int64)
    negative = (bits >> 31) == 1
    biased = (bits >> 23) & 0xFF
    significand = (bits & 0x7FFFFF) | 0x800000
    shift = biased - 127
    fixed = np.where(shift >= 0, significand << np.clip(shift, 0, 40),
                     np.where(shift > -24, significand >> np.clip(-shift, 0, 63), 0))
    n = fixed >> 23
    f = fixed & 0x7FFFFF
    positive_value = np.ldexp(_EX2[np.where(negative, 0, f)].astype(np.float64), n - 23)
    negative_value = np.where(f == 0, np.ldexp(1.0, -n),
                              np.ldexp(_EX2[np.where(negative, 0x7FFFFF - f, 0)].astype(np.float64),
                                       -n - 24))
    value = np.where(negative, negative_value, positive_value)
    value = np.where(value < 2.0**-126, 0.0, value)
    value = np.where(biased == 0, 1.0, value)
    value = np.where(biased >= 127 + 7, np.where(negative, 0.0, np.inf), value)
    return value.astype(f32)


# --- exactly rounded f32 arithmetic -------------------------------------------

def fma(a, b, c):
    """fma.rn.f32: a * b + c rounded once (finite values, normal results)."""
    a, b, c = (np.asarray(v, f32).astype(np.float64) for v in (a, b, c))
    product = a * b                       # exact: 48 significant bits
    s = product + c
    bb = s - product
    error = (product - (s - bb)) + (c - bb)   # s + error is the exact sum
    r = s.astype(f32)
    # s may lie on a midpoint of two f32 values that the exact sum does not.
    up, down = np.nextafter(r, f32(np.inf)), np.nextafter(r, f32(-np.inf))
    other = np.where(s > r.astype(np.float64), up, down)
    midpoint = (r.astype(np.float64) + other.astype(np.float64)) / 2 == s
    toward = np.where(error > 0, np.maximum(r, other), np.minimum(r, other))
    special = ~np.isfinite(s)
    return np.where(midpoint & (error != 0) & ~special, toward, r).astype(f32)


_LOG2_Q = [float.fromhex(h) for h in (
    "-0x1.71547p-1", "0x1.ec7094p-2", "-0x1.715afcp-2", "0x1.277f42p-2", "-0x1.eaa2dcp-3",
    "0x1.a2caaap-3", "-0x1.87f2eep-3", "0x1.7f1fcap-3", "-0x1.c3a1b8p-4")]


def log2(x):
    """log2 as expand-math writes it, for positive normal x."""
    bits = np.asarray(x, f32).view(np.int32).astype(np.int64)
    e = (bits - 0x3F3504F3) >> 23
    m = (bits - e * (1 << 23)).astype(np.int32).view(f32)
    ef = e.astype(f32)
    f = (m - f32(1)).astype(f32)
    f2 = (f * f).astype(f32)
    p = f32(_LOG2_Q[-1])
    for coefficient in reversed(_LOG2_Q[:-1]):
        p = fma(p, f, f32(coefficient))
    tail = (f2 * p).astype(f32)
    inner = fma(f, f32(float.fromhex("0x1.4ae0cp-26")), tail)
    return (ef + fma(f, f32(float.fromhex("0x1.715476p+0")), inner)).astype(f32)


# --- the kernel ----------------------------------------------------------------

def attention(q, k, v, scale, causal):
    """O (f16) and LSE (f32) of one head: q, k, v (seq, d) f16."""
    seq, d = q.shape
    blocks = -(-seq // BLOCK)
    keys = blocks * BLOCK
    k = np.concatenate([k, np.zeros((keys - seq, d), np.float16)])   # TMA's zero fill
    v = np.concatenate([v, np.zeros((keys - seq, d), np.float16)])
    scale_log2 = (f32(scale) * LOG2E).astype(f32)
    o_out = np.zeros((seq, d), np.float16)
    lse_out = np.zeros(seq, f32)
    lane_of = (np.arange(BLOCK) % 8) // 2
    for m in range(blocks):
        rows = np.arange(m * BLOCK, min(seq, (m + 1) * BLOCK))
        top = np.full(len(rows), -np.inf, f32)
        total = np.zeros((len(rows), 4), f32)
        o = np.zeros((len(rows), d), f32)
        for n in range(min(blocks, m + 1) if causal else blocks):
            cols = np.arange(n * BLOCK, (n + 1) * BLOCK)
            s = gemm(np.zeros((len(rows), BLOCK), f32), q[rows], k[cols])
            masked = cols[None, :] >= seq
            if causal:
                masked = masked | (cols[None, :] > rows[:, None])
            s = np.where(masked, f32(-np.inf), s).astype(f32)
            new_top = np.maximum(top, s.max(axis=1))
            p = ex2(fma(s, scale_log2, (new_top * -scale_log2).astype(f32)[:, None]))
            correction = ex2(((top - new_top).astype(f32) * scale_log2).astype(f32))
            for t in range(4):
                block_sum = np.zeros(len(rows), f32)
                for col in np.nonzero(lane_of == t)[0]:
                    block_sum = (block_sum + p[:, col]).astype(f32)
                total[:, t] = fma(total[:, t], correction, block_sum)
            o = (o * correction[:, None]).astype(f32)
            o = gemm(o, p.astype(np.float16), v[cols].T.copy())
            top = new_top
        row_sum = ((total[:, 0] + total[:, 2]).astype(f32) + (total[:, 1] + total[:, 3]).astype(f32)).astype(f32)
        o_out[rows] = (o * (f32(1) / row_sum).astype(f32)[:, None]).astype(f32).astype(np.float16)
        lse_out[rows] = (fma(top, scale_log2, log2(row_sum)) * LN2).astype(f32)
    return o_out, lse_out
