"""Kernel.emulate: the emulation on NumPy arrays, its options and reports."""

import os

import numpy as np
import pytest

import cutec
from conftest import example


def test_outputs_land_in_the_arrays():
    k = cutec.compile(example("vector_add.cute"))
    a = np.arange(1001, dtype=np.float32)
    b = np.full(1001, 0.5, np.float32)
    c = np.zeros(1001, np.float32)
    k.emulate(a, b, c)
    np.testing.assert_array_equal(c, a + b)


def test_scalars_positional_or_by_keyword():
    k = cutec.compile(example("rmsnorm.cute"))
    x = np.random.default_rng(1).standard_normal((4, 256)).astype(np.float32)
    w = np.ones(256, np.float32)
    by_position, by_keyword = np.zeros_like(x), np.zeros_like(x)
    k.emulate(x, w, by_position, 1e-6)
    k.emulate(x, w, by_keyword, eps=1e-6)
    np.testing.assert_array_equal(by_position, by_keyword)
    want = x / np.sqrt((x.astype(np.float64) ** 2).mean(axis=1, keepdims=True) + 1e-6)
    np.testing.assert_allclose(by_position, want, rtol=1e-5)


def test_views_are_written_in_place():
    k = cutec.compile(example("transpose.cute"))
    x = np.arange(64 * 96, dtype=np.float32).reshape(64, 96)
    out = np.zeros((2, 96, 64), np.float32)
    k.emulate(x, out[1])
    np.testing.assert_array_equal(out[1], x.T)
    assert not out[0].any()


def test_schedules_and_race_check_on_a_correct_kernel():
    k = cutec.compile(example("transpose.cute"))
    x = np.arange(64 * 96, dtype=np.float32).reshape(64, 96)
    y = np.zeros((96, 64), np.float32)
    k.emulate(x, y, schedules=3, seed=5, race_check=True, workers=2)
    np.testing.assert_array_equal(y, x.T)


def test_a_race_is_an_emulation_error():
    source = "".join(line for line in open(example("transpose.cute"))
                     if "sync_threads()" not in line)
    k = cutec.compile(source)
    x = np.arange(64 * 96, dtype=np.float32).reshape(64, 96)
    with pytest.raises(cutec.EmulationError, match="data race") as error:
        k.emulate(x, np.zeros((96, 64), np.float32), race_check=True)
    assert "kernel 'transpose'" in error.value.report


def test_sizes_by_keyword_for_memory_images():
    k = cutec.compile(example("warp_specialized.cute"))
    x = np.random.default_rng(2).standard_normal(256 * 8 * 2).astype(np.float32)
    y = np.zeros(256 * 2, np.float32)
    k.emulate(x, y, K=8, L=2)
    weights = np.arange(1, 9, dtype=np.float32).reshape(1, 8, 1)
    want = (x.reshape(2, 8, 256) * weights).sum(axis=1).reshape(-1)
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-5)


def test_a_table_of_addresses_is_given_as_its_arrays():
    k = cutec.compile(os.path.join(os.path.dirname(__file__), "..", "lit", "run", "Inputs",
                                   "grouped_gemv.cute"))
    rng = np.random.default_rng(3)
    sizes = [(5, 7), (130, 3)]
    groups = [[rng.integers(-4, 4, (m, n)).astype(np.float32),
               rng.integers(-4, 4, n).astype(np.float32), np.zeros(m, np.float32)]
              for m, n in sizes]
    k.emulate(groups, np.array(sizes, np.int32))
    for a, x, y in groups:
        np.testing.assert_array_equal(y, a @ x)
    with pytest.raises(cutec.EmulationError, match="past the end of buffer 'ptrs\\[3\\]'"):
        k.emulate(groups, np.array([(5, 7), (131, 3)], np.int32))
    with pytest.raises(ValueError, match="rows have one length"):
        k.emulate([groups[0], groups[1][:2]], np.array(sizes, np.int32))
