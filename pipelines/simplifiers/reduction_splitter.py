"""Reduction splitter (spec 004: Reduction splitter; XLA ``ReductionSplitter``).

A reduce whose reduced dimensions and kept dimensions both are non-contiguous (neither
a reduction *from* nor *to* contiguous dimensions, which XLA's reduction emitters handle
directly) becomes a chain of reduces: the largest reduced dimension first (it shrinks
the intermediate most), then the rest, until what is left is contiguous::

    %r = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [0, 2]
           : (tensor<8x3x16x5xi32>, tensor<i32>) -> tensor<3x5xi32>

becomes ::

    %p = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [2]
           : (tensor<8x3x16x5xi32>, tensor<i32>) -> tensor<8x3x5xi32>
    %r = stablehlo.reduce(%p init: %c) applies stablehlo.add across dimensions = [0]
           : (tensor<8x3x5xi32>, tensor<i32>) -> tensor<3x5xi32>

Splitting regroups the elements and applies the init once per partial result. It is
done only where neither changes the answer (``pipelines.reductions``): a single-operand
reduce whose reducer is one ``maximum``/``minimum`` (any type) or one integer/PRED
``add``/``multiply``/``and``/``or``/``xor``, with an init that may repeat (the op's
identity, any value of an idempotent op, ``+0.0`` for a float add). A float or complex
``add``/``multiply`` rounds differently when regrouped (XLA splits it on GPU anyway):
split only with ``reassociate=true``. Conditions: static shapes of XLA element types.
Run reduction-dimension-grouper first (XLA's precondition): adjacent reduced dimensions
then count as one.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from iree.compiler import ir

from dialect_ops.reduction import reduce
from pipelines.contractions import renumbered
from pipelines.matchers import known_dims
from pipelines.pass_base import ExpanderPass
from pipelines.reductions import (
    init_repeats_safely,
    reassociation_exact,
    reduced_dimensions,
    rewritable_reduce,
)
from pipelines.regions import copy_of
from pipelines.registry import register

__all__ = ["ReductionSplitter", "contiguous_reduction"]


def _contiguous(dims: Sequence[int]) -> bool:
    return not dims or list(dims) == list(range(dims[0], dims[-1] + 1))


def contiguous_reduction(rank: int, reduced: Sequence[int]) -> bool:
    """XLA's IsReductionFromOrToContiguousDimensions without layouts: the reduced
    (ascending) or the kept dimensions are one run of adjacent dimensions."""
    return _contiguous(reduced) or _contiguous([d for d in range(rank) if d not in reduced])


@register
@dataclasses.dataclass
class ReductionSplitter(ExpanderPass):
    """Split a reduce over non-contiguous dimensions into reduces, the largest dimension first."""

    name = "reduction-splitter"
    acts_on = frozenset({"stablehlo.reduce"})
    reassociate: bool = dataclasses.field(
        default=False, metadata={"help": "also split float/complex add and multiply reductions "
                                         "(changes rounding)"})

    def matches(self, op) -> bool:
        if not (rewritable_reduce(op) and reassociation_exact(op, self.reassociate)
                and init_repeats_safely(op)):
            return False
        reduced = reduced_dimensions(op)
        return len(reduced) >= 2 and not contiguous_reduction(len(known_dims(op.operands[0])), reduced)

    def rule(self, op) -> str:
        return "split-reduction"

    def expand(self, op) -> Sequence[ir.Value]:
        x, init = op.operands
        body = op.regions[0].blocks[0]
        sizes, reduced = known_dims(x), reduced_dimensions(op)
        while len(reduced) >= 2 and not contiguous_reduction(len(sizes), reduced):
            first = max(reduced, key=lambda d: sizes[d])  # the first of equal sizes, as XLA
            (x,) = reduce([x], [init], [first], copy_of(body))
            sizes = sizes[:first] + sizes[first + 1:]
            reduced = list(renumbered([d for d in reduced if d != first], [first]))
        return reduce([x], [init], reduced, copy_of(body))
