"""Regressions (issue 9, fuzzer seed 20261127): scatter forms the pinned IREE failed to
compile, routed around by ``scatter-unsigned-scalar-updates`` and ``scatter-bounds``
(docs/iree-defects.md).

Each test compares hlo-mlir with numpy and with XLA CPU (strict: no algebraic simplifier).
"""

from __future__ import annotations

import numpy as np
import pytest

from hlo_mlir import (
    Add,
    Broadcast,
    Constant,
    ConstantR0,
    Max,
    Pad,
    Parameter,
    Reshape,
    Scatter,
    ScatterDimensionNumbers,
    Shape,
    Slice,
    XlaBuilder,
)
from tests import oracle
from tests.builders import computation


def _combiner(type_name: str, combine):
    return computation("combine", [f"{type_name}[]"] * 2, lambda b, x, y: combine(x, y))


def _replace(x, y):
    return y


def _strict_check(comp, args, expected, **compile_kwargs):
    ours = oracle.run_iree(comp, *args, **compile_kwargs)
    oracle.assert_close(ours, expected, 0.0, 0.0, "hlo-mlir vs numpy")
    oracle.assert_close(oracle.run_xla(comp, *args, strict=True), expected, 0.0, 0.0, "XLA vs numpy")


def _row_scatter_reference(operand, indices, updates, combine):
    """Scatter of single elements along dimension 0: ``indices`` [..., 1] (index_vector_dim
    last), ``updates`` of the scatter shape and then the window; out-of-bounds rows skipped."""
    result = operand.copy()
    rows = indices.reshape(-1)
    window = updates.reshape(len(rows), *operand.shape[1:])
    for row, update in zip(rows, window, strict=True):
        if 0 <= row < operand.shape[0]:
            result[row] = combine(result[row], update)
    return result


@pytest.mark.parametrize("combiner", ["add", "replace"])
@pytest.mark.parametrize("type_name", ["u8", "u16", "u32"])
@pytest.mark.parametrize("broadcast", [False, True], ids=["constant", "broadcast"])
def test_unsigned_splat_update_with_two_scatter_dims(combiner, type_name, broadcast):
    """``Scatter(x u8[2], idx s16[1,2,1], constant 8 u8[1,2])`` with ``index_vector_dim = 2``
    compiles (fuzz seed 20261127 program 5710: IREE collapsed the two scatter dimensions of
    the splat update and folded it to an unsigned ``arith.constant``: "integer return type
    must be signless"). The broadcast of a constant scalar failed the same way at O0."""
    b = XlaBuilder("unsigned_splat_update")
    x = Parameter(b, 0, Shape.parse(f"{type_name}[2]"), "x")
    idx = Parameter(b, 1, Shape.parse("s16[1,2,1]"), "idx")
    dtype = Shape.parse(f"{type_name}[]").dtype
    if broadcast:
        update = Broadcast(ConstantR0(b, 8, dtype), [1, 2])
    else:
        update = Constant(b, np.full((1, 2), 8, dtype))
    fn = Add if combiner == "add" else _replace
    comp = b.build(Scatter(x, idx, update, _combiner(type_name, fn),
                           ScatterDimensionNumbers((), (0,), (0,), 2)))
    x0 = np.array([250, 13], dtype)
    def combine(cur, upd):  # u8/u16/u32 addition wraps around
        return dtype.type((int(cur) + int(upd)) % 2 ** (8 * dtype.itemsize)) if combiner == "add" else upd
    for rows in ([0, 1], [1, 1], [-1, 2], [0, 300]):  # -1, 2, 300: out of bounds, skipped
        indices = np.array(rows, np.int16).reshape(1, 2, 1)
        expected = _row_scatter_reference(x0, indices, np.full((1, 2), 8, dtype), combine)
        _strict_check(comp, [x0, indices], expected, passes="O0" if broadcast else "O2")


