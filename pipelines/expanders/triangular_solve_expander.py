"""triangular-solve-expander: ``stablehlo.triangular_solve`` as a substitution loop.

The pinned IREE rejects ``stablehlo.triangular_solve`` (ARCHITECTURE.md). Every option
combination is first brought to one form, ``L x = b`` with ``L`` lower triangular and ``b``
``[..., m, k]``, then solved by forward substitution, one row of ``x`` per iteration::

    %x = "stablehlo.triangular_solve"(%a, %b) {left_side, lower, unit_diagonal, transpose_a}

becomes::

    a' = op(a), transposed once more for right_side (x op(a) = b  <=>  op(a)^T x^T = b^T),
         conjugated for ADJOINT; b' = b or b^T; a' is lower iff lower xor (one transpose)
    upper a': reverse both matrix axes of a' and the rows of b' (P U P is lower, P the reversal)
    L = select(triangle, a', 0)              // only the triangle is read; unit: strictly below
    %w:2 = stablehlo.while(i = 0, x = zeros) cond i < m {
      r = b'[i, :] - L[i, :] @ x              // rows >= i of x are still zero
      x[i, :] = unit_diagonal ? r : r / L[i, i]
    }
    %x = x, with the row reversal and transpose undone

Masking the triangle first keeps values in the ignored triangle (even NaN or inf) out of
the sums. O(m k) work per row after an O(m^2 k) product: O(m^2 k) for the solve.
Conditions: none.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.elementwise import binary
from dialect_ops.shape_ops import rev
from hlo_mlir import _emit
from hlo_mlir.ir_access import bool_attr, transpose_a
from pipelines.expanders._matrix_loops import (
    batched_matmul,
    block_at,
    conj,
    counted_loop,
    select_zero,
    swap_minor,
    triangle_mask,
    update_block_at,
    zeros_like,
)
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["TriangularSolveExpander"]


@register
class TriangularSolveExpander(ExpanderPass):
    """Rewrites stablehlo.triangular_solve into a forward-substitution while loop (IREE rejects it)."""

    name = "triangular-solve-expander"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        return op.operation.name == "stablehlo.triangular_solve"

    def expand(self, op) -> Sequence[ir.Value]:
        a, b = op.operands
        transpose, right_side = transpose_a(op), not bool_attr(op, "left_side")
        transposed = (transpose != "NO_TRANSPOSE") != right_side
        lower = bool_attr(op, "lower") != transposed
        if transposed:
            a = swap_minor(a)
        if transpose == "ADJOINT":
            a = conj(a)
        if right_side:
            b = swap_minor(b)
        rank = _emit.shape_of(a).rank
        if not lower:
            a, b = rev(a, [rank - 2, rank - 1]), rev(b, [rank - 2])
        x = _forward_substitution(a, b, bool_attr(op, "unit_diagonal"))
        if not lower:
            x = rev(x, [rank - 2])
        return [swap_minor(x) if right_side else x]


def _forward_substitution(a: ir.Value, b: ir.Value, unit_diagonal: bool) -> ir.Value:
    """``x`` with ``L x = b``, ``L`` the lower triangle of ``a`` (unit diagonal if asked)."""
    a_shape = _emit.shape_of(a)
    lower = select_zero(triangle_mask(a_shape, lower=True, strict=unit_diagonal), a)

    def row(i: ir.Value, values: list[ir.Value]) -> list[ir.Value]:
        (x,) = values
        r = binary("Sub", block_at(b, i, None), batched_matmul(block_at(lower, i, None), x))
        if not unit_diagonal:
            r = binary("Div", r, block_at(lower, i, i))
        return [update_block_at(x, r, i, None)]

    return counted_loop(a_shape.dimensions[-1], [zeros_like(b)], row)[0]
