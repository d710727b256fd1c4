"""Exit 0 when two .npy files hold the same bytes; else list the first
mismatching elements.   python3 compare_npy.py ACTUAL EXPECTED"""
import sys

import numpy as np

actual, expected = np.load(sys.argv[1]), np.load(sys.argv[2])
if actual.dtype != expected.dtype or actual.shape != expected.shape:
    sys.exit(f"mismatch: {actual.dtype}{actual.shape} vs {expected.dtype}{expected.shape}")
bad = np.nonzero(actual.view(np.uint8).reshape(actual.size, -1) !=
                 expected.view(np.uint8).reshape(expected.size, -1))[0]
if bad.size:
    first = sorted(set(bad.tolist()))[:5]
    sys.exit(f"{len(set(bad.tolist()))} of {actual.size} elements differ; first: " +
             ", ".join(f"[{i}] {actual[i]} != {expected[i]}" for i in first))
print(f"{actual.size} elements identical")
