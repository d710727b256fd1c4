"""warp_reduction_data.py DIR data|check: inputs for warp_reduction.cute
and the check of its results against a NumPy model of the butterfly: in
step o (group/2, ..., 2, 1) every lane combines its value with lane
(lane ^ o)'s, in f32 (the sums' rounding depends on this order), so every
lane of a group ends with the same result. f32 max/min skip NaNs."""
import numpy as np

from check_report import main, report

N = 256


def butterfly(values, group, combine):
    v = values.copy().reshape(-1, 32)
    lanes = np.arange(32)
    offset = group // 2
    while offset >= 1:
        v = combine(v, v[:, lanes ^ offset])
        offset //= 2
    return v.reshape(-1)


def write(directory):
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(N) * np.exp2(rng.integers(-12, 12, N))).astype(np.float32)
    x[40] = np.nan  # warp 1: max and min skip it, the sum is NaN
    k = rng.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    np.save(f"{directory}/x.npy", x)
    np.save(f"{directory}/k.npy", k)


def check(directory):
    x, k = np.load(f"{directory}/x.npy"), np.load(f"{directory}/k.npy")
    f = np.load(f"{directory}/f.npy").reshape(N, 4)
    n = np.load(f"{directory}/n.npy").reshape(N, 3)
    u = np.load(f"{directory}/u.npy")
    with np.errstate(over="ignore"):
        wanted = {
            "sum f32": (f[:, 0], butterfly(x, 32, np.add)),
            "max f32": (f[:, 1], butterfly(x, 32, np.fmax)),
            "sum f32 over 8 lanes": (f[:, 2], butterfly(x, 8, np.add)),
            "min f32 over 4 lanes": (f[:, 3], butterfly(x, 4, np.fmin)),
            "sum i32": (n[:, 0], butterfly(k, 32, np.add)),
            "max i32": (n[:, 1], butterfly(k, 32, np.maximum)),
            "min i32 over 16 lanes": (n[:, 2], butterfly(k, 16, np.minimum)),
            "max u32": (u, butterfly(k.view(np.uint32), 32, np.maximum)),
        }
    ok = report(wanted)
    # A sum in another order would differ: the test can tell the order.
    in_order = np.float32(0)
    for value in x[:32]:
        in_order += value
    assert butterfly(x, 32, np.add)[0] != in_order
    return ok


if __name__ == "__main__":
    main(write, check)
