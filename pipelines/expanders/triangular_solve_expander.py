"""triangular-solve-expander: ``stablehlo.triangular_solve`` as a substitution loop.

The pinned IREE rejects ``stablehlo.triangular_solve`` (ARCHITECTURE.md). Every option
combination is first brought to one form, ``T x = b`` with ``T`` lower or upper triangular
and ``b`` ``[..., m, k]``, then solved by forward (lower) or backward (upper) substitution,
one row of ``x`` per iteration::

    %x = "stablehlo.triangular_solve"(%a, %b) {left_side, lower, unit_diagonal, transpose_a}

becomes::

    a' = op(a), transposed once more for right_side (x op(a) = b  <=>  op(a)^T x^T = b^T),
         conjugated for ADJOINT; b' = b or b^T; a' is lower iff lower xor (one transpose)
    T = select(triangle, a', 0)              // only the triangle is read; unit: strictly inside
    %w:2 = stablehlo.while(i = 0, x = zeros) cond i < m {
      j = i (lower) or m - 1 - i (upper)
      r = b'[j, :] - T[j, :] @ x              // the rows of x not solved yet are still zero
      x[j, :] = unit_diagonal ? r : r / T[j, j]
    }
    %x = x, transposed back for right_side

The upper form walks the rows from the last one rather than reversing ``a'`` and ``b'``
into a lower system: the pinned IREE fails to compile the reversed form for one unbatched
column ("'arith.subf' op requires the same type for all operands and results",
docs/iree-defects.md).

Masking the triangle first keeps values in the ignored triangle (even NaN or inf) out of
the sums. O(m k) work per row after an O(m^2 k) product: O(m^2 k) for the solve.
Conditions: none.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.elementwise import binary
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
from pipelines.values import scalar

__all__ = ["TriangularSolveExpander"]


@register
class TriangularSolveExpander(ExpanderPass):
    """Rewrites stablehlo.triangular_solve into a substitution while loop (IREE rejects it)."""

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
        x = _substitution(a, b, lower, bool_attr(op, "unit_diagonal"))
        return [swap_minor(x) if right_side else x]


def _substitution(a: ir.Value, b: ir.Value, lower: bool, unit_diagonal: bool) -> ir.Value:
    """``x`` with ``T x = b``, ``T`` the lower or upper triangle of ``a`` (unit diagonal if
    asked): forward substitution from the first row, or backward from the last."""
    a_shape = _emit.shape_of(a)
    m = a_shape.dimensions[-1]
    triangle = select_zero(triangle_mask(a_shape, lower=lower, strict=unit_diagonal), a)

    def row(i: ir.Value, values: list[ir.Value]) -> list[ir.Value]:
        (x,) = values
        j = i if lower else binary("Sub", scalar(m - 1, _emit.shape_of(i).element_type), i)
        r = binary("Sub", block_at(b, j, None), batched_matmul(block_at(triangle, j, None), x))
        if not unit_diagonal:
            r = binary("Div", r, block_at(triangle, j, j))
        return [update_block_at(x, r, j, None)]

    return counted_loop(m, [zeros_like(b)], row)[0]
