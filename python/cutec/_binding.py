"""Binding a call's arguments to a kernel's parameters, with every check a
launch needs, so that a mistake is a Python exception naming the parameter
and never a launch.

The rules (docs/python.md says them to users):
- positional arguments are the kernel's tensors and scalars in order;
  keywords name tensors, scalars or dynamic sizes;
- a tensor with as many dimensions as its layout has modes (or at least two,
  the missing trailing modes being 1) matches mode i to dimension i: a mode
  whose extent is a size names that size's value, and each dimension's
  extent and stride must be the layout's. A fp4 tensor stored two to a byte
  (``float4_e2m1fn_x2`` or ``uint8``) counts two elements in its contiguous
  dimension. Any other tensor is taken as the kernel's memory image and must
  be contiguous;
- sizes given by keyword win over inferred ones; two tensors inferring
  different values for a size is an error;
- each tensor must reach as far as the layout's cosize, start on a 16-byte
  boundary (or its ``aligned(T, N)`` assumption's N), and live where the
  kernel runs; each ``assume=`` fact must hold.
"""

from . import _expr
from ._tensors import FRAMEWORK_NAMES, view

SIZE_MAX = (1 << 31) - 1

# The storage dtypes each element type accepts, with how many elements one
# item holds (None: a packed memory image of bytes, not inferred from).
_ACCEPTS = {
    "f16": {"f16": 1, "u16": 1, "i16": 1},
    "bf16": {"bf16": 1, "u16": 1, "i16": 1},
    "f32": {"f32": 1},
    "tf32": {"f32": 1, "u32": 1, "i32": 1},
    "f8e4m3": {"f8e4m3fn": 1, "u8": 1, "i8": 1},
    "f8e5m2": {"f8e5m2": 1, "u8": 1, "i8": 1},
    "ue4m3": {"f8e4m3fn": 1, "u8": 1},
    "ue8m0": {"f8e8m0fnu": 1, "u8": 1},
    "f4e2m1": {"f4e2m1fn_x2": 2, "u8": 2, "i8": 2},
    "f6e3m2": {"u8": None},
    "f6e2m3": {"u8": None},
    "i8": {"i8": 1, "u8": 1}, "u8": {"u8": 1, "i8": 1},
    "i16": {"i16": 1, "u16": 1}, "u16": {"u16": 1, "i16": 1},
    "i32": {"i32": 1, "u32": 1}, "u32": {"u32": 1, "i32": 1},
    "i64": {"i64": 1, "u64": 1}, "u64": {"u64": 1, "i64": 1},
    "bool": {"bool": 1, "u8": 1, "i8": 1},
}


class Binding:
    """The sizes, the tensors (parameter name -> TensorView), the scalars and
    the device of one call."""

    __slots__ = ("sizes", "tensors", "scalars", "device")

    def __init__(self, sizes, tensors, scalars, device):
        self.sizes, self.tensors, self.scalars, self.device = sizes, tensors, scalars, device


def bind(signature, args, kwargs, device_kind):
    """Binds ``args``/``kwargs``; ``device_kind`` is where the kernel runs
    ("cuda" or "cpu")."""
    values = _match(signature, args, kwargs)
    tensors = {p.name: view(values[p.name], p.name) for p in signature.tensors}
    for p in signature.tensors:
        _check_dtype(p, tensors[p.name])
    device = _common_device(signature, tensors, device_kind)
    sizes = _sizes(signature, tensors, {k: v for k, v in kwargs.items()
                                        if k in signature.sizes})
    for p in signature.tensors:
        _check_tensor(p, tensors[p.name], sizes)
    scalars = {p.name: _scalar(p, values[p.name]) for p in signature.scalars}
    for p in signature.tensors:
        ptr = tensors[p.name].ptr
        alignment = signature.alignments[p.name]
        if ptr % alignment:
            raise ValueError(f"{p.name}: the kernel needs its address to be a multiple of "
                             f"{alignment} bytes, got {ptr:#x}")
    return Binding(sizes, tensors, scalars, device)


def _match(signature, args, kwargs):
    names = [p.name for p in signature.arguments]
    if len(args) > len(names):
        raise TypeError(f"kernel {signature.name} takes {len(names)} arguments "
                        f"({', '.join(names)}), got {len(args)}")
    values = dict(zip(names, args))
    for key, value in kwargs.items():
        if key in signature.sizes:
            continue
        if key not in names:
            raise TypeError(f"kernel {signature.name} has no parameter or dynamic size '{key}' "
                            f"(parameters: {', '.join(names)}; sizes: "
                            f"{', '.join(signature.sizes) or 'none'})")
        if key in values:
            raise TypeError(f"kernel {signature.name}: '{key}' given twice")
        values[key] = value
    missing = [n for n in names if n not in values]
    if missing:
        raise TypeError(f"kernel {signature.name}: missing {', '.join(missing)}")
    return values


def _check_dtype(p, t):
    accepts = _ACCEPTS[p.dtype]
    if t.dtype not in accepts:
        wanted = " or ".join(FRAMEWORK_NAMES[d] for d in accepts)
        raise TypeError(f"{p.name}: the kernel's {p.dtype} elements are passed as {wanted}, "
                        f"got {FRAMEWORK_NAMES.get(t.dtype, t.dtype)}")


