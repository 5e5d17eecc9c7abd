"""gather-clamp: clamps gather start indices into bounds explicitly, as XLA defines them.

XLA (and the StableHLO spec) clamp each start index component ``k`` of a gather into
``[0, dim(operand, start_index_map[k]) - slice_sizes[start_index_map[k]]]``. The pinned
IREE does not: a row gather (``collapsed_slice_dims = [0]``, a whole-row slice) or a
scalar-index gather reads out of bounds for negative or too large indices
(ARCHITECTURE.md, defects). The clamp is a no-op on in-bounds indices::

    %r = "stablehlo.gather"(%operand, %idx) {start_index_map = [0, 2], index_vector_dim = 1, ...}

becomes::

    %lo = broadcast_in_dim(constant [0, 0], dims = [1])
    %hi = broadcast_in_dim(constant [d0 - s0, d2 - s2], dims = [1])
    %r = "stablehlo.gather"(%operand, clamp(%lo, %idx, %hi)) {same attributes, hlo_mlir.in_bounds}

The gather is a copy of the original with the clamped indices, so any operand element type
(quantized ones included: only the integer indices are touched) and every attribute stay.

Conditions: every gather not already marked ``hlo_mlir.in_bounds`` whose indices are not
a constant already in bounds, with a static operand shape and indices of an XLA integer
type. Upper bounds beyond the index type's range are cut to its maximum (no index of that
type can exceed them). Clamping is monotone, so ``indices_are_sorted`` stays true.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.elementwise import clamp
from hlo_mlir import _emit
from hlo_mlir.ir_access import GatherDimensions, gather_dimension_numbers, int_array
from pipelines.index_bounds import constant_in_bounds, is_marked, mark_in_bounds, vector_constant
from pipelines.matchers import element_dtype, known_dims, static_dims
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import scalar

__all__ = ["GatherClamp"]


def _gather_bounds(op) -> tuple[GatherDimensions, list[int]]:
    """The dimension numbers and per-component upper bounds of a gather (static operand)."""
    dn = gather_dimension_numbers(op)
    sizes = int_array(op, "slice_sizes")
    dims = known_dims(op.operands[0])
    return dn, [dims[d] - sizes[d] for d in dn.start_index_map]


@register
class GatherClamp(ExpanderPass):
    """Clamps gather start indices into the operand, as XLA does (IREE reads out of bounds)."""

    name = "gather-clamp"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.gather" or is_marked(op):
            return False
        operand, indices = op.operands
        if static_dims(operand) is None or element_dtype(indices) is None:
            return False
        dn, upper = _gather_bounds(op)
        return not constant_in_bounds(indices, dn.index_vector_dim, upper)

    def expand(self, op) -> Sequence[ir.Value]:
        indices = op.operands[1]
        dn, upper = _gather_bounds(op)
        shape = _emit.shape_of(indices)
        upper = [min(u, int(np.iinfo(shape.dtype).max)) for u in upper]
        vector_dim = min(dn.index_vector_dim, shape.rank - 1) if shape.rank else 0
        if dn.index_vector_dim == shape.rank:  # implicit trailing 1: one bound for every element
            lo, hi = (scalar(v, shape.element_type) for v in (0, upper[0]))
        else:
            lo, hi = (vector_constant(v, shape.element_type, shape.dimensions, vector_dim)
                      for v in ([0] * len(upper), upper))
        clamped = clamp(lo, indices, hi)
        copy = op.operation.clone()  # at the insertion point: every attribute and type as they were
        copy.operands[1] = clamped
        return [mark_in_bounds(copy.results[0])]
