"""Prints, for every PTX instruction whose mnemonic starts with PREFIX, the
source line of the `.loc` in force where it stands, one per line:

    wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 line 100

Exits 1 if such an instruction has no `.loc` before it.
  line_of_instructions.py FILE.ptx PREFIX
"""
import re
import sys

path, prefix = sys.argv[1], sys.argv[2]
current = None
for text in open(path):
    text = text.strip()
    loc = re.match(r"\.loc\s+\d+\s+(\d+)\s+\d+$", text)
    if loc:
        current = loc.group(1)
        continue
    mnemonic = text.split()[0] if text else ""
    if mnemonic.startswith("@"):
        mnemonic = text.split()[1]
    if mnemonic.startswith(prefix):
        if current is None:
            sys.exit(f"{path}: '{mnemonic}' has no .loc before it")
        print(f"{mnemonic} line {current}")
