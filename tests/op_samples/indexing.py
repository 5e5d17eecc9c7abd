"""Coverage samples of the indexing family: DynamicSlice, DynamicUpdateSlice, Gather, Scatter.

Each uses out-of-range start indices, where XLA's semantics matter: DynamicSlice,
DynamicUpdateSlice and Gather clamp them; Scatter skips such updates (needs the
``gather-clamp`` / ``scatter-bounds`` expanders before IREE).
"""

from __future__ import annotations

import numpy as np

from hlo_mlir import (
    Add,
    DynamicSlice,
    DynamicUpdateSlice,
    Gather,
    GatherDimensionNumbers,
    Parameter,
    Scatter,
    ScatterDimensionNumbers,
    Shape,
    XlaBuilder,
)
from tests.builders import params
from tests.op_samples import Sample

_X = np.arange(12, dtype=np.float32).reshape(4, 3)


def _dynamic_slice() -> Sample:
    """Starts (3, -1) for a 2x2 slice of a 4x3 array clamp to (2, 0)."""
    i, j = np.int32(3), np.int32(-1)
    b = XlaBuilder("DynamicSlice")
    x, pi, pj = params(b, _X, i, j)
    return Sample(b.build(DynamicSlice(x, [pi, pj], [2, 2])), (_X, i, j), _X[2:4, 0:2])


def _dynamic_update_slice() -> Sample:
    """Starts (-5, 7) for a 2x2 update of a 4x3 array clamp to (0, 1)."""
    u, i, j = np.full((2, 2), -1, np.float32), np.int32(-5), np.int32(7)
    b = XlaBuilder("DynamicUpdateSlice")
    x, pu, pi, pj = params(b, _X, u, i, j)
    expected = _X.copy()
    expected[0:2, 1:3] = u
    return Sample(b.build(DynamicUpdateSlice(x, pu, [pi, pj])), (_X, u, i, j), expected)


def _gather() -> Sample:
    """Rows 2, -1 (clamped to 0) and 9 (clamped to 3)."""
    idx = np.array([[2], [-1], [9]], np.int32)
    b = XlaBuilder("Gather")
    x, pidx = params(b, _X, idx)
    comp = b.build(Gather(x, pidx, GatherDimensionNumbers([1], [0], [0], 1), [1, 3]))
    return Sample(comp, (_X, idx), _X[[2, 0, 3]])


def _scatter() -> Sample:
    """Add rows at 1, 1 (duplicates accumulate), -1 and 4 (out of bounds: skipped)."""
    idx = np.array([[1], [1], [-1], [4]], np.int32)
    u = np.arange(1, 13, dtype=np.float32).reshape(4, 3) * 100
    add = XlaBuilder("add")
    Add(Parameter(add, 0, Shape.parse("f32[]")), Parameter(add, 1, Shape.parse("f32[]")))
    b = XlaBuilder("Scatter")
    x, pidx, pu = params(b, _X, idx, u)
    comp = b.build(Scatter(x, pidx, pu, add.build(), ScatterDimensionNumbers([1], [0], [0], 1)))
    expected = _X.copy()
    expected[1] += u[0] + u[1]
    return Sample(comp, (_X, idx, u), expected)


SAMPLES = {"DynamicSlice": _dynamic_slice, "DynamicUpdateSlice": _dynamic_update_slice, "Gather": _gather,
           "Scatter": _scatter}
