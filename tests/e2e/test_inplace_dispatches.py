"""A sort, scatter or dynamic_update_slice compiles whatever produces its operand and
whatever reads its result (issue 9, fuzzer seeds 20261125 and 20261126).

The pinned IREE runs these ops in place: their dispatch loads the operand from a
read-write binding and stores the result back. A producer it fuses into the sort's
dispatch (a slice seen through a reduce over no dimensions, the slice ending
``rng_bit_generator``, a constant seen through a map returning its argument), or a pad of
the sort's result that IREE stores from the sort's dispatch, made it copy the operand into
a stack buffer outside the distributed loop: "'linalg.generic' op write affecting
operations on global resources are restricted to workgroup distributed contexts". A
scatter into a pad of a value computed at run time, padded again after, failed with
"'stream.yield' op used resource not listed in explicit captures". ``inplace-operand-copy``
gives the op a buffer of its own and fences sort results (docs/iree-defects.md, "In-place
update through an optimization barrier"). A scatter into a pad by a run-time value of a
computed operand failed with the first message because ``scatter-bounds`` pads it again:
``nested-pad-barrier`` fences the inner pad. Each case is a reduced fuzzer program; numbers
are compared with numpy and with XLA CPU (strict).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from hlo_mlir import (
    Add,
    BroadcastInDim,
    Constant,
    ConstantR0,
    ConvertElementType,
    CreateScalarGtComputation,
    CreateScalarLtComputation,
    GetTupleElement,
    Iota,
    Map,
    Neg,
    Pad,
    Parameter,
    PrimitiveType,
    RandomAlgorithm,
    Reduce,
    ReduceWindow,
    ReduceWindowWithGeneralPadding,
    Reshape,
    RngBitGenerator,
    Scatter,
    ScatterDimensionNumbers,
    Shape,
    Sort,
    TopK,
    Transpose,
    Tuple,
    XlaBuilder,
)
from tests import oracle

GT = CreateScalarGtComputation([PrimitiveType.F32])


def _scalar_computation(type_name: str, combine):
    b = XlaBuilder("combine")
    x = Parameter(b, 0, Shape.parse(f"{type_name}[]"), "x")
    y = Parameter(b, 1, Shape.parse(f"{type_name}[]"), "y")
    return b.build(combine(x, y))


def _pad_of_sort():
    """Seed 20261126 programs 157, 3421, 6490: an interior pad of a sort's result."""
    b = XlaBuilder("pad_of_sort")
    x = Parameter(b, 0, Shape.parse("f32[2,6]"), "x")
    comp = b.build(Pad(Sort([x], GT, 1), ConstantR0(b, np.float32(-1)), [(1, 1, 0), (0, 2, 1)]))
    x0 = np.float32([[3, 1, 4, 1, 5, 9], [2, 6, 5, 3, 5, 8]])
    expected = np.full((4, 13), -1, np.float32)
    expected[1:3, 0:11:2] = -np.sort(-x0, axis=1)
    return comp, (x0,), expected


def _reduce_window_of_sort():
    """Seed 20261125 program 1167: a padded reduce_window of a sort's result."""
    b = XlaBuilder("reduce_window_of_sort")
    x = Parameter(b, 0, Shape.parse("f64[5,4]"), "x")
    s = Sort([x], CreateScalarLtComputation([PrimitiveType.F64]), 1)
    comp = b.build(ReduceWindowWithGeneralPadding(
        s, ConstantR0(b, np.float64(0)), _scalar_computation("f64", Add), [1, 2], [1, 1], [1, 1], [2, 1],
        [(1, 1), (0, 0)]))
    x0 = np.arange(20, dtype=np.float64).reshape(5, 4)[:, ::-1] * 0.5
    padded = np.zeros((7, 4))
    padded[1:6] = np.sort(x0, axis=1)
    return comp, (x0,), padded[:, [0, 1, 2]] + padded[:, [1, 2, 3]]


def _sort_of_identity_reduce_of_slice():
    """Seed 20261126 program 6098: Sort(Reduce(TopK indices, over no dimensions))."""
    b = XlaBuilder("sort_of_identity_reduce_of_slice")
    x = Parameter(b, 0, Shape.parse("f32[2,6]"), "x")
    indices = GetTupleElement(TopK(x, 4, True), 1)
    same = Reduce(b, [indices], [ConstantR0(b, np.int32(0))], _scalar_computation("s32", Add), [])
    comp = b.build(Sort([same], CreateScalarGtComputation([PrimitiveType.S32]), 0, True))
    x0 = np.float32([[3, 1, 4, 1, 5, 9], [2, 6, 5, 3, 5, 8]])
    top = np.argsort(-x0, axis=1, kind="stable")[:, :4].astype(np.int32)
    return comp, (x0,), -np.sort(-top, axis=0)


