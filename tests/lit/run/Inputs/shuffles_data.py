"""shuffles_data.py DIR data|check: inputs for shuffles.cute and the check of
its results against a NumPy model of shfl.sync's pseudo-code in the PTX ISA:
with segmask = c[12:8] and maxLane = (l & segmask) | (c[4:0] & ~segmask),
lane l reads lane j (up: l - b, if j >= maxLane; down: l + b, bfly: l ^ b,
idx: (l & segmask) | (b & ~segmask), each if j <= maxLane) and otherwise
keeps its own value."""
import numpy as np

from check_report import main, report

N = 256


def shuffle(values, mode, b, c):
    lanes = np.arange(32)
    b = np.broadcast_to(np.asarray(b) & 31, (32,))
    segmask, clamp = (c >> 8) & 31, c & 31
    max_lane = (lanes & segmask) | (clamp & ~segmask)
    if mode == "up":
        j = lanes - b
        valid = j >= max_lane
    else:
        j = {"down": lanes + b, "bfly": lanes ^ b,
             "idx": (lanes & segmask) | (b & ~segmask)}[mode]
        valid = j <= max_lane
    source = np.where(valid, j, lanes)
    warps = values.reshape(-1, 32)
    return warps[:, source].reshape(-1)


def write(directory):
    rng = np.random.default_rng(3)
    np.save(f"{directory}/x.npy", rng.standard_normal(N).astype(np.float32))
    np.save(f"{directory}/k.npy", rng.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32))


def check(directory):
    x, k = np.load(f"{directory}/x.npy"), np.load(f"{directory}/k.npy")
    f = np.load(f"{directory}/f.npy").reshape(N, 4)
    n = np.load(f"{directory}/n.npy").reshape(N, 4)
    u = np.load(f"{directory}/u.npy")
    lanes = np.arange(32)
    wanted = {
        "up 1 (f32)": (f[:, 0], shuffle(x, "up", 1, 0)),
        "down 3 (f32)": (f[:, 1], shuffle(x, "down", 3, 31)),
        "idx, run-time lane (f32)": (f[:, 2], shuffle(x, "idx", (lanes * 7 + 3) % 32, 31)),
        "down 2 in segments of 8 (f32)": (f[:, 3], shuffle(x, "down", 2, 0x181F)),
        "idx lane 2 of each 8 (i32)": (n[:, 0], shuffle(k, "idx", 2, 0x1807)),
        "up 3 in segments of 8 (i32)": (n[:, 1], shuffle(k, "up", 3, 0x1800)),
        "bfly 17, halves clamped at 15 (i32)": (n[:, 2], shuffle(k, "bfly", 17, 0x100F)),
        "down, run-time offset (i32)": (n[:, 3], shuffle(k, "down", lanes % 4, 31)),
        "up 31 (u32)": (u, shuffle(k.view(np.uint32), "up", 31, 0)),
    }
    ok = report(wanted)
    # Lanes that keep their own value are among those checked.
    assert np.array_equal(shuffle(x, "up", 1, 0)[:1], x[:1])
    return ok


if __name__ == "__main__":
    main(write, check)
