"""Despecializer (spec 004: Despecializer; XLA ``despecializer.cc``).

Undoes platform-specific passes so that a module optimized for one platform runs on
another with comparable numerics. XLA's pipeline is HloDescheduler, ControlDepRemover,
Defuser and BFloat16MixedPrecisionRemoval; StableHLO has no control dependencies and no
fusion instructions, so this pass runs, in order:

- ``hlo-descheduler``: removes the stored schedule (``hlo.schedule``);
- ``bfloat16-mixed-precision-removal``: computes bf16 ops in f32 (this changes numbers
  on purpose: the despecialized program is the f32 reference), when that pass is
  registered.

Statistics: each step's, as ``<step>.<statistic>``. Run ``algsimp`` and ``cse`` after it.
"""

from __future__ import annotations

from iree.compiler import ir

from hlo_mlir.errors import InvalidArgumentError
from pipelines import registry
from pipelines.pass_base import Pass
from pipelines.registry import register

__all__ = ["Despecializer", "STEPS"]

STEPS = ("hlo-descheduler", "bfloat16-mixed-precision-removal")


@register
class Despecializer(Pass):
    """Undo platform-specific passes: remove the schedule, compute bf16 in f32 (XLA's Despecializer)."""

    name = "despecializer"

    def run(self, module: ir.Module) -> bool:
        changed = False
        for step in STEPS:
            try:
                cls = registry.get(step)
            except InvalidArgumentError:
                continue  # a step not built in this tree
            inner = cls()
            changed |= bool(inner.run(module))
            for rule, count in inner.statistics.items():
                self.record(f"{step}.{rule}", count)
        return changed
