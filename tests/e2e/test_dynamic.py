"""End to end: GetDimensionSize and SetDimensionSize (bounded dynamic shapes).

XLA's semantics (spec: SetDimensionSize): elements past the dynamic size are padding
and reductions ignore them; XLA masks with ``iota < size``, so a size past the bound
counts every element and a negative one none, while GetDimensionSize returns the size
as given. Checked against numpy and XLA CPU on the same module.
"""

import numpy as np
import pytest

from hlo_mlir import (
    Add,
    BroadcastInDim,
    ConstantR0,
    Dot,
    DTypeError,
    Exp,
    GetDimensionSize,
    InvalidArgumentError,
    Max,
    Mul,
    Neg,
    Parameter,
    Reduce,
    SetDimensionSize,
    Shape,
    ShapeError,
    Transpose,
    Tuple,
    XlaBuilder,
)
from tests.oracle import assert_close, check, run_iree, run_xla

V = np.arange(1, 11, dtype=np.float32)  # the spec's example: v = {1, ..., 10}
M = (np.arange(20, dtype=np.float32).reshape(4, 5) - 6) / 4


def _scalar_computation(name, op):
    b = XlaBuilder(name)
    s = Shape.parse("f32[]")
    return b.build(op(Parameter(b, 0, s), Parameter(b, 1, s)))


ADD, MUL, MAX = (_scalar_computation(n, op) for n, op in (("add", Add), ("mul", Mul), ("max", Max)))


def _reductions_of_v() -> object:
    b = XlaBuilder("spec_example")
    v = Parameter(b, 0, Shape.parse("f32[10]"))
    padded = SetDimensionSize(v, Parameter(b, 1, Shape.parse("s32[]")), 0)
    assert str(padded.shape) == "f32[<=10]"
    return b.build(Tuple(b, [Reduce(padded, ConstantR0(b, np.float32(0)), ADD, [0]),
                             Reduce(padded, ConstantR0(b, np.float32(1)), MUL, [0]),
                             Reduce(padded, ConstantR0(b, np.float32(-np.inf)), MAX, [0]),
                             GetDimensionSize(padded, 0)]))


@pytest.mark.parametrize("size", [5, 6, 10, 1, 0])
def test_reductions_ignore_the_padding(size):
    """The spec's example: sum and product of set_dimension_size(v, 5) see v[0..4] only."""
    valid = V[:max(size, 0)]
    expected = (np.float32(valid.sum()), np.float32(valid.prod()), np.float32(valid.max(initial=-np.inf)),
                np.int32(size))
    check(_reductions_of_v(), [V, np.int32(size)], expected, rtol=1e-6)


@pytest.mark.parametrize("size", [12, 100000, -1, -7])
def test_sizes_outside_the_bound_clamp_in_reductions(size):
    """Like XLA's padding masks: every element past the bound, none below zero; the size
    itself reads back as given (IREE alone would read past the buffer)."""
    valid = V[:min(max(size, 0), 10)]
    expected = (np.float32(valid.sum()), np.float32(valid.prod()), np.float32(valid.max(initial=-np.inf)),
                np.int32(size))
    check(_reductions_of_v(), [V, np.int32(size)], expected, rtol=1e-6)


@pytest.mark.parametrize("size", [0, 2, 4])
def test_dynamic_values_flow_through_unary_ops_transpose_and_dot(size):
    b = XlaBuilder("flow")
    x = Parameter(b, 0, Shape.parse("f32[4,5]"))
    d = SetDimensionSize(x, Parameter(b, 1, Shape.parse("s32[]")), 0)
    e = Exp(Neg(d))
    assert str(e.shape) == "f32[<=4,5]"
    t = Transpose(e, [1, 0])
    assert str(t.shape) == "f32[5,<=4]"
    per_column = Reduce(t, ConstantR0(b, np.float32(0)), ADD, [1])
    gram = Dot(t, d)  # contracts the dynamic dimension: padding must not count
    comp = b.build(Tuple(b, [per_column, gram, GetDimensionSize(t, 1), GetDimensionSize(t, 0)]))
    valid = M[:size]
    ev = np.exp(-valid)
    expected = (ev.sum(0), ev.T @ valid, np.int32(size), np.int32(5))
    check(comp, [M, np.int32(size)], expected, rtol=1e-5, atol=1e-5)


def test_get_dimension_size_of_static_dimensions():
    b = XlaBuilder("static_sizes")
    x = Parameter(b, 0, Shape.parse("s8[3,0,7]"))
    comp = b.build(Tuple(b, [GetDimensionSize(x, d) for d in range(3)]))
    assert str(comp.program_shape().result) == "(s32[], s32[], s32[])"
    check(comp, [np.zeros((3, 0, 7), np.int8)], (np.int32(3), np.int32(0), np.int32(7)))


