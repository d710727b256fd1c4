"""cutec.compile and the Kernel it returns."""

import json
import os
import sys
import warnings

from . import _binding, _cache, _expr, _tools
from ._errors import CompileError
from ._signature import Signature

DEFAULT_ARCH = "sm_100a"
# The target of each compute capability cutec compiles for.
_ARCH_OF_CAPABILITY = {(9, 0): "sm_90a", (10, 0): "sm_100a", (10, 3): "sm_103a",
                       (12, 0): "sm_120a", (12, 1): "sm_121a"}


def _native():
    from . import _native as native
    return native


def current_arch():
    """The target of the current CUDA device, or sm_100a without one."""
    try:
        native = _native()
        if native.cuda_available():
            capability = native.compute_capability(native.current_device())
            return _ARCH_OF_CAPABILITY.get(tuple(capability), DEFAULT_ARCH)
    except ImportError:
        pass
    return DEFAULT_ARCH


def _read_source(path_or_source):
    if "\n" not in path_or_source and (path_or_source.endswith(".cute")
                                       or os.path.exists(path_or_source)):
        try:
            with open(path_or_source, encoding="utf-8") as f:
                return f.read(), path_or_source
        except OSError as e:
            raise FileNotFoundError(f"cutec.compile: cannot read '{path_or_source}': "
                                    f"{e.strerror}") from None
    return path_or_source, "<stdin>"


def _options(arch, fmad, disable_pass, lineinfo):
    args = [f"--arch={arch}"]
    if not fmad:
        args.append("--fmad=false")
    if disable_pass:
        args.append("--disable-pass=" + ",".join(disable_pass))
    if lineinfo:
        args.append("--lineinfo")
    return args


class _Compiler:
    """Runs ``cutec`` on one source with one set of options, reading the
    cache first as the command would."""

    def __init__(self, source, file_name, arch, fmad, disable_pass, lineinfo, use_cache):
        self.source, self.file_name, self.arch = source, file_name, arch
        self.fmad, self.disable_pass, self.lineinfo = fmad, tuple(disable_pass), lineinfo
        self.use_cache = use_cache

    def output(self, emit):
        executable = _tools.cutec_executable()
        key = None
        # A cubin's key also names the assembler cutec finds (ptxas's path,
        # size and time), which only the command looks for: it reads its
        # cache itself.
        if self.use_cache and emit != "cubin":
            key = _cache.key(_cache.identity(executable, _tools.version()), emit, self.arch,
                             self.fmad, self.lineinfo, self.disable_pass, self.file_name,
                             self.source)
            hit = _cache.read(key)
            if hit is not None:
                return hit[0], hit[1]
        command = [executable, "-" if self.file_name == "<stdin>" else self.file_name,
                   f"--emit={emit}", "-o", "-"]
        command += _options(self.arch, self.fmad, self.disable_pass, self.lineinfo)
        if not self.use_cache:
            command.append("--no-cache")
        stdin = self.source.encode() if self.file_name == "<stdin>" else None
        code, out, err = _tools.run(command, stdin)
        if code != 0:
            raise CompileError(err)
        return err, out


def compile(path_or_source, kernel=None, arch=None, *, fmad=True, disable_pass=(),
            lineinfo=False, cache=True):
    """Compiles a kernel from a ``.cute`` file's path or from source text.

    ``kernel`` picks one when the source defines several; ``arch`` is the
    target (``sm_100a``, ``sm_90a``, ...; None: the current GPU's, else
    sm_100a). ``fmad``, ``disable_pass`` and ``lineinfo`` are the command's
    ``--fmad``, ``--disable-pass`` and ``--lineinfo``; ``cache=False`` is
    its ``--no-cache``. Raises CompileError with the command's diagnostics.
    """
    source, file_name = _read_source(path_or_source)
    if isinstance(disable_pass, str):
        disable_pass = (disable_pass,)
    compiler = _Compiler(source, file_name, arch or current_arch(), fmad, disable_pass,
                         lineinfo, cache)
    diagnostics, output = compiler.output("json")
    if diagnostics:
        warnings.warn(diagnostics.rstrip("\n"), CompileWarning, stacklevel=2)
    bundle = json.loads(output)
    kernels = bundle["signature"]["kernels"]
    names = [k["name"] for k in kernels]
    if kernel is None:
        if len(kernels) != 1:
            raise ValueError(f"cutec.compile: {file_name} defines {len(kernels)} kernels "
                             f"({', '.join(names)}): choose one with kernel=")
        chosen = kernels[0]
    elif kernel in names:
        chosen = kernels[names.index(kernel)]
    else:
        raise ValueError(f"cutec.compile: {file_name} defines no kernel '{kernel}' "
                         f"(its kernels: {', '.join(names)})")
    return Kernel(compiler, bundle["ptx"], bundle["emulation"], Signature(chosen))


