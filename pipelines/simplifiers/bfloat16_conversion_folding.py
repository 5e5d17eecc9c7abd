"""BFloat16 conversion folding (spec 004: BFloat16 conversion folding; XLA
``bfloat16_conversion_folding.cc``).

A ``dot_general`` or ``convolution`` that reads a bf16 -> f32 ``convert`` reads the bf16
value itself and keeps its f32 result::

    %x = stablehlo.convert %a : (tensor<2x3xbf16>) -> tensor<2x3xf32>
    %r = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0]
        : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>

becomes ::

    %r = stablehlo.dot_general %a, %y, contracting_dims = [1] x [0]
        : (tensor<2x3xbf16>, tensor<3x4xf32>) -> tensor<2x4xf32>

Exact: StableHLO (and IREE's lowering) computes a dot or convolution by extending each
operand to the result type, so the op does the convert itself (the product of two bf16
values is even exact in f32). A ``compare`` of two bf16 -> f32 converts compares the bf16
values (extending is exact and keeps the order, NaN and signed zeros; a TOTALORDER compare is left alone).

XLA also folds the f32 -> bf16 ``convert`` of an op's result into the op. That fold is
NOT made here: it is exact only when the op rounds its f32 result once, and IREE
computes a ``dot_general`` with a bf16 result by rounding its operands to bf16 and
accumulating in bf16 (a 64-term f32 dot moved by up to 0.125); element-wise ops need
equal operand and result types in StableHLO.

Conditions: the convert reads a bf16 value and makes f32 (option ``low-type`` names the
narrow type: bf16 by default, f16 too), the op's other operands stay as they are (a dot
may mix operand types; one with an ``algorithm`` attribute, which names its operand types,
is left alone), and a compare folds only when both operands do. The convert is
left for ``dce`` when nothing else reads it. Statistics: ``dot_general``,
``convolution`` and ``compare``, one per op folded into.
"""

from __future__ import annotations

import dataclasses

from iree.compiler import ir

from hlo_mlir import ir_access
from hlo_mlir import types as _types
from hlo_mlir.errors import InvalidArgumentError
from pipelines.matchers import ops_where, producer
from pipelines.pass_base import Pass
from pipelines.registry import register
from pipelines.simplifiers.hlo_element_type_converter import array_element, float_type

__all__ = ["BFloat16ConversionFolding"]

_CONTRACTIONS = ("stablehlo.dot_general", "stablehlo.convolution")
_FOLDING_OPS = (*_CONTRACTIONS, "stablehlo.compare")


@register
@dataclasses.dataclass
class BFloat16ConversionFolding(Pass):
    """Fold bf16->f32 converts of dot_general/convolution (and compare) operands into the op."""

    name = "bfloat16-conversion-folding"
    low_type: str = dataclasses.field(
        default="bf16", metadata={"help": "the narrow float type of the converts"})

    def run(self, module: ir.Module) -> bool:
        low_type = float_type(self.low_type, self.name, "low-type")
        if low_type.bit_width >= 32:
            raise InvalidArgumentError(
                f"{self.name} requires low-type narrower than f32; got {self.low_type!r}.")
        changed = False
        with module.context:
            low, f32 = ir.Type.parse(_types.mlir_name(low_type)), ir.F32Type.get()
            for op in ops_where(module, lambda o: o.operation.name in _FOLDING_OPS):
                folds = [i for i, v in enumerate(op.operands) if self._widened(v, low, f32)]
                if not folds or (op.operation.name == "stablehlo.compare" and (
                        len(folds) != len(op.operands) or ir_access.comparison_type(op) == "TOTALORDER")):
                    continue  # compare: equal operand types; TOTALORDER left to f32 bits
                if op.operation.name in _CONTRACTIONS and (array_element(op.results[0].type) != f32
                                                            or "algorithm" in op.attributes):
                    continue  # the f32 result is what extends the operands; an algorithm names types
                for i in folds:
                    op.operands[i] = op.operands[i].owner.operands[0]
                self.record(op.operation.name.removeprefix("stablehlo."))
                changed = True
        return changed

    @staticmethod
    def _widened(value: ir.Value, low: ir.Type, f32: ir.Type) -> bool:
        """Whether ``value`` is ``convert(x)`` from ``low`` to f32."""
        op = producer(value, "stablehlo.convert")
        return op is not None and array_element(value.type) == f32 \
            and array_element(op.operands[0].type) == low
