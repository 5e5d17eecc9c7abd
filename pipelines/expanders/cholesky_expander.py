"""cholesky-expander: ``stablehlo.cholesky`` as a column-by-column loop.

The pinned IREE rejects ``stablehlo.cholesky`` (ARCHITECTURE.md). The lower factor ``L``
of ``A = L L^H`` is built one column per iteration of a ``stablehlo.while``, reading only
the lower triangle of ``A`` (batched over the leading dimensions)::

    %l = stablehlo.cholesky %a, lower = true : tensor<...xnxnxT>

becomes::

    %w:2 = stablehlo.while(j = 0, L = zeros) cond j < n {
      v = A[:, j] - L @ L[j, :]^H          // dynamic_slice, dot_general: [..., n, 1]
      d = sqrt(re(v[j]))                   // the pivot
      L[:, j] = i > j ? v / d : i == j ? d : 0   // dynamic_update_slice
    }
    %l = all(isfinite(L)) ? L : NaN        // per matrix, as XLA: a failed factorization is NaN

Columns of ``L`` right of ``j`` are still zero, so ``L @ L[j, :]^H`` sums over ``k < j`` only;
the other triangle of the result is zero, as XLA returns it. ``lower = false`` factors
``A^H`` (whose lower triangle is ``A``'s upper one, conjugated) and returns ``L^H``. The loop
does O(n^2) work per column: O(n^3) in all, as the blocked algorithm XLA uses.
Conditions: none.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.elementwise import binary, compare, select, unary
from dialect_ops.reduction import reduce
from dialect_ops.shape_ops import broadcast_in_dim, iota
from hlo_mlir import _emit
from hlo_mlir.ir_access import bool_attr
from hlo_mlir.shape import Shape
from hlo_mlir.types import PrimitiveType
from pipelines.expanders._matrix_loops import (
    adjoint,
    batched_matmul,
    block_at,
    counted_loop,
    select_zero,
    update_block_at,
    zeros_like,
)
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import scalar

__all__ = ["CholeskyExpander"]


@register
class CholeskyExpander(ExpanderPass):
    """Rewrites stablehlo.cholesky into a column-by-column while loop (IREE rejects it)."""

    name = "cholesky-expander"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        return op.operation.name == "stablehlo.cholesky"

    def expand(self, op) -> Sequence[ir.Value]:
        a = op.operands[0]
        if bool_attr(op, "lower"):
            return [_nan_if_failed(_lower_factor(a))]
        return [adjoint(_nan_if_failed(_lower_factor(adjoint(a))))]


def _lower_factor(a: ir.Value) -> ir.Value:
    shape = _emit.shape_of(a)
    rows = iota(Shape.array_shape(PrimitiveType.S32, shape.dimensions[:-1] + (1,)), shape.rank - 2)

    def column(j: ir.Value, values: list[ir.Value]) -> list[ir.Value]:
        (factor,) = values
        v = binary("Sub", block_at(a, None, j), batched_matmul(factor, adjoint(block_at(factor, j, None))))
        pivot = unary("Sqrt", _real(block_at(v, j, None)))
        below = select_zero(compare(rows, j, "GT"), _divide(v, pivot))
        factor = update_block_at(factor, below, None, j)
        return [update_block_at(factor, _like(pivot, v), j, j)]

    return counted_loop(shape.dimensions[-1], [zeros_like(a)], column)[0]


def _real(value: ir.Value) -> ir.Value:
    return unary("Real", value) if _emit.shape_of(value).element_type.is_complex else value


def _like(real: ir.Value, like: ir.Value) -> ir.Value:
    """``real`` as ``like``'s element type (a complex with a zero imaginary part)."""
    if not _emit.shape_of(like).element_type.is_complex:
        return real
    return binary("Complex", real, zeros_like(real))


def _divide(value: ir.Value, real: ir.Value) -> ir.Value:
    """``value / real`` with ``real`` of shape [..., 1, 1], part by part for complex ``value``."""
    if not _emit.shape_of(value).element_type.is_complex:
        return binary("Div", value, real)
    return binary("Complex", binary("Div", unary("Real", value), real),
                  binary("Div", unary("Imag", value), real))


def _nan_if_failed(factor: ir.Value) -> ir.Value:
    """``factor`` where all of a matrix is finite; NaN for the matrices whose factorization
    failed (XLA returns NaN for a matrix that is not positive definite)."""
    shape = _emit.shape_of(factor)
    parts = [unary("Real", factor), unary("Imag", factor)] if shape.element_type.is_complex else [factor]
    finite = unary("IsFinite", parts[0])
    for part in parts[1:]:
        finite = binary("And", finite, unary("IsFinite", part))
    true = scalar(True, PrimitiveType.PRED)

    def body(block: ir.Block) -> None:
        with ir.InsertionPoint(block):
            _emit.region_return([binary("And", *block.arguments)])

    (ok,) = reduce([finite], [true], [shape.rank - 2, shape.rank - 1], body)
    ok = broadcast_in_dim(ok, shape.dimensions, list(range(shape.rank - 2)))
    nan = _like(scalar(np.nan, _emit.shape_of(parts[0]).element_type), factor)
    return select(ok, factor, broadcast_in_dim(nan, shape.dimensions, []))
