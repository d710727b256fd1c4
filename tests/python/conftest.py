"""Shared fixtures of the Python package's tests: a private compile cache for
each test, and the paths of the examples and of the cutec program."""

import os

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EXAMPLES = os.path.join(ROOT, "examples")


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("CUTEC_CACHE_DIR", str(folder))
    return folder


def example(name):
    return os.path.join(EXAMPLES, name)