def _top_k_of_identity_map_of_constant():
    """Seed 20261126 program 3548: TopK(Map(c, c) returning its second argument) of f16."""
    b = XlaBuilder("top_k_of_identity_map_of_constant")
    keys = np.float16([[-1.186, -0.4863, -0.214, 0.3906], [-0.3887, 0.938, -0.986, -0.545]])
    c = Constant(b, keys)
    second = _scalar_computation("f16", lambda x, y: y)
    t = TopK(Map(b, [c, c], second, [0, 1]), 1, True)
    comp = b.build(Tuple(b, [GetTupleElement(t, 0), GetTupleElement(t, 1)]))
    order = np.argmax(keys, axis=1)[:, None].astype(np.int32)
    return comp, (), (np.take_along_axis(keys, order, axis=1), order)


def _sort_of_rng_bit_generator():
    """Seed 20261126 program 7966: a stable sort of rng_bit_generator's output (the slice
    ending its expansion was fused into the sort)."""
    b = XlaBuilder("sort_of_rng_bit_generator")
    state = Parameter(b, 0, Shape.parse("u64[2]"), "state")
    rng = RngBitGenerator(RandomAlgorithm.RNG_THREE_FRY, state, Shape.parse("u32[3,1,3]"))
    bits = GetTupleElement(rng, 1)
    s = Sort([bits, Iota(b, Shape.parse("s32[3,1,3]"), 0)], CreateScalarLtComputation(
        [PrimitiveType.U32, PrimitiveType.S32]), 0, True)
    comp = b.build(Tuple(b, [GetTupleElement(s, 0), GetTupleElement(s, 1)]))
    return comp, (np.uint64([7, 42]),), None  # the bits: XLA's answer only


def _scatter_into_pad_padded_again():
    """Seed 20261126 program 4141 (reduced): a c64 scatter into a pad (scatter-bounds' pad
    by a barrier-made complex zero), then a reduce_window, whose padding IREE makes with
    the same zero, failed ("'stream.yield' op used resource not listed")."""
    b = XlaBuilder("scatter_into_pad_padded_again")
    x = Parameter(b, 0, Shape.parse("c64[8,3]"), "x")
    indices = Parameter(b, 1, Shape.parse("u16[1,2,3]"), "indices")
    updates = Parameter(b, 2, Shape.parse("c64[1,2]"), "updates")
    replace = _scalar_computation("c64", lambda x, y: y)
    numbers = ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0, 1, 2),
                                      scatter_dims_to_operand_dims=(1, 2, 0), index_vector_dim=2)
    s = Scatter(BroadcastInDim(x, [8, 2, 3], [0, 2]), indices, updates, replace, numbers, unique_indices=True)
    comp = b.build(ReduceWindow(s, ConstantR0(b, np.complex64(0)), _scalar_computation("c64", Add),
                                [3, 1, 1], [1, 2, 1], "VALID"))
    rng = np.random.default_rng(4141)
    x0 = (rng.standard_normal((8, 3)) + 1j * rng.standard_normal((8, 3))).astype(np.complex64)
    i0 = np.uint16([[[0, 1, 2], [1, 2, 5]]])  # (row 1, column 2, plane 0) and one out of bounds
    u0 = np.complex64([[2 + 3j, -1 - 1j]])
    target = np.broadcast_to(x0[:, None, :], (8, 2, 3)).copy()
    target[i0[0, 0, 2], i0[0, 0, 0], i0[0, 0, 1]] = u0[0, 0]
    expected = sum(target[k:k + 6, 0:1, :] for k in range(3))
    return comp, (x0, i0, u0), expected


