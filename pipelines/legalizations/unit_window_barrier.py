"""unit-window-barrier: a strided reduce_window of one-element windows reads computed
operands through an optimization barrier.

The pinned IREE computes wrong values for the *other* users of an element-wise result
that a ``reduce_window`` with all window dimensions 1 and a stride > 1 reads: fused into
the reduce_window's dispatch, the producer is evaluated only at the strided positions,
and a comparison that reads the same value elsewhere sees zeros at the skipped ones
(fuzz seed 20261126 program 3725; a window of 2, a stride of 1 or a barrier between the
two give XLA's answer)::

    %r = stablehlo.round_nearest_afz %x : tensor<6x1xbf16>
    %w = "stablehlo.reduce_window"(%r, %zero) {window_dimensions = [1, 1], window_strides = [2, 2]}
    %c = stablehlo.compare LT, %r, %k        // wrong at rows 1, 3, 5

becomes::

    %b = stablehlo.optimization_barrier %r : tensor<6x1xbf16>
    %w = "stablehlo.reduce_window"(%b, %zero) {window_dimensions = [1, 1], window_strides = [2, 2]}

The producer is then its own dispatch, computed everywhere. A barrier changes no value.
Conditions: every window dimension is 1, some stride is > 1, and the input (not an init
value) is the result of an op other than a barrier; inputs that are block arguments are
left alone. Run it after ``single-window-stride``, which may lower strides to 1.
"""

from __future__ import annotations

from iree.compiler import ir

from hlo_mlir.ir_access import int_array, window_values
from pipelines.matchers import defining_op
from pipelines.operand_fences import OperandFencePass
from pipelines.registry import register

__all__ = ["UnitWindowBarrier"]


@register
class UnitWindowBarrier(OperandFencePass):
    """Strided reduce_windows of 1-element windows read computed inputs through a barrier."""

    name = "unit-window-barrier"
    legalizes_for_iree = True

    op_names = ("stablehlo.reduce_window",)
    rule_name = "fence-unit-window-input"

    def fences(self, op, index: int, value: ir.Value) -> bool:
        """reduce_window(f(x), init) -> reduce_window(optimization_barrier(f(x)), init)."""
        if index >= len(op.operands) // 2:  # the init values
            return False
        window = int_array(op, "window_dimensions")
        strides = window_values(op, "window_strides", len(window))
        source = defining_op(value)
        return (all(w == 1 for w in window) and any(s > 1 for s in strides) and source is not None
                and source.operation.name != "stablehlo.optimization_barrier")
