"""Merging identical functions (spec 004: HLO subcomputation unification; XLA
``HloSubcomputationUnification`` / ``HloComputationDeduplicator``).

Private functions that compute the same thing the same way are merged into the first of
them (in module order); every reference to the others (``func.call`` or any symbol use)
is redirected to it and the others are erased::

    func.func private @f(%x) { %0 = add %x, %x; return %0 }
    func.func private @g(%y) { %0 = add %y, %y; return %0 }     // erased
    %a = call @f(%p)
    %b = call @g(%q)       ->   %b = call @f(%q)

"The same" is MLIR's operation equivalence (``Operation.is_structurally_equivalent``:
the same ops, types, operands and inherent attributes, regions compared recursively),
with the symbol name set aside, and ignoring locations and discardable attributes (the
``hlo.name`` instruction names, which XLA ignores too). Functions that call different
but identical functions become identical once those are merged: merging runs until
nothing changes. Public functions (the module's interface) and declarations are never
merged.

Statistic: ``functions-merged``. It undoes ``flatten-call-graph``.
"""

from __future__ import annotations

from iree.compiler import ir

from hlo_mlir import ir_access
from pipelines.pass_base import Pass, count_ops
from pipelines.registry import register

__all__ = ["HloSubcomputationUnification", "same_function"]

_FLAGS = ir.OperationEquivalenceFlags.IGNORE_LOCATIONS | ir.OperationEquivalenceFlags.IGNORE_DISCARDABLE_ATTRS


def same_function(a: ir.Operation, b: ir.Operation) -> bool:
    """Whether functions ``a`` and ``b`` are structurally equivalent but for their names
    (and locations and discardable attributes)."""
    name = ir_access.symbol_name(b)
    ir.SymbolTable.set_symbol_name(b, ir_access.symbol_name(a))
    try:
        return a.is_structurally_equivalent(b, _FLAGS)
    finally:
        ir.SymbolTable.set_symbol_name(b, name)


@register
class HloSubcomputationUnification(Pass):
    """Merge structurally identical private functions into one and redirect their uses."""

    name = "hlo-subcomputation-unification"

    def run(self, module: ir.Module) -> bool:
        changed = False
        with module.context:
            while self._merge(module):
                changed = True
        return changed

    def _merge(self, module: ir.Module) -> bool:
        """One round: each private function identical to an earlier one is replaced by it."""
        groups: dict[tuple, list[ir.Operation]] = {}
        replaced: dict[str, str] = {}
        for func in ir_access.functions(module):
            if ir_access.is_public(func) or not len(func.regions[0].blocks):
                continue  # the interface, or a declaration (two names for different externals)
            key = (str(ir_access.function_type(func)), count_ops(func))
            group = groups.setdefault(key, [])
            kept = next((f for f in group if same_function(f, func)), None)
            if kept is None:
                group.append(func)
            else:
                replaced[ir_access.symbol_name(func)] = ir_access.symbol_name(kept)
        for old, new in replaced.items():
            ir.SymbolTable.replace_all_symbol_uses(old, new, module.operation)
        for func in ir_access.functions(module):
            if ir_access.symbol_name(func) in replaced:
                func.erase()
        if replaced:
            self.record("functions-merged", len(replaced))
        return bool(replaced)
