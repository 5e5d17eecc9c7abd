"""Regressions (issue 9, fuzzer seeds 20261125 and 20261126): programs the pinned IREE
crashed on or failed to compile, each routed around by a legalization
(docs/iree-defects.md). Compared with numpy and XLA CPU (strict: no algebraic simplifier).
"""

from __future__ import annotations

import numpy as np
import pytest

from hlo_mlir import (
    Add,
    And,
    BroadcastInDim,
    Constant,
    ConvertElementType,
    Cos,
    Dot,
    DotDimensionNumbers,
    DotGeneral,
    GetTupleElement,
    Gt,
    Iota,
    Max,
    Mul,
    Parameter,
    PrimitiveType,
    Reduce,
    ReduceWindowWithGeneralPadding,
    Reshape,
    Select,
    Shape,
    Slice,
    Sort,
    Tuple,
    XlaBuilder,
)
from tests import oracle


def _strict_check(comp, args, expected):
    oracle.assert_close(oracle.run_iree(comp, *args), expected, 0.0, 0.0, "hlo-mlir vs numpy")
    oracle.assert_close(oracle.run_xla(comp, *args, strict=True), expected, 0.0, 0.0, "XLA vs numpy")


def _scalar_computation(type_name: str, combine):
    b = XlaBuilder("combine")
    x = Parameter(b, 0, Shape.parse(f"{type_name}[]"), "x")
    y = Parameter(b, 1, Shape.parse(f"{type_name}[]"), "y")
    return b.build(combine(x, y))


@pytest.mark.parametrize("dtype", ["f32", "s64"])
def test_dot_over_an_empty_contraction_beside_an_f64_cosine(dtype):
    """``Dot(x[0], y[0,2])`` is zeros; with an f64 transcendental in the module (the
    constant evaluator off) IREE crashed (SIGFPE in AnnotateDispatches). Seed 20261126
    program 6594, seed 20261125 programs 1239 and 2037."""
    b = XlaBuilder("dot_empty")
    x = Parameter(b, 0, Shape.parse(f"{dtype}[0]"), "x")
    y = Parameter(b, 1, Shape.parse(f"{dtype}[0,2]"), "y")
    z = Parameter(b, 2, Shape.parse("f64[2]"), "z")
    comp = b.build(Tuple(b, [Dot(x, y), Cos(z)]))
    np_dtype = Shape.parse(f"{dtype}[]").dtype
    z0 = np.array([-2.5, -1.0])
    args = [np.zeros((0,), np_dtype), np.zeros((0, 2), np_dtype), z0]
    ours = oracle.run_iree(comp, *args)
    oracle.assert_close(ours[0], np.zeros(2, np_dtype), 0.0, 0.0, "hlo-mlir vs numpy")
    oracle.assert_close(ours[1], np.cos(z0), 1e-15, 0.0, "hlo-mlir vs numpy")


def test_batched_dot_over_an_empty_contraction_of_a_constant():
    """``DotGeneral(x[1,2,0], constant[1,0,2,1])`` with batch dimensions is zeros (IREE
    crashed with an f64 atan2 beside it; seed 20261125 program 1239)."""
    from hlo_mlir import Atan2

    b = XlaBuilder("dot_empty_batched")
    x = Parameter(b, 0, Shape.parse("f64[1,2,0]"), "x")
    w = Constant(b, np.zeros((1, 0, 2, 1)))
    d = DotGeneral(x, w, DotDimensionNumbers(lhs_contracting_dimensions=(2,), rhs_contracting_dimensions=(1,),
                                              lhs_batch_dimensions=(0, 1), rhs_batch_dimensions=(0, 2)))
    comp = b.build(Atan2(d, d))
    ours = oracle.run_iree(comp, np.zeros((1, 2, 0)))
    oracle.assert_close(ours, np.zeros((1, 2, 1)), 0.0, 0.0, "hlo-mlir vs numpy")


