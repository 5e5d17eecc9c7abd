"""``OperandFencePass``: the base of legalizations that read some operands of some ops
through an ``optimization_barrier`` (a value IREE can neither fold nor fuse past).

A subclass names the ops (``op_names``), the statistic (``rule_name``) and decides per
operand (``fences(op, index, value)``); the barrier is created just before the op and
replaces that operand only::

    "stablehlo.sort"(%k, %i)   ->   %b = stablehlo.optimization_barrier %k
                                     "stablehlo.sort"(%b, %i)
"""

from __future__ import annotations

from typing import ClassVar

from iree.compiler import ir

from hlo_mlir import _emit
from pipelines.pass_base import Pass

__all__ = ["OperandFencePass"]


class OperandFencePass(Pass):
    """Reads the operands ``fences`` selects through an optimization barrier."""

    op_names: ClassVar[tuple[str, ...]] = ()
    rule_name = "fence-operand"

    def fences(self, op, index: int, value: ir.Value) -> bool:
        raise NotImplementedError

    def run(self, module: ir.Module) -> bool:
        found: list = []

        def visit(op):
            if op.name in self.op_names:
                found.append(op)
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
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