def _sort_of_unit_transpose_of_top_k():
    """Seed 12 program 175: Sort([Transpose(TopK values, moving a unit dimension), p]); the
    transpose is a reshape to IREE, so the TopK slice was fused into the sort."""
    b = XlaBuilder("sort_of_unit_transpose_of_top_k")
    x = Parameter(b, 0, Shape.parse("f32[3,2,4]"), "x")
    p = Parameter(b, 1, Shape.parse("s32[1,3,2]"), "p")
    t = Transpose(GetTupleElement(TopK(x, 1, True), 0), [2, 0, 1])
    s = Sort([t, p], CreateScalarLtComputation([PrimitiveType.F32, PrimitiveType.S32]), 1, True)
    comp = b.build(Tuple(b, [GetTupleElement(s, 0), GetTupleElement(s, 1)]))
    x0 = np.float32([[[3, 1, 4, 1], [5, 9, 2, 6]], [[5, 3, 5, 8], [9, 7, 9, 3]],
                     [[2, 3, 8, 4], [6, 2, 6, 4]]])
    p0 = np.arange(6, dtype=np.int32).reshape(1, 3, 2)
    keys = x0.max(axis=2)[None]  # Transpose [2, 0, 1] of the [3, 2, 1] top values
    order = np.argsort(keys, axis=1, kind="stable")
    return comp, (x0, p0), (np.take_along_axis(keys, order, 1), np.take_along_axis(p0, order, 1))


def _scatter_into_pad_of_convert():
    """Seed 20261127 program 734 (reduced): a scatter into a pad of a convert by a run-time
    padding value; scatter-bounds pads the pad again by a constant slot, and IREE failed to
    fuse the two pads ("write affecting operations on global resources"). Fixed by
    nested-pad-barrier."""
    b = XlaBuilder("scatter_into_pad_of_convert")
    x = Parameter(b, 0, Shape.parse("f16[5]"), "x")
    p = Parameter(b, 1, Shape.parse("bf16[]"), "p")
    indices = Parameter(b, 2, Shape.parse("u8[1,1,3]"), "indices")
    updates = Constant(b, np.array([[0.0, -3.0, -2.0]], dtype=ml_dtypes.bfloat16))
    numbers = ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                      scatter_dims_to_operand_dims=(0,), index_vector_dim=1)
    padded = Pad(ConvertElementType(x, PrimitiveType.BF16), p, [(0, 2, 0)])
    comp = b.build(Scatter(padded, indices, updates, _scalar_computation("bf16", lambda x, y: y), numbers))
    x0 = np.float16([9.875, 1.5, -0.25, 7, 0.125])
    p0 = np.array(3, ml_dtypes.bfloat16)
    i0 = np.uint8([[[2, 1, 9]]])  # the third index is out of bounds: skipped
    expected = np.concatenate([x0, [3, 3]]).astype(ml_dtypes.bfloat16)
    expected[[2, 1]] = [0.0, -3.0]
    return comp, (x0, p0, i0), expected


def _pad_of_pad_of_negate():
    """The form under seed 20261127 program 734, without a scatter: a pad by a constant of
    a reshape of a pad by a parameter of a negate."""
    b = XlaBuilder("pad_of_pad_of_negate")
    x = Parameter(b, 0, Shape.parse("f32[5]"), "x")
    p = Parameter(b, 1, Shape.parse("f32[]"), "p")
    inner = Reshape(Pad(Neg(x), p, [(0, 2, 0)]), [7, 1])
    comp = b.build(Pad(inner, ConstantR0(b, np.float32(0)), [(1, 1, 0), (0, 0, 0)]))
    x0 = np.float32([1, -2, 3, -4, 5])
    return comp, (x0, np.float32(7)), np.float32([[0, -1, 2, -3, 4, -5, 7, 7, 0]]).T


CASES = {
    "pad_of_sort": _pad_of_sort,
    "reduce_window_of_sort": _reduce_window_of_sort,
    "sort_of_identity_reduce_of_slice": _sort_of_identity_reduce_of_slice,
    "top_k_of_identity_map_of_constant": _top_k_of_identity_map_of_constant,
    "sort_of_rng_bit_generator": _sort_of_rng_bit_generator,
    "scatter_into_pad_padded_again": _scatter_into_pad_padded_again,
    "sort_of_unit_transpose_of_top_k": _sort_of_unit_transpose_of_top_k,
    "scatter_into_pad_of_convert": _scatter_into_pad_of_convert,
    "pad_of_pad_of_negate": _pad_of_pad_of_negate,
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_inplace_op_compiles_and_matches(case):
    comp, args, expected = CASES[case]()
    xla = oracle.run_xla(comp, *args, strict=True)
    if expected is not None:
        oracle.assert_close(xla, expected, 1e-6, 1e-6, "XLA vs numpy")
    oracle.assert_close(oracle.run_iree(comp, *args), xla, 1e-6, 1e-6, "hlo-mlir vs XLA")
