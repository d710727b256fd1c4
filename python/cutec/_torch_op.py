"""Kernel.as_torch_op: a cutec kernel as a PyTorch custom operator.

The op takes the kernel's tensors and scalars in order and returns nothing;
the tensors named in ``mutates_args`` are the ones it writes. Its fake
(meta) implementation does nothing, which is right for an op that only
writes into its arguments, so torch.compile traces through it without
running it, and CUDA graphs capture its launch on the current stream.
"""


def register(kernel, name, mutates_args):
    import torch

    sig = kernel.signature
    unknown = [m for m in mutates_args if m not in {p.name for p in sig.tensors}]
    if unknown:
        raise ValueError(f"mutates_args: {', '.join(unknown)} are not tensor parameters of "
                         f"kernel {sig.name} (its tensors: "
                         f"{', '.join(p.name for p in sig.tensors)})")
    annotations = {"tensor": "Tensor", "f32": "float", "i32": "int", "u32": "int"}
    parameters = ", ".join(
        f"{p.name}: {annotations['tensor' if p.kind == 'tensor' else p.dtype]}"
        for p in sig.arguments)
    names = [p.name for p in sig.arguments]
    namespace = {"kernel": kernel, "Tensor": torch.Tensor}
    # A function with the kernel's parameter names and annotations: the
    # schema torch.library infers from it names them.
    exec(f"def run({parameters}) -> None:\n    kernel({', '.join(names)})\n"
         f"def fake({parameters}) -> None:\n    return None\n", namespace)
    op = torch.library.custom_op(name, mutates_args=tuple(mutates_args))(namespace["run"])
    op.register_fake(namespace["fake"])
    return op
