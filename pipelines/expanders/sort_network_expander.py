"""sort-network-expander: long sorts as a bitonic sorting network in a while loop.

The pinned IREE lowers ``stablehlo.sort`` to an O(n^2) algorithm per row (16k elements
take seconds, 1M would take hours) and fails on large sorts with "exceeded stack
allocation limit" (ARCHITECTURE.md). A bitonic network sorts n = 2^m elements in
m(m+1)/2 compare-exchange stages of O(n) each; every stage is the same few data-parallel
ops, so the network is one ``stablehlo.while`` whatever n is::

    %r:N = "stablehlo.sort"(%x_0, ..., %x_{N-1}) ({c}) {dimension = d}

becomes (B rows of the other dimensions, W = n rounded up to a power of two)::

    %t_k = reshape(transpose(%x_k, d last), [B, n]) padded to [B, W], flattened to [B*W]
    %pos = iota along the row (a position >= n marks padding), flattened
    %w:N+3 = stablehlo.while(k = 2, j = 1, %t_0, ..., %pos) cond k <= W {
      g = iota; i = g & (W - 1); p = g ^ j              // partner of each element
      first = ((i & j) == 0) == ((i & k) == 0)          // holds the smaller of the pair
      (f, s) = first ? (t, t[p]) : (t[p], t)           // gathers, per operand
      swap = pos_s < n && (pos_f >= n || map(less)(s, f))
      t = swap ? t[p] : t;  (k, j) = j == 1 ? (2k, k) : (k, j / 2)
    }
    %r#k -> transpose back(reshape(slice(%w#(k+2), [B, n])))

where ``less((a, i), (b, j)) = c(a, b) || (!c(b, a) && i < j)`` (see pipelines/sort_regions.py):
the network sorts by a total order, so the result is the stable sort, for ``is_stable``
either way. Conditions: a static shape with at least ``min-size`` elements along ``d``,
every operand of an XLA element type (quantized sorts are left alone).
Run it before ``stable-sort-expander``.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Callable, Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops.elementwise import binary, compare, select, unary
from dialect_ops.gather_scatter import GatherDimensionNumbers, gather
from dialect_ops.shape_ops import iota, reshape, transpose
from dialect_ops.slicing import pad, slice_
from dialect_ops.sorting import index_type_for
from hlo_mlir import _emit
from hlo_mlir.shape import Shape
from hlo_mlir.types import PrimitiveType
from pipelines.index_bounds import mark_in_bounds
from pipelines.matchers import xla_arrays
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register
from pipelines.sort_regions import comparator_block, sort_dimension, write_tie_break_comparator
from pipelines.values import scalar

__all__ = ["SortNetworkExpander"]


@register
@dataclasses.dataclass
class SortNetworkExpander(ExpanderPass):
    """Sorts long dimensions with a bitonic network (O(n log^2 n)) instead of IREE's O(n^2) sort."""

    name = "sort-network-expander"
    legalizes_for_iree = True
    min_size: int = dataclasses.field(
        default=512, metadata={"help": "sort dimensions at least this long use the network"})

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.sort" or not xla_arrays(op.operands):
            return False
        shape = _emit.shape_of(op.operands[0])
        return not shape.is_dynamic and shape.dimensions[sort_dimension(op)] >= max(self.min_size, 2)

    def expand(self, op) -> Sequence[ir.Value]:
        d = sort_dimension(op)
        shape = _emit.shape_of(op.operands[0])
        n, rank = shape.dimensions[d], shape.rank
        perm = [i for i in range(rank) if i != d] + [d]
        moved_dims = [shape.dimensions[i] for i in perm]
        rows = math.prod(moved_dims[:-1])
        width = 1 << (n - 1).bit_length()
        index_type = index_type_for(rows * width)
        flat = [_flatten(operand, perm, rows, n, width) for operand in op.operands]
        position = reshape(iota(Shape.array_shape(index_type, [rows, width]), 1), [rows * width])
        loop = _while([scalar(2, index_type), scalar(1, index_type)] + flat + [position],
                      lambda args: compare(args[0], scalar(width, index_type), "LE"),
                      lambda args: _stage(args, n, width, comparator_block(op)))
        inverse = list(np.argsort(perm))
        results = []
        for value in loop[2:-1]:
            value = reshape(slice_(reshape(value, [rows, width]), [0, 0], [rows, n], [1, 1]), moved_dims)
            results.append(value if d == rank - 1 else transpose(value, inverse))
        return results


