"""While loop constant sinking (spec 004: While loop constant sinking; XLA
``while_loop_constant_sinking.cc``).

A loop-carried value that the body returns unchanged (it passes the block argument
through at its own position) holds its initial value in every iteration and in the
condition. When that initial value is a ``stablehlo.constant``, the body's and the
condition's reads of the block argument become a copy of the constant inside the region,
so that later passes (``algsimp``, ``constant-folding``, the trip count analysis of
``while-loop-unroller``) see a constant there::

    %c10 = stablehlo.constant dense<10> : tensor<i32>
    %r:2 = stablehlo.while(%i = %c0, %n = %c10)
      cond { %p = compare LT, %i, %n ... }
      do   { %i1 = add %i, %c1; return %i1, %n }

becomes::

    %r:2 = stablehlo.while(%i = %c0, %n = %c10)
      cond { %k = constant dense<10>; %p = compare LT, %i, %k ... }
      do   { %i1 = add %i, %c1; return %i1, %n }

Conditions (XLA's): the body returns the block argument at its own position (the body's
``return`` keeps reading the argument there, so the value stays trivially loop invariant);
the initial value is a constant, or, with ``sink-broadcast-of-constants``, a
``broadcast_in_dim`` of a constant (both are copied); a region gets a copy only if it
reads the argument elsewhere (no dead constants). The condition is rewritten only for a
value the body passes through. Outer loops are visited before the loops nested in their
bodies, so a constant sunk into an outer body reaches an inner loop in the same run.

The loop keeps carrying the value: ``while-loop-simplifier`` drops it once nothing reads
it. Run the passes the constants enable after this one (``while-loop-simplifier`` and
``while-loop-unroller``, which now see a constant bound; ``algsimp``, ``constant-folding``):
a constant left inside a loop that stays a loop may cost the pinned IREE a refill per
iteration (see ``while-invariant-yields``).
"""

from __future__ import annotations

import dataclasses

from iree.compiler import ir

from pipelines.matchers import defining_op, producer
from pipelines.pass_base import Pass
from pipelines.regions import clone_ops
from pipelines.registry import register
from pipelines.simplifiers.while_loop_unroller import while_ops

__all__ = ["WhileLoopConstantSinking", "passed_through"]


def passed_through(op) -> list[int]:
    """The loop-carried values of ``stablehlo.while`` ``op`` that its body returns unchanged
    (XLA's invariant GTEs): each holds ``op.operands[i]`` in every iteration."""
    body = op.regions[1].blocks[0]
    returned = list(list(body.operations)[-1].operands)
    return [i for i, arg in enumerate(body.arguments) if returned[i] == arg]


def _used_besides(value: ir.Value, terminator, index: int | None) -> bool:
    """Whether ``value`` has a use other than operand ``index`` of ``terminator``."""
    return any(use.owner != terminator.operation or use.operand_number != index for use in value.uses)


@register
@dataclasses.dataclass
class WhileLoopConstantSinking(Pass):
    """Replace reads of a constant loop-carried value in a while body and condition by the constant."""

    name = "while-loop-constant-sinking"
    acts_on = frozenset({"stablehlo.while"})
    sink_broadcast_of_constants: bool = dataclasses.field(
        default=False,
        metadata={"help": "also sink an initial value that is a broadcast_in_dim of a constant"})

    def run(self, module: ir.Module) -> bool:
        changed = False
        for op in reversed(while_ops(module)):  # outer loops first
            changed |= self._sink(op)
        return changed

    def _source(self, value: ir.Value) -> list | None:
        """The ops to copy into a region for the initial value ``value``, or None."""
        if producer(value, "stablehlo.constant") is not None:
            return [defining_op(value)]
        broadcast = producer(value, "stablehlo.broadcast_in_dim")
        if self.sink_broadcast_of_constants and broadcast is not None \
                and producer(broadcast.operands[0], "stablehlo.constant") is not None:
            return [defining_op(broadcast.operands[0]), broadcast]
        return None

    def _sink(self, op) -> bool:
        changed = False
        cond, body = op.regions[0].blocks[0], op.regions[1].blocks[0]
        for i in passed_through(op):
            source = self._source(op.operands[i])
            if source is None:
                continue
            for region, block, keep in (("body", body, i), ("condition", cond, None)):
                terminator = list(block.operations)[-1]
                argument = block.arguments[i]
                if not _used_besides(argument, terminator, keep):
                    continue
                with ir.InsertionPoint.at_block_begin(block), op.location:
                    mapping = clone_ops(source, {})
                argument.replace_all_uses_with(mapping[op.operands[i]])
                if keep is not None:
                    terminator.operands[keep] = argument  # the body still passes it through
                self.record(f"sunk-into-{region}")
                changed = True
        return changed
