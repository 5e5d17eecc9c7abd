"""Coverage samples of tokens, infeed/outfeed, channels, custom calls, OptimizationBarrier
and bounded dynamic shapes.

Infeed, Outfeed, Send and Recv run through the loaded module's queues (pass
``host-calls``): the Infeed and Recv samples put ``_X`` into the queue first. XLA CPU
does not run them: its infeed and recv wait for a host that PjRt does not expose.
"""

from __future__ import annotations

import numpy as np

import hlo_mlir as hm
from hlo_mlir import Parameter, Shape, XlaBuilder
from tests.op_samples import Sample

_X = np.array([1.5, -2.0, 0.25, 4.0], np.float32)
_V = np.arange(1, 11, dtype=np.float32)
_NO_HOST = "XLA's infeed/outfeed and channels need a host thread PjRt does not expose"
_SAMPLE_TARGET = "hlo_mlir_sample_softplus"


def _x(name: str):
    b = XlaBuilder(name)
    return b, Parameter(b, 0, Shape.from_numpy(_X))


def _after_all() -> Sample:
    b, x = _x("AfterAll")
    token = hm.AfterAll(b, [hm.CreateToken(b), hm.CreateToken(b)])
    ordered = hm.OptimizationBarrier(hm.Tuple(b, [x + 1.0, token]))
    return Sample(b.build(hm.GetTupleElement(ordered, 0)), (_X,), _X + 1)


def _infeed() -> Sample:
    b = XlaBuilder("Infeed")
    return Sample(b.build(hm.Infeed(b, Shape.from_numpy(_X)) * 2.0), (), _X * 2, no_xla=_NO_HOST,
                  prepare=lambda module: module.infeed.put(_X))


def _outfeed() -> Sample:
    b, x = _x("Outfeed")
    hm.Outfeed(x, Shape.from_numpy(_X), "")
    return Sample(b.build(x - 1.0), (_X,), _X - 1, no_xla=_NO_HOST)


def _send() -> Sample:
    b, x = _x("Send")
    hm.Send(x, hm.ChannelHandle(1))
    return Sample(b.build(x - 1.0), (_X,), _X - 1, no_xla=_NO_HOST)


def _recv() -> Sample:
    b = XlaBuilder("Recv")
    return Sample(b.build(hm.Recv(b, Shape.from_numpy(_X), hm.ChannelHandle(1)) * 2.0), (), _X * 2,
                  no_xla=_NO_HOST, prepare=lambda module: module.channel(1).put(_X))


def _custom_call() -> Sample:
    softplus = lambda b, ops, opaque: hm.Log1p(hm.Exp(ops[0]))
    hm.register_custom_call_target(_SAMPLE_TARGET, softplus, replace=True)
    b, x = _x("CustomCall")
    out = hm.CustomCall(b, _SAMPLE_TARGET, [x], Shape.from_numpy(_X))
    return Sample(b.build(out), (_X,), np.log1p(np.exp(_X)), rtol=1e-6,
                  no_xla="the target is registered with hlo-mlir only; XLA has no implementation of it")


def _optimization_barrier() -> Sample:
    b, x = _x("OptimizationBarrier")
    return Sample(b.build(hm.OptimizationBarrier(x * x) - x), (_X,), _X * _X - _X)


def _get_dimension_size() -> Sample:
    b, x = _x("GetDimensionSize")
    return Sample(b.build(hm.GetDimensionSize(x, 0)), (_X,), np.int32(4))


def _set_dimension_size() -> Sample:
    """The spec's example: the sum of set_dimension_size(v, 5) adds v[0..4] only."""
    add = XlaBuilder("add")
    s = Shape.parse("f32[]")
    add = add.build(hm.Add(Parameter(add, 0, s), Parameter(add, 1, s)))
    b = XlaBuilder("SetDimensionSize")
    v = Parameter(b, 0, Shape.from_numpy(_V))
    padded = hm.SetDimensionSize(v, Parameter(b, 1, Shape.parse("s32[]")), 0)
    return Sample(b.build(hm.Reduce(padded, hm.ConstantR0(b, np.float32(0)), add, [0])), (_V, np.int32(5)),
                  np.float32(15))


SAMPLES = {
    "AfterAll": _after_all,
    "Infeed": _infeed,
    "Outfeed": _outfeed,
    "Send": _send,
    "Recv": _recv,
    "CustomCall": _custom_call,
    "OptimizationBarrier": _optimization_barrier,
    "GetDimensionSize": _get_dimension_size,
    "SetDimensionSize": _set_dimension_size,
}
