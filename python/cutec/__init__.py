"""cutec from Python: compile a kernel, launch it on PyTorch (or any DLPack /
CUDA array interface) tensors, emulate it on NumPy arrays, register it as a
PyTorch op. docs/python.md describes the API.

    import cutec
    k = cutec.compile("examples/hopper_gemm.cute", arch="sm_90a")
    k(a, b, c)              # on the GPU, on PyTorch's current stream
    k.emulate(a, b, c)      # on the CPU, NumPy arrays
"""

from ._errors import CompileError, EmulationError
from ._kernel import CompileWarning, Kernel, compile, current_arch
from ._signature import Parameter, Signature
from ._tools import version as _version

__version__ = _version()

__all__ = ["compile", "Kernel", "Signature", "Parameter", "CompileError", "CompileWarning",
           "EmulationError", "current_arch"]
