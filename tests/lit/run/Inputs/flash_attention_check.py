"""Compares the O and LSE that examples/flash_attention_hopper.cute wrote
with flash_attention_model.py's NumPy model of the kernel's arithmetic (bit
for bit) and with attention computed in float64 from the same f16 Q, K and
V: O = softmax(scale * Q K^T) V (causal: key j > query i masked), LSE = the
natural log of each row's sum of exp(scale * Q K^T). The kernel rounds P
to f16 before the P V product, adds on the tensor core with truncation and
uses the special-function unit's exp2: O is within half an f16 ulp of
the float64 result (its own rounding) plus 5e-4 (measured: 2.2e-4 at
most on these inputs, |O| up to 3.3), LSE within 1e-5 (measured: 1.6e-6).

usage: flash_attention_check.py DIR BATCH HEADS SEQ D SCALE causal|full
"""
import os
import sys

import numpy as np

import flash_attention_model

O_TOLERANCE = 5e-4  # beyond half an f16 ulp of O
LSE_TOLERANCE = 1e-5

d = sys.argv[1]
batch, heads, seq, dim = map(int, sys.argv[2:6])
scale = float(sys.argv[6])
causal = sys.argv[7] == "causal"
q, k, v = (np.load(os.path.join(d, n + ".npy")).reshape(batch * heads, seq, dim)
           for n in ("q", "k", "v"))
got_o = np.load(os.path.join(d, "o.out.npy")).reshape(q.shape)
got_lse = np.load(os.path.join(d, "lse.out.npy")).reshape(batch * heads, seq)

with np.errstate(invalid="ignore"):  # -inf * scale + x in the masked columns
    for h in range(batch * heads):
        model_o, model_lse = flash_attention_model.attention(q[h], k[h], v[h], scale, causal)
        for name, got, want in (("O", got_o[h], model_o), ("LSE", got_lse[h], model_lse)):
            if got.tobytes() != want.tobytes():
                rows = np.nonzero((got != want).reshape(seq, -1).any(axis=1))[0]
                sys.exit(f"head {h}: {name} differs from the model in rows {rows[:8]}")

q, k, v = (x.astype(np.float64) for x in (q, k, v))
s = np.einsum("hid,hjd->hij", q, k) * np.float64(np.float32(scale))
if causal:
    s = np.where(np.arange(seq)[None, :] > np.arange(seq)[:, None], -np.inf, s)
top = s.max(axis=-1, keepdims=True)
e = np.exp(s - top)
total = e.sum(axis=-1, keepdims=True)
o = np.einsum("hij,hjd->hid", e / total, v)
lse = (top + np.log(total))[..., 0]
o_error = np.max(np.abs(got_o - o) - np.abs(o) * 2.0**-11)
lse_error = np.max(np.abs(got_lse - lse))
if not o_error <= O_TOLERANCE:
    sys.exit(f"O differs from float64 attention by {o_error:.3g}")
if not lse_error <= LSE_TOLERANCE:
    sys.exit(f"LSE differs from float64 attention by {lse_error:.3g}")
print("attention matches the model bit for bit and float64")
