"""HLO get dimension size rewriter (spec 004; XLA ``hlo_get_dimension_size_rewriter.cc``).

``get_dimension_size`` of a static dimension is that size, a constant; of a dynamic
dimension whose size was set by a ``set_dimension_size`` (reached through element-wise
ops and through ``set_dimension_size`` of other dimensions, XLA's dynamic dimension
inference for these ops), the size that op was given::

    %g = stablehlo.get_dimension_size %x, dim = 1 : (tensor<?x3xf32, ...>) -> tensor<i32>   ->  constant 3
    %d = stablehlo.set_dimension_size %x, %n, dim = 0
    %e = stablehlo.exponential %d
    %g = stablehlo.get_dimension_size %e, dim = 0                                          ->  %n

The size "as given" is XLA's answer (``get_dimension_size`` reads it unclamped, also
outside ``[0, bound]``); after ``set-dimension-size-clamp`` the given size is the clamp's
operand. That legalization answers a ``get_dimension_size`` directly of a
``set_dimension_size`` the same way; read through other ops, IREE alone returns the
clamped size, and this pass gives XLA's.

XLA's pass also drops every ``set_dimension_size`` after the dynamic padder has masked
the padding; on StableHLO that changes the value's type (bounded to static) and its
readers' answers (a reduce over a bounded dimension reads only the valid elements), so
``set_dimension_size`` stays.

Conditions: a static dimension, or a dynamic one traced as above; other dynamic
dimensions (function arguments, other ops) are read at run time, as before.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.op_facts import ELEMENTWISE_OPS
from hlo_mlir.ir_access import int_attr
from hlo_mlir.types import PrimitiveType
from pipelines.index_bounds import given_size
from pipelines.matchers import defining_op
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import scalar

__all__ = ["HloGetDimensionSizeRewriter"]

_DYNAMIC = ir.ShapedType.get_dynamic_size()


def _size_source(value: ir.Value, dim: int) -> ir.Value | None:
    """The value that holds the run-time size of dimension ``dim`` of ``value``, or None."""
    while True:
        op = defining_op(value)
        if op is None:
            return None
        name = op.operation.name
        if name == "stablehlo.set_dimension_size":
            if int_attr(op, "dimension") == dim:
                return given_size(op)
            value = op.operands[0]
        elif name in ELEMENTWISE_OPS:
            value = next((v for v in op.operands if _is_dynamic(v, dim)), None)
            if value is None:
                return None
        else:
            return None


def _is_dynamic(value: ir.Value, dim: int) -> bool:
    t = value.type
    return isinstance(t, ir.RankedTensorType) and t.rank > dim and t.shape[dim] == _DYNAMIC


@register
class HloGetDimensionSizeRewriter(ExpanderPass):
    """Replace get_dimension_size of static dimensions with constants and of set sizes with the size given."""

    name = "hlo-get-dimension-size-rewriter"

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.get_dimension_size":
            return False
        operand, dim = op.operands[0], int_attr(op, "dimension")
        if not isinstance(operand.type, ir.RankedTensorType):
            return False
        return not _is_dynamic(operand, dim) or _size_source(operand, dim) is not None

    def rule(self, op) -> str:
        dynamic = _is_dynamic(op.operands[0], int_attr(op, "dimension"))
        return "dynamic-dimension" if dynamic else "static-dimension"

    def expand(self, op) -> Sequence[ir.Value]:
        operand, dim = op.operands[0], int_attr(op, "dimension")
        if _is_dynamic(operand, dim):
            return [_size_source(operand, dim)]
        return [scalar(ir.RankedTensorType(operand.type).shape[dim], PrimitiveType.S32)]
