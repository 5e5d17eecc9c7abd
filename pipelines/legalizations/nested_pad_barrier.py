"""nested-pad-barrier: a pad reads a pad with a run-time padding value through an
optimization barrier.

The pinned IREE fails to compile a pad of a computed value padded with a run-time
padding value (a parameter) and then padded again with another value: it fuses both
pads and the producer into one dispatch, where the inner pad's splat is a read-only
binding copied into a stack buffer outside the distributed loop ("'linalg.generic' op
write affecting operations on global resources are restricted to workgroup distributed
contexts"). ``scatter-bounds`` makes such a pad: it pads a scatter's operand by one
element for the out-of-bounds updates, so ``Scatter(Pad(Convert(x), p), ...)`` failed
(fuzz seed 20261127 program 734)::

    %c = stablehlo.convert %x : (tensor<5xf16>) -> tensor<5xbf16>
    %1 = stablehlo.pad %c, %p, low = [0], high = [2], interior = [0]
    %2 = stablehlo.pad %1, %zero, low = [0], high = [1], interior = [0]

becomes::

    %b = stablehlo.optimization_barrier %1 : tensor<7xbf16>
    %2 = stablehlo.pad %b, %zero, low = [0], high = [1], interior = [0]

The inner pad is then a dispatch of its own and the outer one reads a buffer; a barrier
changes no value. The inner pad's operand being a parameter, its padding value a
constant (IREE folds it), or another op between the pads (a negate) compile right;
reshapes and the other views ``inplace-operand-copy`` looks through do not separate
them, so the walk looks through them too. Run it after ``scatter-bounds`` and
``reduce-window-padding``, which make pads.
"""

from __future__ import annotations

from iree.compiler import ir

from pipelines.legalizations.inplace_operand_copy import run_time_value, through_views
from pipelines.matchers import producer
from pipelines.operand_fences import OperandFencePass
from pipelines.registry import register

__all__ = ["NestedPadBarrier"]


@register
class NestedPadBarrier(OperandFencePass):
    """Pads read a pad with a run-time padding value through a barrier (IREE fails to fuse them)."""

    name = "nested-pad-barrier"
    legalizes_for_iree = True
    op_names = ("stablehlo.pad",)
    rule_name = "fence-padded-operand"

    def fences(self, op, index: int, value: ir.Value) -> bool:
        inner = producer(through_views(value), "stablehlo.pad") if index == 0 else None
        return inner is not None and run_time_value(inner.operands[1])
