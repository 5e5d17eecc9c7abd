"""product-reduction-barrier: a reduce reads a product through an optimization barrier when
it reduces a dimension that one factor of the product does not have.

The pinned IREE fuses a ``reduce`` into the ``multiply`` (or ``dot_general`` without
contracting dimensions) it reads and treats the two as one contraction; when a reduced
dimension comes from only one factor (a ``broadcast_in_dim`` adds it to the other) the
contraction cannot be vectorized ("'vector.contract' op invalid accumulator/result vector
shape") or the compiler crashes (SIGSEGV); fuzzer seed 20261130 program 48, and a plain
weighted sum ``sum(x * broadcast(w))`` of ``x: f32[2,3]``, ``w: f32[3]``)::

    %w2 = stablehlo.broadcast_in_dim %w, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
    %p = stablehlo.multiply %x, %w2 : tensor<2x3xf32>
    %s = stablehlo.reduce(%p init: %zero) applies stablehlo.add across dimensions = [0, 1]

becomes::

    %b = stablehlo.optimization_barrier %p : tensor<2x3xf32>
    %s = stablehlo.reduce(%b init: %zero) applies stablehlo.add across dimensions = [0, 1]

The product is then its own dispatch and the reduction reads a buffer. A barrier changes
no value. Conditions: a reduce input (not an init value) that is, through ``convert``\\ s
and ``reshape``\\ s, a ``multiply`` one of whose factors is, through ``convert``\\ s, a ``broadcast_in_dim``
that adds or expands a reduced dimension, or a ``dot_general`` without contracting
dimensions one of whose free dimensions is reduced (through a ``reshape``: one of whose
dimensions is one-sided at all). A product of full operands
(``sum(x * y)``) and a reduction of the factors' shared dimensions only keep their fused
form. Run it after ``dot-empty-contraction``, whose multiplies it fences.
"""

from __future__ import annotations

from iree.compiler import ir

from hlo_mlir.ir_access import dot_dimension_numbers, int_array
from pipelines.matchers import defining_op, static_dims
from pipelines.operand_fences import OperandFencePass
from pipelines.registry import register

__all__ = ["ProductReductionBarrier"]

_CARRIERS = ("stablehlo.convert", "stablehlo.reshape")  # what IREE fuses between the two


def _through_converts(value: ir.Value):
    op = defining_op(value)
    while op is not None and op.operation.name == "stablehlo.convert":
        op = defining_op(op.operands[0])
    return op


def _own_dims(value: ir.Value, rank: int) -> set[int]:
    """The result dimensions a product factor has elements along (a broadcast's added or
    expanded dimensions not included)."""
    op = _through_converts(value)
    if op is None or op.operation.name != "stablehlo.broadcast_in_dim":
        return set(range(rank))
    source, result = static_dims(op.operands[0]), static_dims(op.results[0])
    dims = int_array(op, "broadcast_dimensions")
    if source is None or result is None:
        return set(dims)
    return {d for i, d in enumerate(dims) if source[i] == result[d]}


def _one_sided_dims(op) -> set[int]:
    """The dimensions of product ``op``'s result that not both of its factors have."""
    rank = len(static_dims(op.results[0]) or [])
    if op.operation.name == "stablehlo.multiply":
        lhs, rhs = (_own_dims(v, rank) for v in op.operands)
        return set(range(rank)) - (lhs & rhs)
    dnums = dot_dimension_numbers(op)
    if dnums.lhs_contracting_dimensions:
        return set()
    return set(range(len(dnums.lhs_batch_dimensions), rank))


@register
class ProductReductionBarrier(OperandFencePass):
    """Reduces read a product with a one-sided reduced dimension through a barrier (IREE fails)."""

    name = "product-reduction-barrier"
    legalizes_for_iree = True

    op_names = ("stablehlo.reduce",)
    rule_name = "fence-product"

    def fences(self, op, index: int, value: ir.Value) -> bool:
        """reduce(x * broadcast(w), dims) -> reduce(optimization_barrier(x * broadcast(w)), dims)
        when ``broadcast`` adds a dimension in ``dims``."""
        if index >= len(op.operands) // 2:  # the init values
            return False
        source, reshaped = defining_op(value), False
        while source is not None and source.operation.name in _CARRIERS:
            reshaped |= source.operation.name == "stablehlo.reshape"
            source = defining_op(source.operands[0])
        if source is None or source.operation.name not in ("stablehlo.multiply", "stablehlo.dot_general"):
            return False
        one_sided = _one_sided_dims(source)
        # through a reshape the reduced dimensions are not the product's: any one-sided one counts
        return bool(one_sided if reshaped else one_sided & set(int_array(op, "dimensions")))