def _flatten(operand: ir.Value, perm: Sequence[int], rows: int, n: int, width: int) -> ir.Value:
    """``operand`` with the sort dimension last, as [rows * width]; padding is zeros."""
    if list(perm) != list(range(len(perm))):
        operand = transpose(operand, perm)
    operand = reshape(operand, [rows, n])
    if width != n:
        zero = scalar(0, _emit.shape_of(operand).element_type)
        operand = pad(operand, zero, [(0, 0, 0), (0, width - n, 0)])
    return reshape(operand, [rows * width])


def _stage(args: Sequence[ir.Value], n: int, width: int, comparator: ir.Block) -> list[ir.Value]:
    """One compare-exchange stage (k, j) of the bitonic network over the carried tensors
    (operands then positions); returns the next (k, j) and tensors."""
    k, j, *tensors = args
    index_shape = _emit.shape_of(tensors[-1])
    index_type, size = index_shape.element_type, index_shape.dimensions[0]
    g = iota(index_shape, 0)
    i = binary("And", g, scalar(width - 1, index_type))
    partner = binary("Xor", g, j)
    zero = scalar(0, index_type)
    lower = compare(binary("And", i, j), zero, "EQ")       # i < partner
    ascending = compare(binary("And", i, k), zero, "EQ")   # this block sorts upward
    first = unary("Not", binary("Xor", lower, ascending))  # i holds the smaller of its pair
    numbers = GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,),
                                     index_vector_dim=1)
    partners = [mark_in_bounds(gather(t, partner, numbers, [1], False)) for t in tensors]
    firsts = [select(first, t, q) for t, q in zip(tensors, partners, strict=True)]
    seconds = [select(first, q, t) for t, q in zip(tensors, partners, strict=True)]
    inputs = [v for pair in zip(seconds, firsts, strict=True) for v in pair]
    less = _map(inputs, size, lambda block: write_tie_break_comparator(block, comparator))
    bound = scalar(n, index_type)
    padded_first = compare(firsts[-1], bound, "GE")
    swap = binary("And", compare(seconds[-1], bound, "LT"), binary("Or", padded_first, less))
    new = [select(swap, q, t) for t, q in zip(tensors, partners, strict=True)]
    one = scalar(1, index_type)
    last_step = compare(j, one, "EQ")
    next_k = select(last_step, binary("ShiftLeft", k, one), k)
    next_j = select(last_step, k, binary("ShiftRightLogical", j, one))
    return [next_k, next_j] + new


def _map(inputs: Sequence[ir.Value], size: int, body: Callable[[ir.Block], None]) -> ir.Value:
    """``stablehlo.map`` of rank-1 ``inputs`` to PRED by the scalar computation ``body`` writes."""
    scalar_types = [_emit.type_of(Shape.scalar_shape(_emit.shape_of(v).element_type)) for v in inputs]
    result = _emit.type_of(Shape.array_shape(PrimitiveType.PRED, [size]))
    op, (block,) = _emit.create_with_region("stablehlo.map", inputs, [result],
                                            {"dimensions": _emit.i64_array([0])}, [scalar_types])
    body(block)
    return op.result


def _while(init: Sequence[ir.Value], cond: Callable[[list], ir.Value],
           body: Callable[[list], list]) -> list[ir.Value]:
    """``stablehlo.while`` over ``init``; ``cond``/``body`` build their region from its arguments."""
    types = [v.type for v in init]
    op, (cond_block, body_block) = _emit.create_with_region("stablehlo.while", init, types, None,
                                                            [types, types])
    with ir.InsertionPoint(cond_block):
        _emit.region_return([cond(list(cond_block.arguments))])
    with ir.InsertionPoint(body_block):
        _emit.region_return(body(list(body_block.arguments)))
    return list(op.results)
