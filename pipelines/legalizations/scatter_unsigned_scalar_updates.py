"""scatter-unsigned-scalar-updates: a splat unsigned scatter update that IREE reshapes
reaches it behind an optimization barrier.

The pinned IREE reshapes a scatter update to exactly one scatter dimension (a rank-0
update to one element, several scatter dimensions collapsed into one) and folds that
reshape of a splat constant into an ``arith.constant`` of the unsigned type, which it
then rejects ("'arith.constant' op integer return type must be signless")::

    %c = stablehlo.constant dense<4> : tensor<ui8>
    %r = "stablehlo.scatter"(%x, %i, %c) ({...}) : (tensor<5xui8>, tensor<1xi64>, tensor<ui8>) -> ...

becomes::

    %b = stablehlo.optimization_barrier %c : tensor<ui8>
    %r = "stablehlo.scatter"(%x, %i, %b) ({...})

and so does ``dense<8> : tensor<1x2xui8>`` scattered with indices ``s16[1,2,1]``
(``index_vector_dim = 2``: two scatter dimensions; fuzz seed 20261127 program 5710), or
a ``broadcast_in_dim`` of a constant scalar in its place. The barrier hides the constant
from the fold and costs nothing at run time. Conditions: an update operand that is a
splat constant (or a broadcast of one) with an unsigned integer element type, of rank 0
or with more than one scatter dimension (dimensions not in ``update_window_dims``).
Updates with exactly one scatter dimension, with none beside window dimensions, signed
and float splats, non-splat constants and computed updates compile and are left alone.
Run it before ``scatter-bounds``, which reshapes updates (a reshape of the barrier is no
constant either).
"""

from __future__ import annotations

from iree.compiler import ir

from hlo_mlir.ir_access import element_type_name, scatter_dimension_numbers
from pipelines.matchers import splat_of
from pipelines.operand_fences import OperandFencePass
from pipelines.registry import register

__all__ = ["ScatterUnsignedScalarUpdates"]


def _reshaped_unsigned_splat(op, value: ir.Value) -> bool:
    """Whether ``value``, an update of scatter ``op``, is an unsigned splat IREE reshapes."""
    t = value.type
    if (not isinstance(t, ir.RankedTensorType) or not element_type_name(value).startswith("ui")
            or splat_of(value) is None):
        return False
    scatter_dims = t.rank - len(scatter_dimension_numbers(op).update_window_dims)
    return t.rank == 0 or scatter_dims > 1


@register
class ScatterUnsignedScalarUpdates(OperandFencePass):
    """Puts splat unsigned scatter updates IREE reshapes behind a barrier (IREE rejects their fold)."""

    name = "scatter-unsigned-scalar-updates"
    legalizes_for_iree = True

    op_names = ("stablehlo.scatter",)
    rule_name = "fence-update"

    def fences(self, op, index: int, value: ir.Value) -> bool:
        # operands, indices, then updates
        return index > len(op.results) and _reshaped_unsigned_splat(op, value)
