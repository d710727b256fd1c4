"""Input and NumPy results of online_softmax.cute: S, and per row the
maximum of S * log2(e) over the unmasked keys (exact: a maximum does not
round), the sum of exp2 and the probabilities (exp2 differs from NumPy's
in the last bits: compared with a tolerance by online_softmax_check.py).
python3 online_softmax_data.py OUTDIR"""
import os
import sys

import numpy as np

f32 = np.float32
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
s = np.random.default_rng(25).normal(0, 3, (64, 128)).astype(f32)
scaled = s * f32(1.4426950408889634)
masked = np.where(np.arange(128)[None, :] > np.arange(64)[:, None] + 64, f32(-1e30), scaled)
top = masked.max(axis=1)
e = np.exp2((masked - top[:, None]).astype(np.float64))
total = e.sum(axis=1)
np.save(os.path.join(out, "s.npy"), s)
np.save(os.path.join(out, "top.npy"), top)
np.save(os.path.join(out, "total.npy"), total)
np.save(os.path.join(out, "p.npy"), e / total[:, None])
