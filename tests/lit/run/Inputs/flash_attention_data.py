"""Random inputs of examples/flash_attention_hopper.cute: Q, K and V, f16
(batch, heads, seq, d) normally distributed, as the memory images the
kernels read (their views of a row-major (batch, heads, seq, d) tensor).

usage: flash_attention_data.py DIR BATCH HEADS SEQ D
"""
import os
import sys

import numpy as np

out = sys.argv[1]
batch, heads, seq, d = map(int, sys.argv[2:6])
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(seq * 131 + d)
for name in ("q", "k", "v"):
    np.save(os.path.join(out, name + ".npy"), rng.normal(0, 1, (batch, heads, seq, d)).astype(np.float16))
