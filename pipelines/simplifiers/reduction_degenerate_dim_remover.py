"""Reduction degenerate dim remover (spec 004: Reduction degenerate dim remover; XLA
``ReductionDegenerateDimRemover``).

A reduce whose operands have size-1 dimensions reads them through a reshape that drops
them, reduces the smaller array and reshapes the result back when a kept dimension was
size 1::

    %r = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [0, 2]
           : (tensor<1x4x5x1xf32>, tensor<f32>) -> tensor<4x1xf32>

becomes ::

    %x2 = stablehlo.reshape %x : (tensor<1x4x5x1xf32>) -> tensor<4x5xf32>
    %r2 = stablehlo.reduce(%x2 init: %c) applies stablehlo.add across dimensions = [1]
           : (tensor<4x5xf32>, tensor<f32>) -> tensor<4xf32>
    %r = stablehlo.reshape %r2 : (tensor<4xf32>) -> tensor<4x1xf32>

A size-1 dimension adds no element to any reduction and the others keep their
row-major order, so every result combines the same elements in the same order with
the init value once: exact for every reducer, variadic ones included. When every
reduced dimension has size 1, each result is its element combined with the init:
XLA turns the reduce into a bitcast, which drops the init; here that happens only
when the init is the reducer's identity (``-0.0`` for a float add; rule
``unit-reduce-to-reshape``); otherwise one size-1 reduced dimension stays so that the
init is still applied once (rule ``drop-unit-dimensions``, like the general case).
Conditions: static shapes of XLA element types, inputs of their init's type.

Run algsimp after it to fold the reshapes into neighbouring reshapes.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.reduction import reduce
from dialect_ops.shape_ops import reshape
from pipelines.contractions import renumbered
from pipelines.matchers import known_dims
from pipelines.pass_base import ExpanderPass
from pipelines.reductions import init_is_identity, reduced_dimensions, rewritable_reduce
from pipelines.regions import copy_of
from pipelines.registry import register

__all__ = ["ReductionDegenerateDimRemover"]


def _plan(op) -> tuple[list[int], bool]:
    """(the size-1 dimensions the rewrite drops, whether the reduce becomes a reshape)."""
    sizes = known_dims(op.operands[0])
    reduced = reduced_dimensions(op)
    units = [d for d in range(len(sizes)) if sizes[d] == 1]
    if reduced and all(sizes[d] == 1 for d in reduced):
        if init_is_identity(op):
            return units, True
        return [d for d in units if d != reduced[0]], False  # keeps the init applied once
    return units, False


@register
class ReductionDegenerateDimRemover(ExpanderPass):
    """Drop size-1 dimensions of reduce operands by reshapes around a smaller reduce."""

    name = "reduction-degenerate-dim-remover"
    acts_on = frozenset({"stablehlo.reduce"})

    def matches(self, op) -> bool:
        return rewritable_reduce(op) and bool(_plan(op)[0])

    def rule(self, op) -> str:
        return "unit-reduce-to-reshape" if _plan(op)[1] else "drop-unit-dimensions"

    def expand(self, op) -> Sequence[ir.Value]:
        dropped, to_reshape = _plan(op)
        n = len(op.results)
        inputs, inits = list(op.operands)[:n], list(op.operands)[n:]
        if to_reshape:
            return [reshape(inputs[0], known_dims(op.results[0]))]
        sizes = known_dims(inputs[0])
        kept_sizes = [s for d, s in enumerate(sizes) if d not in dropped]
        dims = renumbered([d for d in reduced_dimensions(op) if d not in dropped], dropped)
        results = reduce([reshape(x, kept_sizes) for x in inputs], inits, dims,
                         copy_of(op.regions[0].blocks[0]))
        return [r if r.type == old.type else reshape(r, known_dims(old))
                for r, old in zip(results, op.results, strict=True)]
