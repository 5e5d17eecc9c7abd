"""Ops that move data without arithmetic: Broadcast, BroadcastInDim, Iota, Reshape,
Collapse, Transpose and Rev (spec: Broadcast, BroadcastInDim, Iota, Reshape,
Collapse, Transpose, Rev (reverse)).

Slicing, concatenation and padding live in ``dialect_ops.slicing``; tuples in
``dialect_ops.tuple_ops``.
"""

from __future__ import annotations

import math
from typing import Sequence

from iree.compiler import ir

from dialect_ops._args import (
    dimension_list,
    int_arg,
    permutation_list,
    require_array,
    require_static,
    size_list,
)
from hlo_mlir import _emit
from hlo_mlir.builder import XlaBuilder, XlaOp, builder_of
from hlo_mlir.errors import DTypeError, InvalidArgumentError, ShapeError
from hlo_mlir.shape import Shape

__all__ = ["Broadcast", "BroadcastInDim", "broadcast_in_dim", "broadcast_in_dim_rule",
           "Iota", "iota", "iota_rule",
           "Reshape", "reshape", "reshape_rule",
           "Collapse", "collapse_rule",
           "Transpose", "transpose", "transpose_rule",
           "Rev", "rev", "rev_rule"]


# --- Broadcast, BroadcastInDim --------------------------------------------------------------
def Broadcast(operand: XlaOp, broadcast_sizes: Sequence[int]) -> XlaOp:
    """Adds major dimensions ``broadcast_sizes`` in front of the operand's (spec: Broadcast)."""
    b = builder_of("Broadcast", operand)

    def emit():
        shape = _emit.shape_of(operand.value)
        require_array("Broadcast", shape)
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
    return b.emit("BroadcastInDim",
                  lambda: broadcast_in_dim(operand.value, out_dim_size, broadcast_dimensions))


def broadcast_in_dim_rule(operand: Shape, out_dim_size: Sequence[int], broadcast_dimensions: Sequence[int],
                          op_name: str = "BroadcastInDim") -> Shape:
    require_array(op_name, operand)
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
    if operand.is_dynamic:
        # XLA keeps the bounded dynamic dimension in the result; the pinned IREE rejects a
        # bounded dynamic broadcast_in_dim result, and a static one would read the padding.
        raise ShapeError(f"{op_name} requires a static operand (a bounded dynamic result does not "
                         f"compile with the pinned IREE); got {operand}.")
    return Shape.array_shape(operand.element_type, out)


def broadcast_in_dim(operand: ir.Value, out_dim_size: Sequence[int], broadcast_dimensions: Sequence[int],
                     op_name: str = "BroadcastInDim") -> ir.Value:
    result = broadcast_in_dim_rule(_emit.shape_of(operand), out_dim_size, broadcast_dimensions, op_name)
    return _emit.create("stablehlo.broadcast_in_dim", [operand], [_emit.type_of(result)],
                        {"broadcast_dimensions": _emit.i64_array(broadcast_dimensions)}).result


# --- Iota ---------------------------------------------------------------------------------------
def Iota(builder: XlaBuilder, shape_or_type, dimension_or_size) -> XlaOp:
    """Counts 0, 1, 2, ... along one dimension (spec: Iota).

    Two forms, as in XLA: ``Iota(builder, shape, iota_dimension)`` and
    ``Iota(builder, element_type, size)`` (a rank-1 iota of ``size`` elements).
    Floating-point iotas equal ConvertElementType of an integer iota.
    """
    if not isinstance(builder, XlaBuilder):
        raise InvalidArgumentError(f"Iota requires an XlaBuilder; got {type(builder).__name__}.")

    def emit():
        if isinstance(shape_or_type, Shape):
            shape, dimension = shape_or_type, dimension_or_size
        else:
            size = size_list("Iota", "size", [dimension_or_size])[0]
            shape, dimension = Shape.array_shape(shape_or_type, [size]), 0
        return iota(shape, dimension)

    return builder.emit("Iota", emit)


def iota_rule(shape: Shape, iota_dimension: int) -> Shape:
    require_static("Iota", shape, "result")
    t = shape.element_type
    # StableHLO's iota makes integer, floating-point and complex tensors only.
    if not (t.is_integer or t.is_floating_point or t.is_complex):
        raise DTypeError(f"Iota requires an integer, floating-point or complex element type; got {shape}.")
    dimension = int_arg("Iota", "iota_dimension", iota_dimension)
    if not 0 <= dimension < shape.rank:
        raise InvalidArgumentError(
            f"Iota requires iota_dimension in [0, {shape.rank}); got {dimension} for shape {shape}.")
    return shape


def iota(shape: Shape, iota_dimension: int) -> ir.Value:
    """``stablehlo.iota`` of ``shape`` counting along ``iota_dimension``."""
    result = iota_rule(shape, iota_dimension)
    return _emit.create("stablehlo.iota", [], [_emit.type_of(result)],
                        {"iota_dimension": _emit.i64_attr(iota_dimension)}).result


