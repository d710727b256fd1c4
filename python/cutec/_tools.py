"""Where the ``cutec`` and ``cutec-run`` programs are, and running them."""

import os

try:
    from . import _build
except ImportError:  # a copy of the package outside a build
    _build = None


def _program(variable, built):
    path = os.environ.get(variable) or (getattr(_build, built) if _build else None)
    if not path or not os.path.exists(path):
        raise FileNotFoundError(
            f"cutec: cannot find the program {path or built!r}: build cutec "
            f"(cmake --build build) or set {variable} to its path")
    return path


def cutec_executable():
    return _program("CUTEC_EXECUTABLE", "CUTEC")


def cutec_run_executable():
    return _program("CUTEC_RUN_EXECUTABLE", "CUTEC_RUN")


def version():
    return _build.VERSION if _build else "unknown"


def run(arguments, stdin=None):
    """Runs a program; returns (exit code, stdout bytes, stderr text)."""
    import subprocess
    done = subprocess.run(arguments, input=stdin, capture_output=True)
    return done.returncode, done.stdout, done.stderr.decode(errors="replace")
