"""Helpers shared by ``gather-expander`` and ``scatter-expander`` (XLA's GatherExpander and
ScatterExpander): the index array as a ``[trip, K]`` matrix of index vectors, and the start
of iteration ``i``'s slice in operand space, read inside a counted loop, and the two
expansion modes."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.indexing import dynamic_slice
from dialect_ops.shape_ops import iota, reshape, transpose
from dialect_ops.slicing import concatenate, slice_
from hlo_mlir import _emit
from hlo_mlir.errors import InvalidArgumentError
from hlo_mlir.types import PrimitiveType
from pipelines.values import scalar

__all__ = ["MODES", "require_mode", "batch_dims", "index_matrix", "operand_start", "reshaped",
           "with_batching_components", "positions_fit"]

# XLA's expansion modes: every op (kEliminateAll*) or those of one index vector (kEliminateSimple*).
MODES = ("all", "simple")


def require_mode(pass_name: str, mode: str, modes: Sequence[str] = MODES) -> None:
    if mode not in modes:
        raise InvalidArgumentError(f"{pass_name} requires mode in {list(modes)}; got {mode!r}.")


def reshaped(value: ir.Value, dims: Sequence[int]) -> ir.Value:
    """``value`` reshaped to ``dims``; itself when it has them already (no identity op)."""
    return value if list(_emit.shape_of(value).dimensions) == list(dims) else reshape(value, dims)


def batch_dims(indices: ir.Value, index_vector_dim: int) -> list[int]:
    """The sizes of ``indices`` without the index vector dimension (one loop trip each)."""
    dims = _emit.shape_of(indices).dimensions
    return [n for d, n in enumerate(dims) if d != index_vector_dim]


def index_matrix(indices: ir.Value, index_vector_dim: int) -> ir.Value:
    """``indices`` as ``[trip, K]``: row ``i`` is the ``i``-th index vector in row-major order
    of the other dimensions (XLA's CanonicalizeGatherIndices / CanonicalizeScatterIndices)."""
    shape = _emit.shape_of(indices)
    trip = math.prod(batch_dims(indices, index_vector_dim))
    width = 1 if index_vector_dim == shape.rank else shape.dimensions[index_vector_dim]
    if index_vector_dim < shape.rank - 1:
        others = [d for d in range(shape.rank) if d != index_vector_dim]
        indices = transpose(indices, [*others, index_vector_dim])
    return reshaped(indices, [trip, width])


def operand_start(matrix: ir.Value, i: ir.Value, index_map: Sequence[int], rank: int) -> list[ir.Value]:
    """The start of slice ``i`` in an operand of ``rank``: component ``k`` of row ``i`` of
    ``matrix`` in dimension ``index_map[k]``, zero in the others (scalars of the indices'
    element type; ``i`` is an s32 loop counter)."""
    width = _emit.shape_of(matrix).dimensions[1]
    zero = scalar(0, _emit.shape_of(matrix).element_type)
    starts = [zero] * rank
    if not index_map:  # empty index vectors: every slice starts at 0
        return starts
    row = reshape(dynamic_slice(matrix, [i, scalar(0, PrimitiveType.S32)], [1, width]), [width])
    for k, d in enumerate(index_map):
        starts[d] = reshape(slice_(row, [k], [k + 1]), [])
    return starts


def with_batching_components(indices: ir.Value, index_vector_dim: int, index_batching_dims: Sequence[int],
                             operand_batching_dims: Sequence[int],
                             index_map: Sequence[int]) -> tuple[ir.Value, int, list[int]]:
    """``(indices, index_vector_dim, index_map)`` with each batching pair made an ordinary index
    component (XLA's BatchedGatherScatterNormalizer): the position along index batch dimension
    ``index_batching_dims[k]`` (an iota) indexes operand dimension ``operand_batching_dims[k]``.
    Positions are in range, so no start is clamped; the caller collapses (inserts) those
    operand dimensions."""
    if not operand_batching_dims:
        return indices, index_vector_dim, list(index_map)
    shape = _emit.shape_of(indices)
    if index_vector_dim == shape.rank:
        indices = reshape(indices, [*shape.dimensions, 1])
        shape = _emit.shape_of(indices)
    per_component = list(shape.dimensions)
    per_component[index_vector_dim] = 1
    positions = [iota(shape.with_dimensions(per_component), d) for d in index_batching_dims]
    return (concatenate([indices, *positions], index_vector_dim), index_vector_dim,
            [*index_map, *operand_batching_dims])


def positions_fit(indices: ir.Value, operand: ir.Value, operand_batching_dims: Sequence[int]) -> bool:
    """Whether every position along the batching dimensions fits the indices' element type."""
    info = np.iinfo(_emit.shape_of(indices).dtype)
    dims = _emit.shape_of(operand).dimensions
    return all(dims[d] - 1 <= info.max for d in operand_batching_dims)
