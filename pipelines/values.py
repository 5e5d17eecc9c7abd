"""Value-level arithmetic for passes that build IR, so that an expansion reads as its algebra.

``XlaOp``'s operators need an ``XlaBuilder``; a pass works on ``ir.Value``s at the
rewriter's insertion point. ``Expr`` is that value with Python operators that emit
StableHLO through the same ``dialect_ops`` functions the builder uses; Python numbers
combine with it as constants of its element type and shape. ``scalar`` is the one
"rank-0 constant of this element type" every expander needs::

    x = Expr(op.operands[0])
    u = 1.0 + x                                   # broadcast(constant 1.0) + x
    where(u.eq(1.0), x, u.unary("Log") * (x / (u - 1.0))).value

Everything is emitted at the current insertion point and location (an expander's
``expand`` runs with both set).
"""

from __future__ import annotations

import numpy as np
from iree.compiler import ir

from dialect_ops import elementwise
from dialect_ops.shape_ops import broadcast_in_dim
from hlo_mlir import _emit
from hlo_mlir.operators import Operators
from hlo_mlir.shape import Shape
from hlo_mlir.types import PrimitiveType, from_dtype

__all__ = ["Expr", "where", "scalar", "full"]


def scalar(value, element_type: PrimitiveType | str) -> ir.Value:
    """A rank-0 ``stablehlo.constant`` ``value`` of ``element_type``."""
    shape = Shape.scalar_shape(from_dtype(element_type))
    return _emit.constant(np.asarray(value, shape.dtype), shape)


def full(value, shape: Shape) -> ir.Value:
    """``value`` everywhere in ``shape``: a rank-0 constant broadcast (dims ``[]``)."""
    return broadcast_in_dim(scalar(value, shape.element_type), shape.dimensions, [])


class Expr(Operators):
    """An ``ir.Value`` whose operators (XlaOp's: ``hlo_mlir/operators.py``) emit StableHLO."""

    __slots__ = ("value",)

    def __init__(self, value: ir.Value):
        self.value = value

    @property
    def shape(self) -> Shape:
        return _emit.shape_of(self.value)

    def lift(self, other) -> Expr:
        """``other`` as an expression of this one's shape (numbers become constants)."""
        return other if isinstance(other, Expr) else Expr(full(other, self.shape))

    def _binary(self, name: str, other, reverse: bool = False) -> Expr:
        lhs, rhs = (self.lift(other), self) if reverse else (self, self.lift(other))
        if name in ("Lt", "Le", "Gt", "Ge"):
            return Expr(elementwise.compare(lhs.value, rhs.value, name.upper()))
        return Expr(elementwise.binary(name, lhs.value, rhs.value))

    def unary(self, name: str) -> Expr:
        """The element-wise op ``name`` (``"Abs"``, ``"Log"``, ...) of this expression."""
        return Expr(elementwise.unary(name, self.value))

    _unary = unary

    def compare(self, direction: str, other) -> Expr:
        return Expr(elementwise.compare(self.value, self.lift(other).value, direction))

    def eq(self, o): return self.compare("EQ", o)
    def lt(self, o): return self.compare("LT", o)
    def gt(self, o): return self.compare("GT", o)

    def convert(self, element_type) -> Expr:
        return Expr(elementwise.convert(self.value, element_type))

    def signbit(self) -> Expr:
        """True where the sign bit is set (-0.0 and -NaN included)."""
        bits = self.convert_bits(f"s{self.shape.element_type.bit_width}")
        return bits.lt(0)

    def convert_bits(self, element_type) -> Expr:
        """The same bits as ``element_type`` (``bitcast_convert``)."""
        return Expr(elementwise.bitcast_convert(self.value, element_type))


def where(cond: Expr, on_true, on_false) -> Expr:
    """``select(cond, on_true, on_false)``; a number takes the other branch's type."""
    like = on_true if isinstance(on_true, Expr) else on_false
    return Expr(elementwise.select(cond.value, like.lift(on_true).value, like.lift(on_false).value))
