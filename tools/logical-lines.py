#!/usr/bin/env python3
"""The logical lines of a Python-syntax file (a CuTe DSL example or a
kernel of cutec's language), as examples/ports/README.md counts them:
Python's statements, however many physical lines each takes, without
docstrings, comments and blank lines; only those starting between physical
lines FIRST and LAST (1-based, inclusive) when given.

    tools/logical-lines.py FILE [FIRST LAST]
"""
import ast
import io
import sys
import tokenize


def docstring_lines(tree):
    lines = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(body, list) and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            lines.update(range(body[0].lineno, body[0].end_lineno + 1))
    return lines


def main(argv):
    source = open(argv[0]).read()
    first, last = (int(argv[1]), int(argv[2])) if len(argv) == 3 else (1, float("inf"))
    docstrings = docstring_lines(ast.parse(source))
    print(sum(1 for token in tokenize.generate_tokens(io.StringIO(source).readline)
              if token.type == tokenize.NEWLINE and first <= token.start[0] <= last
              and token.start[0] not in docstrings))


if __name__ == "__main__":
    main(sys.argv[1:])
