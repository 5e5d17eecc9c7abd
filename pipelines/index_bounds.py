"""Index-vector helpers shared by the passes that bound indices (``gather-clamp``,
``scatter-bounds``, ``sort-network-expander``, ...): reading constant
indices, normalizing an index array to ``[batch..., K]`` of s64, testing index vectors
against per-component bounds, and the marker that says an op's indices were made safe."""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.elementwise import binary, compare, convert
from dialect_ops.shape_ops import broadcast_in_dim, reshape, transpose
from dialect_ops.slicing import slice_
from hlo_mlir import _emit
from hlo_mlir.shape import Shape
from hlo_mlir.types import PrimitiveType
from pipelines.matchers import (
    constant_array,  # noqa: F401 - re-exported for the index passes
    producer,
)

__all__ = ["IN_BOUNDS", "mark_in_bounds", "is_marked", "constant_array", "vector_constant",
           "normalized_indices", "constant_in_bounds", "in_bounds_mask", "given_size"]

# Discardable attribute on a gather/scatter whose start indices can no longer leave the
# operand (clamped or masked): the expanders skip ops that carry it.
IN_BOUNDS = "hlo_mlir.in_bounds"


def mark_in_bounds(value: ir.Value) -> ir.Value:
    value.owner.attributes[IN_BOUNDS] = ir.UnitAttr.get()
    return value


def is_marked(op) -> bool:
    return IN_BOUNDS in op.attributes


def given_size(op) -> ir.Value:
    """The size a ``set_dimension_size`` was given (before set-dimension-size-clamp clamped
    it and marked the op)."""
    size = op.operands[1]
    clamped = producer(size, "stablehlo.clamp")
    return clamped.operands[1] if is_marked(op) and clamped is not None else size


def vector_constant(values: Sequence[int], element_type: PrimitiveType, shape: Sequence[int],
                    dimension: int) -> ir.Value:
    """``values`` (one per entry of ``shape[dimension]``) broadcast along every other
    dimension of ``shape``."""
    vec = Shape.array_shape(element_type, [len(values)])
    return broadcast_in_dim(_emit.constant(np.asarray(values, vec.dtype), vec), shape, [dimension])


def normalized_indices(indices: ir.Value, index_vector_dim: int) -> ir.Value:
    """``indices`` as s64 with the index vector as the last dimension (an implicit trailing
    1 made explicit); the other dimensions keep their order."""
    shape = _emit.shape_of(indices)
    if shape.element_type is not PrimitiveType.S64:
        indices = convert(indices, PrimitiveType.S64)
    if index_vector_dim == shape.rank:
        return reshape(indices, [*shape.dimensions, 1])
    if index_vector_dim != shape.rank - 1:
        others = [d for d in range(shape.rank) if d != index_vector_dim]
        return transpose(indices, [*others, index_vector_dim])
    return indices


def constant_in_bounds(indices: ir.Value, index_vector_dim: int, upper: Sequence[int]) -> bool:
    """Whether ``indices`` are a constant whose index vectors all have
    ``0 <= component k <= upper[k]``."""
    known = constant_array(indices)
    if known is None:
        return False
    vectors = known[..., None] if index_vector_dim == known.ndim else np.moveaxis(known, index_vector_dim, -1)
    return bool(((vectors >= 0) & (vectors <= np.asarray(upper, dtype=np.int64))).all())


def in_bounds_mask(indices: ir.Value, upper: Sequence[int]) -> ir.Value | None:
    """PRED ``[batch...]``: whether each index vector of the normalized ``indices``
    (``[batch..., K]``) has ``0 <= indices[..., k] <= upper[k]`` for every k; None when
    there are no components (K = 0: every vector is in bounds)."""
    if not upper:
        return None
    shape = _emit.shape_of(indices)
    last = shape.rank - 1
    ok = binary("And", compare(indices, vector_constant([0] * len(upper), PrimitiveType.S64, shape.dimensions,
                                                        last), "GE"),
                compare(indices, vector_constant(upper, PrimitiveType.S64, shape.dimensions, last), "LE"))
    batch = list(shape.dimensions[:-1])
    mask = None
    for k in range(len(upper)):
        start = [0] * shape.rank
        limit = list(shape.dimensions)
        start[last], limit[last] = k, k + 1
        component = reshape(slice_(ok, start, limit), batch)
        mask = component if mask is None else binary("And", mask, component)
    return mask
