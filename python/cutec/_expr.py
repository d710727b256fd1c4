"""Expressions over a kernel's dynamic sizes, as the compiler describes them.

An expression is an integer, a size's name, or a list: ``["add", c, x, ...]``
(c + x + ...), ``["mul", c, x, ...]`` (c * x * ...), and ``["div", a, b]``,
``["ceil_div", a, b]``, ``["mod", a, b]``, ``["min", a, b]``. Sizes are
positive, so division rounds towards zero as it does on the GPU.
"""

INT64_MAX = (1 << 63) - 1


class ExpressionError(ValueError):
    pass


def evaluate(expr, sizes):
    """The value of ``expr`` with ``sizes`` (a name -> int mapping)."""
    if isinstance(expr, int):
        return expr
    if isinstance(expr, str):
        if expr not in sizes:
            raise ExpressionError(f"the size '{expr}' is not bound")
        return sizes[expr]
    op, *operands = expr
    if op in ("add", "mul"):
        value = operands[0]
        for operand in operands[1:]:
            v = evaluate(operand, sizes)
            value = value + v if op == "add" else value * v
    else:
        a, b = (evaluate(operand, sizes) for operand in operands)
        if op == "min":
            value = min(a, b)
        elif b == 0:
            raise ExpressionError(f"'{to_text(expr)}' divides by zero")
        elif op == "div":
            value = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
        elif op == "ceil_div":
            value = -(-a // b)
        elif op == "mod":
            value = a - b * (abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1))
        else:
            raise ExpressionError(f"unknown operation '{op}'")
    if abs(value) > INT64_MAX:
        raise ExpressionError(f"'{to_text(expr)}' overflows 64-bit integers")
    return value


def to_text(expr):
    """The expression as cutec's sources write it: ``ceil_div(M, 128)``."""
    if isinstance(expr, (int, str)):
        return str(expr)
    op, *operands = expr
    if op in ("add", "mul"):
        constant, terms = operands[0], [to_text(t) for t in operands[1:]]
        if op == "add":
            if constant:
                terms.append(str(constant))
            return "(" + " + ".join(terms) + ")" if len(terms) > 1 else terms[0]
        if constant != 1:
            terms.insert(0, str(constant))
        return "*".join(terms)
    a, b = (to_text(operand) for operand in operands)
    if op == "div":
        return f"{a}/{b}"
    if op == "mod":
        return f"{a}%{b}"
    return f"{op}({a}, {b})"
