"""set-dimension-size-clamp: keeps a dynamic size inside its bound, as XLA's padding masks do.

``set_dimension_size(x, n, d)`` says ``n`` elements of dimension ``d`` are valid. XLA
masks the padding with ``iota < n``, so a size past the bound counts every element and
a negative size none; IREE makes ``x`` a real dynamic tensor of ``n`` elements and reads
past the buffer when ``n`` exceeds the bound (it crashed on llvm-cpu). The clamp is a
no-op on sizes in ``[0, bound]``::

    %y = stablehlo.set_dimension_size %x, %n, dim = 0 : (tensor<4xf32>, tensor<i32>) -> tensor<?xf32, ...>

becomes::

    %y = stablehlo.set_dimension_size %x, clamp(0, %n, 4), dim = 0 {hlo_mlir.in_bounds}

``get_dimension_size`` of a ``set_dimension_size`` on the same dimension is replaced by
the size it was given (XLA returns the size as given, clamped or not).

Conditions: sizes that are not a constant in ``[0, bound]`` and ops not already marked
``hlo_mlir.in_bounds``. A ``get_dimension_size`` reached through other ops reads the
clamped size (it differs from XLA only for sizes outside the bound).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.dynamic import set_dimension_size
from dialect_ops.elementwise import clamp
from hlo_mlir import _emit
from hlo_mlir.ir_access import int_attr
from pipelines.index_bounds import given_size, is_marked, mark_in_bounds
from pipelines.matchers import constant_array, producer
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["SetDimensionSizeClamp"]


def _dimension(op) -> int:
    return int_attr(op, "dimension")


def _bound(op) -> int:
    return _emit.shape_of(op.operands[0]).dimensions[_dimension(op)]


def _constant_size(value: ir.Value) -> int | None:
    """The value of a scalar integer ``stablehlo.constant``, else None."""
    array = constant_array(value, max_elements=1)
    return None if array is None or array.size != 1 else int(array.reshape(-1)[0])


@register
class SetDimensionSizeClamp(ExpanderPass):
    """Clamps set_dimension_size sizes into [0, bound] (IREE reads past the buffer otherwise)."""

    name = "set-dimension-size-clamp"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        name = op.operation.name
        if name == "stablehlo.get_dimension_size":
            source = op.operands[0]
            setter = producer(source, "stablehlo.set_dimension_size")
            return setter is not None and _dimension(setter) == _dimension(op)
        if name != "stablehlo.set_dimension_size" or is_marked(op):
            return False
        known = _constant_size(op.operands[1])
        return known is None or not 0 <= known <= _bound(op)

    def expand(self, op) -> Sequence[ir.Value]:
        if op.operation.name == "stablehlo.get_dimension_size":
            return [given_size(op.operands[0].owner)]
        size_shape = _emit.shape_of(op.operands[1])
        lo, hi = (_emit.constant(np.asarray(v, size_shape.dtype), size_shape) for v in (0, _bound(op)))
        size = clamp(lo, op.operands[1], hi)
        return [mark_in_bounds(set_dimension_size(op.operands[0], size, _dimension(op)))]
