"""pred-arithmetic: add and multiply on PRED become or and and.

XLA's add on PRED is logical OR and its multiply logical AND; the pinned IREE computes
them modulo 2 (``true + true = false``)::

    %0 = stablehlo.add %p, %q : tensor<4xi1>
    %1 = stablehlo.multiply %p, %q : tensor<4xi1>

becomes::

    %0 = stablehlo.or %p, %q : tensor<4xi1>
    %1 = stablehlo.and %p, %q : tensor<4xi1>

Conditions: an i1 result; other element types are left alone.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.elementwise import binary
from hlo_mlir.ir_access import element_type_name
from pipelines.matchers import xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["PredArithmetic"]

# op -> (the logical op that replaces it, its rule name)
_LOGICAL = {"stablehlo.add": ("Or", "pred-add-to-or"), "stablehlo.multiply": ("And", "pred-mul-to-and")}


@register
class PredArithmetic(ExpanderPass):
    """Rewrites add/multiply on PRED as or/and (XLA's logic; IREE computes them modulo 2)."""

    name = "pred-arithmetic"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        return (op.operation.name in _LOGICAL and xla_arrays([*op.operands, *op.results])
                and element_type_name(op.results[0]) == "i1")

    def rule(self, op) -> str:
        return _LOGICAL[op.operation.name][1]

    def expand(self, op) -> Sequence[ir.Value]:
        """add(p, q) -> or(p, q); multiply(p, q) -> and(p, q) on PRED."""
        return [binary(_LOGICAL[op.operation.name][0], *op.operands)]
