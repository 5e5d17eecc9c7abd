"""scatter-expander: ``stablehlo.scatter`` as a loop over its update windows, as XLA's
ScatterExpander.

One trip per index vector, in row-major order of the index batch dimensions: the vector,
spread into operand space (zeros where ``scatter_dims_to_operand_dims`` names no
dimension), starts the window; the window of each operand is read with ``dynamic_slice``,
combined element by element with the window of its updates by the update computation
(``stablehlo.map`` of it, one per result), and written back with
``dynamic_update_slice``, unless the window is not entirely inside the operand::

    %r = "stablehlo.scatter"(%x, %idx, %u) ({ ^bb0(%a, %b): return f(%a, %b) })
        {update_window_dims = [1], inserted_window_dims = [0],
         scatter_dims_to_operand_dims = [0], index_vector_dim = 1}
        : (tensor<4x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>

becomes::

    %r = while (i = 0, x = %x) i < 2 {
      s = [%idx[i, 0], 0]
      w = dynamic_slice(x, s, sizes = [1, 3])
      v = map(f)(w, reshape(dynamic_slice(%u, [i, 0], sizes = [1, 3])))
      ok = 0 <= s[0] <= 3 && 0 <= s[1] <= 0                  // the window fits
      x = dynamic_update_slice(x, select(ok, v, w), s)
    }

An out-of-bounds window is skipped (``dynamic_slice`` and ``dynamic_update_slice`` clamp
alike, so the clamped window is written back unchanged). Windows are applied one after
the other in index order, so repeated indices combine in XLA's order whatever the update
computation (non-associative ones included), and ``unique_indices`` is not needed.
Empty updates leave the operands as they are.

``mode``: ``all`` expands every scatter (XLA's kEliminateAllScatters); ``simple`` only
those with one index vector (kEliminateSimpleScatters); ``variadic`` only those of more
than one operand. iree-legalize runs ``variadic`` after ``scatter-bounds``, which splits
the variadic scatters whose update computation is separable: the pinned IREE rejects the
rest ("NYI variadic operands scatter"), those whose combiner mixes operands. Statistics: ``loop``,
``empty-updates``.

``input_batching_dims`` become ordinary index components first (the positions along the
paired index dimensions, as XLA's BatchedGatherScatterNormalizer).

Conditions: static shapes of XLA element types. The loop runs
one trip per index vector: keep it for small scatters or for combiners IREE's scatter
gets wrong. Run cse and algsimp afterwards.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.control_flow import map_
from dialect_ops.elementwise import binary, compare, select
from dialect_ops.gather_scatter import ScatterDimensionNumbers
from dialect_ops.indexing import dynamic_slice, dynamic_update_slice
from dialect_ops.shape_ops import broadcast_in_dim, transpose
from hlo_mlir import _emit
from hlo_mlir.shape import ProgramShape, Shape
from hlo_mlir.types import PrimitiveType
from pipelines.expanders._index_loops import (
    MODES,
    batch_dims,
    index_matrix,
    operand_start,
    positions_fit,
    require_mode,
    reshaped,
    with_batching_components,
)
from pipelines.expanders._matrix_loops import counted_loop
from pipelines.matchers import static_dims, xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.regions import clone_body
from pipelines.registry import register
from pipelines.values import scalar

__all__ = ["ScatterExpander"]


@register
@dataclasses.dataclass
class ScatterExpander(ExpanderPass):
    """Expands scatter into a while loop applying the update computation window by window (XLA's)."""

    name = "scatter-expander"
    mode: str = dataclasses.field(
        default="all", metadata={"help": "all: every scatter; simple: only scatters of one index vector; "
                                         "variadic: only scatters of more than one operand"})
    legalizes_for_iree = True  # with mode=variadic

    def __post_init__(self) -> None:
        require_mode(self.name, self.mode, (*MODES, "variadic"))

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.scatter" or not xla_arrays([*op.operands, *op.results]):
            return False
        if any(static_dims(v) is None for v in op.operands):
            return False
        dn = _dimension_numbers(op)
        if not positions_fit(op.operands[len(op.results)], op.operands[0], dn.input_batching_dims):
            return False
        if self.mode == "variadic":
            return len(op.results) > 1
        return self.mode == "all" or _trip_count(op) == 1

    def rule(self, op) -> str:
        return "empty-updates" if _empty_updates(op) else "loop"

    def expand(self, op) -> Sequence[ir.Value]:
        n = len(op.results)
        operands, indices, updates = list(op.operands[:n]), op.operands[n], list(op.operands[n + 1:])
        if _empty_updates(op):
            return operands
        dn = _dimension_numbers(op)
        shape = _emit.shape_of(operands[0])
        window = _window(dn, shape.rank, _emit.shape_of(updates[0]).dimensions)
        upper = [d - w for d, w in zip(shape.dimensions, window, strict=True)]
        indices, vector_dim, start_map = with_batching_components(
            indices, dn.index_vector_dim, dn.scatter_indices_batching_dims, dn.input_batching_dims,
            dn.scatter_dims_to_operand_dims)
        matrix = index_matrix(indices, vector_dim)
        trip = _trip_count(op)
        windows = [_update_windows(u, dn, trip) for u in updates]
        body = op.regions[0].blocks[0]
        zero = scalar(0, PrimitiveType.S32)

        def scatter_one(i: ir.Value, current: list[ir.Value]) -> list[ir.Value]:
            start = operand_start(matrix, i, start_map, shape.rank)
            ok = _fits(start, dn.scatter_dims_to_operand_dims, upper)
            old = [dynamic_slice(x, start, window) for x in current]
            new = [reshaped(dynamic_slice(u, [i] + [zero] * (_emit.shape_of(u).rank - 1),
                                         [1, *_emit.shape_of(u).dimensions[1:]]), window) for u in windows]
            out = []
            for k, (x, w) in enumerate(zip(current, old, strict=True)):
                combined = _apply(body, k, old + new)
                keep = select(broadcast_in_dim(ok, window, []), combined, w) if ok is not None else combined
                out.append(dynamic_update_slice(x, keep, start))
            return out

        return counted_loop(trip, operands, scatter_one)


def _dimension_numbers(op) -> ScatterDimensionNumbers:
    return ScatterDimensionNumbers.from_attribute(op.attributes["scatter_dimension_numbers"])


def _trip_count(op) -> int:
    n = len(op.results)
    return math.prod(batch_dims(op.operands[n], _dimension_numbers(op).index_vector_dim))


def _empty_updates(op) -> bool:
    return _emit.shape_of(op.operands[len(op.results) + 1]).element_count() == 0


def _window(dn: ScatterDimensionNumbers, rank: int, update_dims: Sequence[int]) -> list[int]:
    """The window's size in each operand dimension: 1 in the inserted and batching ones, the
    update window dimensions' sizes in order in the others."""
    sizes = iter(update_dims[d] for d in dn.update_window_dims)
    ones = {*dn.inserted_window_dims, *dn.input_batching_dims}
    return [1 if d in ones else next(sizes) for d in range(rank)]


def _update_windows(updates: ir.Value, dn: ScatterDimensionNumbers, trip: int) -> ir.Value:
    """``updates`` as ``[trip, window...]``: the scatter dimensions first, in order, flattened
    (XLA's PermuteScatterAndWindowDims and AdjustScatterDims)."""
    shape = _emit.shape_of(updates)
    scatter_dims = [d for d in range(shape.rank) if d not in dn.update_window_dims]
    permutation = scatter_dims + list(dn.update_window_dims)
    if permutation != list(range(shape.rank)):
        updates = transpose(updates, permutation)
    return reshaped(updates, [trip, *(shape.dimensions[d] for d in dn.update_window_dims)])


def _fits(start: list[ir.Value], indexed: Sequence[int], upper: Sequence[int]) -> ir.Value | None:
    """PRED scalar: ``0 <= start[d] <= upper[d]`` in every indexed dimension ``d`` (XLA's
    CheckIndexValidity; the other starts are 0 and the window fits there); None when no
    index can leave the bounds (no component, or the type's range allows no such value)."""
    ok = None
    for d in indexed:
        shape = _emit.shape_of(start[d])
        t, info = shape.element_type, np.iinfo(shape.dtype)
        checks = [compare(start[d], scalar(0, t), "GE")] if info.min < 0 else []
        if upper[d] < info.max:
            checks.append(compare(start[d], scalar(upper[d], t), "LE"))
        for check in checks:
            ok = check if ok is None else binary("And", ok, check)
    return ok


def _apply(body: ir.Block, k: int, arguments: list[ir.Value]) -> ir.Value:
    """Result ``k`` of the update computation ``body``, element by element over ``arguments``
    (the operand windows, then the update windows): a ``stablehlo.map``."""
    element_types = [_emit.shape_of(a).element_type for a in arguments]
    signature = ProgramShape([Shape.scalar_shape(t) for t in element_types],
                             Shape.scalar_shape(element_types[k]))

    def fill(block: ir.Block) -> None:
        with ir.InsertionPoint(block):
            _emit.region_return([clone_body(body, list(block.arguments))[k]])

    return map_(arguments, fill, signature, list(range(_emit.shape_of(arguments[0]).rank)))
