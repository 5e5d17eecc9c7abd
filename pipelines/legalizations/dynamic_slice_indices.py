"""dynamic-slice-indices: start indices of dynamic_slice / dynamic_update_slice in types the
pinned IREE reads right, and rank-0 slices as what they are.

The spec clamps every start index into ``[0, dim - size]`` (XLA as well), reading it in
its own type. The pinned IREE loads a scalar start index onto the host and there reads
an ``i8``/``i16`` as unsigned (``s8 -1`` became 255: a slice of ``f32[4]`` at -1 gave
``[3, 4]``, not ``[1, 2]``) and a ``ui64`` as signed (2^64 - 1 became -1: the slice at
0 instead of the far end). A rank-0 ``dynamic_slice`` or ``dynamic_update_slice``
crashes the compiler (SIGSEGV). So::

    %r = stablehlo.dynamic_slice %x, %i, sizes = [2] : (tensor<4xf32>, tensor<i8>) -> ...

becomes (``i8``, ``i16``, ``ui8``, ``ui16``: widened to ``i32`` in tensor code)::

    %w = stablehlo.convert %i : (tensor<i8>) -> tensor<i32>
    %r = stablehlo.dynamic_slice %x, %w, sizes = [2]

and a ``ui64`` start ``%i`` becomes ``convert(min(%i, 2^63 - 1)) : i64`` (every
dimension is below 2^63, so the clamp IREE then applies gives the spec's answer). A
rank-0 ``dynamic_slice`` is its operand and a rank-0 ``dynamic_update_slice`` its
update. ``i32``, ``i64`` and ``ui32`` starts, which IREE reads right, are left alone.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.elementwise import binary, convert
from hlo_mlir import _emit
from hlo_mlir.ir_access import attribute_dict
from hlo_mlir.shape import Shape
from hlo_mlir.types import PrimitiveType
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["DynamicSliceIndices"]

# number of leading operands before the start indices
_INDICES_FROM = {"stablehlo.dynamic_slice": 1, "stablehlo.dynamic_update_slice": 2}


def _rank(value: ir.Value) -> int | None:
    t = value.type
    return t.rank if isinstance(t, ir.RankedTensorType) else None


def _index_kind(value: ir.Value) -> tuple[int, bool] | None:
    """(bit width, unsigned) of an integer scalar index, None for anything else."""
    t = value.type
    if not isinstance(t, ir.RankedTensorType) or not isinstance(t.element_type, ir.IntegerType):
        return None
    et = ir.IntegerType(t.element_type)
    return et.width, et.is_unsigned


def _needs_rewrite(kind: tuple[int, bool] | None) -> bool:
    return kind is not None and (kind[0] < 32 or kind == (64, True))


@register
class DynamicSliceIndices(ExpanderPass):
    """Widens narrow and ui64 dynamic-slice start indices (IREE misreads them) and drops rank-0 slices."""

    name = "dynamic-slice-indices"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        first = _INDICES_FROM.get(op.operation.name)
        if first is None:
            return False
        if _rank(op.operands[0]) == 0:
            return True
        return any(_needs_rewrite(_index_kind(v)) for v in list(op.operands)[first:])

    def expand(self, op) -> Sequence[ir.Value]:
        name = op.operation.name
        first = _INDICES_FROM[name]
        operands = list(op.operands)
        if _rank(operands[0]) == 0:  # the whole (one-element) operand, or the whole update
            return [operands[first - 1]]
        indices = [_index_for_iree(v) for v in operands[first:]]
        attrs = attribute_dict(op)
        return [_emit.create(name, operands[:first] + indices, [op.results[0].type], attrs).result]


def _index_for_iree(index: ir.Value) -> ir.Value:
    """``index`` as the same number in a type IREE reads right (see the module docstring)."""
    kind = _index_kind(index)
    if kind is None or not _needs_rewrite(kind):
        return index
    if kind[0] < 32:
        return convert(index, PrimitiveType.S32)
    largest = Shape.scalar_shape(PrimitiveType.U64)
    bound = _emit.constant(np.asarray(np.iinfo(np.int64).max, np.uint64), largest)
    return convert(binary("Min", index, bound), PrimitiveType.S64)
