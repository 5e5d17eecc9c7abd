"""reverse-signless: reverse of unsigned integers goes through signless bits; a reverse
of nothing is its operand.

The pinned IREE fails to compile ``reverse`` on unsigned integers ("failed to legalize
operation 'linalg.generic'") and on rank-0 tensors::

    %r = stablehlo.reverse %x, dims = [1] : tensor<2x3xui16>

becomes::

    %b = stablehlo.bitcast_convert %x : (tensor<2x3xui16>) -> tensor<2x3xi16>
    %v = stablehlo.reverse %b, dims = [1] : tensor<2x3xi16>
    %r = stablehlo.bitcast_convert %v : (tensor<2x3xi16>) -> tensor<2x3xui16>

and ``reverse(%x, dims = [])`` or a reverse of a rank-0 ``%x`` becomes ``%x``.
Conditions: an unsigned operand, no dimensions, or rank 0; other reverses are left alone.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.elementwise import bitcast_convert
from dialect_ops.shape_ops import rev
from hlo_mlir import _emit
from hlo_mlir.ir_access import element_type_name, int_array
from pipelines.matchers import xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["ReverseSignless"]


@register
class ReverseSignless(ExpanderPass):
    """Reverses unsigned integers as signless bits; drops empty reverses (IREE fails on both)."""

    name = "reverse-signless"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.reverse" or not xla_arrays([*op.operands, *op.results]):
            return False
        operand = op.operands[0]
        return element_type_name(operand).startswith("ui") or not _moves_elements(op)

    def rule(self, op) -> str:
        return "unsigned-as-signless" if _moves_elements(op) else "empty-reverse"

    def expand(self, op) -> Sequence[ir.Value]:
        """reverse(x, dims) -> x when x is rank 0 or dims is empty; for unsigned x:
        bitcast(reverse(bitcast(x, iN), dims), uN)."""
        operand = op.operands[0]
        if not _moves_elements(op):
            return [operand]
        element_type = _emit.shape_of(operand).element_type
        signless = bitcast_convert(operand, f"s{element_type.bit_width}")
        return [bitcast_convert(rev(signless, _dimensions(op)), element_type)]


def _dimensions(op) -> list[int]:
    return int_array(op, "dimensions")


def _moves_elements(op) -> bool:
    """Whether the reverse moves any element (a dimension to reverse, rank above 0)."""
    return bool(_dimensions(op)) and _emit.shape_of(op.operands[0]).rank > 0
