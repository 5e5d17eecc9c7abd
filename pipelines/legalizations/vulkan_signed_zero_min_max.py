"""vulkan-signed-zero-min-max: float max/min that order -0 below +0, as XLA does.

On vulkan-spirv (Mesa llvmpipe) the pinned IREE's float ``maximum`` of +0 and -0 can give
-0 and ``minimum`` of -0 and +0 can give +0 (SPIR-V's FMax/FMin may return either zero).
XLA orders -0 below +0. Where the operands compare equal their bits differ at most in the
sign, so the bitwise AND of the bits is the maximum and the OR the minimum::

    %r = stablehlo.maximum %x, %y : tensor<4xf32>

becomes::

    %m = stablehlo.maximum %x, %y
    %r = select(x == y, bitcast(bits(x) & bits(y)), %m)      // minimum: bits(x) | bits(y)

Conditions: a float (f16, bf16, f32, f64) result; NaN operands compare unequal and keep
IREE's answer (NaN, as XLA). Runs only for vulkan-spirv (the ``vulkan-legalize`` preset).
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops import elementwise
from pipelines.legalizations.float_bits import from_bits, int_type
from pipelines.legalizations.vulkan_float_rem import is_real_float
from pipelines.matchers import xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import Expr, where

__all__ = ["VulkanSignedZeroMinMax"]

_OPS = ("stablehlo.maximum", "stablehlo.minimum")


@register
class VulkanSignedZeroMinMax(ExpanderPass):
    """Makes float max(+0, -0) +0 and min(+0, -0) -0 on Vulkan (bitwise AND/OR where x == y)."""

    name = "vulkan-signed-zero-min-max"
    legalizes_for_target = "vulkan-spirv"

    def matches(self, op) -> bool:
        return (op.operation.name in _OPS and xla_arrays([*op.operands, *op.results])
                and is_real_float(op.results[0]))

    def expand(self, op) -> Sequence[ir.Value]:
        """max(x, y) -> select(x == y, bits(x) & bits(y), max(x, y)); min with |."""
        x, y = Expr(op.operands[0]), Expr(op.operands[1])
        bx, by = x.convert_bits(int_type(x)), y.convert_bits(int_type(y))
        maximum = op.operation.name == "stablehlo.maximum"
        m = Expr(elementwise.binary("Max" if maximum else "Min", x.value, y.value))
        tie = bx & by if maximum else bx | by
        return [where(x.eq(y), from_bits(tie, x), m).value]
