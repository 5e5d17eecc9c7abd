"""sort-duplicate-operands: a sort given one value as several operands sorts it once.

Sorting ``[a, b, a]`` permutes both copies of ``a`` alike, so the third result is the
first: the sort takes each value once, its comparator reads the first copy's arguments
wherever it read a repeat's, and the repeat's results become the first copy's::

    %r:3 = "stablehlo.sort"(%a, %b, %a) ({
    ^bb0(%a0, %a1, %b0, %b1, %c0, %c1): c(%a0, %a1, %b0, %b1, %c0, %c1)
    }) {dimension = d}
    // uses of %r#2

becomes::

    %s:2 = "stablehlo.sort"(%a, %b) ({
    ^bb0(%a0, %a1, %b0, %b1): c(%a0, %a1, %b0, %b1, %a0, %a1)
    }) {dimension = d}
    // %r#0 -> %s#0, %r#1 -> %s#1, %r#2 -> %s#0

The pinned IREE sorts every operand in place, so one value given twice is one buffer
written twice: `Sort([p, q, p])` of bf16 and f16 parameters, `Sort([c, c, c])` of a
constant and `Sort([broadcast(x), y, broadcast(x)])` failed to compile ("'linalg.generic'
op write affecting operations on global resources are restricted to workgroup
distributed contexts"; docs/iree-defects.md, fuzzer seed 20261124). Conditions: a
``stablehlo.sort`` with a value among its operands more than once. Run it before the
other sort legalizations (``stable-sort-expander``, ``sort-bf16-as-bits``,
``sort-barriers``), which then see each value once.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.sorting import sort
from hlo_mlir import _emit
from hlo_mlir.ir_access import bool_attr
from pipelines.pass_base import ExpanderPass
from pipelines.regions import clone_body
from pipelines.registry import register
from pipelines.sort_regions import comparator_block, sort_dimension

__all__ = ["SortDuplicateOperands"]


def _first_copies(operands: Sequence[ir.Value]) -> list[int]:
    """For each operand, the index of its value's first occurrence among ``operands``."""
    first: list[int] = []
    for k, value in enumerate(operands):
        first.append(next(i for i in range(k + 1) if operands[i] == value))
    return first


@register
class SortDuplicateOperands(ExpanderPass):
    """Sorts a value given as several sort operands once (IREE sorts one buffer twice)."""

    name = "sort-duplicate-operands"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        if op.operation.name != "stablehlo.sort":
            return False
        first = _first_copies(list(op.operands))
        return any(i != k for k, i in enumerate(first))

    def expand(self, op) -> Sequence[ir.Value]:
        operands = list(op.operands)
        first = _first_copies(operands)
        kept = sorted(set(first))
        position = {k: n for n, k in enumerate(kept)}
        comparator = comparator_block(op)

        def body(block: ir.Block) -> None:
            args = list(block.arguments)
            mapped = [args[2 * position[first[k]] + side] for k in range(len(operands)) for side in (0, 1)]
            with ir.InsertionPoint(block):
                _emit.region_return(clone_body(comparator, mapped))

        stable = "is_stable" in op.attributes and bool_attr(op, "is_stable")
        results = sort([operands[k] for k in kept], sort_dimension(op), stable, body)
        return [results[position[first[k]]] for k in range(len(operands))]
