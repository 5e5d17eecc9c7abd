"""Regressions (issue 9): DynamicSlice / DynamicUpdateSlice start indices of every integer
type clamp like XLA and the spec (the pinned IREE read s8/s16 starts as unsigned and
ui64 starts as signed), and rank-0 forms compile (they crashed IREE).

Each test runs on llvm-cpu and on vulkan-spirv and compares with numpy and XLA CPU.
"""

from __future__ import annotations

import numpy as np
import pytest

import hlo_mlir
from hlo_mlir import DynamicSlice, DynamicUpdateSlice, Parameter, Reshape, Shape, Slice, Tuple, XlaBuilder
from tests import oracle
from tests.oracle import DRIVER, TARGETS

INDEX_TYPES = ["s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64"]


def _load(comp, target):
    return hlo_mlir.runtime.load(hlo_mlir.compile(comp, target), DRIVER[target])


def _start_values(index_type: str) -> np.ndarray:
    """Starts below, inside and beyond an f32[4, 5] operand, the type's extremes included."""
    dtype = Shape.parse(f"{index_type}[]").dtype
    info = np.iinfo(dtype)
    values = {info.min, info.min + 1, info.max - 1, info.max, 0, 1, 2, 3, 4, 5, 6}
    if info.min < 0:
        values |= {-1, -2, -5}
    return np.array(sorted(values), dtype=dtype)


def _clamped(start, dim: int, size: int) -> int:
    return min(max(int(start), 0), dim - size)


def test_issue_reproducer_s8_start_minus_one():
    """``DynamicSlice(x f32[4], [s s8], [2])`` at s = -1 is ``[1, 2]`` (IREE gave ``[3, 4]``)."""
    b = XlaBuilder("ds_s8")
    x = Parameter(b, 0, Shape.parse("f32[4]"), "x")
    s = Parameter(b, 1, Shape.parse("s8[]"), "s")
    comp = b.build(DynamicSlice(x, [s], [2]))
    x0 = np.arange(1, 5, dtype=np.float32)
    oracle.check(comp, [x0, np.int8(-1)], np.float32([1, 2]), rtol=0, atol=0)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("index_type", INDEX_TYPES)
def test_start_index_types_clamp_like_xla(index_type, target):
    """Every start value of ``_start_values`` in both dimensions of DynamicSlice and
    DynamicUpdateSlice: one parameter per start (read as IREE reads arguments) and the
    same values sliced out of a vector (computed starts)."""
    values = _start_values(index_type)
    b = XlaBuilder(f"dynamic_slice_{index_type}")
    x = Parameter(b, 0, Shape.parse("f32[4,5]"), "x")
    update = Parameter(b, 1, Shape.parse("f32[2,3]"), "update")
    i = Parameter(b, 2, Shape.parse(f"{index_type}[]"), "i")
    j = Parameter(b, 3, Shape.parse(f"{index_type}[]"), "j")
    starts = Parameter(b, 4, Shape.parse(f"{index_type}[{len(values)}]"), "starts")
    outs = [DynamicSlice(x, [i, j], [2, 3]), DynamicUpdateSlice(x, update, [i, j])]
    for k in range(len(values)):
        s = Reshape(Slice(starts, [k], [k + 1], [1]), [])
        outs += [DynamicSlice(x, [s, i], [2, 3]), DynamicUpdateSlice(x, update, [j, s])]
    comp = b.build(Tuple(b, outs))
    module = _load(comp, target)
    x0 = np.arange(20, dtype=np.float32).reshape(4, 5)
    u0 = -np.arange(1, 7, dtype=np.float32).reshape(2, 3)

    def expected(i0, j0):
        out = []
        for a, c in [(i0, j0)] + [(v, i0) for v in values]:
            r, s = _clamped(a, 4, 2), _clamped(c, 5, 3)
            out.append(x0[r:r + 2, s:s + 3])
        dus = []
        for a, c in [(i0, j0)] + [(j0, v) for v in values]:
            r, s = _clamped(a, 4, 2), _clamped(c, 5, 3)
            y = x0.copy()
            y[r:r + 2, s:s + 3] = u0
            dus.append(y)
        return tuple(v for pair in zip(out, dus, strict=True) for v in pair)

    for i0, j0 in [(values[0], values[-1]), (values[-1], values[0]), (values[1], values[2])]:
        args = [x0, u0, i0, j0, values]
        want = expected(i0, j0)
        oracle.assert_close(module.main(*args), want, 0, 0, f"hlo-mlir {target}, starts ({i0}, {j0})")
        oracle.assert_close(oracle.run_xla(comp, *args, strict=True), want, 0, 0, f"XLA, starts ({i0}, {j0})")


@pytest.mark.parametrize("target", TARGETS)
def test_rank0_dynamic_slice_and_update_compile(target):
    """A rank-0 DynamicSlice is its operand, a rank-0 DynamicUpdateSlice its update (both
    crashed the compiler)."""
    b = XlaBuilder("rank0")
    x = Parameter(b, 0, Shape.parse("f32[]"), "x")
    y = Parameter(b, 1, Shape.parse("f32[]"), "y")
    comp = b.build(Tuple(b, [DynamicSlice(x, [], []), DynamicUpdateSlice(x, y, []),
                             DynamicSlice(y, [], []) * x]))
    args = [np.float32(2.5), np.float32(-4.0)]
    want = (np.float32(2.5), np.float32(-4.0), np.float32(-10.0))
    # numpy only: the StableHLO printer writes a rank-0 dynamic_slice as "%x, , sizes = []",
    # which neither XLA's parser nor ours reads back.
    oracle.assert_close(_load(comp, target).main(*args), want, 0, 0, "hlo-mlir")


def test_issue_reproducer_rank0_dynamic_slice():
    """The issue's exact program: ``DynamicSlice(x, [], [])`` of an f32[] parameter."""
    b = XlaBuilder("m")
    x = Parameter(b, 0, Shape.parse("f32[]"), "x")
    comp = b.build(DynamicSlice(x, [], []))
    assert hlo_mlir.runtime.load(hlo_mlir.compile(comp)).main(np.float32(7.0)) == np.float32(7.0)