# --- Reshape, Collapse ----------------------------------------------------------------------
def Reshape(operand: XlaOp, dimensions_or_new_sizes: Sequence[int] | None = None,
            new_sizes: Sequence[int] | None = None) -> XlaOp:
    """Reinterprets the operand's elements, read in row-major order, as ``new_sizes``
    (spec: Reshape).

    ``Reshape(operand, new_sizes)`` or ``Reshape(operand, dimensions, new_sizes)``, where
    ``dimensions`` (a permutation of the operand's dimensions, most major first) is the
    order in which the operand is read: a Transpose by ``dimensions`` comes first.
    """
    b = builder_of("Reshape", operand)
    if new_sizes is None:
        dimensions, sizes = None, dimensions_or_new_sizes
    else:
        dimensions, sizes = dimensions_or_new_sizes, new_sizes

    def emit():
        if sizes is None:
            raise InvalidArgumentError("Reshape requires new_sizes; got None.")
        value = operand.value
        reshape_rule(_emit.shape_of(value), sizes, dimensions)
        if dimensions is not None and list(dimensions) != sorted(dimensions):
            value = transpose(value, dimensions)
        return reshape(value, sizes)

    return b.emit("Reshape", emit)


def reshape_rule(operand: Shape, new_sizes: Sequence[int], dimensions: Sequence[int] | None = None,
                 op_name: str = "Reshape") -> Shape:
    require_static(op_name, operand)
    if dimensions is not None:
        permutation_list(op_name, "dimensions", dimensions, operand)
    sizes = size_list(op_name, "new_sizes", new_sizes)
    result = Shape.array_shape(operand.element_type, sizes)
    if result.element_count() != operand.element_count():
        raise ShapeError(
            f"{op_name} requires new_sizes with as many elements as the operand; got {sizes} "
            f"({result.element_count()} elements) for operand {operand} "
            f"({operand.element_count()} elements).")
    return result


def reshape(operand: ir.Value, new_sizes: Sequence[int]) -> ir.Value:
    """``stablehlo.reshape`` of ``operand`` (row-major order) to ``new_sizes``."""
    result = reshape_rule(_emit.shape_of(operand), new_sizes)
    return _emit.create("stablehlo.reshape", [operand], [_emit.type_of(result)]).result


def Collapse(operand: XlaOp, dimensions: Sequence[int]) -> XlaOp:
    """Replaces consecutive, in-order ``dimensions`` by one dimension of their product size,
    at their position (spec: Collapse). Fewer than two dimensions leave the operand as it is."""
    b = builder_of("Collapse", operand)

    def emit():
        result = collapse_rule(_emit.shape_of(operand.value), dimensions)
        if len(dimensions) <= 1:
            return operand.value
        return reshape(operand.value, result.dimensions)

    return b.emit("Collapse", emit)


def collapse_rule(operand: Shape, dimensions: Sequence[int]) -> Shape:
    require_static("Collapse", operand)
    dims = dimension_list("Collapse", "dimensions", dimensions, operand)
    if dims and dims != list(range(dims[0], dims[0] + len(dims))):
        raise InvalidArgumentError(
            f"Collapse requires consecutive dimensions in increasing order; got {dims} "
            f"for operand {operand}.")
    if not dims:
        return operand
    sizes = list(operand.dimensions)
    sizes[dims[0]:dims[-1] + 1] = [math.prod(sizes[dims[0]:dims[-1] + 1])]
    return Shape.array_shape(operand.element_type, sizes)


# --- Transpose, Rev ----------------------------------------------------------------------------
def Transpose(operand: XlaOp, permutation: Sequence[int]) -> XlaOp:
    """Permutes the operand's dimensions: output dimension i is operand dimension
    ``permutation[i]`` (spec: Transpose)."""
    b = builder_of("Transpose", operand)
    return b.emit("Transpose", lambda: transpose(operand.value, permutation))


def transpose_rule(operand: Shape, permutation: Sequence[int]) -> Shape:
    require_array("Transpose", operand)
    perm = permutation_list("Transpose", "permutation", permutation, operand)
    return Shape(operand.element_type, tuple(operand.dimensions[p] for p in perm), (),
                 tuple(operand.dynamic_dimensions[p] for p in perm))


def transpose(operand: ir.Value, permutation: Sequence[int]) -> ir.Value:
    """``stablehlo.transpose`` of ``operand`` by ``permutation``."""
    result = transpose_rule(_emit.shape_of(operand), permutation)
    return _emit.create("stablehlo.transpose", [operand], [_emit.type_of(result)],
                        {"permutation": _emit.i64_array(permutation)}).result


def Rev(operand: XlaOp, dimensions: Sequence[int]) -> XlaOp:
    """Reverses the order of elements along each of ``dimensions``: index i of a reversed
    dimension of size N goes to N - 1 - i (spec: Rev (reverse))."""
    b = builder_of("Rev", operand)
    return b.emit("Rev", lambda: rev(operand.value, dimensions))


def rev_rule(operand: Shape, dimensions: Sequence[int]) -> Shape:
    require_array("Rev", operand)
    dimension_list("Rev", "dimensions", dimensions, operand)
    return operand


def rev(operand: ir.Value, dimensions: Sequence[int]) -> ir.Value:
    """``stablehlo.reverse`` of ``operand`` along ``dimensions``."""
    result = rev_rule(_emit.shape_of(operand), dimensions)
    return _emit.create("stablehlo.reverse", [operand], [_emit.type_of(result)],
                        {"dimensions": _emit.i64_array(dimensions)}).result
