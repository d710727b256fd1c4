"""What a kernel takes: its parameters, their types and layouts, its sizes."""

from . import _expr


class Parameter:
    """One parameter of a kernel, in the order of its PTX ``.param`` list.

    ``kind`` is ``"tensor"`` (a global-memory tensor: ``dtype``, ``layout``,
    and its top-level ``modes`` as (extent, stride) expressions, None for a
    nested mode), ``"scalar"`` (an ``i32``, ``u32`` or ``f32`` value),
    ``"size"`` (a dynamic size of the layouts, inferred from the tensors or
    given by keyword) or ``"tensormap"`` (a TMA descriptor cutec encodes
    from ``source``'s tensor at launch; never passed by the caller).
    """

    __slots__ = ("name", "kind", "dtype", "layout", "modes", "cosize", "bits", "source", "map")

    def __init__(self, name, kind, dtype="", layout="", modes=None, cosize=None, bits=0,
                 source="", map=None):
        self.name, self.kind, self.dtype, self.layout = name, kind, dtype, layout
        self.modes, self.cosize, self.bits, self.source, self.map = modes, cosize, bits, source, map

    def __repr__(self):
        return f"Parameter({self})"

    def __str__(self):
        if self.kind == "tensor":
            return f"{self.name}: Tensor[{self.dtype}, {self.layout}]"
        if self.kind == "tensormap":
            return f"{self.name}: {self.map['text']} of {self.source}"
        return f"{self.name}: {self.dtype} ({self.kind})"


class Signature:
    """A kernel's parameters (``params``), the ones a caller passes
    (``arguments``: tensors and scalars, in order), its dynamic sizes
    (``sizes``), the launch shape (``grid``, ``block``, ``cluster`` as
    expressions over the sizes; ``shared_bytes``), and the facts each launch
    must keep (``assumptions``: ``(size, divisor)``)."""

    def __init__(self, description):
        self.name = description["name"]
        self.params = tuple(_parameter(p) for p in description["params"])
        self.arguments = tuple(p for p in self.params if p.kind in ("tensor", "scalar"))
        self.tensors = tuple(p for p in self.params if p.kind == "tensor")
        self.scalars = tuple(p for p in self.params if p.kind == "scalar")
        self.sizes = tuple(description["sizes"])
        self.grid = tuple(description["grid"])
        self.block = tuple(description["block"])
        self.cluster = tuple(description["cluster"]) if description["cluster"] else None
        self.shared_bytes = description["shared_bytes"]
        self.assumptions = tuple((c["param"], c["divisor"]) for c in description["checks"]
                                 if not c["is_address"])
        # Each tensor's base alignment (16 bytes, or its aligned(T, N)
        # assumption's); the native launch path checks the largest for all,
        # and leaves a call it refuses to the per-tensor check of _binding.
        self.alignments = {c["param"]: c["divisor"] for c in description["checks"]
                           if c["is_address"]}
        self.address_alignment = max(self.alignments.values(), default=1)

    def __repr__(self):
        lines = [f"kernel {self.name}("]
        lines += [f"    {p}," for p in self.params]
        grid = ", ".join(_expr.to_text(g) for g in self.grid)
        lines.append(f") grid ({grid}), block {self.block}"
                     + (f", cluster {self.cluster}" if self.cluster else "")
                     + f", {self.shared_bytes} bytes of dynamic shared memory")
        if self.assumptions:
            lines.append("  assumes " + ", ".join(f"divby({s}, {d})" for s, d in self.assumptions))
        return "\n".join(lines)


def _parameter(p):
    if p["kind"] == "tensor":
        modes = tuple(tuple(m) if m else None for m in p["modes"])
        return Parameter(p["name"], "tensor", p["dtype"], p["layout"], modes, p["cosize"],
                         p["bits"])
    if p["kind"] == "tensormap":
        m = p["map"]
        return Parameter(p["name"], "tensormap", m["dtype"], bits=m["bits"], source=m["source"],
                         map=m)
    return Parameter(p["name"], p["kind"], p["dtype"])
