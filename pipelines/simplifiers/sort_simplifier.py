"""Sort simplification (spec 004: Sort simplifier; XLA ``sort_simplifier.cc``).

A sort operand whose result nobody reads and whose comparator arguments the comparator
never reads only rides along: the permutation does not depend on it, and nothing sees
where it went. The sort drops it, and its comparator the two arguments::

    %r:3 = "stablehlo.sort"(%k, %v, %w) ({
    ^bb0(%k0, %k1, %v0, %v1, %w0, %w1): return compare LT %k0, %k1
    }) {dimension = 1}
    // uses of %r#0 and %r#2 only

becomes ::

    %s:2 = "stablehlo.sort"(%k, %w) ({
    ^bb0(%k0, %k1, %w0, %w1): return compare LT %k0, %k1
    }) {dimension = 1}
    // %r#0 -> %s#0, %r#2 -> %s#1

Conditions (XLA's): result ``i`` has no use and neither comparator argument ``2i`` nor
``2i + 1`` has one (uses in nested regions count); at least one operand stays (a sort
none of whose results is read is for ``dce``). ``dimension`` and ``is_stable`` are kept.
An unused key the comparator reads stays (XLA DontRemoveUnusedSortKey).
"""

from __future__ import annotations

from iree.compiler import ir

from dialect_ops.sorting import sort
from hlo_mlir import _emit
from hlo_mlir.ir_access import bool_attr
from pipelines.matchers import has_uses, ops_where
from pipelines.pass_base import Pass
from pipelines.regions import clone_body
from pipelines.registry import register
from pipelines.sort_regions import comparator_block, sort_dimension

__all__ = ["SortSimplifier", "used_operands"]


def used_operands(op) -> list[int]:
    """The operands of sort ``op`` whose result is read or whose comparator arguments are."""
    args = list(comparator_block(op).arguments)
    return [i for i, result in enumerate(op.results)
            if has_uses(result) or has_uses(args[2 * i]) or has_uses(args[2 * i + 1])]


@register
class SortSimplifier(Pass):
    """Remove sort operands whose results are unused and that the comparator does not read."""

    name = "sort-simplifier"
    acts_on = frozenset({"stablehlo.sort"})

    def run(self, module: ir.Module) -> bool:
        changed = False
        for op in ops_where(module, lambda o: o.name == "stablehlo.sort"):
            kept = used_operands(op)
            if not kept or len(kept) == len(op.results):
                continue
            with module.context, op.location, ir.InsertionPoint(op):
                results = _sort_subset(op.opview, kept)
            for i, new in zip(kept, results, strict=True):
                op.results[i].replace_all_uses_with(new)
            self.record("unused-operand", len(op.results) - len(kept))
            op.erase()
            changed = True
        return changed


def _sort_subset(op, kept: list[int]) -> list[ir.Value]:
    """A copy of sort ``op`` on its operands ``kept`` only; returns its results."""
    comparator = comparator_block(op)
    operands = list(op.operands)

    def body(block: ir.Block) -> None:
        # The dropped operands' arguments have no uses: any value stands in for them.
        mapped = list(comparator.arguments)
        new_args = list(block.arguments)
        for n, i in enumerate(kept):
            mapped[2 * i], mapped[2 * i + 1] = new_args[2 * n], new_args[2 * n + 1]
        with ir.InsertionPoint(block):
            _emit.region_return(clone_body(comparator, mapped))

    stable = "is_stable" in op.attributes and bool_attr(op, "is_stable")
    return sort([operands[i] for i in kept], sort_dimension(op), stable, body)
