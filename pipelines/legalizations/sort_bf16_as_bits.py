"""sort-bf16-as-bits: sorts bf16 operands as their 16-bit patterns.

The pinned IREE's ``stablehlo.sort`` moves bf16 elements through f32 and back, and the
truncation makes every NaN +NaN: a sorted -NaN comes out as +NaN (ARCHITECTURE.md,
defects; f16 and f32 keep their bits). Sorting the bit patterns and giving the
comparator back its bf16 values keeps every element's bits::

    %r = "stablehlo.sort"(%x) ({^bb0(%a: tensor<bf16>, %b: tensor<bf16>): c(a, b)})

becomes::

    %s = "stablehlo.sort"(bitcast_convert(%x) : i16) ({
      ^bb0(%a: tensor<i16>, %b: tensor<i16>): c(bitcast_convert(a) : bf16, bitcast_convert(b) : bf16)
    })
    %r = bitcast_convert(%s) : bf16

Conditions: a sort with at least one bf16 operand, every operand with an XLA shape (a
quantized one keeps the sort as it is); other operands are kept. Run it
after the passes that create sorts (top-k-expander, stable-sort-expander).
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.elementwise import bitcast_convert
from dialect_ops.sorting import sort
from hlo_mlir import _emit
from hlo_mlir.ir_access import bool_attr
from hlo_mlir.types import PrimitiveType
from pipelines.matchers import xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.regions import clone_body
from pipelines.registry import register
from pipelines.sort_regions import comparator_block, sort_dimension

__all__ = ["SortBf16AsBits"]


def _is_bf16(value: ir.Value) -> bool:
    return isinstance(value.type, ir.RankedTensorType) and isinstance(value.type.element_type, ir.BF16Type)


@register
class SortBf16AsBits(ExpanderPass):
    """Sorts bf16 operands as 16-bit integers (IREE's sort turns -NaN into +NaN)."""

    name = "sort-bf16-as-bits"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        return (op.operation.name == "stablehlo.sort" and any(_is_bf16(v) for v in op.operands)
                and xla_arrays(op.operands))

    def expand(self, op) -> Sequence[ir.Value]:
        bf16 = [_is_bf16(v) for v in op.operands]
        operands = [bitcast_convert(v, PrimitiveType.S16) if b else v
                    for v, b in zip(op.operands, bf16, strict=True)]
        stable = bool_attr(op, "is_stable")

        def body(block: ir.Block) -> None:
            with ir.InsertionPoint(block):
                args = [bitcast_convert(a, PrimitiveType.BF16) if bf16[k // 2] else a
                        for k, a in enumerate(block.arguments)]
                _emit.region_return(clone_body(comparator_block(op), args))

        results = sort(operands, sort_dimension(op), stable, body)
        return [bitcast_convert(r, PrimitiveType.BF16) if b else r
                for r, b in zip(results, bf16, strict=True)]