class CompileWarning(UserWarning):
    """A warning of the compiler, with its file:line:col and caret."""


def _kernel_base():
    try:
        return _native().KernelBase
    except ImportError:  # no extension: compiling and emulating still work
        return object


class Kernel(_kernel_base()):
    """A compiled kernel: its PTX, cubin, emulation and signature.

    ``kernel(*args, stream=None, **sizes_and_scalars)`` launches it on GPU
    tensors (PyTorch, or anything with ``__dlpack__`` or
    ``__cuda_array_interface__``): positional arguments are its tensors and
    scalars in order, keywords name scalars and dynamic sizes; ``stream`` is
    a CUDA stream (an int handle or an object with ``cuda_stream``), None
    meaning PyTorch's current stream for PyTorch tensors, else the default
    stream. ``emulate`` runs it on CPU arrays.
    """

    def __init__(self, compiler, ptx, emulation_source, signature):
        super().__init__()
        self._compiler = compiler
        self.ptx = ptx
        self.emulation_source = emulation_source
        self.signature = signature
        self.name = signature.name
        self.arch = compiler.arch
        self._cubin = None
        self._functions = {}
        self._plans = {}
        self._launcher = None
        self._launcher_device = None

    def __repr__(self):
        return f"<cutec.Kernel {self.name} for {self.arch}>"

    @property
    def cubin(self):
        """The cubin (bytes), assembled by ptxas (nvJitLink without one)
        through ``cutec --emit=cubin`` and cached by it."""
        if self._cubin is None:
            diagnostics, self._cubin = self._compiler.output("cubin")
        return self._cubin

    # -- launching ---------------------------------------------------------

    def _function(self, device):
        function = self._functions.get(device)
        if function is None:
            native = _native()
            capability = tuple(native.compute_capability(device))
            wanted = _ARCH_OF_CAPABILITY.get(capability)
            if wanted != self.arch:
                raise RuntimeError(f"kernel {self.name} was compiled for {self.arch}, but "
                                   f"device {device} is sm_{capability[0]}{capability[1]}"
                                   + (f": compile with arch='{wanted}'" if wanted else ""))
            try:
                image = self.cubin
            except CompileError:  # no ptxas nor nvJitLink: the driver compiles the PTX
                image = self.ptx.encode() + b"\0"
            cluster = self.signature.cluster or (1, 1, 1)
            function = native.load_function(image, self.name, device, self.signature.shared_bytes,
                                            cluster[0] * cluster[1] * cluster[2])
            self._functions[device] = function
        return function

    def _plan(self, binding):
        """Grid, block, cluster and parameter kinds for bound sizes."""
        sig = self.signature
        native = _native()
        key = (binding.device, tuple(binding.sizes.values()))
        plan = self._plans.get(key)
        if plan is not None:
            return plan
        sizes = dict(binding.sizes)
        sizes["sm_count"] = native.sm_count(binding.device[1])
        grid = _launch_extents(sig, "grid", sig.grid, sizes)
        cluster = tuple(sig.cluster) if sig.cluster else (0, 0, 0)
        if sig.cluster and any(g % c for g, c in zip(grid, cluster)):
            raise ValueError(f"kernel {sig.name}: the grid {grid} is not a whole number of "
                             f"clusters {cluster}")
        kinds = "".join(_KIND_LETTER[p.kind if p.kind != "scalar" else p.dtype]
                        if p.kind != "size" else "u" for p in sig.params)
        maps = [(p, _map_arguments(p, sizes)) for p in sig.params if p.kind == "tensormap"]
        plan = (grid, cluster, kinds, maps)
        self._plans[key] = plan
        return plan

    def _launch(self, args, stream, sizes_and_scalars):
        """The first call of a signature, or one the native path does not
        take: every check, then the launch, and the plan kept for next time."""
        sig = self.signature
        binding = _binding.bind(sig, args, sizes_and_scalars, "cuda")
        device = binding.device[1]
        native = _native()
        function = self._function(device)
        grid, cluster, kinds, maps = self._plan(binding)
        encoded = {p.name: native.encode_tensor_map(data_type, binding.tensors[p.source].ptr,
                                                    list(dims), list(strides), list(box),
                                                    swizzle)
                   for p, (data_type, dims, strides, box, swizzle) in maps}
        values = []
        for p in sig.params:
            if p.kind == "tensor":
                values.append(binding.tensors[p.name].ptr)
            elif p.kind == "size":
                values.append(binding.sizes[p.name])
            elif p.kind == "scalar":
                values.append(binding.scalars[p.name])
            else:
                values.append(encoded[p.name])
        native.launch(function, grid, sig.block, cluster, sig.shared_bytes,
                      _stream_handle(stream, binding), device, kinds, tuple(values))
        if not sizes_and_scalars and all(t.is_torch for t in binding.tensors.values()):
            self._remember(args, device, function, grid, cluster, kinds, maps, binding)

    def _remember(self, args, device, function, grid, cluster, kinds, maps, binding):
        sig = self.signature
        index = {p.name: i for i, p in enumerate(sig.params)}
        position = {p.name: i for i, p in enumerate(sig.arguments)}
        if self._launcher is None or self._launcher_device != device:
            self._launcher = _native().Launcher(function, device, sig.address_alignment,
                                                [index[p.name] for p in sig.arguments], kinds)
            self._launcher_device = device
            self._set_launcher(self._launcher)
        sizes = {index[name]: value for name, value in binding.sizes.items() if name in index}
        recipes = {index[p.name]: (position[p.source], data_type, list(dims), list(strides),
                                   list(box), swizzle)
                   for p, (data_type, dims, strides, box, swizzle) in maps}
        self._launcher.remember(args, grid, sig.block, cluster, sig.shared_bytes, sizes,
                                recipes)

    # -- the CPU -------------------------------------------------------------

    def emulate(self, *arrays, sms=148, schedules=1, seed=0, race_check=False, workers=None,
                **sizes_and_scalars):
        """Runs the kernel's emulation (as ``cutec run`` does) on NumPy arrays
        or CPU tensors; what the kernel writes lands in them. Raises
        EmulationError with the emulator's report."""
        from ._emulate import emulate
        emulate(self, arrays, sizes_and_scalars, sms=sms, schedules=schedules, seed=seed,
                race_check=race_check, workers=workers)

    def as_torch_op(self, name, mutates_args=()):
        """Registers the kernel as the PyTorch custom op ``name``
        ("namespace::op"), for torch.compile and CUDA graphs."""
        from ._torch_op import register
        return register(self, name, tuple(mutates_args))


