"""bf16-negate-sign: a bf16 negate flips the sign bit, also of a NaN.

Negate is a sign-bit operation (IEEE 754 ``negate``; XLA gives ``-NaN`` for ``NaN``). The
pinned IREE computes a bf16 negate in f32 and truncates, and its truncation turns every NaN
into the positive ``0x7FC0``, so ``BitcastConvertType(Neg(x))`` lost the sign of a NaN
(fuzzer seed 20261127 program 8452); f16, f32 and f64 negates are right::

    %0 = stablehlo.negate %x : tensor<4xbf16>

becomes::

    %b = stablehlo.bitcast_convert %x : (tensor<4xbf16>) -> tensor<4xi16>
    %m = stablehlo.constant dense<-32768> : tensor<i16>
    %f = stablehlo.xor %b, %m (broadcast)
    %0 = stablehlo.bitcast_convert %f : (tensor<4xi16>) -> tensor<4xbf16>

Exact for every value (a signaling NaN keeps its payload, as IEEE's negate does).
Conditions: a bf16 array of static shape; other element types are left alone.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.constant import constant
from dialect_ops.elementwise import binary, bitcast_convert
from hlo_mlir.ir_access import element_type_name
from pipelines.matchers import element_dtype, xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["Bf16NegateSign"]


@register
class Bf16NegateSign(ExpanderPass):
    """Negates bf16 by flipping its sign bit (IREE's bf16 negate gives -NaN a positive sign)."""

    name = "bf16-negate-sign"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        return (op.operation.name == "stablehlo.negate" and xla_arrays([*op.operands, *op.results])
                and element_type_name(op.results[0]) == "bf16")

    def rule(self, op) -> str:
        return "sign-bit"

    def expand(self, op) -> Sequence[ir.Value]:
        bits = bitcast_convert(op.operands[0], np.int16)
        flipped = binary("Xor", bits, constant(np.array(-32768, np.int16)))
        return [bitcast_convert(flipped, element_dtype(op.results[0]))]
