"""Ops that move data without arithmetic: broadcasts (spec: Broadcast, BroadcastInDim).

More shape ops (Reshape, Transpose, Slice, ...) join this family module.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops import _emit
from hlo_mlir.builder import XlaOp, builder_of
from hlo_mlir.errors import InvalidArgumentError, ShapeError
from hlo_mlir.shape import Shape

__all__ = ["Broadcast", "BroadcastInDim", "broadcast_in_dim", "broadcast_in_dim_rule"]


def _require_array(op_name: str, shape: Shape, what: str = "operand") -> None:
    if not shape.is_array:
        raise ShapeError(f"{op_name} requires an array {what}; got {shape}.")


def Broadcast(operand: XlaOp, broadcast_sizes: Sequence[int]) -> XlaOp:
    """Adds major dimensions ``broadcast_sizes`` in front of the operand's (spec: Broadcast)."""
    b = builder_of("Broadcast", operand)

    def emit():
        shape = _emit.shape_of(operand.value)
        _require_array("Broadcast", shape)
        sizes = list(broadcast_sizes)
        if any(s < 0 for s in sizes):
            raise InvalidArgumentError(f"Broadcast requires non-negative broadcast_sizes; got {sizes}.")
        return broadcast_in_dim(operand.value, sizes + list(shape.dimensions),
                                list(range(len(sizes), len(sizes) + shape.rank)), "Broadcast")

    return b.emit("Broadcast", emit)


def BroadcastInDim(operand: XlaOp, out_dim_size: Sequence[int], broadcast_dimensions: Sequence[int]) -> XlaOp:
    """Broadcasts into shape ``out_dim_size``, operand dimension i going to output dimension
    ``broadcast_dimensions[i]``; size-1 operand dimensions are expanded (spec: BroadcastInDim)."""
    b = builder_of("BroadcastInDim", operand)
    return b.emit("BroadcastInDim", lambda: broadcast_in_dim(operand.value, out_dim_size, broadcast_dimensions))


def broadcast_in_dim_rule(operand: Shape, out_dim_size: Sequence[int], broadcast_dimensions: Sequence[int],
                          op_name: str = "BroadcastInDim") -> Shape:
    _require_array(op_name, operand)
    out, dims = list(out_dim_size), list(broadcast_dimensions)
    if any(s < 0 for s in out):
        raise InvalidArgumentError(f"{op_name} requires non-negative output sizes; got {out}.")
    if len(dims) != operand.rank:
        raise InvalidArgumentError(
            f"{op_name} requires one broadcast dimension per operand dimension; got {dims} for {operand}.")
    if len(set(dims)) != len(dims):
        raise InvalidArgumentError(f"{op_name} requires distinct broadcast_dimensions; got {dims}.")
    for i, d in enumerate(dims):
        if not 0 <= d < len(out):
            raise InvalidArgumentError(
                f"{op_name} requires broadcast_dimensions in [0, {len(out)}); got {dims}.")
        if operand.dimensions[i] not in (1, out[d]):
            raise ShapeError(
                f"{op_name} requires operand dimension {i} to be 1 or equal output dimension {d}; "
                f"got {operand.dimensions[i]} and {out[d]} ({operand} to {out}).")
    return Shape.array_shape(operand.element_type, out)


def broadcast_in_dim(operand: ir.Value, out_dim_size: Sequence[int], broadcast_dimensions: Sequence[int],
                     op_name: str = "BroadcastInDim") -> ir.Value:
    result = broadcast_in_dim_rule(_emit.shape_of(operand), out_dim_size, broadcast_dimensions, op_name)
    return _emit.create("stablehlo.broadcast_in_dim", [operand], [_emit.type_of(result)],
                        {"broadcast_dimensions": _emit.i64_array(broadcast_dimensions)}).result
