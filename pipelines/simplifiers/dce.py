"""Dead-code elimination (spec 004: HLO dce).

Removes side-effect-free ops whose results are unused (transitively: an op that was
only used by dead ops dies too) and private functions nobody references. Ops with
side effects (``custom_call`` with ``has_side_effect``, collectives, infeed/outfeed)
stay, judged by MLIR's own memory-effect interfaces. Function parameters are never
removed (XLA: parameter instructions cannot be deleted).
"""

from __future__ import annotations

from iree.compiler import ir

from pipelines.pass_base import Pass, PatternPass, UpstreamPass, count_ops
from pipelines.registry import register

__all__ = ["DCE"]


class _DeadOps(PatternPass):
    """(internal) greedy driver with no patterns: it erases trivially dead ops."""

    name = "dead-ops"


class _SymbolDCE(UpstreamPass):
    """(internal) MLIR symbol-dce: erases unreferenced private symbols."""

    name = "symbol-dce"
    pipeline = "symbol-dce"


@register
class DCE(Pass):
    """Dead-code elimination: remove unused side-effect-free ops and unused private functions."""

    name = "dce"
    aliases = ("hlo-dce",)  # spec 004

    def run(self, module: ir.Module) -> bool:
        before = count_ops(module)
        _DeadOps().run(module)
        _SymbolDCE().run(module)
        removed = before - count_ops(module)
        if removed:
            self.record("ops-removed", removed)
        return removed > 0
