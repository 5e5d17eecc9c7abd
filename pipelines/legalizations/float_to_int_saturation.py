"""float-to-int-saturation: float to integer converts that saturate and send NaN to 0, like XLA.

XLA converts a float to an integer type by rounding toward zero and saturating: values
below the type's range give its minimum, values above give its maximum (infinities
included), NaN gives 0. The pinned IREE leaves those cases to the target (llvm-cpu:
f32 ``[-8.25, 300, 1e10, nan, inf, -inf]`` to u8 gave ``[248, 44, 0, 0, 0, 0]``, to s32
``[-8, 300, MIN, MIN, MIN, MIN]``). With ``lo`` and ``hi`` the float values of the
integer type's minimum and of its maximum + 1 (powers of two, so exact in the source
type, or +-inf where they exceed its range: f16 against 2^31)::

    %r = stablehlo.convert %x : (tensor<Nxf32>) -> tensor<Nxi32>

becomes::

    %inside = and(compare GT %x, lo, compare LT %x, hi)     // false for NaN
    %safe   = select(%inside, %x, 0.0)
    %c      = stablehlo.convert %safe {hlo_mlir.in_bounds}  // every input in range
    %r      = select(%x >= hi, MAX, select(%x <= lo, MIN, %c))

(``x <= lo`` gives MIN also for the values in ``(lo - 1, lo]``, which round toward zero
to MIN anyway; for unsigned types ``lo = 0`` and ``-0.5`` gives 0). Conditions: an f16,
bf16, f32 or f64 operand of static shape converted to an integer type of 8 to 64 bits
(PRED is ``x != 0`` and not touched; sub-byte integers are not handled); converts this
pass emitted carry the ``hlo_mlir.in_bounds`` marker and are skipped.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.elementwise import binary, compare, convert, select
from dialect_ops.shape_ops import broadcast_in_dim
from hlo_mlir import _emit
from hlo_mlir.shape import Shape
from pipelines.index_bounds import is_marked, mark_in_bounds
from pipelines.matchers import element_dtype
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["FloatToIntSaturation"]

_FLOATS = frozenset({"float16", "bfloat16", "float32", "float64"})


@register
class FloatToIntSaturation(ExpanderPass):
    """Makes float-to-integer converts saturate and map NaN to 0, as XLA does."""

    name = "float-to-int-saturation"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.convert" or is_marked(op):
            return False
        src, dst = element_dtype(op.operands[0]), element_dtype(op.results[0])
        return src is not None and dst is not None and src.name in _FLOATS and dst.kind in "iu" and \
            ir.RankedTensorType(op.operands[0].type).has_static_shape

    def expand(self, op) -> Sequence[ir.Value]:
        x = op.operands[0]
        shape = _emit.shape_of(x)
        result = _emit.shape_of(op.results[0])
        info = np.iinfo(result.dtype)
        with np.errstate(over="ignore"):  # beyond the source type's range: +-inf
            lo, hi = (np.asarray(float(v), np.float64).astype(shape.dtype) for v in (info.min, info.max + 1))

        def full(value, like: Shape) -> ir.Value:
            scalar = Shape.scalar_shape(like.element_type)
            constant = _emit.constant(np.asarray(value, like.dtype), scalar)
            return broadcast_in_dim(constant, like.dimensions, [])

        lo_x, hi_x = full(lo, shape), full(hi, shape)
        inside = binary("And", compare(x, lo_x, "GT"), compare(x, hi_x, "LT"))
        converted = mark_in_bounds(convert(select(inside, x, full(0, shape)), result.element_type))
        saturated = select(compare(x, lo_x, "LE"), full(info.min, result), converted)
        return [select(compare(x, hi_x, "GE"), full(info.max, result), saturated)]
