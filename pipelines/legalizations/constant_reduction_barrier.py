"""constant-reduction-barrier: a reduce reads an input computed from constants only
through an optimization barrier.

The pinned IREE sums wrongly a reduction whose input is an element-wise op of a splat
constant: ``reduce(add)`` of ``negate(constant dense<4.0> : tensor<18xf32>)`` gives -8
instead of -72 (``convert`` of a splat, ``negate`` of a broadcast of a scalar constant and a
``map`` whose body returns a constant do it too; the constant itself, an iota, a non-splat
constant, or an element-wise op that also reads a parameter is summed right; fuzz seed
20261126 program 7365)::

    %c = stablehlo.constant dense<4.0> : tensor<18xf32>
    %n = stablehlo.negate %c : tensor<18xf32>
    %s = stablehlo.reduce(%n init: %zero) applies stablehlo.add across dimensions = [0]

becomes::

    %b = stablehlo.optimization_barrier %n : tensor<18xf32>
    %s = stablehlo.reduce(%b init: %zero) applies stablehlo.add across dimensions = [0]

The input is then its own dispatch and the reduction reads a buffer. A barrier changes no
value. Conditions: a reduce input (not an init value) computed only from constants
(``matchers.computed_from_constants``: no block argument flows into it, no side effect),
and not itself a constant or a barrier.
The ``O2`` constant folder usually folds such values first; what it leaves (a map that
``map-invariant-body`` turned into a broadcast, values at ``O0``) is fenced here. Run it
after ``map-invariant-body``.
"""

from __future__ import annotations

from iree.compiler import ir

from pipelines.matchers import computed_from_constants, defining_op
from pipelines.operand_fences import OperandFencePass
from pipelines.registry import register

__all__ = ["ConstantReductionBarrier"]

_LEAVES = ("stablehlo.constant", "stablehlo.optimization_barrier")


@register
class ConstantReductionBarrier(OperandFencePass):
    """Reduces read inputs computed only from constants through a barrier (IREE mis-sums them)."""

    name = "constant-reduction-barrier"
    legalizes_for_iree = True

    op_names = ("stablehlo.reduce",)
    rule_name = "fence-constant-input"

    def fences(self, op, index: int, value: ir.Value) -> bool:
        """reduce(f(constants), init) -> reduce(optimization_barrier(f(constants)), init)."""
        if index >= len(op.operands) // 2:  # the init values
            return False
        source = defining_op(value)
        return source is not None and source.operation.name not in _LEAVES and computed_from_constants(value)
