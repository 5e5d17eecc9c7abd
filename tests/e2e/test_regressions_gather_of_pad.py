"""A gather of a cropped rank-2 pad compiles (fuzzer seed 20261127 program 5453; issue 9).

The pinned IREE pads into a buffer and crops the negative padding as a view of it; a gather
reading that view along a strided dimension became a ``vector.gather`` from a strided memref
with a dynamic offset (the buffer shared an allocation with a base-dilated reduce_window's),
which does not lower: "LLVM Translation failed for operation:
builtin.unrealized_conversion_cast". ``reverse-slice-barrier`` reads such pads through a
barrier for gathers of rank 2 too.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from hlo_mlir import (
    Add,
    ConstantR0,
    Gather,
    GatherDimensionNumbers,
    Pad,
    Parameter,
    ReduceWindowWithGeneralPadding,
    Shape,
    Tuple,
    XlaBuilder,
)
from tests import oracle
from tests.e2e.test_regressions_fuzz_iree import _xla_pad

_PAD = [(-1, -1, 2), (1, -1, 0)]  # (low, high, interior) per dimension


def _program():
    """Program 5453, shrunk: a bf16 reduce_window with base and window dilation 2 and low
    padding, and a gather of a pred pad with negative and interior padding, by u16 indices."""
    ab = XlaBuilder("add")
    scalar = Shape.parse("bf16[]")
    add = ab.build(Add(Parameter(ab, 0, scalar, "a"), Parameter(ab, 1, scalar, "b")))
    b = XlaBuilder("gather_of_cropped_pad")
    x = Parameter(b, 0, Shape.parse("bf16[5]"), "x")
    window = ReduceWindowWithGeneralPadding(x, ConstantR0(b, ml_dtypes.bfloat16(0)), add, [2], [1],
                                            [2], [2], [(1, 0)])
    p = Parameter(b, 1, Shape.parse("pred[7,1]"), "p")
    i = Parameter(b, 2, Shape.parse("u16[3,2,2]"), "i")
    padded = Pad(p, ConstantR0(b, np.bool_(True)), _PAD)
    dn = GatherDimensionNumbers(offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(1, 0),
                                index_vector_dim=1, operand_batching_dims=(),
                                start_indices_batching_dims=())
    return b.build(Tuple(b, [Gather(padded, i, dn, [6, 1]), window]))


def _numpy(x, p, i):
    """The gather: ``out[b0, :, :, b1] = padded[s0:s0 + 6, s1:s1 + 1]`` with the start
    ``(s0, s1) = (i[b0, 1, b1], i[b0, 0, b1])`` clamped into the operand; the window sum:
    ``[0, x0, 0, x1, ..., 0, x4][k] + [...][k + 2]``, one bf16 rounding."""
    padded = _xla_pad(p, np.bool_(True), _PAD)
    out = np.zeros((3, 6, 1, 2), np.bool_)
    for b0 in range(3):
        for b1 in range(2):
            s0 = min(int(i[b0, 1, b1]), padded.shape[0] - 6)
            s1 = min(int(i[b0, 0, b1]), padded.shape[1] - 1)
            out[b0, :, :, b1] = padded[s0:s0 + 6, s1:s1 + 1]
    spread = np.zeros(10, np.float32)
    spread[1::2] = x.astype(np.float32)
    return out, (spread[:-2] + spread[2:]).astype(ml_dtypes.bfloat16)


def test_gather_of_a_cropped_rank2_pad_beside_a_dilated_reduce_window():
    rng = np.random.default_rng(5453)
    x = np.array([1.5, -2.0, 912.0, 4.0, -23.25], ml_dtypes.bfloat16)
    p = rng.integers(0, 2, (7, 1)).astype(np.bool_)
    i = np.array([[[0, 3], [11, 60000]], [[1, 0], [5, 2]], [[0, 7], [16, 9]]], np.uint16)
    comp = _program()
    expected = _numpy(x, p, i)
    oracle.assert_close(oracle.run_iree(comp, x, p, i), expected, 0.0, 0.0, "hlo-mlir vs numpy")
    oracle.assert_close(oracle.run_xla(comp, x, p, i, strict=True), expected, 0.0, 0.0, "XLA vs numpy")
