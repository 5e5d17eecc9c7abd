"""Rewrites that make the pinned IREE compute XLA's answers (ARCHITECTURE.md, defects).

``legalize_for_iree(module, target)`` runs before every IREE compile. Each entry of
``_LEGALIZATIONS`` is one rewrite of ops IREE rejects or gets wrong into equivalent
StableHLO that it handles; the module is changed in place.
"""

from __future__ import annotations

from typing import Callable

from iree.compiler import ir

__all__ = ["legalize_for_iree", "LEGALIZATIONS"]

# (op name, predicate, rewrite) rows; rewrite(op) builds replacement values at the op.
Rewrite = Callable[[ir.Operation], list]


def _is_pred_result(op) -> bool:
    t = op.results[0].type
    return isinstance(t, ir.RankedTensorType) and str(ir.RankedTensorType(t).element_type) == "i1"


def _pred_add_to_or(op):
    """``add`` on PRED is logical OR in XLA; IREE does integer addition mod 2."""
    from dialect_ops import _emit

    return [_emit.create("stablehlo.or", list(op.operands), [op.results[0].type]).result]


def _pred_mul_to_and(op):
    """``multiply`` on PRED is logical AND."""
    from dialect_ops import _emit

    return [_emit.create("stablehlo.and", list(op.operands), [op.results[0].type]).result]


LEGALIZATIONS: list[tuple[str, Callable, Rewrite]] = [
    ("stablehlo.add", _is_pred_result, _pred_add_to_or),
    ("stablehlo.multiply", _is_pred_result, _pred_mul_to_and),
]


def legalize_for_iree(module: ir.Module, target: str = "llvm-cpu") -> bool:
    """Applies every legalization to ``module``; returns whether anything changed."""
    matches = []
    by_name: dict[str, list] = {}
    for name, pred, rewrite in LEGALIZATIONS:
        by_name.setdefault(name, []).append((pred, rewrite))

    def visit(op):
        for pred, rewrite in by_name.get(op.operation.name, ()):
            if pred(op):
                matches.append((op, rewrite))
                break
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    with module.context:
        for op, rewrite in matches:
            with ir.InsertionPoint(op), op.location:
                new_values = rewrite(op)
            for old, new in zip(op.results, new_values):
                old.replace_all_uses_with(new)
            op.erase()
    return bool(matches)
