"""``OperandFencePass``: the base of legalizations that read some operands of some ops
through an ``optimization_barrier`` (a value IREE can neither fold nor fuse past), and
``fence_results``, which makes an op's readers read its results through one.

A subclass names the ops (``op_names``), the statistic (``rule_name``) and decides per
operand (``fences(op, index, value)``); the barrier is created just before the op and
replaces that operand only::

    "stablehlo.sort"(%k, %i)   ->   %b = stablehlo.optimization_barrier %k
                                     "stablehlo.sort"(%b, %i)
"""

from __future__ import annotations

from typing import ClassVar

from iree.compiler import ir

from dialect_ops.side_effects import optimization_barrier
from hlo_mlir import _emit
from pipelines.matchers import ops_where
from pipelines.pass_base import Pass

__all__ = ["OperandFencePass", "fence_results"]


def fence_results(op) -> None:
    """Every reader of ``op``'s results reads them through one barrier created just after ``op``."""
    results = list(op.results)
    with ir.InsertionPoint.after(op), op.location:
        fenced = optimization_barrier(results)
    barrier = fenced[0].owner.operation
    for old, new in zip(results, fenced, strict=True):
        old.replace_all_uses_except(new, barrier)


class OperandFencePass(Pass):
    """Reads the operands ``fences`` selects through an optimization barrier."""

    op_names: ClassVar[tuple[str, ...]] = ()
    rule_name = "fence-operand"

    def fences(self, op, index: int, value: ir.Value) -> bool:
        raise NotImplementedError

    def run(self, module: ir.Module) -> bool:
        found = ops_where(module, lambda op: op.name in self.op_names)
        changed = False
        with module.context:
            for op in found:
                for i, value in enumerate(list(op.operands)):
                    if not self.fences(op, i, value):
                        continue
                    with ir.InsertionPoint(op), op.location:
                        fenced = _emit.create("stablehlo.optimization_barrier", [value], [value.type])
                    op.operands[i] = fenced.result
                    self.record(self.rule_name)
                    changed = True
        return changed
