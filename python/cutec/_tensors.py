"""Reading tensors of any framework: PyTorch, NumPy, and anything with
``__cuda_array_interface__`` (CuPy, Numba) or ``__dlpack__`` (JAX, ...)."""

import functools


# A storage dtype, as cutec names it, for each framework's spelling.
_NUMPY = {"<f2": "f16", "<f4": "f32", "<f8": "f64", "|i1": "i8", "|u1": "u8", "<i2": "i16",
          "<u2": "u16", "<i4": "i32", "<u4": "u32", "<i8": "i64", "<u8": "u64", "|b1": "bool"}
_NUMPY_NAMES = {"bfloat16": "bf16", "float8_e4m3fn": "f8e4m3fn", "float8_e5m2": "f8e5m2",
                "float8_e8m0fnu": "f8e8m0fnu"}
_TORCH_NAMES = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
                "int8": "i8", "uint8": "u8", "int16": "i16", "uint16": "u16", "int32": "i32",
                "uint32": "u32", "int64": "i64", "uint64": "u64", "bool": "bool",
                "float8_e4m3fn": "f8e4m3fn", "float8_e5m2": "f8e5m2",
                "float8_e8m0fnu": "f8e8m0fnu", "float4_e2m1fn_x2": "f4e2m1fn_x2"}
# DLPack's (type code, bits).
_DLPACK = {(0, 8): "i8", (0, 16): "i16", (0, 32): "i32", (0, 64): "i64", (1, 8): "u8",
           (1, 16): "u16", (1, 32): "u32", (1, 64): "u64", (2, 16): "f16", (2, 32): "f32",
           (2, 64): "f64", (4, 16): "bf16", (6, 8): "bool", (10, 8): "f8e4m3fn",
           (12, 8): "f8e5m2", (14, 8): "f8e8m0fnu"}
_ITEMSIZE = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i8": 1, "u8": 1, "i16": 2, "u16": 2,
             "i32": 4, "u32": 4, "i64": 8, "u64": 8, "bool": 1, "f8e4m3fn": 1, "f8e5m2": 1,
             "f8e8m0fnu": 1, "f4e2m1fn_x2": 1}
# What the framework calls each, for messages.
FRAMEWORK_NAMES = {"f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64",
                   "i8": "int8", "u8": "uint8", "i16": "int16", "u16": "uint16",
                   "i32": "int32", "u32": "uint32", "i64": "int64", "u64": "uint64",
                   "bool": "bool", "f8e4m3fn": "float8_e4m3fn", "f8e5m2": "float8_e5m2",
                   "f8e8m0fnu": "float8_e8m0fnu", "f4e2m1fn_x2": "float4_e2m1fn_x2"}


class TensorView:
    """A tensor as the launcher sees it: its first element's address, its
    shape and strides in items, its storage dtype, and where it lives
    (``("cuda", ordinal)`` or ``("cpu", 0)``)."""

    __slots__ = ("obj", "ptr", "shape", "strides", "dtype", "itemsize", "device", "keepalive")

    def __init__(self, obj, ptr, shape, strides, dtype, itemsize, device, keepalive=None):
        self.obj, self.ptr, self.shape, self.strides = obj, ptr, shape, strides
        self.dtype, self.itemsize, self.device, self.keepalive = dtype, itemsize, device, keepalive

    @property
    def is_torch(self):
        return type(self.obj).__module__.startswith("torch")

    def is_contiguous(self):
        expected = 1
        for extent, stride in zip(reversed(self.shape), reversed(self.strides)):
            if extent != 1 and stride != expected:
                return False
            expected *= extent
        return True

    def span(self):
        """Items from the first element to one past the last it reaches."""
        if any(extent == 0 for extent in self.shape):
            return 0
        return 1 + sum((extent - 1) * stride for extent, stride in zip(self.shape, self.strides))


def _contiguous_strides(shape):
    """The strides, in items, of a C-ordered tensor of `shape`."""
    strides, step = [], 1
    for extent in reversed(shape):
        strides.insert(0, step)
        step *= extent
    return tuple(strides)


