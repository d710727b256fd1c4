"""Inputs and the expected output of pipeline_relay.cute.
    python3 relay_data.py OUTDIR"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
src = (np.arange(128, dtype=np.float32) - 50) * np.float32(0.75)
np.save(os.path.join(out, "src.npy"), src)
np.save(os.path.join(out, "dst.npy"), np.zeros(128, dtype=np.float32))
np.save(os.path.join(out, "ref.npy"), src * np.float32(2))
