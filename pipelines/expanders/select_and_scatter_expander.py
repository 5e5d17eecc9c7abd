"""select-and-scatter-expander: ``stablehlo.select_and_scatter`` as a reduce_window over
(value, index) pairs and a scatter (XLA's SelectAndScatterExpander).

The pinned IREE picks the last of tied maxima where XLA and the spec pick the first,
and fails to legalize padded forms (ARCHITECTURE.md, defects). The expansion gives
XLA's answer on every form::

    %r = "stablehlo.select_and_scatter"(%operand, %source, %init) ({select}, {scatter})
         {window_dimensions, window_strides, padding} : (tensor<D x T>, tensor<S x T>, tensor<T>)

becomes::

    %idx = reshape(iota(N))                        // linear index of each operand element
    %v, %sel = reduce_window(%operand, %idx, %init, N) {same window} ({
      // order the pair by index, then keep the earlier one iff select(earlier, later)
      // or the later one is padding (index N), as XLA's sequential scan of the window does
    })
    %flat = scatter(broadcast(%init, [N + 1]), reshape(%sel, [K, 1]), reshape(%source, [K])) ({scatter})
    %r = reshape(slice(%flat, [0:N]), D)           // slot N collects all-padding windows

Ordering each pair by index makes the reducer independent of the order in which IREE
combines window elements, for any transitive ``select``. Run ``dce`` afterwards to
drop the unused value result of the reduce_window.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.elementwise import binary, compare, select
from dialect_ops.shape_ops import broadcast_in_dim, iota, reshape
from dialect_ops.slicing import slice_
from dialect_ops.windows import reduce_window
from hlo_mlir import _emit
from hlo_mlir.ir_access import int_array, padding_pairs, window_values
from hlo_mlir.shape import Shape
from hlo_mlir.types import PrimitiveType
from pipelines.expanders._window_util import splice_block
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.values import scalar

__all__ = ["SelectAndScatterExpander"]


@register
class SelectAndScatterExpander(ExpanderPass):
    """Rewrites select_and_scatter into reduce_window over (value, index) pairs and a scatter."""

    name = "select-and-scatter-expander"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        return op.operation.name == "stablehlo.select_and_scatter"

    def expand(self, op) -> Sequence[ir.Value]:
        operand, source, init = op.operands
        shape, source_shape = _emit.shape_of(operand), _emit.shape_of(source)
        n, k = shape.element_count(), source_shape.element_count()
        if n == 0 or k == 0:
            return [broadcast_in_dim(init, shape.dimensions, [])]
        window = int_array(op, "window_dimensions")
        rank = len(window)
        strides = window_values(op, "window_strides", rank)
        padding = padding_pairs(op, rank)
        index_type = PrimitiveType.S32 if n < 2**31 - 1 else PrimitiveType.S64
        index = _reshaped(iota(Shape.array_shape(index_type, [n]), 0), shape.dimensions)
        none = scalar(n, index_type)
        select_block, scatter_block = op.regions[0].blocks[0], op.regions[1].blocks[0]
        _, selected = reduce_window([operand, index], [init, none], window, strides, None, None, padding,
                                    lambda block: _first_selected(block, select_block, n, index_type))
        flat = broadcast_in_dim(init, [n + 1], [])
        scattered = _scatter_1d(flat, reshape(selected, [k, 1]), _reshaped(source, [k]), scatter_block)
        return [_reshaped(slice_(scattered, [0], [n], [1]), shape.dimensions)]


def _reshaped(value: ir.Value, dims: Sequence[int]) -> ir.Value:
    return value if _emit.shape_of(value).dimensions == tuple(dims) else reshape(value, dims)


def _first_selected(block: ir.Block, select_block: ir.Block, none: int, index_type: PrimitiveType) -> None:
    """Reducer over (value, index) pairs: the earlier-indexed pair ``f`` wins over the later
    ``s`` iff ``select(f.value, s.value)`` or ``s`` is padding (index ``none``)."""
    av, ai, bv, bi = block.arguments
    with ir.InsertionPoint(block):
        a_first = compare(ai, bi, "LE")
        fv, fi = select(a_first, av, bv), select(a_first, ai, bi)
        sv, si = select(a_first, bv, av), select(a_first, bi, ai)
        (keep,) = splice_block(select_block, block, [fv, sv])
        keep = binary("Or", keep, compare(si, scalar(none, index_type), "EQ"))
        _emit.region_return([select(keep, fv, sv), select(keep, fi, si)])


def _scatter_1d(operand: ir.Value, indices: ir.Value, updates: ir.Value, scatter_block: ir.Block) -> ir.Value:
    """``stablehlo.scatter`` of K scalar ``updates`` into a rank-1 ``operand`` at ``indices``
    (``[K, 1]``), combined by ``scatter_block``'s computation (current, update)."""
    scalar = _emit.type_of(Shape.scalar_shape(_emit.shape_of(operand).element_type))
    dnums = ("#stablehlo.scatter<update_window_dims = [], inserted_window_dims = [0], "
             "scatter_dims_to_operand_dims = [0], index_vector_dim = 1>")
    op, (block,) = _emit.create_with_region(
        "stablehlo.scatter", [operand, indices, updates], [operand.type],
        {"scatter_dimension_numbers": _emit.parse_attr(dnums),
         "indices_are_sorted": _emit.i1_attr(False), "unique_indices": _emit.i1_attr(False)},
        [[scalar, scalar]])
    with ir.InsertionPoint(block):
        results = splice_block(scatter_block, block, list(block.arguments))
        _emit.region_return(results)
    return op.result
