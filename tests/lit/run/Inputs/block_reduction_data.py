"""block_reduction_data.py DIR data|check: inputs for block_reduction.cute
and the check of its results against a NumPy model: each warp reduces by
butterfly shuffles (offsets 16, 8, 4, 2, 1), then the warps' results are
combined in warp order, in f32 for the sums, and every thread of the block
gets the same value."""
import numpy as np

from check_report import main, report

N, BLOCK = 384, 96


def butterfly(values, combine):
    v = values.reshape(-1, 32)
    lanes = np.arange(32)
    for offset in (16, 8, 4, 2, 1):
        v = combine(v, v[:, lanes ^ offset])
    return v[:, 0]


def block_model(values, combine):
    per_warp = butterfly(values, combine).reshape(-1, BLOCK // 32)
    total = per_warp[:, 0]
    for w in range(1, BLOCK // 32):
        total = combine(total, per_warp[:, w])
    return np.repeat(total, BLOCK)


def write(directory):
    rng = np.random.default_rng(5)
    x = (rng.standard_normal(N) * np.exp2(rng.integers(-10, 10, N))).astype(np.float32)
    np.save(f"{directory}/x.npy", x)
    np.save(f"{directory}/k.npy", rng.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32))


def check(directory):
    x, k = np.load(f"{directory}/x.npy"), np.load(f"{directory}/k.npy")
    f = np.load(f"{directory}/f.npy").reshape(N, 2)
    n, u = np.load(f"{directory}/n.npy"), np.load(f"{directory}/u.npy")
    with np.errstate(over="ignore"):
        wanted = {
            "sum f32": (f[:, 0], block_model(x, np.add)),
            "max f32": (f[:, 1], block_model(x, np.fmax)),
            "min i32": (n, block_model(k, np.minimum)),
            "sum u32": (u, block_model(k.view(np.uint32), np.add)),
        }
    ok = report(wanted)
    # The f32 sums depend on the order: the model tells it apart.
    assert not np.array_equal(block_model(x, np.add)[::BLOCK],
                              x.reshape(-1, BLOCK).sum(axis=1, dtype=np.float32))
    return ok


if __name__ == "__main__":
    main(write, check)
