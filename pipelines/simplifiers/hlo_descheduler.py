"""HLO descheduler (spec 004: HLO descheduler; XLA ``hlo_descheduler.h``).

Removes the schedule stored on the module (its ``hlo.schedule`` attribute): afterwards
``HloModule.has_schedule()`` is false. The op order in the IR stays as it is. Statistic:
``schedules-removed``. Part of XLA's Despecializer.
"""

from __future__ import annotations

from iree.compiler import ir

from hlo_mlir.schedule import SCHEDULE_ATTR
from pipelines.pass_base import Pass
from pipelines.registry import register

__all__ = ["HloDescheduler"]


@register
class HloDescheduler(Pass):
    """Remove the schedule stored on the module (hlo.schedule)."""

    name = "hlo-descheduler"

    def run(self, module: ir.Module) -> bool:
        if SCHEDULE_ATTR not in module.operation.attributes:
            return False
        del module.operation.attributes[SCHEDULE_ATTR]
        self.record("schedules-removed")
        return True
