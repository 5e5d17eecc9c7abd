"""map-invariant-body: a map whose body does not read its arguments becomes a broadcast.

The pinned IREE sums such a map wrongly when a reduction reads it: a map of
``f32[3,6]`` whose body returns the constant 4 gives 4 on its own, but a
``reduce(add)`` of it gives 8 instead of 72, also with a negate in between (fuzz seed
20261126 program 7365; a body that reads its argument is summed right). Such a map is
the body's value at every position (spec: Map, ``result[i] = computation(inputs...[i])``)::

    %m = "stablehlo.map"(%x) ({
    ^bb0(%a: tensor<f32>):
      %c = stablehlo.constant dense<4.0> : tensor<f32>
      %unused = stablehlo.compare NE, %c, %a
      stablehlo.return %c : tensor<f32>
    }) {dimensions = [0, 1]} : (tensor<3x6xf32>) -> tensor<3x6xf32>

becomes::

    %c = stablehlo.constant dense<4.0> : tensor<f32>
    %m = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<3x6xf32>

Only the ops the returned value depends on are copied out of the body (the unused
compare is not). Conditions: the result has a static shape and the returned value
depends on no block argument and on no op with regions. Run algsimp after it to fold the
broadcast into its users.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.shape_ops import broadcast_in_dim
from pipelines.matchers import static_dims
from pipelines.pass_base import ExpanderPass
from pipelines.regions import hoist_invariant, invariant_slice
from pipelines.registry import register

__all__ = ["MapInvariantBody"]


@register
class MapInvariantBody(ExpanderPass):
    """Maps whose body ignores its arguments become a broadcast of the body's value (IREE mis-sums them)."""

    name = "map-invariant-body"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.map" or static_dims(op.results[0]) is None:
            return False
        return invariant_slice(op.regions[0].blocks[0]) is not None

    def expand(self, op) -> Sequence[ir.Value]:
        """map(x..., () -> v) -> broadcast_in_dim(v, shape(result), [])."""
        value = hoist_invariant(op.regions[0].blocks[0])  # invariant: checked by matches
        return [broadcast_in_dim(value, static_dims(op.results[0]) or [], [])]
