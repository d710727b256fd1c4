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


def _flatten(table):
    """The arrays of a nested list in C order, and the list's shape."""
    if not isinstance(table, (list, tuple)):
        return [table], ()
    parts = [_flatten(t) for t in table]
    shapes = {shape for _, shape in parts}
    if not parts or len(shapes) != 1:
        raise ValueError("a table of arrays is a non-empty nested list whose rows have one "
                         "length")
    return [a for arrays, _ in parts for a in arrays], (len(parts), *shapes.pop())


def _buffer_array(name, obj):
    """A group's array as a contiguous NumPy array sharing its memory."""
    array = obj.numpy() if hasattr(obj, "numpy") and not isinstance(obj, np.ndarray) else obj
    if not isinstance(array, np.ndarray) or not array.flags.c_contiguous or array.size == 0:
        raise ValueError(f"{name}: each array of a table of addresses must be a contiguous, "
                         "non-empty NumPy array or CPU tensor")
    return array.reshape(-1)


def _split_tables(sig, arrays, kwargs):
    """The arguments with each table of addresses (an i64 or u64 tensor
    parameter given as a nested list of arrays: the tensors whose addresses
    it holds, in its memory order) replaced by an int64 placeholder of the
    list's shape; and the tables, parameter name -> arrays."""
    arrays, kwargs, tables = list(arrays), dict(kwargs), {}
    for i, p in enumerate(sig.arguments):
        if p.kind != "tensor" or p.dtype not in ("i64", "u64"):
            continue
        where, key = (arrays, i) if i < len(arrays) else (kwargs, p.name)
        value = where[key] if i < len(arrays) or p.name in kwargs else None
        if not isinstance(value, (list, tuple)):
            continue
        flat, shape = _flatten(value)
        tables[p.name] = [_buffer_array(f"{p.name}[{j}]", a) for j, a in enumerate(flat)]
        where[key] = np.zeros(shape, np.int64)
    return arrays, kwargs, tables


def emulate(kernel, arrays, kwargs, *, sms, schedules, seed, race_check, workers):
    sig = kernel.signature
    arrays, kwargs, tables = _split_tables(sig, arrays, kwargs)
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
        images, paths = {}, {}
        for table, groups in tables.items():
            names = []
            for j, array in enumerate(groups):
                name = f"{table}[{j}]"
                path = os.path.join(folder, f"{table}_{j}.npy")
                np.save(path, array, allow_pickle=False)
                images[name], paths[name] = array.view(np.uint8), path
                names.append(name)
                command += ["--buffer", f"{name}={path}", "--out", f"{name}={path}"]
            command += ["--addresses", f"{table}=" + ",".join(names)]
        for p in sig.tensors:
            if p.name in tables:
                continue
            t = binding.tensors[p.name]
            need = -(-_expr.evaluate(p.cosize, binding.sizes) * p.bits // 8)
            image = _image(t)[:need]
            images[p.name] = image
            path = paths[p.name] = os.path.join(folder, f"{p.name}.npy")
            np.save(path, image.view(_NPY.get(p.dtype, "|u1")), allow_pickle=False)
            command += ["--arg", f"{p.name}={path}", "--out", f"{p.name}={path}"]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise EmulationError(done.stderr)
        for name, image in images.items():
            result = np.load(paths[name], allow_pickle=False)
            image[:] = result.view(np.uint8)

