"""Inputs and NumPy references of views.cute into DIR: V (8, 4) f32, and
what each view of it reads."""
import os
import sys

import numpy as np


def main():
    out = sys.argv[1]
    v = np.random.default_rng(4).standard_normal((8, 4)).astype(np.float32)
    # zipped_divide(V, (2, 2)): ((2, 2), (4, 2)), element e of block t.
    blocks = np.array([[v[e % 2 + 2 * (t % 4), e // 2 + 2 * (t // 4)] for t in range(8)]
                       for e in range(4)], np.float32)
    refs = dict(vt=v.T.copy(), vc=v.T.copy(), row=v[2].copy(), blocks=blocks,
                bits=v.view(np.uint32), halves=v.view(np.float16))
    os.makedirs(out, exist_ok=True)
    np.save(os.path.join(out, "v.npy"), v)
    for name, ref in refs.items():
        np.save(os.path.join(out, name + ".npy"), np.zeros_like(ref))
        np.save(os.path.join(out, name + "_ref.npy"), ref.ravel())


if __name__ == "__main__":
    main()
