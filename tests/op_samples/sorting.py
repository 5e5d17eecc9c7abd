"""Coverage samples of the sorting family: Sort (keys and values, stable, with ties) and TopK.

Both need the sort legalizations (stable-sort-expander, top-k-expander) that
hlo_mlir.compile runs before IREE: IREE alone reorders ties.
"""

from __future__ import annotations

import numpy as np

from hlo_mlir import (
    CreateScalarLtComputation,
    GetTupleElement,
    Parameter,
    PrimitiveType,
    Shape,
    Sort,
    TopK,
    Tuple,
    XlaBuilder,
)
from tests.op_samples import Sample

_KEYS = np.array([[2.0, -1.0, 2.0, 0.5, -1.0, 2.0], [0.0, -0.0, 3.0, 0.0, 1.0, -2.0]], np.float32)
_VALUES = np.arange(12, dtype=np.int32).reshape(2, 6)


def _sort() -> Sample:
    b = XlaBuilder("Sort")
    k, v = Parameter(b, 0, Shape.from_numpy(_KEYS)), Parameter(b, 1, Shape.from_numpy(_VALUES))
    comp = b.build(Sort([k, v], CreateScalarLtComputation([PrimitiveType.F32, PrimitiveType.S32], b),
                        is_stable=True))
    # XLA's total order puts -0.0 before +0.0; equal keys keep their order (stable).
    order = np.lexsort((np.signbit(_KEYS) == 0, _KEYS), axis=-1)
    return Sample(comp, (_KEYS, _VALUES), (np.take_along_axis(_KEYS, order, -1),
                                          np.take_along_axis(_VALUES, order, -1)))


def _top_k() -> Sample:
    b = XlaBuilder("TopK")
    t = TopK(Parameter(b, 0, Shape.from_numpy(_KEYS)), 3)
    comp = b.build(Tuple(b, [GetTupleElement(t, 0), GetTupleElement(t, 1)]))
    order = np.lexsort((np.signbit(_KEYS), -_KEYS), axis=-1)[:, :3]  # greatest first, +0.0 before -0.0
    return Sample(comp, (_KEYS,), (np.take_along_axis(_KEYS, order, -1), order.astype(np.int32)))


SAMPLES = {"Sort": _sort, "TopK": _top_k}