def _common_device(signature, tensors, device_kind):
    devices = {name: t.device for name, t in tensors.items()}
    for name, device in devices.items():
        if device[0] != device_kind:
            where = "on a CUDA GPU" if device_kind == "cuda" else "in CPU memory (emulate)"
            raise ValueError(f"{name}: the tensor is on {device[0]}, but the kernel runs "
                             f"{where}")
    distinct = sorted(set(devices.values()))
    if len(distinct) > 1:
        listing = ", ".join(f"{n} on {d[0]}:{d[1]}" for n, d in devices.items())
        raise ValueError(f"kernel {signature.name}: the tensors are on different devices "
                         f"({listing})")
    return distinct[0] if distinct else (device_kind, 0)


def _modes(p):
    """The layout's top-level modes as (extent, stride), or None when one is
    nested."""
    return None if any(m is None for m in p.modes) else p.modes


def _shaped(p, t):
    """Whether tensor ``t`` is matched to ``p``'s layout mode by mode (else it
    is the memory image), and the elements one item holds."""
    per_item = _ACCEPTS[p.dtype][t.dtype]
    modes = _modes(p)
    if per_item is None or modes is None:
        return None, per_item
    if len(t.shape) == len(modes) or 2 <= len(t.shape) < len(modes):
        return modes, per_item
    return None, per_item


def _elements(extent, mode_stride, per_item):
    """Elements of a tensor dimension: packed items count twice along the
    contiguous mode."""
    return extent * per_item if mode_stride == 1 else extent


def _sizes(signature, tensors, given):
    found = {}
    for p in signature.tensors:
        t = tensors[p.name]
        modes, per_item = _shaped(p, t)
        if modes is None:
            continue
        for i, (extent, stride) in enumerate(modes):
            if not isinstance(extent, str):
                continue
            value = _elements(t.shape[i], stride, per_item) if i < len(t.shape) else 1
            where = f"{p.name}'s dimension {i}" if i < len(t.shape) else (
                f"{p.name} (no dimension {i}: 1)")
            if extent in found and found[extent][0] != value and extent not in given:
                raise ValueError(f"{extent}: {found[extent][1]} says {found[extent][0]} but "
                                 f"{where} says {value}")
            found.setdefault(extent, (value, where))
    sizes = {name: value for name, (value, _) in found.items()}
    for name, value in given.items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{name}: a size is an int, got {type(value).__name__}")
        sizes[name] = value
    missing = [s for s in signature.sizes if s not in sizes]
    if missing:
        raise ValueError(f"kernel {signature.name}: the sizes {', '.join(missing)} are not "
                         f"determined by the tensors' shapes; give them as keywords ("
                         + ", ".join(f"{s}=..." for s in missing) + ")")
    for name in signature.sizes:
        if not 1 <= sizes[name] <= SIZE_MAX:
            raise ValueError(f"{name} = {sizes[name]}: a size must be from 1 to {SIZE_MAX}")
    for name, divisor in signature.assumptions:
        if sizes[name] % divisor:
            raise ValueError(f"{name} = {sizes[name]} breaks the kernel's assumption "
                             f"divby({name}, {divisor})")
    return {name: sizes[name] for name in signature.sizes}


def _check_tensor(p, t, sizes):
    modes, per_item = _shaped(p, t)
    bound = ", ".join(f"{k}={v}" for k, v in sizes.items())
    if modes is not None:
        for i, (extent, stride) in enumerate(modes):
            want_extent = _expr.evaluate(extent, sizes)
            want_stride = _expr.evaluate(stride, sizes)
            if i >= len(t.shape):
                if want_extent != 1:
                    raise ValueError(f"{p.name}: the tensor has {len(t.shape)} dimensions, so "
                                     f"mode {i} of {p.layout} must be 1, not {want_extent}")
                continue
            have = _elements(t.shape[i], want_stride, per_item)
            if have != want_extent:
                raise ValueError(f"{p.name}: dimension {i} has {have} elements but the layout "
                                 f"{p.layout} with {bound} has {want_extent}")
            if want_extent > 1:
                item_stride = want_stride if want_stride == 1 else want_stride / per_item
                if t.strides[i] != item_stride:
                    raise ValueError(
                        f"{p.name}: dimension {i} has stride {t.strides[i]} but the layout "
                        f"{p.layout} with {bound} has stride {_fmt(item_stride)}"
                        + (" (in bytes of two elements)" if per_item == 2 else ""))
    elif not t.is_contiguous():
        raise ValueError(f"{p.name}: a tensor whose dimensions are not the layout's modes is "
                         f"passed as the kernel's memory image, and must be contiguous "
                         f"(shape {t.shape}, strides {t.strides})")
    cosize = _expr.evaluate(p.cosize, sizes)
    need = -(-cosize * p.bits // 8)
    have = t.span() * t.itemsize
    if have < need:
        raise ValueError(f"{p.name}: the kernel reaches {need} bytes ({cosize} {p.dtype} "
                         f"elements, the cosize of {p.layout} with {bound}) but the tensor "
                         f"holds {have}")


def _fmt(x):
    return str(int(x)) if float(x).is_integer() else str(x)


def _scalar(p, value):
    if p.dtype == "f32":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"{p.name}: the f32 parameter takes a number, got "
                            f"{type(value).__name__}")
        return float(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{p.name}: the {p.dtype} parameter takes an int, got "
                        f"{type(value).__name__}")
    low, high = (-(1 << 31), (1 << 31) - 1) if p.dtype == "i32" else (0, (1 << 32) - 1)
    if not low <= value <= high:
        raise ValueError(f"{p.name} = {value}: the {p.dtype} parameter holds {low} to {high}")
    return value