def test_unsigned_splat_update_with_window():
    """A splat ``u8[2,2,3]`` update with two scatter dimensions and a window dimension
    compiles (the same fold as above)."""
    b = XlaBuilder("unsigned_splat_window")
    x = Parameter(b, 0, Shape.parse("u8[4,3]"), "x")
    idx = Parameter(b, 1, Shape.parse("s32[2,2,1]"), "idx")
    update = Constant(b, np.full((2, 2, 3), 8, np.uint8))
    comp = b.build(Scatter(x, idx, update, _combiner("u8", Add),
                           ScatterDimensionNumbers((2,), (0,), (0,), 2)))
    x0 = np.arange(250, 262, dtype=np.uint8).reshape(4, 3)  # wraps past 255
    indices = np.array([0, 3, 3, 9], np.int32).reshape(2, 2, 1)
    expected = _row_scatter_reference(x0, indices, np.full((2, 2, 3), 8, np.uint8),
                                      lambda cur, upd: (cur + upd).astype(np.uint8))
    _strict_check(comp, [x0, indices], expected)


_WINDOWS = {  # a view of p f32[2,4] as f32[3] that IREE fused into a unique scatter's dispatch
    "slice": lambda b, p: Reshape(Slice(p, [1, 1], [2, 4]), [3]),
    "negative-pad": lambda b, p: Pad(Reshape(Slice(p, [0, 0], [1, 4]), [4]), ConstantR0(b, 0.0, np.float32),
                                     [(-2, 1, 0)]),
}
_WINDOW_VALUES = {
    "slice": lambda p: p[1, 1:4],
    "negative-pad": lambda p: np.concatenate([p[0, 2:4], [0.0]]).astype(np.float32),
}


@pytest.mark.parametrize("window", sorted(_WINDOWS))
def test_unique_scatter_into_a_window(window):
    """``Scatter(Slice(p), constant index, u, unique_indices=True)`` compiles (IREE fused the
    slice into the scatter's dispatch as a copy into a buffer outside the distributed loop:
    "'linalg.generic' op write affecting operations on global resources are restricted to
    workgroup distributed contexts"); a pad with negative padding failed alike."""
    b = XlaBuilder("unique_scatter_window")
    p = Parameter(b, 0, Shape.parse("f32[2,4]"), "p")
    u = Parameter(b, 1, Shape.parse("f32[]"), "u")
    comp = b.build(Scatter(_WINDOWS[window](b, p), ConstantR0(b, 2, np.uint8), u, _combiner("f32", _replace),
                           ScatterDimensionNumbers((), (0,), (0,), 0), unique_indices=True))
    p0 = np.arange(8, dtype=np.float32).reshape(2, 4) - 2.5
    u0 = np.float32(-7.0)
    expected = _WINDOW_VALUES[window](p0).copy()
    expected[2] = u0
    _strict_check(comp, [p0, u0], expected)


def test_unique_scatter_after_scatter_max():
    """Fuzz seed 20261127 program 5889: a scatter-max (indices s32[1,2,3], index_vector_dim
    0), then a unique scatter at a constant u8 index into its result. ``scatter-bounds``
    gave the first a padded operand and a slice of its result, which the second (unique,
    constant index in bounds: no padding) read; IREE fused that slice into the second's
    dispatch and failed as above."""
    b = XlaBuilder("scatter_max_then_unique")
    x = Parameter(b, 0, Shape.parse("f32[3]"), "x")
    idx = Parameter(b, 1, Shape.parse("s32[1,2,3]"), "idx")
    upd = Parameter(b, 2, Shape.parse("f32[2,3]"), "upd")
    u = Parameter(b, 3, Shape.parse("f32[]"), "u")
    first = Scatter(x, idx, upd, _combiner("f32", Max), ScatterDimensionNumbers((), (0,), (0,), 0))
    comp = b.build(Scatter(first, ConstantR0(b, 2, np.uint8), u, _combiner("f32", _replace),
                           ScatterDimensionNumbers((), (0,), (0,), 0), unique_indices=True))
    x0 = np.array([0.5, -3.0, 1.0], np.float32)
    idx0 = np.array([[[0, 1, 5], [-1, 1, 2]]], np.int32)  # 5 and -1: out of bounds, skipped
    upd0 = np.array([[2.0, -4.0, 9.0], [8.0, 6.25, 0.0]], np.float32)
    u0 = np.float32(-2.0)
    expected = x0.copy()
    for row, value in zip(idx0.reshape(-1), upd0.reshape(-1), strict=True):
        if 0 <= row < 3:
            expected[row] = max(expected[row], value)
    expected[2] = u0
    _strict_check(comp, [x0, idx0, upd0, u0], expected)
