"""Coverage samples of the control-flow family: While, Conditional, Map (Call's sample is in
structure.py)."""

from __future__ import annotations

import numpy as np

import hlo_mlir as hm
from hlo_mlir import Parameter, Shape, XlaBuilder
from tests.builders import computation
from tests.op_samples import Sample


def _while() -> Sample:
    """(i, acc) -> (i + 1, acc * 2 + i) while i < n: a counted loop over a tuple state."""
    state = "(s32[], s32[], f32[3])"
    cond = computation("cond", [state], lambda b, t: hm.GetTupleElement(t, 0) < hm.GetTupleElement(t, 1))
    body = computation("body", [state], lambda b, t: hm.Tuple(b, [
        hm.GetTupleElement(t, 0) + np.int32(1), hm.GetTupleElement(t, 1),
        hm.GetTupleElement(t, 2) * np.float32(2) + hm.ConvertElementType(hm.GetTupleElement(t, 0),
                                                                         hm.PrimitiveType.F32)]))
    b = XlaBuilder("While")
    n, x = Parameter(b, 0, Shape.parse("s32[]")), Parameter(b, 1, Shape.parse("f32[3]"))
    out = hm.GetTupleElement(hm.While(cond, body, hm.Tuple(b, [hm.ConstantR0(b, np.int32(0)), n, x])), 2)
    acc = np.array([1, -2, 0.5], np.float32)
    x0 = acc.copy()
    for i in range(5):
        acc = acc * np.float32(2) + np.float32(i)
    return Sample(b.build(out), (np.int32(5), x0), acc)


def _conditional() -> Sample:
    """The indexed form with an out-of-range index, which runs the last branch."""
    branches = [computation("plus_one", ["f32[2]"], lambda b, x: x + np.float32(1)),
                computation("negate", ["f32[2]"], lambda b, x: -x),
                computation("square", ["f32[2]"], lambda b, x: x * x)]
    b = XlaBuilder("Conditional")
    i, x = Parameter(b, 0, Shape.parse("s32[]")), Parameter(b, 1, Shape.parse("f32[2]"))
    xv = np.array([3, -0.5], np.float32)
    return Sample(b.build(hm.Conditional(i, branches, [x, x, x])), (np.int32(7), xv), xv * xv)


def _map() -> Sample:
    """A two-operand scalar computation of several ops, mapped over f32[2,3]."""
    fn = computation("fn", ["f32[]", "s32[]"], lambda b, x, k: hm.Max(
        x * hm.ConvertElementType(k, hm.PrimitiveType.F32), hm.ConstantR0(b, np.float32(0))) + np.float32(1))
    b = XlaBuilder("Map")
    x, k = Parameter(b, 0, Shape.parse("f32[2,3]")), Parameter(b, 1, Shape.parse("s32[2,3]"))
    xv = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5
    kv = np.array([[1, -1, 2], [3, 0, -2]], np.int32)
    return Sample(b.build(hm.Map(b, [x, k], fn, [0, 1])), (xv, kv),
                  np.maximum(xv * kv.astype(np.float32), np.float32(0)) + np.float32(1))


SAMPLES = {"While": _while, "Conditional": _conditional, "Map": _map}
