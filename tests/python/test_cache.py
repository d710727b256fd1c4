"""The compile cache the package shares with the cutec command."""

import os
import subprocess

import pytest

import cutec
from cutec import _cache, _tools
from conftest import example


def entry(cache_folder, key):
    return os.path.join(cache_folder, "compile-output", key)


def test_the_package_and_the_command_compute_the_same_key(private_cache):
    source_path = example("vector_add.cute")
    source = open(source_path).read()
    identity = _cache.identity(_tools.cutec_executable(), _tools.version())
    subprocess.run([_tools.cutec_executable(), source_path, "--arch=sm_90a", "--lineinfo",
                    "--disable-pass=licm", "-o", os.devnull], check=True)
    key = _cache.key(identity, "ptx", "sm_90a", True, True, ("licm",), source_path, source)
    assert os.path.exists(entry(private_cache, key))
    cutec.compile(source_path, arch="sm_90a")
    key = _cache.key(identity, "json", "sm_90a", True, False, (), source_path, source)
    assert os.path.exists(entry(private_cache, key))


def test_a_second_compile_runs_no_compiler(monkeypatch):
    first = cutec.compile(example("vector_add.cute"))

    def no_process(*args, **kwargs):
        raise AssertionError("the compiler ran")
    monkeypatch.setattr(_tools, "run", no_process)
    again = cutec.compile(example("vector_add.cute"))
    assert again.ptx == first.ptx and repr(again.signature) == repr(first.signature)
    with pytest.raises(AssertionError, match="the compiler ran"):
        cutec.compile(example("vector_add.cute"), cache=False)
    with pytest.raises(AssertionError, match="the compiler ran"):
        cutec.compile(example("vector_add.cute"), fmad=False)


def test_an_empty_cache_dir_turns_the_cache_off(monkeypatch, private_cache):
    monkeypatch.setenv("CUTEC_CACHE_DIR", "")
    cutec.compile(example("vector_add.cute"))
    assert not os.path.exists(private_cache)


def test_a_damaged_entry_is_a_miss(private_cache):
    cutec.compile(example("vector_add.cute"))
    folder = os.path.join(private_cache, "compile-output")
    for name in os.listdir(folder):
        with open(os.path.join(folder, name), "wb") as f:
            f.write(b"99999\ntruncated")
    assert ".entry vector_add(" in cutec.compile(example("vector_add.cute")).ptx


WARNING_SOURCE = os.path.join(os.path.dirname(__file__), "..", "lit", "sema",
                              "planted-bugs-wait-constant-parity.cute")


def test_the_command_replays_cached_diagnostics():
    # A warning is kept with the output and printed again on a hit.
    runs = [subprocess.run([_tools.cutec_executable(), WARNING_SOURCE, "-o", os.devnull],
                           capture_output=True, text=True) for _ in range(2)]
    assert runs[0].returncode == runs[1].returncode == 0
    assert "warning: this wait on mbarrier element 0 uses phase parity 0" in runs[0].stderr
    assert runs[0].stderr == runs[1].stderr


def test_warnings_reach_python_on_a_hit_too():
    for _ in range(2):
        with pytest.warns(cutec.CompileWarning, match="uses phase parity 0"):
            cutec.compile(WARNING_SOURCE)
