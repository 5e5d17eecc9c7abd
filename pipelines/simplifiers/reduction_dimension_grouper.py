"""Reduction dimension grouper (spec 004: Reduction dimension grouper; XLA
``ReductionDimensionGrouper``).

Adjacent reduced dimensions of a reduce operand merge into one by a reshape, so the
reduce has at most one reduced dimension between kept ones::

    %r = stablehlo.reduce(%x init: %c) applies stablehlo.maximum across dimensions = [1, 2]
           : (tensor<2x3x4x5xf32>, tensor<f32>) -> tensor<2x5xf32>

becomes ::

    %x2 = stablehlo.reshape %x : (tensor<2x3x4x5xf32>) -> tensor<2x12x5xf32>
    %r = stablehlo.reduce(%x2 init: %c) applies stablehlo.maximum across dimensions = [1]
           : (tensor<2x12x5xf32>, tensor<f32>) -> tensor<2x5xf32>

The reshape keeps the row-major order of the elements each result reduces, but the
order in which IREE combines them follows the new loop nest, so the rewrite applies
only where that cannot change the answer (``pipelines.reductions``): a single-operand
reduce whose reducer is one ``maximum``/``minimum`` (any type) or one integer/PRED
``add``/``multiply``/``and``/``or``/``xor``. A float or complex ``add``/``multiply``
(which rounds differently when regrouped, as XLA accepts on GPU) is grouped only with
``reassociate=true``. Conditions: static shapes of XLA element types.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from iree.compiler import ir

from dialect_ops.reduction import reduce
from dialect_ops.shape_ops import reshape
from pipelines.matchers import known_dims
from pipelines.pass_base import ExpanderPass
from pipelines.reductions import reassociation_exact, reduced_dimensions, rewritable_reduce
from pipelines.regions import copy_of
from pipelines.registry import register

__all__ = ["ReductionDimensionGrouper", "grouped"]


def grouped(sizes: Sequence[int], reduced: Sequence[int]) -> tuple[list[int], list[int]]:
    """(sizes, reduced dimensions) with each run of adjacent reduced dimensions merged."""
    new_sizes: list[int] = []
    new_reduced: list[int] = []
    for d, size in enumerate(sizes):
        if d in reduced and d - 1 in reduced:
            new_sizes[-1] *= size
            continue
        if d in reduced:
            new_reduced.append(len(new_sizes))
        new_sizes.append(size)
    return new_sizes, new_reduced


@register
@dataclasses.dataclass
class ReductionDimensionGrouper(ExpanderPass):
    """Merge adjacent reduced dimensions of a reduce operand with a reshape."""

    name = "reduction-dimension-grouper"
    acts_on = frozenset({"stablehlo.reduce"})
    reassociate: bool = dataclasses.field(
        default=False, metadata={"help": "also group float/complex add and multiply reductions "
                                         "(changes rounding)"})

    def matches(self, op) -> bool:
        if not (rewritable_reduce(op) and reassociation_exact(op, self.reassociate)):
            return False
        reduced = reduced_dimensions(op)
        return any(d + 1 in reduced for d in reduced)

    def rule(self, op) -> str:
        return "group-adjacent-dimensions"

    def expand(self, op) -> Sequence[ir.Value]:
        x, init = op.operands
        sizes, reduced = grouped(known_dims(x), reduced_dimensions(op))
        return reduce([reshape(x, sizes)], [init], reduced, copy_of(op.regions[0].blocks[0]))
