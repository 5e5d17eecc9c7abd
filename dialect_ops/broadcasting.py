"""XLA's implicit broadcasting of the two operands of a binary element-wise op or a
comparison (spec: "Element-wise binary arithmetic operations" and the broadcasting page
it refers to):

- same rank: sizes must match or one must be 1 (degenerate broadcast);
  ``broadcast_dimensions`` must be empty or the identity;
- a scalar operand broadcasts to the other's shape;
- different ranks: ``broadcast_dimensions`` maps each dimension of the lower-rank
  operand, in increasing order, to a dimension of the higher-rank one; the unmapped
  dimensions count as size 1, then degenerate broadcasting applies.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.shape_ops import broadcast_in_dim
from hlo_mlir import _emit
from hlo_mlir.errors import InvalidArgumentError, ShapeError
from hlo_mlir.shape import Shape

__all__ = ["broadcast_rule", "broadcast_dynamic_dimensions", "broadcast_operands"]


def broadcast_rule(op_name: str, lhs: Shape, rhs: Shape,
                   broadcast_dimensions: Sequence[int] = ()) -> tuple[int, ...]:
    """The dimensions both operands of binary op ``op_name`` broadcast to (the module's rules)."""
    for name, s in (("lhs", lhs), ("rhs", rhs)):
        if not s.is_array:
            raise ShapeError(f"{op_name} requires array operands; got {s} for {name}.")
    dims = list(broadcast_dimensions)
    if lhs.rank == rhs.rank:
        if dims and dims != list(range(lhs.rank)):
            raise InvalidArgumentError(
                f"{op_name} requires broadcast_dimensions to be empty or the identity for operands "
                f"of equal rank; got {dims} for {lhs} and {rhs}.")
        return _degenerate(op_name, lhs, rhs, lhs.dimensions, rhs.dimensions)
    if (lhs.rank == 0 or rhs.rank == 0) and not dims:
        return (lhs if rhs.rank == 0 else rhs).dimensions
    small, large = (lhs, rhs) if lhs.rank < rhs.rank else (rhs, lhs)
    if not dims:
        raise ShapeError(
            f"{op_name} requires broadcast_dimensions for operands of different rank; got {lhs} and "
            f"{rhs}. Pass broadcast_dimensions mapping the {small.rank} dimensions of {small} "
            f"into {large}.")
    if len(dims) != small.rank:
        raise InvalidArgumentError(
            f"{op_name} requires one broadcast dimension per dimension of the lower-rank operand "
            f"{small}; got {dims}.")
    for i, d in enumerate(dims):
        if not 0 <= d < large.rank:
            raise InvalidArgumentError(
                f"{op_name} requires broadcast_dimensions in [0, {large.rank}); got {dims} for {large}.")
        if i and d <= dims[i - 1]:
            raise InvalidArgumentError(
                f"{op_name} requires strictly increasing broadcast_dimensions; got {dims}.")
    expanded = [1] * large.rank
    for i, d in enumerate(dims):
        expanded[d] = small.dimensions[i]
    if small is lhs:
        return _degenerate(op_name, lhs, rhs, expanded, large.dimensions)
    return _degenerate(op_name, lhs, rhs, large.dimensions, expanded)


def _degenerate(op_name: str, lhs: Shape, rhs: Shape, ldims: Sequence[int],
                rdims: Sequence[int]) -> tuple[int, ...]:
    out = []
    for i, (a, b) in enumerate(zip(ldims, rdims, strict=True)):
        if a != b and a != 1 and b != 1:
            raise ShapeError(
                f"{op_name} requires compatible operand shapes; got {lhs} and {rhs} "
                f"(dimension {i}: {a} vs {b}).")
        out.append(b if a == 1 else a)
    return tuple(out)


def _mapped_dimensions(operand: Shape, rank: int, broadcast_dimensions: Sequence[int]) -> list[int]:
    """The result dimension each dimension of ``operand`` maps to in a rank-``rank`` result."""
    if operand.rank == rank:
        return list(range(rank))
    return [] if operand.rank == 0 else list(broadcast_dimensions)


def broadcast_dynamic_dimensions(lhs: Shape, rhs: Shape, rank: int,
                                 broadcast_dimensions: Sequence[int] = ()) -> list[bool]:
    """Which result dimensions of a broadcasting binary op are (bounded) dynamic: those
    that a dynamic dimension of either operand maps to (XLA keeps the dynamic flag)."""
    flags = [False] * rank
    for shape in (lhs, rhs):
        for d, target in enumerate(_mapped_dimensions(shape, rank, broadcast_dimensions)):
            flags[target] = flags[target] or shape.dynamic_dimensions[d]
    return flags


def broadcast_operands(lhs: ir.Value, rhs: ir.Value, out_dims: Sequence[int],
                       broadcast_dimensions: Sequence[int]) -> tuple[ir.Value, ir.Value]:
    """Emits a ``broadcast_in_dim`` of either operand whose shape differs from ``out_dims``."""
    result = []
    for value in (lhs, rhs):
        shape = _emit.shape_of(value)
        if shape.dimensions == tuple(out_dims):
            result.append(value)
        else:
            dims = _mapped_dimensions(shape, len(out_dims), broadcast_dimensions)
            result.append(broadcast_in_dim(value, out_dims, dims))
    return result[0], result[1]
