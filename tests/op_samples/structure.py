"""Coverage samples of the data-movement, linear-algebra, reduction and call families."""

from __future__ import annotations

import numpy as np

import hlo_mlir as hm
from hlo_mlir import Parameter, PrimitiveType, Shape, XlaBuilder
from tests.op_samples import Sample

_X = np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 7.5
_M = np.arange(6, dtype=np.float32).reshape(2, 3)


def _one(op_name: str, x: np.ndarray, build, expected) -> callable:
    """A sample applying ``build(param)`` to one parameter holding ``x``."""

    def sample() -> Sample:
        b = XlaBuilder(op_name)
        p = Parameter(b, 0, Shape.from_numpy(x))
        return Sample(b.build(build(p)), (x,), expected)

    return sample


def _scalar_computation(name: str, op, element_type=PrimitiveType.F32) -> hm.XlaComputation:
    b = XlaBuilder(name)
    s = Shape.scalar_shape(element_type)
    return b.build(op(Parameter(b, 0, s), Parameter(b, 1, s)))


def _iota() -> Sample:
    b = XlaBuilder("Iota")
    return Sample(b.build(hm.Iota(b, Shape.parse("s32[2,3]"), 1)), (),
                  np.tile(np.arange(3, dtype=np.int32), (2, 1)))


def _concat() -> Sample:
    b = XlaBuilder("ConcatInDim")
    p, q = Parameter(b, 0, Shape.from_numpy(_M)), Parameter(b, 1, Shape.from_numpy(_M))
    return Sample(b.build(hm.ConcatInDim(b, [p, q], 1)), (_M, _M + 1), np.concatenate([_M, _M + 1], 1))


def _pad_reference(x: np.ndarray, value, config) -> np.ndarray:
    """numpy Pad: interior padding, then edge padding (negative edges trim)."""
    for axis, (low, high, interior) in enumerate(config):
        n = x.shape[axis]
        size = n + max(n - 1, 0) * interior
        y = np.full(x.shape[:axis] + (size,) + x.shape[axis + 1:], value, x.dtype)
        y[(slice(None),) * axis + (slice(0, size, interior + 1),)] = x
        pad = [(0, 0)] * x.ndim
        pad[axis] = (max(low, 0), max(high, 0))
        y = np.pad(y, pad, constant_values=value)
        x = y[(slice(None),) * axis + (slice(max(-low, 0), y.shape[axis] - max(-high, 0)),)]
    return x


def _pad() -> Sample:
    b = XlaBuilder("Pad")
    config = [(1, -1, 1), (-1, 2, 0)]
    out = hm.Pad(Parameter(b, 0, Shape.from_numpy(_M)), hm.ConstantR0(b, np.float32(-1)), config)
    return Sample(b.build(out), (_M,), _pad_reference(_M, np.float32(-1), config))


def _tuple() -> Sample:
    b = XlaBuilder("Tuple")
    p = Parameter(b, 0, Shape.from_numpy(_M))
    return Sample(b.build(hm.Tuple(b, [p, hm.Neg(p)])), (_M,), (_M, -_M))


def _gte() -> Sample:
    b = XlaBuilder("GetTupleElement")
    p = Parameter(b, 0, Shape.parse("(f32[2,3], s32[])"))
    return Sample(b.build(hm.GetTupleElement(p, 1)), ((_M, np.int32(5)),), np.int32(5))


def _dot() -> Sample:
    b = XlaBuilder("Dot")
    p, q = Parameter(b, 0, Shape.from_numpy(_M)), Parameter(b, 1, Shape.from_numpy(_M.T.copy()))
    return Sample(b.build(hm.Dot(p, q)), (_M, _M.T.copy()), _M @ _M.T)


def _dot_general() -> Sample:
    b = XlaBuilder("DotGeneral")
    x = _X[:, :, :3].copy()
    p, q = Parameter(b, 0, Shape.from_numpy(_X)), Parameter(b, 1, Shape.from_numpy(x))
    dn = hm.DotDimensionNumbers([1], [1], [0], [0])
    return Sample(b.build(hm.DotGeneral(p, q, dn)), (_X, x), np.einsum("bki,bkj->bij", _X, x))


def _reduce() -> Sample:
    b = XlaBuilder("Reduce")
    p = Parameter(b, 0, Shape.from_numpy(_X))
    out = hm.Reduce(p, hm.ConstantR0(b, np.float32(0)), _scalar_computation("add", hm.Add), [0, 2])
    return Sample(b.build(out), (_X,), _X.sum(axis=(0, 2)))


def _reduce_precision() -> Sample:
    x = np.array([1.0 + 2**-10, 3.0e38, -2.5, 1e-3], np.float32)
    with np.errstate(over="ignore"):  # 3e38 overflows to inf, as ReducePrecision must
        ref = x.astype(np.float16).astype(np.float32)  # 5 exponent bits, 10 mantissa bits
    return _one("ReducePrecision", x, lambda p: hm.ReducePrecision(p, 5, 10), ref)()


def _call() -> Sample:
    callee = _scalar_computation("mul", hm.Mul)
    b = XlaBuilder("Call")
    p, q = Parameter(b, 0, Shape.parse("f32[]")), Parameter(b, 1, Shape.parse("f32[]"))
    return Sample(b.build(hm.Call(b, callee, [p, q])), (np.float32(3), np.float32(4)), np.float32(12))


SAMPLES = {
    "Broadcast": _one("Broadcast", _M, lambda p: hm.Broadcast(p, [2]), np.broadcast_to(_M, (2, 2, 3))),
    "BroadcastInDim": _one("BroadcastInDim", _M[:, :1].copy(),
                           lambda p: hm.BroadcastInDim(p, [4, 2, 3], [1, 2]),
                           np.broadcast_to(_M[:, :1], (4, 2, 3))),
    "Reshape": _one("Reshape", _X, lambda p: hm.Reshape(p, [4, 6]), _X.reshape(4, 6)),
    "Collapse": _one("Collapse", _X, lambda p: hm.Collapse(p, [0, 1]), _X.reshape(6, 4)),
    "Transpose": _one("Transpose", _X, lambda p: hm.Transpose(p, [2, 0, 1]), _X.transpose(2, 0, 1)),
    "Rev": _one("Rev", _X, lambda p: hm.Rev(p, [0, 2]), _X[::-1, :, ::-1]),
    "Slice": _one("Slice", _X, lambda p: hm.Slice(p, [0, 1, 0], [2, 3, 4], [1, 1, 2]), _X[:, 1:3, 0:4:2]),
    "Iota": _iota,
    "ConcatInDim": _concat,
    "Pad": _pad,
    "Tuple": _tuple,
    "GetTupleElement": _gte,
    "Dot": _dot,
    "DotGeneral": _dot_general,
    "Reduce": _reduce,
    "ReducePrecision": _reduce_precision,
    "Call": _call,
}