def view(obj, name):
    """The TensorView of ``obj``; TypeError naming ``name`` when it is not a
    tensor cutec can read."""
    module = type(obj).__module__
    if module.startswith("torch") and hasattr(obj, "data_ptr"):
        return _torch(obj, name)
    if module.startswith("numpy") and hasattr(obj, "__array_interface__"):
        return _numpy(obj, name)
    if hasattr(obj, "__cuda_array_interface__"):
        return _cuda_array_interface(obj, name)
    if hasattr(obj, "__dlpack__"):
        return _dlpack(obj, name)
    raise TypeError(f"{name}: expected a tensor (a PyTorch tensor, a NumPy array, or an object "
                    f"with __dlpack__ or __cuda_array_interface__), got {type(obj).__name__}")


def _torch(t, name):
    dtype = _TORCH_NAMES.get(str(t.dtype).removeprefix("torch."))
    if dtype is None:
        raise TypeError(f"{name}: cutec cannot pass a tensor of {t.dtype}")
    device = t.device
    return TensorView(t, t.data_ptr(), tuple(t.shape), tuple(t.stride()), dtype,
                      t.element_size(), (device.type, device.index or 0))


def _numpy(a, name):
    dtype = _NUMPY.get(a.dtype.str) or _NUMPY_NAMES.get(a.dtype.name)
    if dtype is None:
        raise TypeError(f"{name}: cutec cannot pass an array of dtype {a.dtype}")
    if any(s % a.itemsize for s in a.strides):
        raise ValueError(f"{name}: its strides {a.strides} are not whole elements")
    return TensorView(a, a.__array_interface__["data"][0], tuple(a.shape),
                      tuple(s // a.itemsize for s in a.strides), dtype, a.itemsize, ("cpu", 0))


def _cuda_array_interface(obj, name):
    from . import _native
    cai = obj.__cuda_array_interface__
    dtype = _NUMPY.get(cai["typestr"])
    if dtype is None:
        raise TypeError(f"{name}: cutec cannot pass data of type {cai['typestr']}")
    itemsize = _ITEMSIZE[dtype]
    shape = tuple(cai["shape"])
    if cai.get("strides") is None:
        strides = _contiguous_strides(shape)
    else:
        strides = tuple(s // itemsize for s in cai["strides"])
    ptr = cai["data"][0]
    device = _native.pointer_device(ptr) if ptr else 0
    return TensorView(obj, ptr, shape, strides, dtype, itemsize,
                      ("cuda", device) if device >= 0 else ("cpu", 0))


_DL_CPU, _DL_CUDA = 1, 2


@functools.cache
def _dltensor_type():
    """DLPack's DLTensor as a ctypes structure (made on first use: ctypes
    is slow to import)."""
    import ctypes

    class DLDevice(ctypes.Structure):
        _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]

    class DLDataType(ctypes.Structure):
        _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                    ("lanes", ctypes.c_uint16)]

    class DLTensor(ctypes.Structure):
        _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                    ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                    ("strides", ctypes.POINTER(ctypes.c_int64)),
                    ("byte_offset", ctypes.c_uint64)]
    return DLTensor


def _dlpack(obj, name):
    import ctypes
    # The capsule is read, not consumed: it stays named "dltensor" and its
    # destructor frees the tensor when the view is dropped.
    capsule = obj.__dlpack__()
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    tensor = _dltensor_type().from_address(get(capsule, b"dltensor"))
    key = (tensor.dtype.code, tensor.dtype.bits)
    dtype = _DLPACK.get(key) if tensor.dtype.lanes == 1 else None
    if dtype is None:
        raise TypeError(f"{name}: cutec cannot pass DLPack data of type code {key[0]} with "
                        f"{key[1]} bits")
    shape = tuple(tensor.shape[i] for i in range(tensor.ndim))
    if tensor.strides:
        strides = tuple(tensor.strides[i] for i in range(tensor.ndim))
    else:
        strides = _contiguous_strides(shape)
    kind = {_DL_CPU: "cpu", _DL_CUDA: "cuda"}.get(tensor.device.device_type)
    if kind is None:
        raise TypeError(f"{name}: DLPack device type {tensor.device.device_type} is neither the "
                        f"CPU nor a CUDA GPU")
    return TensorView(obj, (tensor.data or 0) + tensor.byte_offset, shape, strides, dtype,
                      _ITEMSIZE[dtype], (kind, tensor.device.device_id), keepalive=capsule)
