"""Kernel.emulate: the kernel's C++ emulation on CPU arrays, through
``cutec run`` (the program cutec-run), in a child process so that a kernel
the emulator stops never takes the interpreter with it."""

import os
import subprocess
import tempfile

import numpy as np

from . import _binding, _expr, _tools
from ._errors import EmulationError

# The .npy dtype `cutec run` reads for each element type's memory image.
_NPY = {"f16": "<f2", "bf16": "<u2", "f32": "<f4", "tf32": "<f4", "i8": "|i1", "u8": "|u1",
        "i16": "<i2", "u16": "<u2", "i32": "<i4", "u32": "<u4", "i64": "<i8", "u64": "<u8",
        "bool": "|u1"}


def _image(t):
    """The bytes of tensor ``t`` from its first element over the items it
    spans, as a writable uint8 view into its memory."""
    array = t.obj
    if t.is_torch:
        if t.dtype in ("bf16", "f8e4m3fn", "f8e5m2", "f8e8m0fnu", "f4e2m1fn_x2"):
            import torch
            array = array.view(torch.int16 if t.itemsize == 2 else torch.uint8)
        array = array.numpy()
    span = t.span()
    flat = np.lib.stride_tricks.as_strided(array, shape=(span,), strides=(t.itemsize,))
    return flat.view(np.uint8)


def emulate(kernel, arrays, kwargs, *, sms, schedules, seed, race_check, workers):
    sig = kernel.signature
    binding = _binding.bind(sig, arrays, kwargs, "cpu")
    compiler = kernel._compiler
    with tempfile.TemporaryDirectory(prefix="cutec-emulate-") as folder:
        source = compiler.file_name
        if source == "<stdin>":
            source = os.path.join(folder, f"{sig.name}.cute")
            with open(source, "w", encoding="utf-8") as f:
                f.write(compiler.source)
        command = [_tools.cutec_run_executable(), source, "--kernel", sig.name,
                   f"--arch={compiler.arch}", f"--sms={sms}", f"--schedules={schedules}",
                   f"--seed={seed}"]
        if not compiler.fmad:
            command.append("--fmad=false")
        if compiler.disable_pass:
            command.append("--disable-pass=" + ",".join(compiler.disable_pass))
        if race_check:
            command.append("--race-check")
        if workers is not None:
            command.append(f"--workers={workers}")
        if not compiler.use_cache:
            command.append("--no-cache")
        for name, value in binding.sizes.items():
            command += ["-D", f"{name}={value}"]
        for name, value in binding.scalars.items():
            command += ["-D", f"{name}={float(value).hex() if isinstance(value, float) else value}"]
        images = {}
        for p in sig.tensors:
            t = binding.tensors[p.name]
            need = -(-_expr.evaluate(p.cosize, binding.sizes) * p.bits // 8)
            image = _image(t)[:need]
            images[p.name] = image
            path = os.path.join(folder, f"{p.name}.npy")
            np.save(path, image.view(_NPY.get(p.dtype, "|u1")), allow_pickle=False)
            command += ["--arg", f"{p.name}={path}", "--out", f"{p.name}={path}"]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise EmulationError(done.stderr)
        for name, image in images.items():
            result = np.load(os.path.join(folder, f"{name}.npy"), allow_pickle=False)
            image[:] = result.view(np.uint8)

