"""The shared ending of the *_data.py scripts: `report` prints one line per
named check and tells whether all passed; `main` runs `write(DIR)` for
`SCRIPT DIR data` and exits with `check(DIR)`'s verdict for `SCRIPT DIR
check`."""
import sys

import numpy as np


def report(checks):
    """checks: name -> bool, or name -> (got, want) compared bit for bit
    (NaNs equal where the values are floats)."""
    ok = True
    for name, check in checks.items():
        if isinstance(check, tuple):
            got, want = check
            check = np.array_equal(got, want, equal_nan=got.dtype.kind == "f")
        ok &= bool(check)
        print(f"{name}: {'ok' if check else 'MISMATCH'}")
    return ok


def main(write, check):
    directory, mode = sys.argv[1], sys.argv[2]
    if mode == "data":
        write(directory)
    else:
        sys.exit(0 if check(directory) else 1)
