"""Emulates every case of gpu_cases.py and saves inputs and outputs, one
.npz per case, for gpu_check.py to compare the GPU against.

    PYTHONPATH=build/python python3 tests/python/make_gpu_references.py OUT_DIR
"""

import os
import sys
import time

import numpy as np

import cutec

sys.path.insert(0, os.path.dirname(__file__))
import gpu_cases  # noqa: E402

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples")


def main(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    for case in gpu_cases.cases():
        kernel = cutec.compile(os.path.join(EXAMPLES, case["file"]), kernel=case["kernel"],
                               arch=gpu_cases.ARCH)
        arrays = {k: v.copy() for k, v in case["inputs"].items()}
        start = time.time()
        # A table of addresses is given as the nested list of its arrays.
        tables = {t: [[arrays[n] for n in row] for row in rows]
                  for t, rows in case["tables"].items()}
        kernel.emulate(*(tables.get(p.name, arrays.get(p.name)) if p.kind == "tensor"
                         else case["scalars"][p.name] for p in kernel.signature.arguments),
                       sms=gpu_cases.SMS, **case["sizes"])
        print(f"{case['name']}: emulated in {time.time() - start:.1f} s", flush=True)
        np.savez(os.path.join(out_dir, case["name"] + ".npz"),
                 **{"in_" + k: v for k, v in case["inputs"].items()},
                 **{"out_" + k: arrays[k] for k in case["outputs"]})


if __name__ == "__main__":
    main(sys.argv[1])
