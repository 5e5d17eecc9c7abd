"""Python's operators for a value that builds StableHLO: the XlaOp of the builder and the
``Expr`` of the passes (``pipelines/values.py``) share this one table.

The operators are XLA's C++ ``XlaOp`` operators, ``+ - * / % **``, unary ``-``,
``& | ^ ~`` and ``<< >>``, plus ``< <= > >=`` (``==`` stays object identity, as in XLA).
"""

from __future__ import annotations

from typing import Any

from hlo_mlir.shape import Shape

__all__ = ["Operators"]


class Operators:
    """Mixin: each operator is the element-wise op of that name, made by ``_binary`` or
    ``_unary``; a subclass defines those two and ``shape``."""

    __slots__ = ()

    @property
    def shape(self) -> Shape:
        raise NotImplementedError

    def _binary(self, name: str, other: Any, reverse: bool = False) -> Any:
        """The op ``name`` of this value and ``other`` (of ``other`` and this one when
        ``reverse``); ``other`` may be a number."""
        raise NotImplementedError

    def _unary(self, name: str) -> Any:
        """The op ``name`` of this value."""
        raise NotImplementedError

    def __add__(self, o): return self._binary("Add", o)
    def __radd__(self, o): return self._binary("Add", o, True)
    def __sub__(self, o): return self._binary("Sub", o)
    def __rsub__(self, o): return self._binary("Sub", o, True)
    def __mul__(self, o): return self._binary("Mul", o)
    def __rmul__(self, o): return self._binary("Mul", o, True)
    def __truediv__(self, o): return self._binary("Div", o)
    def __rtruediv__(self, o): return self._binary("Div", o, True)
    def __mod__(self, o): return self._binary("Rem", o)
    def __rmod__(self, o): return self._binary("Rem", o, True)
    def __pow__(self, o): return self._binary("Pow", o)
    def __rpow__(self, o): return self._binary("Pow", o, True)
    def __and__(self, o): return self._binary("And", o)
    def __rand__(self, o): return self._binary("And", o, True)
    def __or__(self, o): return self._binary("Or", o)
    def __ror__(self, o): return self._binary("Or", o, True)
    def __xor__(self, o): return self._binary("Xor", o)
    def __rxor__(self, o): return self._binary("Xor", o, True)
    def __lshift__(self, o): return self._binary("ShiftLeft", o)
    def __rshift__(self, o):
        # XLA's operator>> is arithmetic for signed and logical for unsigned types.
        if self.shape.element_type.is_unsigned_integer:
            return self._binary("ShiftRightLogical", o)
        return self._binary("ShiftRightArithmetic", o)
    def __lt__(self, o): return self._binary("Lt", o)
    def __le__(self, o): return self._binary("Le", o)
    def __gt__(self, o): return self._binary("Gt", o)
    def __ge__(self, o): return self._binary("Ge", o)
    def __neg__(self): return self._unary("Neg")
    def __invert__(self): return self._unary("Not")
