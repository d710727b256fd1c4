"""atomics_data.py DIR data|check: inputs for atomics.cute (N = 4096) and the check
of its results. Atomics from many threads run in no fixed order, so the
checks are order-independent: final values against NumPy, and the old values
the threads got against what some serial order of the updates gives (every
partial sum, exchanged value or counter value exactly once, which a lost or
torn update breaks)."""
import numpy as np

from check_report import main, report

N = 4096

TINY = np.float32(2.0**-126)  # the smallest normal f32


def write(directory):
    rng = np.random.default_rng(11)
    x = rng.integers(0, 2**30, N, dtype=np.int64).astype(np.int32)
    # Multiples of 1/16 below 64 in magnitude: every partial sum of N of
    # them is exact in f32, so the sum does not depend on the order.
    v = (rng.integers(-1000, 1000, N) / 16).astype(np.float32)
    # In global memory a subnormal input is flushed (fsum[1] stays 0) and
    # so is a subnormal result (1.5 TINY - TINY: fsum[2] ends as 0); in
    # shared memory both stay.
    w = np.array([TINY / 4, -TINY], np.float32)
    lanes = np.arange(N) % 32
    m = np.stack([np.left_shift(np.uint32(1), lanes.astype(np.uint32)),
                  ~np.left_shift(np.uint32(1), lanes.astype(np.uint32))], axis=1)
    arrays = {
        "x": x, "v": v, "w": w, "m": m.astype(np.uint32),
        "hist": np.zeros(16, np.int32),
        "fsum": np.array([0, 0, 1.5 * TINY, 7, 7], np.float32),
        "ext": np.array([-2**31, 2**31 - 1], np.int32),
        "umin": np.array([0xFFFFFFFF], np.uint32),
        "bits": np.array([0, 0xFFFFFFFF, 0x12345678], np.uint32),
        "slot": np.array([-1], np.float32),
        "flag": np.zeros(1, np.int32),
    }
    for name, array in arrays.items():
        np.save(f"{directory}/{name}.npy", array)


def serial(olds, final, start, increments):
    """Whether the old values are those of some serial order of the
    updates: the olds and the final value are the start and every
    old + increment."""
    return np.array_equal(np.sort(np.append(olds, final)),
                          np.sort(np.append(start, olds + increments)))


def check(directory):
    load = lambda name: np.load(f"{directory}/{name}.npy")
    x, v = load("x"), load("v")
    old, fold = load("old").reshape(N, 4), load("fold").reshape(N, 2)
    hist, fsum, ext = load("hist"), load("fsum"), load("ext")
    bins = x % 16
    s = x - 2**29
    winners = np.flatnonzero(old[:, 2] == 0)
    per_bin = [np.array_equal(np.sort(old[bins == b, 0]), np.arange((bins == b).sum()))
               for b in range(16)]
    per_cta = [np.array_equal(np.sort(old[c * 128:(c + 1) * 128, 3]), np.arange(128))
               for c in range(N // 128)]
    checks = {
        "histogram": np.array_equal(hist, np.bincount(bins, minlength=16)),
        "histogram old values: 0..count-1 in each bin": all(per_bin),
        "f32 sum": fsum[0] == v.sum(dtype=np.float64),
        "f32 old values: partial sums": serial(fold[:, 0], fsum[0], 0, v),
        "f32 subnormal input flushed": fsum[1] == 0 and not np.signbit(fsum[1]),
        "f32 subnormal result flushed": fsum[2] == 0 and not np.signbit(fsum[2]),
        "shared f32 subnormal input kept": fsum[3] == TINY / 4,
        "shared f32 subnormal result kept": fsum[4] == TINY / 2,
        "i32 max": ext[0] == s.max(),
        "i32 min": ext[1] == s.min(),
        "i32 min old values": np.all(old[:, 1] >= ext[1])
                              and np.all(np.isin(old[:, 1], np.append(s, 2**31 - 1))),
        "u32 min": load("umin")[0] == s.astype(np.uint32).min(),
        "or, and, xor": np.array_equal(load("bits"), np.array(
            [0xFFFFFFFF, 0, 0x12345678 ^ np.bitwise_xor.reduce(x.astype(np.uint32))], np.uint32)),
        "cas: one winner": len(winners) == 1,
        "cas: the winner's value stays": len(winners) == 1 and load("flag")[0] == winners[0] + 1
                                         and np.all(np.delete(old[:, 2], winners) == winners[0] + 1),
        "exch: every value once": np.array_equal(
            np.sort(np.append(fold[:, 1], load("slot"))),
            np.sort(np.append(np.float32(-1), np.arange(N, dtype=np.float32)))),
        "shared counter": np.array_equal(load("ctas"), np.full(N // 128, 128)),
        "shared counter old values": all(per_cta),
    }
    return report(checks)


if __name__ == "__main__":
    main(write, check)
