"""Helpers shared by ``cholesky-expander`` and ``triangular-solve-expander``: a counted
``stablehlo.while``, batched matrix products, row/column access at a loop index, triangle
masks and complex conjugation, all built from the dialect_ops emit functions."""

from __future__ import annotations

from typing import Callable, Sequence

from iree.compiler import ir

from dialect_ops.elementwise import binary, compare, select, unary
from dialect_ops.indexing import dynamic_slice, dynamic_update_slice
from dialect_ops.linalg import dot_general
from dialect_ops.shape_ops import broadcast_in_dim, iota, transpose
from dialect_ops.side_effects import optimization_barrier
from hlo_mlir import _emit
from hlo_mlir.shape import Shape
from hlo_mlir.types import PrimitiveType
from pipelines.values import scalar

__all__ = ["counted_loop", "zeros", "zeros_like", "conj", "adjoint", "swap_minor", "batched_matmul",
           "triangle_mask", "block_at", "update_block_at", "select_zero", "parts", "complex_of_parts"]

_INDEX = PrimitiveType.S32


def zeros_like(value: ir.Value) -> ir.Value:
    return zeros(_emit.shape_of(value))


def zeros(shape: Shape) -> ir.Value:
    """Zeros of ``shape``; complex ones are built from real parts (IREE crashes on
    complex<f64> constants)."""
    if shape.element_type.is_complex:
        zero = broadcast_in_dim(scalar(0, shape.element_type.complex_component_type), shape.dimensions, [])
        return binary("Complex", zero, zero)
    return broadcast_in_dim(scalar(0, shape.element_type), shape.dimensions, [])


def counted_loop(count: int, init: Sequence[ir.Value],
                 body: Callable[[ir.Value, list[ir.Value]], list[ir.Value]]) -> list[ir.Value]:
    """``for i in range(count): values = body(i, values)`` as one ``stablehlo.while`` carrying
    an s32 counter and ``init``; returns the final values."""
    start = scalar(0, _INDEX)
    types = [start.type] + [v.type for v in init]
    op, (cond_block, body_block) = _emit.create_with_region("stablehlo.while", [start, *init], types, None,
                                                            [types, types])
    with ir.InsertionPoint(cond_block):
        _emit.region_return([compare(cond_block.arguments[0], scalar(count, _INDEX), "LT")])
    with ir.InsertionPoint(body_block):
        i, *values = body_block.arguments
        new_values = body(i, list(values))
        _emit.region_return([binary("Add", i, scalar(1, _INDEX))] + list(new_values))
    return list(op.results)[1:]


def conj(value: ir.Value) -> ir.Value:
    """The complex conjugate of ``value`` (``value`` itself when real)."""
    if not _emit.shape_of(value).element_type.is_complex:
        return value
    return binary("Complex", unary("Real", value), unary("Neg", unary("Imag", value)))


def swap_minor(value: ir.Value) -> ir.Value:
    """``value`` with its two minor dimensions swapped (each matrix transposed)."""
    rank = _emit.shape_of(value).rank
    return transpose(value, list(range(rank - 2)) + [rank - 1, rank - 2])


def adjoint(value: ir.Value) -> ir.Value:
    """Each matrix conjugate-transposed."""
    return conj(swap_minor(value))


def batched_matmul(lhs: ir.Value, rhs: ir.Value) -> ir.Value:
    """``lhs @ rhs`` for batches of matrices with equal batch dimensions. Complex products are
    four real ones: IREE fails on complex<f32> dot_general ("'vector.transfer_read' op
    requires valid padding vector elemental type"; it aborts inside a loop)."""
    rank = _emit.shape_of(lhs).rank
    batch = list(range(rank - 2))
    numbers = (([rank - 1], [rank - 2]), (batch, batch))
    if not _emit.shape_of(lhs).element_type.is_complex:
        return dot_general(lhs, rhs, numbers)
    (a, b), (c, d) = parts(lhs), parts(rhs)
    return complex_of_parts(binary("Sub", dot_general(a, c, numbers), dot_general(b, d, numbers)),
                            binary("Add", dot_general(a, d, numbers), dot_general(b, c, numbers)))


def parts(value: ir.Value) -> tuple[ir.Value, ir.Value]:
    """The real and imaginary parts of a complex ``value``."""
    return unary("Real", value), unary("Imag", value)


def complex_of_parts(re: ir.Value, im: ir.Value) -> ir.Value:
    """``re + i im`` behind an optimization barrier: IREE fails to vectorize a complex<f32>
    result fused into the dispatch of the products that compute its parts ("'vector.transfer_read'
    op requires valid padding vector elemental type")."""
    return binary("Complex", *optimization_barrier([re, im]))


def triangle_mask(shape: Shape, lower: bool, strict: bool) -> ir.Value:
    """PRED of ``shape``: true on the lower (row > column) or upper triangle of each matrix,
    the diagonal included unless ``strict``."""
    rows = iota(shape.with_element_type(_INDEX), shape.rank - 2)
    columns = iota(shape.with_element_type(_INDEX), shape.rank - 1)
    direction = ("GT" if strict else "GE") if lower else ("LT" if strict else "LE")
    return compare(rows, columns, direction)


def _starts(rank: int, row: ir.Value | None, column: ir.Value | None) -> list[ir.Value]:
    zero = scalar(0, _INDEX)
    return [zero] * (rank - 2) + [row if row is not None else zero, column if column is not None else zero]


def block_at(value: ir.Value, row: ir.Value | None, column: ir.Value | None) -> ir.Value:
    """Of each matrix of ``value``: row ``row`` (column None), column ``column`` (row None)
    or element (row, column), keeping the rank (``[..., 1, n]``, ``[..., n, 1]``, ``[..., 1, 1]``)."""
    dims = list(_emit.shape_of(value).dimensions)
    sizes = dims[:-2] + [1 if row is not None else dims[-2], 1 if column is not None else dims[-1]]
    return dynamic_slice(value, _starts(len(dims), row, column), sizes)


def update_block_at(value: ir.Value, update: ir.Value, row: ir.Value | None,
                    column: ir.Value | None) -> ir.Value:
    """``value`` with ``update`` (a block as :func:`block_at` returns) written back at (row, column)."""
    return dynamic_update_slice(value, update, _starts(_emit.shape_of(value).rank, row, column))


def select_zero(mask: ir.Value, value: ir.Value) -> ir.Value:
    """``value`` where ``mask`` holds, zero elsewhere."""
    return select(mask, value, zeros_like(value))
