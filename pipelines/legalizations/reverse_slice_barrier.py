"""reverse-slice-barrier: a reverse reads a slice of unit minor dimension through an
optimization barrier.

The pinned IREE fails to compile, on llvm-cpu, a ``reverse`` fused with the slice it
reverses when the slice keeps one element of a longer minor dimension and the tensor has
rank 3 or more ("LLVM Translation failed for operation: builtin.unrealized_conversion_cast";
``stablehlo.slice``, ``dynamic_slice`` and a ``pad`` with negative padding, which IREE
lowers to a slice, all do it; rank 2, a minor dimension already 1 in the sliced operand,
or an element-wise op between the two compile)::

    %s = stablehlo.slice %x [0:2, 0:3, 1:2] : (tensor<2x3x2xf32>) -> tensor<2x3x1xf32>
    %r = stablehlo.reverse %s, dims = [0] : tensor<2x3x1xf32>

becomes::

    %s = stablehlo.slice %x [0:2, 0:3, 1:2] : (tensor<2x3x2xf32>) -> tensor<2x3x1xf32>
    %b = stablehlo.optimization_barrier %s : tensor<2x3x1xf32>
    %r = stablehlo.reverse %b, dims = [0] : tensor<2x3x1xf32>

The slice is then its own dispatch (a copy of the kept elements) and the reverse reads a
contiguous tensor. A barrier changes no value. Conditions: the reverse's operand is the
result of ``slice``, ``dynamic_slice`` or ``pad``, has rank 3 or more, static shape and a
minor dimension of size 1, and the sliced operand's minor dimension is not 1; other
reverses (and one whose operand is already a barrier's) are left alone.
"""

from __future__ import annotations

from iree.compiler import ir

from pipelines.matchers import producer, static_dims, xla_arrays
from pipelines.operand_fences import OperandFencePass
from pipelines.registry import register

__all__ = ["ReverseSliceBarrier"]

_SLICES = ("stablehlo.slice", "stablehlo.dynamic_slice", "stablehlo.pad")


@register
class ReverseSliceBarrier(OperandFencePass):
    """Reverses a slice of unit minor dimension through a barrier (IREE fails to compile the fused pair)."""

    name = "reverse-slice-barrier"
    legalizes_for_iree = True

    op_names = ("stablehlo.reverse",)
    rule_name = "fence-slice"

    def fences(self, op, index: int, value: ir.Value) -> bool:
        """reverse(slice(x), dims) -> reverse(optimization_barrier(slice(x)), dims)."""
        if not xla_arrays([value]):
            return False
        slice_op = producer(value, *_SLICES)
        if slice_op is None:
            return False
        dims, sliced = static_dims(value), static_dims(slice_op.operands[0])
        return (dims is not None and sliced is not None and len(dims) >= 3 and dims[-1] == 1
                and sliced[-1] != 1)
