"""Inputs and expected outputs of relay_loop.cute for S steps.
    python3 relay_loop_data.py S OUTDIR"""
import os
import sys

import numpy as np

steps, out = int(sys.argv[1]), sys.argv[2]
os.makedirs(out, exist_ok=True)
src = (np.arange(32 * steps, dtype=np.float32) - 50) * np.float32(0.75)
np.save(os.path.join(out, "src.npy"), src)
np.save(os.path.join(out, "ref.npy"), src * np.float32(2))


def state(phase, advances):
    index = 0
    for _ in range(advances):
        index += 1
        if index == 2:
            index, phase = 0, phase ^ 1
    return advances * 100 + index * 10 + phase


np.save(os.path.join(out, "states_ref.npy"),
        np.array([state(1, steps)] * 32 + [state(0, steps)] * 32, dtype=np.int32))
