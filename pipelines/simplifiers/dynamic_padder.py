"""Dynamic padder (spec 004: Dynamic padder; XLA ``dynamic_padder.cc``).

A bounded dynamic tensor made by ``set_dimension_size`` is its static operand, padding
included, with the size kept beside it: the tensor becomes static, and where an op would
read the padding, the padding is first reset to a value that does not change its answer
(XLA: "reset the padding to 0 before a bounded shape is consumed by a reduce-sum")::

    %d = stablehlo.set_dimension_size %x, %n, dim = 0 : (tensor<4x3xf32>, tensor<i32>) -> tensor<?x3xf32, ...>
    %e = stablehlo.exponential %d : tensor<?x3xf32, ...>
    %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [0, 1]
    %g = stablehlo.get_dimension_size %e, dim = 0

becomes::

    %e = stablehlo.exponential %x : tensor<4x3xf32>
    %valid = stablehlo.compare LT, iota(dim 0), broadcast(%n)      // the rows below the size
    %s = stablehlo.reduce(select(%valid, %e, broadcast(%zero)) init: %zero) ...
    %g = %n

Element-wise ops of the dynamic value are computed on the whole padded tensor (their
padding is never read); a ``reduce`` over the dynamic dimension reads its init value in
the padding; ``get_dimension_size`` of the dynamic dimension is the size, of another one
its static size. The mask ``iota < size`` is XLA's, so a size past the bound counts
every row and a negative one none (what ``set-dimension-size-clamp`` gives on IREE); the
size read back is the size as given (XLA's answer).

Exactness: the reduce gets the init value once per padding element; that keeps its
answer when the reducer is one associative element-wise op and the init is its identity,
an idempotent op's anything, or ``+0.0`` for a float add (``pipelines.reductions``:
``init_repeats_safely``). Float sums combine their valid elements as a reduce of the
padded shape does, in IREE's order for that shape.

Conditions: ``set_dimension_size`` of an operand static in every dimension; every op
reached from it, through element-wise ops whose tensor operands all come from it, is an
element-wise op, a ``get_dimension_size``, or a single-input ``reduce`` over the dynamic
dimension whose init repeats safely. Anything else (a result of the function, a
transpose, a dot, a reduce keeping the dynamic dimension...) leaves that
``set_dimension_size`` and its readers unchanged: IREE runs them as dynamic tensors.
"""

from __future__ import annotations

import numpy as np
from iree.compiler import ir

from dialect_ops.elementwise import compare, select
from dialect_ops.op_facts import ELEMENTWISE_OPS
from dialect_ops.shape_ops import broadcast_in_dim, iota
from hlo_mlir import _emit
from hlo_mlir.ir_access import int_array, int_attr
from hlo_mlir.types import PrimitiveType
from pipelines.index_bounds import given_size
from pipelines.matchers import ops_where
from pipelines.pass_base import Pass
from pipelines.reductions import init_repeats_safely
from pipelines.registry import register
from pipelines.values import scalar

__all__ = ["DynamicPadder"]


class _Region:
    """The values computed from one ``set_dimension_size`` and the ops that read them."""

    def __init__(self, op):
        self.source = op
        self.dim = int_attr(op, "dimension")
        self.static_type = op.operands[0].type
        self.values: list[ir.Value] = []  # dynamic values to retype, in definition order
        self.sizes: list = []  # get_dimension_size ops
        self.reduces: list = []  # reduce ops over the dynamic dimension

    def collect(self) -> bool:
        """Walks the readers; False when one of them is not one the pass handles."""
        members = {self.source.results[0]}
        pending = [self.source.results[0]]
        elementwise: dict = {}
        while pending:
            value = pending.pop()
            for use in value.uses:
                user = use.owner
                name = user.operation.name
                if name == "stablehlo.get_dimension_size":
                    self.sizes.append(user)
                elif name == "stablehlo.reduce" and self._reduces_dynamic(user):
                    self.reduces.append(user)
                elif name in ELEMENTWISE_OPS and len(user.results) == 1:
                    elementwise[user.operation] = user
                    result = user.results[0]
                    if result not in members:
                        members.add(result)
                        pending.append(result)
                else:
                    return False
        for user in elementwise.values():
            tensors = [v for v in user.operands if ir.RankedTensorType(v.type).rank > 0]
            if any(v not in members for v in tensors) or user.results[0].type == self.static_type:
                return False
        self.values = [self.source.results[0]] + [u.results[0] for u in elementwise.values()]
        return True

    def _reduces_dynamic(self, op) -> bool:
        return (len(op.operands) == 2 and self.dim in int_array(op, "dimensions")
                and init_repeats_safely(op))

    def pad(self) -> None:
        """Makes the region static: sizes read back, padding masked before each reduce."""
        size = given_size(self.source)
        for op in self.sizes:
            dim = int_attr(op, "dimension")
            with ir.InsertionPoint(op), op.location:
                value = size if dim == self.dim else scalar(
                    ir.RankedTensorType(self.static_type).shape[dim], PrimitiveType.S32)
            op.results[0].replace_all_uses_with(value)
            op.operation.erase()
        source = self.source.results[0]
        for value in self.values[1:]:
            value.set_type(_static_like(value.type, self.static_type))
        source.replace_all_uses_with(self.source.operands[0])
        self.source.operation.erase()
        for op in self.reduces:
            with ir.InsertionPoint(op), op.location:
                operand, init = op.operands
                op.operands[0] = _masked(operand, init, size, self.dim)


def _static_like(dynamic: ir.Type, static: ir.Type) -> ir.Type:
    """``dynamic``'s element type in ``static``'s shape (an element-wise op may change the
    element type: compare, convert)."""
    return ir.RankedTensorType.get(list(ir.RankedTensorType(static).shape),
                                   ir.RankedTensorType(dynamic).element_type, loc=ir.Location.unknown())


def _masked(value: ir.Value, init: ir.Value, size: ir.Value, dim: int) -> ir.Value:
    """``value`` with the init value where ``iota(dim) >= size``."""
    shape = _emit.shape_of(value)
    index = iota(shape.with_element_type(np.int32), dim)
    valid = compare(index, broadcast_in_dim(size, shape.dimensions, []), "LT", "SIGNED")
    return select(valid, value, broadcast_in_dim(init, shape.dimensions, []))


@register
class DynamicPadder(Pass):
    """Make bounded dynamic tensors static, masking their padding before reduces (XLA's DynamicPadder)."""

    name = "dynamic-padder"

    def run(self, module: ir.Module) -> bool:
        changed = False
        with module.context:
            for op in ops_where(module, _padded_source):
                region = _Region(op)
                if region.collect():
                    region.pad()
                    self.record("padded")
                    self.record("masked-reduce", len(region.reduces)) if region.reduces else None
                    self.record("size-read", len(region.sizes)) if region.sizes else None
                    changed = True
        return changed


def _padded_source(op) -> bool:
    if op.name != "stablehlo.set_dimension_size":
        return False
    t = ir.RankedTensorType(op.operands[0].type)
    return t.has_static_shape

