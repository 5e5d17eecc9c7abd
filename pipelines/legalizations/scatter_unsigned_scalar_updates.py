"""scatter-unsigned-scalar-updates: a constant rank-0 unsigned scatter update reaches IREE
behind an optimization barrier.

The pinned IREE reshapes a rank-0 scatter update to one element and folds that reshape
of a constant into an ``arith.constant`` of the unsigned type, which it then rejects
("'arith.constant' op integer return type must be signless")::

    %c = stablehlo.constant dense<4> : tensor<ui8>
    %r = "stablehlo.scatter"(%x, %i, %c) ({...}) : (tensor<5xui8>, tensor<1xi64>, tensor<ui8>) -> ...

becomes::

    %b = stablehlo.optimization_barrier %c : tensor<ui8>
    %r = "stablehlo.scatter"(%x, %i, %b) ({...})

The barrier hides the constant from the fold and costs nothing at run time. Conditions:
an update operand that is a ``stablehlo.constant`` of rank 0 with an unsigned integer
element type; updates of rank 1 and above, signed and float constants and computed
updates compile and are left alone. Run it before ``scatter-bounds``, which reshapes
updates (a reshape of the barrier is no constant either).
"""

from __future__ import annotations

from iree.compiler import ir

from hlo_mlir.ir_access import element_type_name
from pipelines.matchers import op_name
from pipelines.operand_fences import OperandFencePass
from pipelines.registry import register

__all__ = ["ScatterUnsignedScalarUpdates"]


def _is_unsigned_scalar_constant(value: ir.Value) -> bool:
    t = value.type
    return (op_name(value) == "stablehlo.constant" and isinstance(t, ir.RankedTensorType)
            and t.rank == 0 and element_type_name(value).startswith("ui"))


@register
class ScatterUnsignedScalarUpdates(OperandFencePass):
    """Puts constant rank-0 unsigned scatter updates behind a barrier (IREE rejects their fold)."""

    name = "scatter-unsigned-scalar-updates"
    legalizes_for_iree = True

    op_names = ("stablehlo.scatter",)
    rule_name = "fence-update"

    def fences(self, op, index: int, value: ir.Value) -> bool:
        # operands, indices, then updates
        return index > len(op.results) and _is_unsigned_scalar_constant(value)
