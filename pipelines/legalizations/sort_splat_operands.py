"""sort-splat-operands: a sort operand broadcast from a scalar reaches IREE behind an
optimization barrier.

The pinned IREE crashes (SIGSEGV) compiling a multi-operand sort (such as the one
``stable-sort-expander`` makes of every stable sort) when an operand is a
``broadcast_in_dim`` of a rank-0 value::

    %k = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<i32>) -> tensor<1x3xi32>
    %r:2 = "stablehlo.sort"(%k, %iota) ({...}) {dimension = 1}

becomes::

    %k = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<i32>) -> tensor<1x3xi32>
    %b = stablehlo.optimization_barrier %k : tensor<1x3xi32>
    %r:2 = "stablehlo.sort"(%b, %iota) ({...}) {dimension = 1}

The barrier keeps IREE from fusing the broadcast into the sort and costs a copy at most.
Conditions: a ``stablehlo.sort`` operand defined by a ``broadcast_in_dim`` whose operand
has rank 0 (broadcasts of higher rank, splat constants and computed operands compile and
are left alone). Run it after ``stable-sort-expander`` and the other sort legalizations.
"""

from __future__ import annotations

from iree.compiler import ir

from pipelines.matchers import defining_op, op_name
from pipelines.operand_fences import OperandFencePass
from pipelines.registry import register

__all__ = ["SortSplatOperands"]


def _broadcast_of_scalar(value: ir.Value) -> bool:
    if op_name(value) != "stablehlo.broadcast_in_dim":
        return False
    source = defining_op(value).operands[0].type
    return isinstance(source, ir.RankedTensorType) and source.rank == 0


@register
class SortSplatOperands(OperandFencePass):
    """Puts sort operands broadcast from a scalar behind a barrier (IREE crashes on them)."""

    name = "sort-splat-operands"
    legalizes_for_iree = True

    op_names = ("stablehlo.sort",)
    rule_name = "fence-splat-operand"

    def fences(self, op, index: int, value: ir.Value) -> bool:
        return _broadcast_of_scalar(value)
