"""Inputs and NumPy results of while_carries_fragment.cute's kernels
doubling and nested (limit 40) into DIR.

usage: while_carries_fragment_data.py DIR
"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
f32 = np.float32
x = np.random.default_rng(28).uniform(0.25, 30, (32, 4)).astype(f32)
np.save(os.path.join(out, "x.npy"), x)
limit = f32(40)

doubling = x.copy()
nested = x.copy()
for t in range(32):
    while doubling[t, 0] < limit:
        doubling[t] = doubling[t] * f32(2)
    steps = 0
    while nested[t, 1] <= limit:
        nested[t] = nested[t] + nested[t]
        steps += 1
        for _ in range(2):
            nested[t] = nested[t] + f32(1)
    nested[t] = nested[t] + f32(steps)
np.save(os.path.join(out, "doubling.npy"), doubling.reshape(-1))
np.save(os.path.join(out, "nested.npy"), nested.reshape(-1))
