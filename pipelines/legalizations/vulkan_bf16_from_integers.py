"""vulkan-bf16-from-integers: bf16 made from integers, rounded by integer ops on Vulkan.

On vulkan-spirv the pinned IREE fails to compile a bf16 made from an integer ("'spirv.Bitcast'
op mismatch in result type bitwidth 16 and operand type bitwidth 32"): a bf16 ``iota``,
``convert`` from an integer, or a ``convert`` to bf16 of an f32 that came from an integer
(IREE folds the pair into one int-to-bf16 conversion). The value goes through f32, as XLA
does (int to f32, then f32 to bf16, both rounding to nearest even), with the second
rounding done on the bits::

    %r = stablehlo.convert %x : (tensor<4xi32>) -> tensor<4xbf16>

becomes::

    %b = stablehlo.bitcast_convert (stablehlo.convert %x : tensor<4xf32>) : tensor<4xui32>
    %h = (%b + 0x7FFF + ((%b >> 16) & 1)) >> 16                  // round to nearest even
    %r = stablehlo.bitcast_convert (stablehlo.convert %h : tensor<4xui16>) : tensor<4xbf16>

A bf16 ``iota`` becomes the same rounding of an s32 ``iota``. Conditions: a bf16 result;
a ``convert`` from an integer or PRED, or from an f32 ``convert`` of one or an f32
``iota``. Integers give no NaN, so the rounding needs no NaN case. Runs only for
vulkan-spirv (the ``vulkan-legalize`` preset).
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.shape_ops import iota
from hlo_mlir.ir_access import element_type_name
from pipelines.matchers import element_dtype, producer, xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import Expr

__all__ = ["VulkanBf16FromIntegers"]


def _is_integer(value: ir.Value) -> bool:
    dtype = element_dtype(value)
    return dtype is not None and dtype.kind in "iub"


def _f32_of_integers(value: ir.Value) -> bool:
    """An f32 ``iota``, or an f32 ``convert`` of an integer."""
    if element_type_name(value) != "f32":
        return False
    if producer(value, "stablehlo.iota") is not None:
        return True
    convert = producer(value, "stablehlo.convert")
    return convert is not None and _is_integer(convert.operands[0])


def _round_to_bf16(f32: Expr) -> Expr:
    """f32 to bf16, rounding to nearest even on the bits (no NaN)."""
    bits = f32.convert_bits("u32")
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.convert("u16").convert_bits("bf16")


@register
class VulkanBf16FromIntegers(ExpanderPass):
    """Rounds bf16 iotas and integer-to-bf16 converts on the bits on Vulkan (IREE fails to compile them)."""

    name = "vulkan-bf16-from-integers"
    legalizes_for_target = "vulkan-spirv"

    def matches(self, op) -> bool:
        name = op.operation.name
        if name not in ("stablehlo.iota", "stablehlo.convert") or not xla_arrays([*op.operands, *op.results]):
            return False
        if element_type_name(op.results[0]) != "bf16":
            return False
        return name == "stablehlo.iota" or _is_integer(op.operands[0]) or _f32_of_integers(op.operands[0])

    def expand(self, op) -> Sequence[ir.Value]:
        """iota -> round(f32(iota s32)); convert(x: int) -> round(f32(x)); convert(f: f32) -> round(f)."""
        if op.operation.name == "stablehlo.iota":
            shape = Expr(op.results[0]).shape.with_element_type("s32")
            dimension = ir.IntegerAttr(op.attributes["iota_dimension"]).value
            return [_round_to_bf16(Expr(iota(shape, dimension)).convert("f32")).value]
        x = Expr(op.operands[0])
        return [_round_to_bf16(x if element_type_name(x.value) == "f32" else x.convert("f32")).value]
