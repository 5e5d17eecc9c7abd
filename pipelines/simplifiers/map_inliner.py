"""Map inlining (spec 004: Map inliner; XLA ``map_inliner.cc``).

XLA's MapInliner replaces a kMap whose computation is a single instruction by that
instruction applied to the whole arrays. On ``stablehlo.map`` (spec: Map,
``result[i] = computation(inputs...[i])``):

- a body that returns one of its arguments: the map is that operand (rule ``parameter``);
- a body of one element-wise op (``dialect_ops.op_facts.ELEMENTWISE_OPS``) on its
  arguments, the other operands of that op being scalar constants of the body or values
  the body captures: the map is that op on the map's operands, each scalar broadcast to
  the map's shape (rule ``elementwise``)::

    %m = "stablehlo.map"(%x, %y) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.subtract %b, %a : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
      ->
    %m = stablehlo.subtract %y, %x : tensor<2x3xf32>

- a body whose value reads no argument (XLA's constant root): a broadcast of that value,
  the rewrite of :mod:`pipelines.legalizations.map_invariant_body`, through the same
  :func:`pipelines.regions.hoist_invariant` (rule ``invariant``).

Conditions: ``dimensions`` are all the dimensions in order (what the spec requires), and
a broadcast scalar needs a result of static shape. Bodies of more than one non-constant
op stay maps (XLA inlines only single-instruction computations). Run ``algsimp`` and
``dce`` after it.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.op_facts import ELEMENTWISE_OPS
from dialect_ops.shape_ops import broadcast_in_dim
from hlo_mlir import _emit
from hlo_mlir.ir_access import attribute_dict, int_array
from pipelines.matchers import static_dims
from pipelines.pass_base import ExpanderPass
from pipelines.regions import clone_ops, hoist_invariant, invariant_slice
from pipelines.registry import register

__all__ = ["MapInliner"]


def _body(op) -> tuple[list, ir.Value]:
    """(the body's ops but its ``return``, the value it returns)."""
    *ops, terminator = op.regions[0].blocks[0].operations
    return ops, terminator.operands[0]


def _argument_index(op, value: ir.Value) -> int | None:
    """The index of ``value`` among the body's block arguments, or None."""
    args = list(op.regions[0].blocks[0].arguments)
    return next((i for i, a in enumerate(args) if a == value), None)


def _elementwise_root(op):
    """The body's one element-wise op when the body is that op and scalar constants it
    reads, each of its operands being an argument, a body constant or a captured value
    (those two only when the result's shape is static); None otherwise."""
    ops, value = _body(op)
    roots = [o for o in ops if o.operation.name != "stablehlo.constant"]
    if len(roots) != 1:
        return None
    root = roots[0]
    if root.operation.name not in ELEMENTWISE_OPS or len(root.results) != 1 or root.results[0] != value:
        return None
    scalars = [v for v in root.operands if _argument_index(op, v) is None]
    if scalars and static_dims(op.results[0]) is None:
        return None
    return root


@register
class MapInliner(ExpanderPass):
    """Replace maps whose body is one element-wise op, an argument or a constant by whole-tensor ops."""

    name = "map-inliner"
    acts_on = frozenset({"stablehlo.map"})

    def _rule(self, op) -> str | None:
        if op.operation.name != "stablehlo.map" or not op.regions[0].blocks:
            return None
        rank = ir.RankedTensorType(op.results[0].type).rank
        if int_array(op, "dimensions") != list(range(rank)):
            return None
        _, value = _body(op)
        index = _argument_index(op, value)
        if index is not None:
            return "parameter" if op.operands[index].type == op.results[0].type else None
        if invariant_slice(op.regions[0].blocks[0]) is not None:
            return "invariant" if static_dims(op.results[0]) is not None else None
        return "elementwise" if _elementwise_root(op) is not None else None

    def matches(self, op) -> bool:
        return self._rule(op) is not None

    def rule(self, op) -> str:
        return self._rule(op) or self.name

    def expand(self, op) -> Sequence[ir.Value]:
        """map(x..., (a...) -> f(a...)) -> f(x...)."""
        rule = self._rule(op)
        ops, value = _body(op)
        dims = static_dims(op.results[0]) or []  # static where a scalar is broadcast
        if rule == "parameter":
            return [op.operands[_argument_index(op, value) or 0]]
        if rule == "invariant":
            return [broadcast_in_dim(hoist_invariant(op.regions[0].blocks[0]), dims, [])]
        root = _elementwise_root(op)
        mapping = clone_ops([o for o in ops if o.operation.name == "stablehlo.constant"], {})
        operands = []
        for v in root.operands:
            index = _argument_index(op, v)
            operands.append(op.operands[index] if index is not None
                            else broadcast_in_dim(mapping.get(v, v), dims, []))
        result_type = op.results[0].type
        return [_emit.create(root.operation.name, operands, [result_type], attribute_dict(root)).result]
