"""A variadic reduce (an argmax) compiles whatever reads its results (issue 9, fuzzer seed
20261127 program 785).

The pinned IREE failed to compile an argmax whose value or index reaches a transpose
(directly, through element-wise ops, or as a ``broadcast_in_dim`` that permutes
dimensions): "'linalg.yield' op expected number of yield values (2) to match the number
of inits / outs operands of the enclosing LinalgOp (1)". ``variadic-reduce-barrier``
fences the reduce's results (docs/iree-defects.md). Numbers are compared with numpy and
with XLA CPU (strict).
"""

from __future__ import annotations

import numpy as np
import pytest

from hlo_mlir import (
    And,
    BroadcastInDim,
    ConstantR0,
    EqTotalOrder,
    GetTupleElement,
    GtTotalOrder,
    Iota,
    Lt,
    Neg,
    Or,
    Parameter,
    Reduce,
    Reshape,
    Select,
    Shape,
    Transpose,
    Tuple,
    XlaBuilder,
)
from tests import oracle

# ties: the first index wins
X = np.array([[[3, 1, 4, 1], [5, 9, 2, 6]], [[5, 3, 5, 8], [9, 7, 9, 3]]], np.float32)


def _argmax_computation():
    """(value, index) pairs -> the larger value (total order) and, on ties, the lower index."""
    c = XlaBuilder("argmax")
    av = Parameter(c, 0, Shape.parse("f32[]"), "av")
    ai = Parameter(c, 1, Shape.parse("s32[]"), "ai")
    bv = Parameter(c, 2, Shape.parse("f32[]"), "bv")
    bi = Parameter(c, 3, Shape.parse("s32[]"), "bi")
    pick = Or(GtTotalOrder(bv, av), And(EqTotalOrder(bv, av), Lt(bi, ai)))
    return c.build(Tuple(c, [Select(pick, bv, av), Select(pick, bi, ai)]))


def _argmax(b, x):
    """The last dimension's (max, argmax) of f32[2,2,4] ``x``."""
    index = Iota(b, Shape.parse("s32[2,2,4]"), 2)
    inits = [ConstantR0(b, np.float32(-np.inf)), ConstantR0(b, np.int32(2 ** 31 - 1))]
    t = Reduce(b, [x, index], inits, _argmax_computation(), [2])
    return GetTupleElement(t, 0), GetTupleElement(t, 1)


def _index_transposed():
    """Seed 20261127 program 785 (reduced): Reshape(Transpose(argmax index))."""
    b = XlaBuilder("index_transposed")
    _, index = _argmax(b, Parameter(b, 0, Shape.parse("f32[2,2,4]"), "x"))
    return b.build(Reshape(Transpose(index, [1, 0]), [4])), X.argmax(2).astype(np.int32).T.reshape(4)


def _value_negated_then_transposed():
    b = XlaBuilder("value_negated_then_transposed")
    value, _ = _argmax(b, Parameter(b, 0, Shape.parse("f32[2,2,4]"), "x"))
    return b.build(Transpose(Neg(value), [1, 0])), -X.max(2).T


def _both_permuted_by_broadcast():
    b = XlaBuilder("both_permuted_by_broadcast")
    value, index = _argmax(b, Parameter(b, 0, Shape.parse("f32[2,2,4]"), "x"))
    comp = b.build(Tuple(b, [BroadcastInDim(value, [2, 2], [1, 0]), index]))
    return comp, (X.max(2).T, X.argmax(2).astype(np.int32))


CASES = {
    "index_transposed": _index_transposed,
    "value_negated_then_transposed": _value_negated_then_transposed,
    "both_permuted_by_broadcast": _both_permuted_by_broadcast,
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_argmax_read_by_a_transpose_compiles_and_matches(case):
    comp, expected = CASES[case]()
    xla = oracle.run_xla(comp, X, strict=True)
    oracle.assert_close(xla, expected, 0, 0, "XLA vs numpy")
    oracle.assert_close(oracle.run_iree(comp, X), xla, 0, 0, "hlo-mlir vs XLA")


def test_the_argmax_itself_is_the_first_index_of_the_maximum():
    """The reducer the cases share: its ties (5 at indices 0 and 2, 9 at 0 and 2) go to the first."""
    b = XlaBuilder("argmax_alone")
    value, index = _argmax(b, Parameter(b, 0, Shape.parse("f32[2,2,4]"), "x"))
    comp = b.build(Tuple(b, [value, index]))
    oracle.assert_close(oracle.run_iree(comp, X), (X.max(2), X.argmax(2).astype(np.int32)), 0, 0, "argmax")
