"""sort-splat-operands: a sort operand broadcast from a scalar reaches IREE behind an
optimization barrier.

The pinned IREE crashes (SIGSEGV) compiling a multi-operand sort (such as the one
``stable-sort-expander`` makes of every stable sort) when an operand is a
``broadcast_in_dim`` of a rank-0 value::

    %k = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<i32>) -> tensor<1x3xi32>
    %r:2 = "stablehlo.sort"(%k, %iota) ({...}) {dimension = 1}

becomes::

    %k = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<i32>) -> tensor<1x3xi32>
    %b = stablehlo.optimization_barrier %k : tensor<1x3xi32>
    %r:2 = "stablehlo.sort"(%b, %iota) ({...}) {dimension = 1}

The barrier keeps IREE from fusing the broadcast into the sort and costs a copy at most.
(The crash is IREE's ``IotaSortSliceIsTopK`` matcher reading ``broadcast_dimensions.back()``
of a scalar broadcast, which has none.) The operand need not be a broadcast yet: IREE's
canonicalizer folds ``0 + broadcast(s)`` to the broadcast and hoists broadcasts out of
element-wise ops of broadcasts and splats, so the crash also follows from

- an element-wise op computed from scalar broadcasts and splat constants only
  (``Sort([Add(Constant(zeros), Broadcast(p)), iota])`` unsimplified, as with ``O0``);
- a splat constant of the neutral element (``0``, ``-0.0``, ``false``):
  ``inplace-operand-copy`` sorts a private copy ``c + broadcast(barrier(0))`` of it, which
  folds to the broadcast (fuzzer seed 20261126 program 4426, seed 20261125 program 1987).

Fenced, such an operand is opaque to IREE (and a constant's copy stays an add).

Conditions: a ``stablehlo.sort`` operand defined by a ``broadcast_in_dim`` whose operand
has rank 0, by an element-wise op whose operands are (up to 4 ops up) such broadcasts
and splat constants, or a splat constant whose value is bit for bit
``inplace-operand-copy``'s neutral element of its type (broadcasts of higher rank, other
splat constants and other computed operands compile and are left alone). Run it after
``stable-sort-expander`` and the other sort legalizations.
"""

from __future__ import annotations

from iree.compiler import ir

from pipelines.legalizations.inplace_operand_copy import neutral_element
from pipelines.matchers import (
    defining_op,
    element_dtype,
    is_constant,
    op_name,
    same_bits,
    splat_of,
    static_dims,
)
from pipelines.operand_fences import OperandFencePass
from pipelines.registry import register

__all__ = ["SortSplatOperands"]


def _broadcast_of_scalar(value: ir.Value) -> bool:
    if op_name(value) != "stablehlo.broadcast_in_dim":
        return False
    source = defining_op(value).operands[0].type
    return isinstance(source, ir.RankedTensorType) and source.rank == 0


def _elementwise(op) -> bool:
    """A region-free StableHLO op with one result and operands that all have its shape
    (not a barrier, which IREE cannot see through, nor an operand-less iota)."""
    name = op.operation.name
    if (not name.startswith("stablehlo.") or name == "stablehlo.optimization_barrier" or len(op.regions)
            or len(op.results) != 1 or not len(op.operands)):
        return False
    dims = static_dims(op.results[0])
    return dims is not None and all(static_dims(v) == dims for v in op.operands)


def _scalar_valued(value: ir.Value, depth: int = 4) -> bool:
    """Whether IREE may fold ``value`` into a broadcast of a scalar: a scalar broadcast, a
    splat constant, or an element-wise op of such values."""
    if _broadcast_of_scalar(value):
        return True
    if is_constant(value):
        return splat_of(value, through_broadcast=False) is not None
    op = defining_op(value)
    return (depth > 0 and op is not None and _elementwise(op)
            and all(_scalar_valued(v, depth - 1) for v in op.operands))


def _neutral_splat(value: ir.Value) -> bool:
    """Whether ``value`` is a splat constant equal to the element ``inplace-operand-copy``
    adds (IREE folds that copy to a scalar broadcast)."""
    dtype = element_dtype(value)
    splat = splat_of(value, through_broadcast=False) if is_constant(value) else None
    neutral = neutral_element(dtype) if dtype is not None else None
    return splat is not None and neutral is not None and same_bits(splat, neutral[1].astype(splat.dtype))


@register
class SortSplatOperands(OperandFencePass):
    """Puts sort operands IREE sees as broadcasts of a scalar behind a barrier (IREE crashes on them)."""

    name = "sort-splat-operands"
    legalizes_for_iree = True

    op_names = ("stablehlo.sort",)
    rule_name = "fence-splat-operand"

    def fences(self, op, index: int, value: ir.Value) -> bool:
        if is_constant(value):
            return _neutral_splat(value)
        return _scalar_valued(value)
