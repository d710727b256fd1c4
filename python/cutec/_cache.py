"""The compile cache the ``cutec`` command keeps, read without running it.

``cutec`` keeps each PTX, cubin and JSON output in
``$CUTEC_CACHE_DIR/compile-output/KEY`` (default ``~/.cache/cutec``), KEY being
the SHA-256 of everything that determines the output (see
tools/cutec/OutputCache.h). Computing the same key here lets a second
``cutec.compile`` of a kernel, in any process, read one file instead of
starting the compiler. An entry is the diagnostics' length in decimal, a
newline, the diagnostics and the output.
"""

import hashlib
import os

KIND = "compile-output"


def directory():
    """The cache folder, or None when caching is off (CUTEC_CACHE_DIR='')."""
    if "CUTEC_CACHE_DIR" in os.environ:
        return os.environ["CUTEC_CACHE_DIR"] or None
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return os.path.join(xdg, "cutec")
    home = os.path.expanduser("~")
    return os.path.join(home, ".cache", "cutec") if home != "~" else None


def identity(executable, version):
    """What identifies a build of cutec, as the command computes it."""
    path = os.path.realpath(executable)
    try:
        st = os.stat(path)
    except OSError:
        return f"cutec {version}|{path}"
    return f"cutec {version}|{path}|{st.st_size}|{st.st_mtime_ns}"


def key(identity_text, emit, arch, fmad, lineinfo, disable_pass, file_name, source,
        nvjitlink_options=()):
    # With line information the PTX names the file by its absolute path.
    line_info_path = ""
    if lineinfo and file_name != "<stdin>":
        line_info_path = file_name if os.path.isabs(file_name) else os.path.join(
            os.getcwd(), file_name)
    parts = [KIND, identity_text, emit, arch, "fmad=1" if fmad else "fmad=0",
             "lineinfo=1" if lineinfo else "lineinfo=0",
             "disable-pass=" + ",".join(disable_pass),
             "nvjitlink=" + "\x1f".join(nvjitlink_options), file_name, line_info_path, source]
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        digest.update(str(len(data)).encode() + b":" + data)
    return digest.hexdigest()


def read(key_hex):
    """(diagnostics, output bytes) of an entry, or None."""
    folder = directory()
    if not folder:
        return None
    try:
        with open(os.path.join(folder, KIND, key_hex), "rb") as f:
            entry = f.read()
    except OSError:
        return None
    length, newline, rest = entry.partition(b"\n")
    if not newline or not length.isdigit() or int(length) > len(rest):
        return None
    size = int(length)
    return rest[:size].decode(), rest[size:]
