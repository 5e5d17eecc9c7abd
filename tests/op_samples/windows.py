"""Coverage samples of the window family: ReduceWindow and SelectAndScatter."""

from __future__ import annotations

import numpy as np

from hlo_mlir import Add, ConstantR0, Ge, Max, Parameter, ReduceWindow, SelectAndScatter, Shape, XlaBuilder
from tests.op_samples import Sample


def _scalar_computation(name, fn):
    b = XlaBuilder(name)
    fn(Parameter(b, 0, Shape.parse("f32[]")), Parameter(b, 1, Shape.parse("f32[]")))
    return b.build()


def _reduce_window() -> Sample:
    """The spec's example: max over 2x3 windows with strides 2x3 of a 4x6 matrix."""
    x = np.random.default_rng(0).uniform(-5, 5, (4, 6)).astype(np.float32)
    b = XlaBuilder("ReduceWindow")
    p = Parameter(b, 0, Shape.from_numpy(x))
    comp = b.build(ReduceWindow(p, ConstantR0(b, np.float32(-np.inf)), _scalar_computation("max", Max),
                                [2, 3], [2, 3], "VALID"))
    return Sample(comp, (x,), x.reshape(2, 2, 2, 3).max(axis=(1, 3)))


def _select_and_scatter() -> Sample:
    """Max-pool gradient with tied maxima: each source value goes to the FIRST maximum of its
    window (needs select-and-scatter-expander before IREE, which picks the last)."""
    x = np.array([[1, 5, 5, 2, 7, 7], [5, 0, 1, 2, 0, 1]], np.float32)
    source = np.array([[10, 20]], np.float32)
    b = XlaBuilder("SelectAndScatter")
    p, s = Parameter(b, 0, Shape.from_numpy(x)), Parameter(b, 1, Shape.from_numpy(source))
    comp = b.build(SelectAndScatter(p, _scalar_computation("ge", Ge), [2, 3], [2, 3], "VALID", s,
                                    ConstantR0(b, np.float32(0)), _scalar_computation("add", Add)))
    expected = np.zeros_like(x)
    expected[0, 1], expected[0, 4] = 10, 20
    return Sample(comp, (x, source), expected)


SAMPLES = {"ReduceWindow": _reduce_window, "SelectAndScatter": _select_and_scatter}
