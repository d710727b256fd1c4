"""Inputs (every code) and expected f32 bits for decode.cute.
    python3 decode_data.py OUTDIR"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
codes = np.arange(256, dtype=np.uint8)
np.save(os.path.join(out, "ue8m0.npy"), codes)
# 2^(e-127); 0xFF is NaN, which widening to f32 makes the canonical 0x7FFFFFFF.
expected = np.ldexp(np.float32(1), codes.astype(np.int32) - 127).astype(np.float32)
bits = expected.view(np.uint32).copy()
bits[255] = 0x7FFFFFFF
np.save(os.path.join(out, "ue8m0_ref.npy"), bits.view(np.float32))

values = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6],
                  dtype=np.float32)
nibbles = np.arange(16, dtype=np.uint8)
np.save(os.path.join(out, "e2m1.npy"), (nibbles[0::2] | (nibbles[1::2] << 4)).astype(np.uint8))
np.save(os.path.join(out, "e2m1_ref.npy"), values)
