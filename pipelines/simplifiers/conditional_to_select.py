"""Conditional to select (spec 004: Conditional to select; XLA ``conditional_to_select.cc``).

A two-way conditional whose branches are cheap and free of side effects computes both
branches, one after the other, and selects each result on the predicate::

    %r = "stablehlo.if"(%p) ({ %a = add %x, %y; return %a }, { %m = mul %x, %x; return %m })

becomes ::

    %a = add %x, %y
    %m = mul %x, %x
    %pb = broadcast_in_dim %p, dims = []      // only for a non-scalar result
    %r = select %pb, %a, %m

A ``stablehlo.case`` of two branches selects on ``index == 0`` (any other index, out of
range included, runs the last branch). XLA applies it where backends cannot run a
conditional (inside ``map``); IREE runs a conditional as host control flow, a dispatch
and a readback of the predicate, which costs more than a few element-wise ops.

Conditions (XLA's: no side effects; and the cheapness test of XLA's conditional
simplifier): every op of both branches, nested ones included, is element-wise or one of
``broadcast_in_dim``, ``concatenate``, ``dynamic_slice``, ``reduce``, ``reshape``,
``pad``, ``slice``, ``iota``, ``constant``, tuple ops (so no side effects, ``while``
loops, calls or nested conditionals), at most ``max-branch-ops`` of them (constants not
counted) in each branch, and every result is an array. Speculating these ops is safe: each
is defined for every input (XLA defines integer division by zero; ``dynamic_slice``
clamps its start).

The branches' ops move out unchanged: run ``algsimp``, ``cse`` and ``dce`` after it.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from iree.compiler import ir

from dialect_ops.constant import constant
from dialect_ops.elementwise import compare, select
from dialect_ops.op_facts import ELEMENTWISE_OPS
from dialect_ops.shape_ops import broadcast_in_dim
from pipelines.matchers import xla_arrays
from pipelines.pass_base import Pass
from pipelines.registry import register
from pipelines.simplifiers.conditional_simplifier import conditional_ops, inline_branch

__all__ = ["ConditionalToSelect", "CHEAP_OPS"]

# XLA's HloInstruction::IsElementwise ops, and what its conditional simplifier counts as cheap.
CHEAP_OPS = ELEMENTWISE_OPS | frozenset(f"stablehlo.{name}" for name in """
    broadcast_in_dim concatenate dynamic_slice reduce reshape pad slice iota constant tuple
    get_tuple_element return
    """.split())


@register
@dataclasses.dataclass
class ConditionalToSelect(Pass):
    """Turn two-way conditionals of cheap, side-effect-free branches into selects."""

    name = "conditional-to-select"
    acts_on = frozenset({"stablehlo.if", "stablehlo.case"})
    max_branch_ops: int = dataclasses.field(
        default=16, metadata={"help": "most ops (constants not counted) a branch may have"})

    def run(self, module: ir.Module) -> bool:
        changed = False
        for op in conditional_ops(module):  # inner ones first: an outer one may become cheap
            if not self._matches(op):
                continue
            rule = op.name.removeprefix("stablehlo.")
            with module.context, op.location:
                on_true, on_false = inline_branch(op, 0), inline_branch(op, 1)
                with ir.InsertionPoint(op):
                    values = _select_all(_predicate(op), on_true, on_false)
                for old, new in zip(op.results, values, strict=True):
                    old.replace_all_uses_with(new)
                op.operation.erase()
            self.record(rule)
            changed = True
        return changed

    def _matches(self, op) -> bool:
        if len(op.regions) != 2 or not xla_arrays(op.results):
            return False
        return all(_cheap_size(region.blocks[0]) <= self.max_branch_ops for region in op.regions)


def _cheap_size(block: ir.Block) -> float:
    """The non-constant ops of ``block`` (nested ones included, terminators not counted);
    infinite when one of them is not cheap."""
    size = 0.0

    def visit(o):
        nonlocal size
        if o.name not in CHEAP_OPS:
            size = float("inf")
            return ir.WalkResult.INTERRUPT
        size += o.name not in ("stablehlo.constant", "stablehlo.return")
        return ir.WalkResult.ADVANCE

    for op in block.operations:
        op.operation.walk(visit)
    return size


def _predicate(op) -> ir.Value:
    """The pred[] that holds when conditional ``op`` runs its first region."""
    (index,) = op.operands
    if op.name == "stablehlo.if":
        return index
    return compare(index, constant(np.array(0, np.int32)), "EQ", "SIGNED")


def _select_all(pred: ir.Value, on_true: list[ir.Value], on_false: list[ir.Value]) -> list[ir.Value]:
    """``select(pred, t, f)`` for each pair, ``pred`` broadcast to each non-scalar shape."""
    broadcasts = {(): pred}
    out = []
    for t, f in zip(on_true, on_false, strict=True):
        shape = tuple(ir.RankedTensorType(t.type).shape)
        if shape not in broadcasts:
            broadcasts[shape] = broadcast_in_dim(pred, shape, [])
        out.append(select(broadcasts[shape], t, f))
    return out