@pytest.mark.parametrize("dtype, combine, init, padding", [
    ("u8", Mul, 1, [(0, 0), (0, 1)]),
    ("u32", Mul, 1, [(0, 0), (0, 1)]),
    ("pred", And, True, [(0, 0), (0, 1)]),
], ids=["u8-mul", "u32-mul", "pred-and"])
def test_padded_reduce_window_of_unsigned_and_pred(dtype, combine, init, padding):
    """A padded ``ReduceWindow`` over u8/u32 ("unresolved target materialization from
    ('ui8') to ('i8')") or PRED ("'arith.andi' op requires the same type") compiles.
    Seed 20261126 programs 5195 and 4670."""
    np_dtype = Shape.parse(f"{dtype}[]").dtype
    x0 = (np.array([[7, 5], [8, 0], [4, 7], [7, 3]]) % (2 if dtype == "pred" else 256)).astype(np_dtype)
    b = XlaBuilder("rw_padded")
    x = Parameter(b, 0, Shape.from_numpy(x0), "x")
    init_value = Constant(b, np.array(init, np_dtype))
    comp = b.build(ReduceWindowWithGeneralPadding(x, init_value, _scalar_computation(dtype, combine),
                                                  [1, 2], [1, 1], [1, 1], [1, 1], padding))
    padded = np.pad(x0, padding, constant_values=init)
    pairs = [padded[:, :-1], padded[:, 1:]]
    expected = (pairs[0] & pairs[1]) if dtype == "pred" else (pairs[0] * pairs[1]).astype(np_dtype)
    _strict_check(comp, [x0], expected)


def test_base_dilated_reduce_window_of_unsigned():
    """A u8 max ``ReduceWindow`` with base dilation 2 and padding reads the init value
    between and around the elements (spec: pad(x, init, low, high, base_dilations - 1))."""
    x0 = np.array([[3, 5, 7], [2, 4, 6]], np.uint8)
    b = XlaBuilder("rw_dilated")
    x = Parameter(b, 0, Shape.from_numpy(x0), "x")
    comp = b.build(ReduceWindowWithGeneralPadding(x, Constant(b, np.array(0, np.uint8)),
                                                  _scalar_computation("u8", Max), [1, 2], [1, 1], [1, 2],
                                                  [1, 1], [(0, 0), (1, 0)]))
    padded = np.zeros((2, 6), np.uint8)
    padded[:, 1::2] = x0  # low 1, then x[0], init, x[1], init, x[2]
    _strict_check(comp, [x0], np.maximum(padded[:, :-1], padded[:, 1:]))


def test_sort_of_one_element_read_through_a_reshape_of_a_slice():
    """A sort of ``Reshape(Slice(s64[3], [1], [3], [3]), [1,1,1])`` compiles (IREE folded the
    reshape into the slice: "expected rank to be smaller or equal to the other rank"; fixed
    by inplace-operand-copy's sorted-view copy). Seed 20261126 program 1127."""
    b = XlaBuilder("sort_unit")
    x = Parameter(b, 0, Shape.parse("s64[3]"), "x")
    p = Parameter(b, 1, Shape.parse("pred[1,1,1]"), "p")
    u = Parameter(b, 2, Shape.parse("u32[1,1,1]"), "u")
    k = Reshape(Slice(x, [1], [3], [3]), [1, 1, 1])
    from hlo_mlir import CreateScalarGtComputation

    s = Sort([k, p, u], CreateScalarGtComputation([PrimitiveType.S64, PrimitiveType.PRED, PrimitiveType.U32]),
             dimension=-1, is_stable=True)
    comp = b.build(Reduce(GetTupleElement(s, 2), Constant(b, np.array(0, np.uint32)),
                          _scalar_computation("u32", Add), [0, 1, 2]))
    x0, p0, u0 = np.array([4, -9, 2]), np.array([[[True]]]), np.array([[[7]]], np.uint32)
    _strict_check(comp, [x0, p0, u0], np.array(7, np.uint32))


@pytest.mark.parametrize("dtype", ["s32", "s8"])
def test_top_k_like_sort_of_a_zero_splat(dtype):
    """``Sort([zeros, iota])`` with a lexicographic comparator, sliced: IREE folded the private
    copy of the zero splat to a scalar broadcast and its TopK matcher crashed (SIGSEGV in
    isIotaOrIotaBroadcast). Seed 20261126 program 4426, seed 20261125 program 1987."""
    from hlo_mlir import Eq, Lt, Or

    np_dtype = Shape.parse(f"{dtype}[]").dtype
    b = XlaBuilder("sort_zero_splat")
    keys = Constant(b, np.zeros(4, np_dtype))
    positions = Iota(b, Shape.parse("s32[4]"), 0)
    c = XlaBuilder("lexicographic")
    a0 = Parameter(c, 0, Shape.parse(f"{dtype}[]"), "a0")
    a1 = Parameter(c, 1, Shape.parse(f"{dtype}[]"), "a1")
    i0 = Parameter(c, 2, Shape.parse("s32[]"), "i0")
    i1 = Parameter(c, 3, Shape.parse("s32[]"), "i1")
    comparator = c.build(Or(Lt(a0, a1), And(Eq(a0, a1), Lt(i0, i1))))
    s = Sort([keys, positions], comparator, dimension=0, is_stable=False)
    comp = b.build(Slice(GetTupleElement(s, 1), [0], [2], [1]))
    _strict_check(comp, [], np.array([0, 1], np.int32))


