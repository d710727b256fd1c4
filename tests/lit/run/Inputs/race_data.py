"""Inputs and checks of tests/lit/run/planted-bugs-races.test: N values that
are multiples of 1/4 (so every sum is exact in f32), zeroed outputs, and
the outputs the race kernels must write.
    python3 race_data.py DIR N data|check KERNEL"""
import sys

import numpy as np

out_dir, n, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if mode == "data":
    rng = np.random.default_rng(7)
    np.save(f"{out_dir}/x.npy", (rng.integers(-64, 64, n) / 4).astype(np.float32))
    for name, size, dtype in [("out", n // 128, np.float32), ("y", n, np.float32),
                              ("count", 1, np.int32), ("total", 1, np.float32),
                              ("partial", n // 32, np.float32)]:
        np.save(f"{out_dir}/{name}.npy", np.zeros(size, dtype))
    sys.exit(0)
x = np.load(f"{out_dir}/x.npy")
kernel = sys.argv[4]
if kernel == "partial_sums":
    ok = np.array_equal(np.load(f"{out_dir}/out.npy"), x.reshape(-1, 128).sum(1))
elif kernel == "handoff":
    ok = np.array_equal(np.load(f"{out_dir}/y.npy"), (x.reshape(-1, 32)[:, ::-1] * 2).ravel())
elif kernel == "count_ctas":
    ok = (np.load(f"{out_dir}/count.npy")[0] == n // 32 and
          np.load(f"{out_dir}/total.npy")[0] == x.sum())
else:
    sys.exit(f"unknown kernel {kernel}")
if not ok:
    sys.exit(f"{kernel}: wrong results")
print(f"{kernel}: right results")
