"""Writes the input of tests/lit/run/Inputs/dsmem_exchange.cute into DIR
(`make`), or checks its outputs there (`check`): y holds, for CTA c of
each cluster of 4, the 128 elements of x of its right neighbour (rank
r + 1 mod 4), and z the 32 values that the left neighbour's threads
stored into c's inbox: (r + 1 mod 4) * 100 + t.

usage: dsmem_check.py make DIR | check DIR
"""
import os
import sys

import numpy as np


def main(mode, out):
    if mode == "make":
        os.makedirs(out, exist_ok=True)
        np.save(os.path.join(out, "x.npy"), np.arange(1024, dtype=np.float32) * 0.5)
        return 0
    x = np.arange(1024, dtype=np.float32) * 0.5
    ctas = np.arange(8)
    right = ctas // 4 * 4 + (ctas % 4 + 1) % 4
    y = np.concatenate([x[r * 128:(r + 1) * 128] for r in right])
    z = np.concatenate([(c % 4 + 1) % 4 * 100 + np.arange(32) for c in ctas]).astype(np.float32)
    got_y = np.load(os.path.join(out, "y.npy"))
    got_z = np.load(os.path.join(out, "z.npy"))
    if not (np.array_equal(got_y, y) and np.array_equal(got_z, z)):
        print("dsmem_exchange: outputs differ from the neighbours' values")
        return 1
    print("dsmem_exchange: neighbours' values")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
