"""Compares online_softmax.cute's outputs with online_softmax_data.py's:
the row maxima bit for bit, the sums and probabilities within 1e-5
relative. python3 online_softmax_check.py OUTDIR"""
import os
import sys

import numpy as np

d = sys.argv[1]
stats = np.load(os.path.join(d, "stats.out.npy")).reshape(64, 2)
p = np.load(os.path.join(d, "p.out.npy")).reshape(64, 128)
top, total, ref_p = (np.load(os.path.join(d, n + ".npy")) for n in ("top", "total", "p"))
if not np.array_equal(stats[:, 0], top):
    sys.exit(f"row maxima differ: {np.nonzero(stats[:, 0] != top)[0][:5]}")
for name, got, want in (("sums", stats[:, 1], total), ("probabilities", p, ref_p)):
    err = np.max(np.abs(got - want) / np.maximum(np.abs(want), 1e-30))
    if err > 1e-5:
        sys.exit(f"{name} differ by {err:.3g} relative")
print("online softmax matches")
