"""vulkan-narrow-clz: count_leading_zeros of 8- and 16-bit integers computed in 32 bits.

On vulkan-spirv the pinned IREE fails to compile ``count_leading_zeros`` on i8/i16
("failed to legalize operation 'math.ctlz'"). The bits, zero-extended to 32, have
``32 - w`` more leading zeros::

    %r = stablehlo.count_leading_zeros %x : tensor<4xi8>

becomes::

    %w = stablehlo.convert (stablehlo.bitcast_convert %x : tensor<4xui8>) : tensor<4xui32>
    %c = stablehlo.count_leading_zeros (stablehlo.bitcast_convert %w : tensor<4xi32>)
    %r = stablehlo.convert (%c - 24) : tensor<4xi8>

Conditions: an 8- or 16-bit integer (signed or unsigned) result. Runs only for
vulkan-spirv (the ``vulkan-legalize`` preset).
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from pipelines.matchers import element_dtype, xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import Expr

__all__ = ["VulkanNarrowClz"]


@register
class VulkanNarrowClz(ExpanderPass):
    """Counts leading zeros of i8/i16 on Vulkan in 32 bits (IREE fails to compile the narrow ones)."""

    name = "vulkan-narrow-clz"
    legalizes_for_target = "vulkan-spirv"

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.count_leading_zeros":
            return False
        if not xla_arrays([*op.operands, *op.results]):
            return False
        dtype = element_dtype(op.results[0])
        return dtype is not None and dtype.kind in "iu" and dtype.itemsize < 4

    def expand(self, op) -> Sequence[ir.Value]:
        """clz(x: iW) -> convert(clz(zero_extend_32(x)) - (32 - W), iW)."""
        x = Expr(op.operands[0])
        element_type = x.shape.element_type
        width = element_type.bit_width
        unsigned = x if element_type.is_unsigned_integer else x.convert_bits(f"u{width}")
        wide = unsigned.convert("u32").convert_bits("s32")
        return [(wide.unary("Clz") - (32 - width)).convert(element_type).value]
