"""while-invariant-yields: a loop-invariant value a while body carries on is tied to the
carried value it replaces, so IREE cannot hoist it out of the loop.

The pinned IREE fails to compile a ``while`` whose body yields, for carried value k, a
value that does not change from one iteration to the next but is no plain constant
("'scf.while' op along control flow edge from Operation scf.condition to Region #1:
region branch point has 4 operands, but region successor needs 2 inputs"): after it
hoists that value out of the loop, upstream MLIR's ``scf.while`` canonicalization drops
the carried value from the loop body but not from its condition. So::

    %r:3 = stablehlo.while(%i = %c0, %n = %a1, %x = %a0) ... do {
      %v = stablehlo.clamp %c4, %x, %c4 : ...       // = 4 whatever %x is
      stablehlo.return %i1, %n, %v
    }

becomes::

    do {
      %v = stablehlo.clamp %c4, %x, %c4 : ...
      %z:2 = stablehlo.optimization_barrier %zero, %x      // %zero: scalar 0 (-0.0, false)
      %y = stablehlo.add %v, broadcast(%z#0)               // %v bit for bit
      stablehlo.return %i1, %n, %y
    }

The barrier reads the carried value, so the add cannot leave the loop, and IREE cannot
fold it away. The add writes a buffer of its own (a barrier over ``%v`` itself would
alias ``%v``, hiding it from IREE's copy-on-write when the loop updates the carried
value in place; see ``inplace-operand-copy``); it costs one element-wise op per
iteration. A value is loop-invariant here when it is defined outside the
loop, is a carried value the body passes through unchanged, is a side-effect-free op
(without regions) of loop-invariant operands, or is a ``clamp`` whose bounds are the
same loop-invariant value (IREE folds ``clamp(c, x, c)`` to ``c``). Conditions: a
ranked-tensor carried value whose yield is loop-invariant and is not the carried
value itself; ops are left alone otherwise.
"""

from __future__ import annotations

from iree.compiler import ir

from dialect_ops.constant import constant
from dialect_ops.elementwise import binary
from hlo_mlir import _emit
from pipelines.legalizations.inplace_operand_copy import neutral_element
from pipelines.matchers import element_dtype, static_dims
from pipelines.pass_base import Pass
from pipelines.registry import register
from pipelines.simplifiers.while_loop_unroller import has_side_effects, while_ops

__all__ = ["WhileInvariantYields"]


class _Invariance:
    """Which values of a while body are the same in every iteration."""

    def __init__(self, loop):
        self.loop = loop
        self.body = loop.regions[1].blocks[0]
        self.inside: set = set()

        def visit(op):
            self.inside.add(op)
            return ir.WalkResult.ADVANCE

        for region in loop.regions:
            for block in region.blocks:
                for op in block.operations:
                    op.operation.walk(visit)
        ret = self.body.operations[len(self.body.operations) - 1]
        self.passed_through = {i for i, v in enumerate(ret.operands)
                               if isinstance(v, ir.BlockArgument) and v.owner == self.body
                               and v.arg_number == i}
        self.memo: dict = {}

    def __call__(self, value: ir.Value) -> bool:
        # Iterative post-order over the value's operands: loop bodies can hold chains far
        # deeper than Python's recursion limit (the 1000-step benchmark loop).
        stack = [value]
        while stack:
            top = stack[-1]
            if top in self.memo:
                stack.pop()
                continue
            pending = [v for v in self._operands_needed(top) if v not in self.memo]
            if pending:
                stack.extend(pending)
                continue
            self.memo[top] = self._compute(top)
            stack.pop()
        return self.memo[value]

    def _operands_needed(self, value: ir.Value) -> list[ir.Value]:
        """The operands whose invariance ``_compute(value)`` reads."""
        if isinstance(value, ir.BlockArgument):
            return []
        op = value.owner
        if op.operation not in self.inside or len(op.regions) or has_side_effects([op]):
            return []
        return list(op.operands)

    def _compute(self, value: ir.Value) -> bool:
        """Whether ``value`` is invariant, its operands' answers already in ``memo``."""
        if isinstance(value, ir.BlockArgument):
            if value.owner == self.body:
                return value.arg_number in self.passed_through
            parent = value.owner.owner
            return parent is not None and parent.operation not in self.inside \
                and parent.operation != self.loop.operation
        op = value.owner
        if op.operation not in self.inside:
            return True
        if len(op.regions) or has_side_effects([op]):
            return False
        operands = list(op.operands)
        if op.name == "stablehlo.clamp" and _same(operands[0], operands[2]) and self.memo[operands[0]]:
            return True
        return all(self.memo[v] for v in operands)


def _same(a: ir.Value, b: ir.Value) -> bool:
    """The same value, or two constants with the same elements."""
    if a == b:
        return True
    if isinstance(a, ir.BlockArgument) or isinstance(b, ir.BlockArgument):
        return False
    oa, ob = a.owner, b.owner
    return (oa.name == ob.name == "stablehlo.constant" and a.type == b.type
            and oa.attributes["value"] == ob.attributes["value"])


@register
class WhileInvariantYields(Pass):
    """Ties loop-invariant while yields to their carried value (IREE mis-hoists them)."""

    name = "while-invariant-yields"
    legalizes_for_iree = True

    def run(self, module: ir.Module) -> bool:
        changed = False
        with module.context:
            for loop in while_ops(module):
                invariant = _Invariance(loop.operation)
                body = invariant.body
                ret = body.operations[len(body.operations) - 1]
                for k, value in enumerate(list(ret.operands)):
                    carried = body.arguments[k]
                    if value == carried or not isinstance(value.type, ir.RankedTensorType) \
                            or not invariant(value):
                        continue
                    dtype = element_dtype(value)
                    static = dtype is not None and static_dims(value) is not None
                    neutral = neutral_element(dtype) if dtype is not None and static else None
                    if neutral is None:
                        continue
                    op_name, scalar = neutral
                    with ir.InsertionPoint(ret), ret.location:
                        zero = constant(scalar)
                        tied = _emit.create("stablehlo.optimization_barrier", [zero, carried],
                                            [zero.type, carried.type]).results[0]
                        ret.operands[k] = binary(op_name, value, tied)
                    self.record("tie-invariant-yield")
                    changed = True
        return changed