def test_dynamic_result_holds_the_valid_elements():
    """A dynamic result: hlo-mlir and XLA both give the valid rows (XLA's PjRt hands back the
    padded buffer; IREE may hand back either), so only the first ``size`` rows are compared."""
    b = XlaBuilder("dynamic_result")
    x = Parameter(b, 0, Shape.parse("f32[4,5]"))
    comp = b.build(Exp(SetDimensionSize(x, Parameter(b, 1, Shape.parse("s32[]")), 0)))
    assert str(comp.program_shape().result) == "f32[<=4,5]"
    ours, theirs = run_iree(comp, M, np.int32(3)), run_xla(comp, M, np.int32(3))
    assert ours.shape[0] in (3, 4) and theirs.shape == (4, 5)
    assert_close(ours[:3], np.exp(M[:3]), 1e-6, 0, "hlo-mlir vs numpy")
    assert_close(theirs[:3], np.exp(M[:3]), 1e-6, 0, "XLA vs numpy")


@pytest.mark.parametrize("op", ["Mul", "Reduce", pytest.param("BroadcastInDim", marks=pytest.mark.xfail(
    strict=True, raises=ShapeError,
    reason="BroadcastInDim of a dynamic operand is refused (XLA: f32[2,<=4,5]): the pinned IREE fails to "
           "compile a broadcast_in_dim with a bounded dynamic result, and a static result would read the "
           "padding"))])
def test_other_ops_keep_dynamic_dimensions(op):
    b = XlaBuilder("keep")
    d = SetDimensionSize(Parameter(b, 0, Shape.parse("f32[4,5]")), Parameter(b, 1, Shape.parse("s32[]")), 0)
    build, expected = {"Mul": (lambda: Mul(d, d), "f32[<=4,5]"),
                       "Reduce": (lambda: Reduce(d, ConstantR0(b, np.float32(0)), ADD, [1]), "f32[<=4]"),
                       "BroadcastInDim": (lambda: BroadcastInDim(d, [2, 4, 5], [1, 2]), "f32[2,<=4,5]")}[op]
    result = build()
    assert str(result.shape) == expected
    b.build(result).verify()  # the bounded dynamic types are valid StableHLO


@pytest.mark.parametrize("build, error, message", [
    (lambda x, n: SetDimensionSize(x, n, 2), InvalidArgumentError,
     r"SetDimensionSize requires dimension in \[0, 2\); got 2 for operand f32\[4,5\]\."),
    (lambda x, n: SetDimensionSize(x, ConstantR0(x.builder, np.int64(2)), 0), DTypeError,
     r"SetDimensionSize requires an s32 size; got s64\[\]\."),
    (lambda x, n: SetDimensionSize(x, x, 0), ShapeError,
     r"SetDimensionSize requires a scalar size; got f32\[4,5\]\."),
    (lambda x, n: GetDimensionSize(x, -1), InvalidArgumentError,
     r"GetDimensionSize requires dimension in \[0, 2\); got -1 for operand f32\[4,5\]\."),
    (lambda x, n: GetDimensionSize(Tuple(x.builder, [x]), 0), ShapeError,
     r"GetDimensionSize requires an array operand; got \(f32\[4,5\]\)\."),
    (lambda x, n: GetDimensionSize(x, 0.5), InvalidArgumentError,
     r"GetDimensionSize requires integer dimension; got \[0\.5\]\."),
])
def test_errors(build, error, message):
    b = XlaBuilder("errors")
    x = Parameter(b, 0, Shape.parse("f32[4,5]"))
    n = Parameter(b, 1, Shape.parse("s32[]"))
    with pytest.raises(error, match=message) as info:
        build(x, n)
    assert "test_dynamic.py" in str(info.value)


def test_broadcast_of_a_dynamic_operand_is_refused_not_wrong():
    b = XlaBuilder("broadcast_dynamic")
    d = SetDimensionSize(Parameter(b, 0, Shape.parse("f32[4,5]")), Parameter(b, 1, Shape.parse("s32[]")), 0)
    with pytest.raises(ShapeError, match=r"BroadcastInDim requires a static operand .*; got f32\[<=4,5\]\."):
        BroadcastInDim(d, [2, 4, 5], [1, 2])


def test_elementwise_result_stays_dynamic_and_reduces_the_valid_rows():
    b = XlaBuilder("mul_reduce")
    d = SetDimensionSize(Parameter(b, 0, Shape.parse("f32[4,5]")), Parameter(b, 1, Shape.parse("s32[]")), 0)
    comp = b.build(Reduce(Mul(d, d), ConstantR0(b, np.float32(0)), ADD, [1]))
    assert str(comp.program_shape().result) == "f32[<=4]"
    ours, theirs = run_iree(comp, M, np.int32(3)), run_xla(comp, M, np.int32(3))
    assert_close(ours[:3], (M * M).sum(1)[:3], 1e-6, 0, "hlo-mlir vs numpy")
    assert_close(theirs[:3], (M * M).sum(1)[:3], 1e-6, 0, "XLA vs numpy")
