"""Reduction layout normalizer (spec 004: Reduction layout normalizer; XLA
``ReductionLayoutNormalizer``).

XLA's pass gives a reduce operand a layout in which its logical and physical dimension
orders agree, so its reduction emitters see one canonical form. StableHLO arrays have
no layout; the counterpart here is the canonical *dimension order*: the operand is
transposed so that the kept dimensions come first and the reduced dimensions last
(each group in its order), making every reduce a row reduction::

    %r = stablehlo.reduce(%x init: %c) applies stablehlo.minimum across dimensions = [0]
           : (tensor<4x3xi32>, tensor<i32>) -> tensor<3xi32>

becomes ::

    %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<4x3xi32>) -> tensor<3x4xi32>
    %r = stablehlo.reduce(%t init: %c) applies stablehlo.minimum across dimensions = [1]
           : (tensor<3x4xi32>, tensor<i32>) -> tensor<3xi32>

The result keeps its dimension order (kept dimensions stay in order) and each result
reduces the same elements in the same row-major order, but IREE combines them along
another loop nest, so the rewrite applies only where that cannot change the answer
(``pipelines.reductions``): a single-operand reduce whose reducer is one
``maximum``/``minimum`` (any type) or one integer/PRED ``add``/``multiply``/``and``/
``or``/``xor``; float or complex ``add``/``multiply`` only with ``reassociate=true``.
Reduces already in that order (or over no dimension) are left alone. Conditions: static
shapes of XLA element types. transpose-folding and algsimp may fold the transpose into
its producer afterwards.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from iree.compiler import ir

from dialect_ops.reduction import reduce
from dialect_ops.shape_ops import transpose
from pipelines.matchers import known_dims
from pipelines.pass_base import ExpanderPass
from pipelines.reductions import reassociation_exact, reduced_dimensions, rewritable_reduce
from pipelines.regions import copy_of
from pipelines.registry import register

__all__ = ["ReductionLayoutNormalizer", "reduced_last"]


def reduced_last(rank: int, reduced: Sequence[int]) -> list[int]:
    """The permutation that puts the kept dimensions first and the ``reduced`` ones last."""
    return [d for d in range(rank) if d not in reduced] + sorted(reduced)


@register
@dataclasses.dataclass
class ReductionLayoutNormalizer(ExpanderPass):
    """Transpose reduce operands so that the reduced dimensions are the innermost ones."""

    name = "reduction-layout-normalizer"
    acts_on = frozenset({"stablehlo.reduce"})
    reassociate: bool = dataclasses.field(
        default=False, metadata={"help": "also normalize float/complex add and multiply reductions "
                                         "(changes rounding)"})

    def matches(self, op) -> bool:
        if not (rewritable_reduce(op) and reassociation_exact(op, self.reassociate)):
            return False
        rank = len(known_dims(op.operands[0]))
        return reduced_last(rank, reduced_dimensions(op)) != list(range(rank))

    def rule(self, op) -> str:
        return "reduced-dimensions-last"

    def expand(self, op) -> Sequence[ir.Value]:
        x, init = op.operands
        rank, reduced = len(known_dims(x)), reduced_dimensions(op)
        dims = list(range(rank - len(reduced), rank))
        return reduce([transpose(x, reduced_last(rank, reduced))], [init], dims,
                      copy_of(op.regions[0].blocks[0]))
