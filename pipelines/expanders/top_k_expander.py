"""top-k-expander: ``chlo.top_k`` as a sort by XLA's total order and a slice.

The pinned IREE's ``chlo.top_k`` returns equal values highest index first, compares
floats with IEEE ``>`` (NaNs never rank) and ties -0.0 with +0.0. XLA ranks by the
total order ``-NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN`` (TopkDecomposer),
equal values lowest index first::

    %v, %i = chlo.top_k(%x, k = K) : tensor<... x n x T> -> (tensor<... x K x T>, tensor<... x K x i32>)

becomes::

    %s:2 = "stablehlo.sort"(%x, iota(last dim)) ({
      GT_totalorder(a, b) || (EQ_totalorder(a, b) && i_a < i_b)
    }) {dimension = last}
    %v = slice %s#0 [..., 0:K]; %i = slice %s#1 [..., 0:K]

Conditions: none (every element type has ties). Run ``sort-network-expander``
afterwards for long last dimensions.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.sorting import top_k_by_sort
from hlo_mlir.ir_access import int_attr
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["TopKExpander"]


@register
class TopKExpander(ExpanderPass):
    """Rewrites chlo.top_k into a total-order sort and a slice, as XLA does."""

    name = "top-k-expander"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        return op.operation.name == "chlo.top_k"

    def expand(self, op) -> Sequence[ir.Value]:
        return top_k_by_sort(op.operands[0], int_attr(op, "k"), largest=True)
