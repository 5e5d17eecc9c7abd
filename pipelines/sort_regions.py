"""Comparator regions shared by the sort passes (stable-sort-expander, sort-network-expander,
sort-bf16-as-bits, sort-barriers).

A Sort comparator ``c(lhs_0, rhs_0, ..., lhs_{N-1}, rhs_{N-1})`` is a strict weak order:
elements it calls equal (``!c(a, b) && !c(b, a)``) may come out in any order. Extending
it with each element's original position ``i``::

    less((a, i), (b, j)) = c(a, b) || (!c(b, a) && i < j)

gives a strict total order whose sorted order is the stable sort by ``c``, whatever
algorithm sorts by it.
"""

from __future__ import annotations

from iree.compiler import ir

from dialect_ops.elementwise import binary, compare, unary
from hlo_mlir import _emit
from hlo_mlir.ir_access import int_attr
from pipelines.regions import clone_body

__all__ = ["write_tie_break_comparator", "comparator_block", "sort_dimension"]


def comparator_block(sort_op) -> ir.Block:
    return sort_op.regions[0].blocks[0]


def sort_dimension(sort_op) -> int:
    """The sort's ``dimension`` attribute, made non-negative."""
    rank = len(_emit.shape_of(sort_op.operands[0]).dimensions)
    return int_attr(sort_op, "dimension") % rank


def write_tie_break_comparator(block: ir.Block, comparator: ir.Block, position: int | None = None) -> None:
    """Fills ``block``, whose arguments are ``comparator``'s (lhs, rhs) pairs followed by one
    (lhs, rhs) pair of positions, with ``c(a, b) || (!c(b, a) && i < j)``; with ``position``,
    ``block``'s arguments are ``comparator``'s alone and pair ``position`` holds the positions."""
    args = list(block.arguments)
    if position is None:
        pairs, (i, j) = args[:-2], args[-2:]
    else:
        pairs, (i, j) = args, args[2 * position:2 * position + 2]
    swapped = [pairs[k ^ 1] for k in range(len(pairs))]
    with ir.InsertionPoint(block):
        (before,) = clone_body(comparator, pairs)
        (after,) = clone_body(comparator, swapped)
        tie = binary("And", unary("Not", after), compare(i, j, "LT"))
        _emit.region_return([binary("Or", before, tie)])
