"""Regressions (issue 9): stable sorts of 5, 9 or 10 elements crashed the compiler for
vulkan-spirv (SIGSEGV in IREE's GPUDistributeSharedMemoryCopy: the tie-break position
operand of ``stable-sort-expander`` had its result dropped), and so did any multi-operand
sort whose comparator reads an operand whose result is unused; and two sorts of one
iota with live results gave wrong positions (IREE sorted the shared iota in place).
``sort-barriers`` fixes both. Each sort is checked for stability against numpy's stable
argsort on keys with ties, and against XLA CPU.
"""

from __future__ import annotations

import numpy as np
import pytest

from hlo_mlir import (
    CreateScalarComparisonComputation,
    CreateScalarGtComputation,
    CreateScalarLtComputation,
    Floor,
    GetTupleElement,
    Iota,
    Lt,
    Parameter,
    PrimitiveType,
    Shape,
    Sort,
    Tuple,
    XlaBuilder,
)
from tests import oracle
from tests.oracle import TARGETS


def _floor_lt():
    """``floor(a) < floor(b)``: 1.25 and 1.75 tie, so stability shows in the values."""
    cb = XlaBuilder("floor_lt")
    a = Parameter(cb, 0, Shape.parse("f32[]"))
    b = Parameter(cb, 1, Shape.parse("f32[]"))
    return cb.build(Lt(Floor(a), Floor(b)))


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("n", [5, 9, 10])
def test_issue_reproducer_stable_sort_compiles(n, target):
    """The issue's program: a stable ascending Sort of n f32 values."""
    x0 = np.array([3, -1, 2, 2, 0.5, -7, 4, 1, 0, 9][:n], np.float32)
    b = XlaBuilder(f"stable_sort_{n}")
    x = Parameter(b, 0, Shape.parse(f"f32[{n}]"), "x")
    comp = b.build(Sort([x], CreateScalarLtComputation([np.float32]), 0, True))
    oracle.assert_close(oracle.run_iree(comp, x0, target=target), np.sort(x0), 0, 0, f"hlo-mlir on {target}")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("shape, dimension", [((5,), 0), ((9,), 0), ((10,), 0), ((3, 5), 1), ((8, 5), 0),
                                              ((2, 7), 1)])
def test_stable_sort_keeps_ties_in_order(shape, dimension, target):
    """Keys with many ties: a single operand under ``floor(a) < floor(b)`` (the tied values
    differ), and keys carrying an s32 payload under the keys' order."""
    rng = np.random.default_rng(len(shape) * 100 + shape[dimension])
    keys = (rng.integers(0, 3, size=shape) + rng.choice([0.0, 0.25, 0.5], size=shape)).astype(np.float32)
    payload = np.arange(keys.size, dtype=np.int32).reshape(shape)
    b = XlaBuilder("stable_ties")
    k = Parameter(b, 0, Shape.from_numpy(keys), "keys")
    p = Parameter(b, 1, Shape.from_numpy(payload), "payload")
    by_floor = Sort([k], _floor_lt(), dimension, True)
    pair = Sort([k, p], CreateScalarLtComputation([np.float32, np.int32]), dimension, True)
    comp = b.build(Tuple(b, [by_floor, GetTupleElement(pair, 0), GetTupleElement(pair, 1)]))
    floor_order = np.argsort(np.floor(keys), axis=dimension, kind="stable")
    key_order = np.argsort(keys, axis=dimension, kind="stable")
    expected = (np.take_along_axis(keys, floor_order, dimension),
                np.take_along_axis(keys, key_order, dimension),
                np.take_along_axis(payload, key_order, dimension))
    got = oracle.run_iree(comp, keys, payload, target=target)
    oracle.assert_close(got, expected, 0, 0, f"hlo-mlir on {target}")
    oracle.assert_close(oracle.run_xla(comp, keys, payload, strict=True), expected, 0, 0, "XLA")


@pytest.mark.parametrize("target", TARGETS)
def test_sort_with_unused_result_read_by_comparator(target):
    """An unstable two-key sort (both operands compared) of which only the first result
    is used: the second operand's dead result crashed IREE's SPIR-V path."""
    x0 = np.array([2, 1, 2, 0, 1, 2, 0], np.float32)
    y0 = np.array([5, 3, 1, 4, 0, 6, 2], np.int32)
    b = XlaBuilder("two_keys_first_result")
    x = Parameter(b, 0, Shape.from_numpy(x0), "x")
    y = Parameter(b, 1, Shape.from_numpy(y0), "y")
    lexicographic = CreateScalarComparisonComputation("lex_lt", [np.float32, np.int32], [Lt, Lt])
    comp = b.build(GetTupleElement(Sort([x, y], lexicographic, 0, False), 0) * 2.0)
    expected = x0[np.lexsort((y0, x0))] * 2
    oracle.assert_close(oracle.run_iree(comp, x0, y0, target=target), expected, 0, 0, f"hlo-mlir on {target}")
    oracle.assert_close(oracle.run_xla(comp, x0, y0, strict=True), expected, 0, 0, "XLA")


@pytest.mark.parametrize("target", TARGETS)
def test_two_sorts_of_one_iota(target):
    """Argsort ascending and descending with one shared iota, every result returned (the
    second sort read the iota the first had sorted in place), and two stable sorts of one
    shape in one program (their position iotas are merged by IREE)."""
    keys = np.array([5, 3, 7, 1, 0, 6, 2, 4, 3, 5], np.int32)
    s32 = PrimitiveType.S32
    b = XlaBuilder("shared_iota")
    k = Parameter(b, 0, Shape.from_numpy(keys), "keys")
    iota = Iota(b, Shape.from_numpy(keys), 0)
    up = Sort([k, iota], CreateScalarLtComputation([s32, s32], b), 0, True)
    down = Sort([k, iota], CreateScalarGtComputation([s32, s32], b), 0, True)
    stable_up = Sort([k], CreateScalarLtComputation([s32], b), 0, True)
    outs = [GetTupleElement(up, 0), GetTupleElement(up, 1), GetTupleElement(down, 0),
            GetTupleElement(down, 1), stable_up]
    comp = b.build(Tuple(b, outs))
    ascending, descending = np.argsort(keys, kind="stable"), np.argsort(-keys, kind="stable")
    expected = (keys[ascending], ascending.astype(np.int32), keys[descending], descending.astype(np.int32),
                np.sort(keys))
    oracle.assert_close(oracle.run_iree(comp, keys, target=target), expected, 0, 0, f"hlo-mlir on {target}")
    oracle.assert_close(oracle.run_xla(comp, keys, strict=True), expected, 0, 0, "XLA")
