"""Batch dot simplification (spec 004: Batch dot simplification; XLA
``batch_dot_simplification.cc``).

Removes the degenerate (size 1) batch dimensions of a ``dot_general``: each operand is
reshaped without them, the dot runs on fewer batch dimensions, and a reshape puts the
unit dimensions back into the result::

    %r = stablehlo.dot_general %x, %y, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2]
        : (tensor<1x2x3x4xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x3x5xf32>

becomes ::

    %x2 = stablehlo.reshape %x : (tensor<1x2x3x4xf32>) -> tensor<2x3x4xf32>
    %y2 = stablehlo.reshape %y : (tensor<1x2x4x5xf32>) -> tensor<2x4x5xf32>
    %d = stablehlo.dot_general %x2, %y2, batching_dims = [0] x [0], contracting_dims = [2] x [1]
    %r = stablehlo.reshape %d : (tensor<2x3x5xf32>) -> tensor<1x2x3x5xf32>

Exact: reshapes that drop or insert unit dimensions move no element, and the dot sums
the same products; the result element type and precision config are kept.

XLA rewrites only dots whose batch dimensions are ``0..n-1`` on both sides with one
contracting dimension; this pass drops every size-1 batch pair wherever its dimensions
are and whatever the contracting dimensions (``xla-conditions`` keeps to XLA's). Static
shapes of XLA element types only. It reaches its fixed point in one run; run
``dot-decomposer`` after it and ``algsimp`` to merge the reshapes with their neighbours.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from iree.compiler import ir

from dialect_ops.linalg import DotDimensionNumbers
from dialect_ops.shape_ops import reshape
from pipelines.contractions import dot_dims, rebuildable, rebuilt_dot, renumbered
from pipelines.matchers import known_dims
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["BatchDotSimplification"]


def _without(value: ir.Value, dropped: Sequence[int]) -> ir.Value:
    """``value`` reshaped without its (unit) dimensions ``dropped``."""
    return reshape(value, [s for d, s in enumerate(known_dims(value)) if d not in dropped])


@register
@dataclasses.dataclass
class BatchDotSimplification(ExpanderPass):
    """Remove size-1 batch dimensions from dot_general, with reshapes around it."""

    name = "batch-dot-simplification"
    acts_on = frozenset({"stablehlo.dot_general"})
    xla_conditions: bool = dataclasses.field(
        default=False, metadata={"help": "only dots with batch dimensions 0..n-1 on both sides and one "
                                         "contracting dimension (XLA's conditions)"})

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.dot_general" or not rebuildable(op):
            return False
        dnums = dot_dims(op)
        if self.xla_conditions:
            iota = tuple(range(len(dnums.lhs_batch_dimensions)))
            if (dnums.lhs_batch_dimensions != iota or dnums.rhs_batch_dimensions != iota
                    or len(dnums.lhs_contracting_dimensions) != 1):
                return False
        return bool(self._degenerate(op, dnums))

    @staticmethod
    def _degenerate(op, dnums: DotDimensionNumbers) -> list[int]:
        """The positions in the batch dimension lists whose size is 1."""
        ldims = known_dims(op.operands[0])
        return [i for i, d in enumerate(dnums.lhs_batch_dimensions) if ldims[d] == 1]

    def expand(self, op) -> Sequence[ir.Value]:
        """dot(x, y) -> reshape(dot(reshape(x), reshape(y))) without the unit batch pairs;
        every other dimension number renumbered for the operands that lost them."""
        dnums = dot_dims(op)
        gone = self._degenerate(op, dnums)
        lgone = [dnums.lhs_batch_dimensions[i] for i in gone]
        rgone = [dnums.rhs_batch_dimensions[i] for i in gone]
        kept = [i for i in range(len(dnums.lhs_batch_dimensions)) if i not in gone]
        new = DotDimensionNumbers(
            renumbered(dnums.lhs_contracting_dimensions, lgone),
            renumbered(dnums.rhs_contracting_dimensions, rgone),
            renumbered([dnums.lhs_batch_dimensions[i] for i in kept], lgone),
            renumbered([dnums.rhs_batch_dimensions[i] for i in kept], rgone))
        lhs, rhs = op.operands
        value = rebuilt_dot(op, _without(lhs, lgone), _without(rhs, rgone), new)
        return [reshape(value, known_dims(op.results[0]))]
