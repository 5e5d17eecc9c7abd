"""unsigned-dot-zero-extension: unsigned dot operands narrower than the result are widened
by zero extension, explicitly.

The pinned IREE folds the widening of an unsigned dot operand (the operand itself, or a
``convert`` from a narrower unsigned type) into the contraction as a sign extension:
u8 200 is read as -56. Masking after a widening convert to a signed integer keeps it a
zero extension::

    %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
        : (tensor<2x3xui8>, tensor<3x2xui8>) -> tensor<2x2xui32>

becomes::

    %a32 = stablehlo.convert (stablehlo.and (stablehlo.convert %a : i32), 255) : ui32
    %b32 = ...
    %r = stablehlo.dot_general %a32, %b32, contracting_dims = [1] x [0] ...

(``i64`` for results wider than 32 bits). Conditions: an operand that is, or is a
``convert`` of, an unsigned value narrower than the result; other operands are kept.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from hlo_mlir import _emit
from hlo_mlir.ir_access import element_type_name
from pipelines.matchers import xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import Expr

__all__ = ["UnsignedDotZeroExtension"]


def _is_unsigned(value: ir.Value) -> bool:
    return element_type_name(value).startswith("ui")


def _width(value: ir.Value) -> int:
    return _emit.shape_of(value).element_type.bit_width


def _widened_unsigned(value: ir.Value) -> ir.Value | None:
    """The narrower unsigned value that ``value`` is (or is a ``convert`` of), if any."""
    owner = value.owner
    if isinstance(owner, (ir.Operation, ir.OpView)) and owner.operation.name == "stablehlo.convert":
        source = owner.operands[0]
        if _is_unsigned(source) and _width(source) < _width(value):
            return source
    return value if _is_unsigned(value) else None


@register
class UnsignedDotZeroExtension(ExpanderPass):
    """Zero-extends narrow unsigned dot operands explicitly (IREE sign-extends them)."""

    name = "unsigned-dot-zero-extension"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.dot_general" or not xla_arrays([*op.operands, *op.results]):
            return False
        wide = _width(op.results[0])
        return any((u := _widened_unsigned(v)) is not None and _width(u) < wide for v in op.operands)

    def expand(self, op) -> Sequence[ir.Value]:
        """dot_general(x, y) -> dot_general(zext(x), zext(y)) for the narrow unsigned operands,
        zext(u) = convert(and(convert(u, iW), 2^bits - 1))."""
        result = _emit.shape_of(op.results[0])
        wide_int = "s64" if result.element_type.bit_width > 32 else "s32"
        operands = []
        for value in op.operands:
            source = _widened_unsigned(value)
            if source is None or _width(source) >= result.element_type.bit_width:
                operands.append(value)
                continue
            masked = Expr(source).convert(wide_int) & ((1 << _width(source)) - 1)
            operands.append(masked.convert(result.element_type).value)
        attrs = {name: op.attributes[name] for name in op.attributes}
        return [_emit.create("stablehlo.dot_general", operands, [op.results[0].type], attrs).result]
