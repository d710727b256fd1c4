"""Compares cutec's cubins with ptxas's, for FileCheck:

    cubin_vs_ptxas.py CUTEC PTXAS OUT_DIR EXAMPLE.cute... --arch ARCH...

For each example and each ARCH it compiles for (`cutec --emit=ptx` accepts
it), assembles cutec's PTX with `PTXAS -arch=ARCH` and compares the bytes
with `cutec -o X.cubin`'s, then prints one line:

    hopper_gemm sm_90a: the cubin is ptxas's
    hopper_gemm sm_100a: not for this target

A cubin that differs, or anything cutec prints while making it that ptxas
does not print for the same PTX (a warning such as nvJitLink's C7504
'setmaxnreg' ignored), is printed instead, and the exit status is 1.
"""
import argparse
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def run(command):
    done = subprocess.run(command, capture_output=True, text=False)
    return done.returncode, done.stderr.decode(errors="replace").strip()


def compare(cutec, ptxas, out_dir, example, arch):
    name = os.path.splitext(os.path.basename(example))[0]
    stem = os.path.join(out_dir, f"{name}.{arch}")
    rc, _ = run([cutec, example, f"--arch={arch}", "--no-cache", "-o", stem + ".ptx"])
    if rc != 0:
        return f"{name} {arch}: not for this target", True
    rc, messages = run([cutec, example, f"--arch={arch}", "--no-cache", "-o", stem + ".cubin"])
    if rc != 0:
        return f"{name} {arch}: cutec failed: {messages}", False
    rc, ptxas_messages = run([ptxas, f"-arch={arch}", stem + ".ptx", "-o", stem + ".ptxas.cubin"])
    if rc != 0:
        return f"{name} {arch}: ptxas failed: {ptxas_messages}", False
    with open(stem + ".cubin", "rb") as mine, open(stem + ".ptxas.cubin", "rb") as theirs:
        same = mine.read() == theirs.read()
    line = f"{name} {arch}: " + ("the cubin is ptxas's" if same else "the cubin DIFFERS from ptxas's")
    extra = [m for m in messages.splitlines() if not printed_by_ptxas(m, ptxas_messages)]
    if extra:
        line += " but cutec printed: " + " | ".join(extra)
    return line, same and not extra


def printed_by_ptxas(message, ptxas_messages):
    """Whether ptxas gave `message`'s numbered note (`(C7519) ...`) itself."""
    note = re.search(r"\(C\d+\).*", message)
    return note is not None and note.group(0) in ptxas_messages


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("cutec")
    parser.add_argument("ptxas")
    parser.add_argument("out_dir")
    parser.add_argument("examples", nargs="+")
    parser.add_argument("--arch", action="append", required=True)
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    jobs = [(example, arch) for example in sorted(args.examples) for arch in args.arch]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda job: compare(args.cutec, args.ptxas, args.out_dir, *job),
                                jobs))
    for line, _ in results:
        print(line)
    return 0 if all(ok for _, ok in results) else 1


if __name__ == "__main__":
    sys.exit(main())
