"""bf16-scalar-rounding: one-element converts to bf16 round in integer arithmetic first.

The pinned IREE emulates bf16 arithmetic in f32 (``iree-convert-bf16-arith-to-f32``) and,
in the scalar code it generates for one-element tensors (rank 0, ``f32[1]``, ``f32[1,1]``,
every ``map``/``reduce``/``sort`` body), drops an ``arith.truncf`` to bf16 that an
``arith.extf`` reads back: ``convert(convert(x, bf16), f32)`` of f32 4.3134205e18 gave
4.3134205e18, XLA 4.3054412e18 (fuzzer seed 20261124 program 1080, a ``map`` of
``s64 -> bf16 -> f32``). Vectorized code (``f32[3]`` and up) rounds. The rounding is done
before the convert, where no truncf can be dropped (round to nearest even on the f32
bits; NaN stays a quiet NaN), so the convert itself is exact::

    %r = stablehlo.convert %x : (tensor<f32>) -> tensor<bf16>

becomes::

    %b = stablehlo.bitcast_convert %x : (tensor<f32>) -> tensor<ui32>
    %n = and(add(%b, 0x7FFF + ((%b >> 16) & 1)), 0xFFFF0000)   ; select(x != x, %b | 0x400000, ...)
    %y = stablehlo.bitcast_convert %n : (tensor<ui32>) -> tensor<f32>
    %r = stablehlo.convert %y : (tensor<f32>) -> tensor<bf16>

An integer, f16 or f64 source is converted to f32 first, which is what XLA CPU and IREE's
vectorized code do too (``s64 2^24 + 2^16 + 1`` is 2^24 in bf16 on both, not the nearest
2^24 + 2^17).

Conditions: a ``stablehlo.convert`` to bf16 from a real type other than bf16 (integers,
pred, f16, f32, f64) with one element. Larger converts are IREE's own.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from hlo_mlir.ir_access import element_type_name
from pipelines.matchers import xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import Expr, where

__all__ = ["Bf16ScalarRounding"]


def round_to_bf16(x: Expr) -> Expr:
    """f32 ``x`` rounded to the nearest bf16 value (ties to even; overflow to inf; NaN a
    quiet NaN), as f32: the upper 16 bits of ``bits + 0x7FFF + bit16``."""
    bits = x.convert_bits("u32")
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    rounded = where(x.eq(x), rounded, (bits | 0x400000) & 0xFFFF0000)
    return rounded.convert_bits("f32")


@register
class Bf16ScalarRounding(ExpanderPass):
    """Rounds one-element converts to bf16 in integer arithmetic (IREE's scalar code drops the rounding)."""

    name = "bf16-scalar-rounding"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.convert" or not xla_arrays([*op.operands, *op.results]):
            return False
        source = element_type_name(op.operands[0])
        shape = ir.RankedTensorType(op.results[0].type).shape
        return (element_type_name(op.results[0]) == "bf16" and source != "bf16"
                and not source.startswith("c") and all(d == 1 for d in shape))

    def expand(self, op) -> Sequence[ir.Value]:
        """convert(x, bf16) -> convert(round_to_bf16(convert(x, f32)), bf16)."""
        x = Expr(op.operands[0])
        if element_type_name(op.operands[0]) != "f32":
            x = x.convert("f32")
        return [round_to_bf16(x).convert("bf16").value]