_KIND_LETTER = {"tensor": "p", "tensormap": "m", "u32": "u", "i32": "i", "f32": "f"}


def _launch_extents(sig, what, exprs, sizes):
    extents = []
    for e in exprs:
        value = _expr.evaluate(e, sizes)
        if not 1 <= value <= (1 << 32) - 1:
            raise ValueError(f"kernel {sig.name}: the {what} extent {_expr.to_text(e)} is "
                             f"{value} with " + ", ".join(f"{k}={v}" for k, v in sizes.items())
                             + ", outside [1, 2^32-1]")
        extents.append(value)
    return tuple(extents)


def _map_arguments(p, sizes):
    """cuTensorMapEncodeTiled's arguments for map ``p`` under ``sizes``:
    extents and byte strides in the driver's units (4-bit data as bytes)."""
    m = p.map
    dims = [_expr.evaluate(d, sizes) for d in m["dims"]]
    strides = [_expr.evaluate(s, sizes) for s in m["strides"]]
    box = list(m["box"])
    if m["packs_nibbles"]:
        if dims[0] % 2 or any(s % 2 for s in strides):
            raise ValueError(f"{m['source']}: TMA moves 4-bit data as bytes, so the contiguous "
                             f"extent and the strides must be even (dims {dims}, strides "
                             f"{strides})")
        dims[0] //= 2
        strides = [s // 2 for s in strides]
        box[0] //= 2
    else:
        strides = [s * m["bits"] // 8 for s in strides]
    return (m["cuda_data_type"], tuple(dims), tuple(strides) or (0,), tuple(box),
            m["cuda_swizzle"])


def _stream_handle(stream, binding):
    if stream is None:
        for t in binding.tensors.values():
            if t.is_torch:
                import torch
                return torch.cuda.current_stream(binding.device[1]).cuda_stream
        return 0
    if isinstance(stream, int):
        return stream
    for attribute in ("cuda_stream", "ptr", "handle"):
        if hasattr(stream, attribute):
            return int(getattr(stream, attribute))
    raise TypeError(f"stream: expected an int handle or a stream object, got "
                    f"{type(stream).__name__}")
