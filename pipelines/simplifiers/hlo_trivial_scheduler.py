"""HLO trivial scheduler (spec 004: HLO trivial scheduler; XLA ``hlo_memory_scheduler.h``).

Stores the order in which every function's ops stand in the IR as the module's schedule
(``hlo.schedule``; ``HloModule.schedule()`` reads it back). The IR's order is a valid
schedule (every op after its operands) that makes no attempt to lower memory use, like
XLA's DFS post-order. Unnamed instructions get names first and duplicate names are renamed
(``HloModule.uniquify_names``), since a schedule names instructions. Statistic:
``functions-scheduled``. ``hlo-memory-scheduler`` reorders ops before storing the order;
``hlo-descheduler`` removes the schedule.
"""

from __future__ import annotations

from iree.compiler import ir

from hlo_mlir import ir_access
from hlo_mlir.schedule import store_program_order
from pipelines.pass_base import Pass
from pipelines.registry import register

__all__ = ["HloTrivialScheduler"]


@register
class HloTrivialScheduler(Pass):
    """Store every function's current op order as the module's schedule (hlo.schedule)."""

    name = "hlo-trivial-scheduler"

    def run(self, module: ir.Module) -> bool:
        changed = store_program_order(module)
        self.record("functions-scheduled", len(ir_access.functions(module)))
        return changed
