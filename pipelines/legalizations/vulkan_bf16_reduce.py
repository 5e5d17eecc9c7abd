"""vulkan-bf16-reduce: bf16 add and multiply reductions accumulated in f32 on Vulkan.

On vulkan-spirv the pinned IREE fails to compile a bf16 ``reduce`` whose reducer is an
``add`` ("'spirv.Bitcast' op mismatch in result type bitwidth 32 and operand type
bitwidth 16"). XLA CPU accumulates a bf16 sum in f32 and rounds once at the end (so
does IREE on llvm-cpu); this does the same::

    %r = stablehlo.reduce(%x init: %i) applies stablehlo.add across dimensions = [1]
           : (tensor<8x300xbf16>, tensor<bf16>) -> tensor<8xbf16>

becomes::

    %w = stablehlo.reduce(convert(%x) : f32 init: convert(%i) : f32) applies stablehlo.add
           across dimensions = [1]
    %r = stablehlo.convert %w : (tensor<8xf32>) -> tensor<8xbf16>

Conditions: a single-input reduce of bf16 whose reducer is one ``add`` or ``multiply`` of
its two arguments (``maximum``/``minimum`` compile and are exact anyway). Runs only for
vulkan-spirv (the ``vulkan-legalize`` preset).
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops import elementwise
from dialect_ops.reduction import reduce
from hlo_mlir import _emit
from hlo_mlir.ir_access import element_type_name
from pipelines.pass_base import ExpanderPass
from pipelines.reductions import reduced_dimensions, rewritable_reduce, simple_reducer
from pipelines.registry import register

__all__ = ["VulkanBf16Reduce"]

_REDUCERS = {"stablehlo.add": "Add", "stablehlo.multiply": "Mul"}


def _f32_body(op_name: str):
    def body(block: ir.Block) -> None:
        with ir.InsertionPoint(block):
            _emit.region_return([elementwise.binary(op_name, *block.arguments)])
    return body


@register
class VulkanBf16Reduce(ExpanderPass):
    """Accumulates bf16 add/multiply reductions in f32 on Vulkan (IREE fails to compile them), as XLA does."""

    name = "vulkan-bf16-reduce"
    legalizes_for_target = "vulkan-spirv"

    def matches(self, op) -> bool:
        return (rewritable_reduce(op) and simple_reducer(op) in _REDUCERS
                and element_type_name(op.results[0]) == "bf16")

    def expand(self, op) -> Sequence[ir.Value]:
        """reduce(x: bf16, i, add) -> convert(reduce(f32(x), f32(i), add), bf16)."""
        x, init = op.operands
        reducer = _REDUCERS[simple_reducer(op) or ""]  # matches() saw one of _REDUCERS
        wide = reduce([elementwise.convert(x, "f32")], [elementwise.convert(init, "f32")],
                      reduced_dimensions(op), _f32_body(reducer))
        return [elementwise.convert(wide[0], "bf16")]
