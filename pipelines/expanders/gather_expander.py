"""gather-expander: ``stablehlo.gather`` as a loop of dynamic slices, as XLA's GatherExpander.

One trip per index vector: the vector, spread into operand space (zeros in the dimensions
``start_index_map`` does not name), starts a ``dynamic_slice`` of ``slice_sizes`` whose
collapsed dimensions are dropped and which is written into row ``i`` of an accumulator;
the accumulator's rows are then split into the index batch dimensions and moved where
``offset_dims`` puts the slice dimensions::

    %r = "stablehlo.gather"(%x, %idx) {offset_dims = [1], collapsed_slice_dims = [1],
        start_index_map = [1], index_vector_dim = 2, slice_sizes = [3, 1]}
        : (tensor<3x3xi32>, tensor<2x2xi32>) -> tensor<2x3x2xi32>

becomes::

    %m = reshape(%idx) : tensor<4x1xi32>                  // one index vector per row
    %acc = while (i = 0, acc = zeros<4x3>) i < 4 {
      s = dynamic_slice(%x, [0, %m[i, 0]], sizes = [3, 1])
      acc = dynamic_update_slice(acc, reshape(s) : tensor<1x3xi32>, [i, 0])
    }
    %r = transpose(reshape(%acc) : tensor<2x2x3xi32>, [0, 2, 1])

``dynamic_slice`` clamps each start into ``[0, dim - size]``: exactly the clamping gather
defines (and ``gather-clamp`` makes explicit), so every index, negative or too large,
gives XLA's answer. A gather whose slice is the whole operand is a broadcast of it (every
start clamps to 0), with no loop.

``mode``: ``all`` expands every gather (XLA's kEliminateAllGathers); ``simple`` only those
with one index vector or a whole-operand slice (kEliminateSimpleGathers), which need no
loop of more than one trip. Statistics: ``loop``, ``broadcast``.

Conditions: static shapes of XLA element types, a non-empty result (XLA leaves empty
ones to zero-sized-hlo-elimination), no empty slice. ``operand_batching_dims`` become
ordinary index components first (the positions along the paired index dimensions, as
XLA's BatchedGatherScatterNormalizer), collapsed like ``collapsed_slice_dims``. Run cse and
algsimp afterwards.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Sequence

from iree.compiler import ir

from dialect_ops.indexing import dynamic_slice, dynamic_update_slice
from dialect_ops.shape_ops import broadcast_in_dim, transpose
from hlo_mlir import _emit
from hlo_mlir.ir_access import gather_dimension_numbers, int_array
from hlo_mlir.shape import Shape
from hlo_mlir.types import PrimitiveType
from pipelines.expanders._index_loops import (
    batch_dims,
    index_matrix,
    operand_start,
    positions_fit,
    require_mode,
    reshaped,
    with_batching_components,
)
from pipelines.expanders._matrix_loops import counted_loop, zeros
from pipelines.matchers import static_dims, xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import scalar

__all__ = ["GatherExpander"]


@register
@dataclasses.dataclass
class GatherExpander(ExpanderPass):
    """Expands gather into a while loop of dynamic slices (XLA's GatherExpander)."""

    name = "gather-expander"
    mode: str = dataclasses.field(
        default="all", metadata={"help": "all: every gather; simple: only gathers of one index vector "
                                         "or of the whole operand (no loop)"})

    def __post_init__(self) -> None:
        require_mode(self.name, self.mode)

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.gather" or not xla_arrays([*op.operands, *op.results]):
            return False
        if any(static_dims(v) is None for v in (*op.operands, op.results[0])):
            return False
        dn = gather_dimension_numbers(op)
        if _emit.shape_of(op.results[0]).element_count() == 0:
            return False
        if not positions_fit(op.operands[1], op.operands[0], dn.operand_batching_dims):
            return False
        if 0 in int_array(op, "slice_sizes"):  # an empty collapsed slice: no element to read
            return False
        return self.mode == "all" or _is_broadcast(op) or _trip_count(op) == 1

    def rule(self, op) -> str:
        return "broadcast" if _is_broadcast(op) else "loop"

    def expand(self, op) -> Sequence[ir.Value]:
        operand, indices = op.operands
        dn = gather_dimension_numbers(op)
        sizes = int_array(op, "slice_sizes")
        result = _emit.shape_of(op.results[0])
        collapsed = {*dn.collapsed_slice_dims, *dn.operand_batching_dims}
        slice_dims = [n for d, n in enumerate(sizes) if d not in collapsed]
        if _is_broadcast(op):
            return [broadcast_in_dim(reshaped(operand, slice_dims), result.dimensions, list(dn.offset_dims))]
        indices_with_positions, vector_dim, start_map = with_batching_components(
            indices, dn.index_vector_dim, dn.start_indices_batching_dims, dn.operand_batching_dims,
            dn.start_index_map)
        matrix = index_matrix(indices_with_positions, vector_dim)
        trip = _trip_count(op)
        rank = len(sizes)
        zero = scalar(0, PrimitiveType.S32)

        def gather_one(i: ir.Value, values: list[ir.Value]) -> list[ir.Value]:
            (acc,) = values
            piece = dynamic_slice(operand, operand_start(matrix, i, start_map, rank), sizes)
            piece = reshaped(piece, [1, *slice_dims])
            return [dynamic_update_slice(acc, piece, [i] + [zero] * len(slice_dims))]

        init = zeros(Shape.array_shape(result.element_type, [trip, *slice_dims]))
        (acc,) = counted_loop(trip, [init], gather_one)
        batch = batch_dims(indices, dn.index_vector_dim)
        acc = reshaped(acc, [*batch, *slice_dims])
        # Batch dimensions come first in the accumulator; offset_dims say where the slice's go.
        offsets, batches = iter(range(len(batch), result.rank)), iter(range(len(batch)))
        permutation = [next(offsets) if d in dn.offset_dims else next(batches) for d in range(result.rank)]
        return [acc if permutation == sorted(permutation) else transpose(acc, permutation)]


def _trip_count(op) -> int:
    return math.prod(batch_dims(op.operands[1], gather_dimension_numbers(op).index_vector_dim))


def _is_broadcast(op) -> bool:
    """Whether the slice is the whole operand (XLA's GatherIsBroadcast)."""
    return int_array(op, "slice_sizes") == static_dims(op.operands[0])