def test_unsimplified_top_k_like_sort_of_zeros_plus_a_broadcast_scalar():
    """``Sort([Add(Constant(zeros), Broadcast(p)), iota])`` compiled with no simplifier
    (``O0``): IREE folds the add into the scalar broadcast and its TopK matcher crashed."""
    from hlo_mlir import Broadcast, Eq, Lt, Or

    b = XlaBuilder("sort_zero_plus_broadcast")
    p = Parameter(b, 0, Shape.parse("s32[]"), "p")
    keys = Add(Constant(b, np.zeros(4, np.int32)), Broadcast(p, [4]))
    c = XlaBuilder("lexicographic")
    a0, a1 = Parameter(c, 0, Shape.parse("s32[]"), "a0"), Parameter(c, 1, Shape.parse("s32[]"), "a1")
    i0, i1 = Parameter(c, 2, Shape.parse("s32[]"), "i0"), Parameter(c, 3, Shape.parse("s32[]"), "i1")
    comparator = c.build(Or(Lt(a0, a1), And(Eq(a0, a1), Lt(i0, i1))))
    s = Sort([keys, Iota(b, Shape.parse("s32[4]"), 0)], comparator, dimension=0)
    comp = b.build(Slice(GetTupleElement(s, 1), [0], [2], [1]))
    p0, expected = np.array(7, np.int32), np.array([0, 1], np.int32)
    oracle.assert_close(oracle.run_iree(comp, p0, passes="O0"), expected, 0.0, 0.0, "hlo-mlir vs numpy")
    oracle.assert_close(oracle.run_xla(comp, p0, strict=True), expected, 0.0, 0.0, "XLA vs numpy")


@pytest.mark.parametrize("dtype", ["f32", "u32"])
@pytest.mark.parametrize("form", ["matvec-select", "matmul-select", "matmul-convert-pred",
                                  "matmul-select-row-pred", "matmul-select-computed-pred"])
def test_contraction_consumed_beside_a_pred_tensor(dtype, form):
    """A dot whose element-wise consumer reads a PRED tensor compiles with data tiling
    ("'linalg.pack' op expected padding_value has 'i8' but got: 'i1'"; with u32 "failed to
    legalize unresolved target materialization ... op_type = matmul"). Seed 20261125
    programs 1783 and 873."""
    np_dtype = Shape.parse(f"{dtype}[]").dtype
    rhs_shape = (2,) if form == "matvec-select" else (2, 3)
    out_shape = (4,) if form == "matvec-select" else (4, 3)
    rng = np.random.default_rng(5)
    a0 = rng.integers(0, 9, (4, 2)).astype(np_dtype)
    w0 = rng.integers(0, 9, rhs_shape).astype(np_dtype)
    x0 = rng.integers(0, 9, out_shape).astype(np_dtype)
    p0 = rng.integers(0, 2, out_shape).astype(bool)
    b = XlaBuilder("dot_pred")
    a = Parameter(b, 0, Shape.from_numpy(a0), "a")
    w = Parameter(b, 1, Shape.from_numpy(w0), "w")
    x = Parameter(b, 2, Shape.from_numpy(x0), "x")
    p = Parameter(b, 3, Shape.from_numpy(p0), "p")
    d = Dot(a, w)
    if form == "matmul-convert-pred":
        comp = b.build(Add(ConvertElementType(p, Shape.from_numpy(x0).element_type), d))
        expected = (p0.astype(np_dtype) + a0 @ w0).astype(np_dtype)
    elif form == "matmul-select-row-pred":  # a PRED parameter broadcast along the rows
        comp = b.build(Select(BroadcastInDim(Slice(p, [0, 0], [4, 1], [1, 1]), [4, 3], [0, 1]), d, x))
        expected = np.where(p0[:, :1], a0 @ w0, x0).astype(np_dtype)
    elif form == "matmul-select-computed-pred":  # computed in the dispatch: compiled already
        comp = b.build(Select(Gt(x, Constant(b, np.full(out_shape, 4, np_dtype))), d, x))
        expected = np.where(x0 > 4, a0 @ w0, x0).astype(np_dtype)
    else:
        comp = b.build(Select(p, d, x))
        expected = np.where(p0, a0 @ w0, x0).astype(np_dtype)
    _strict_check(comp, [a0, w0, x0, p0], expected)
