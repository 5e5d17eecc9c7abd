"""While loop invariant code motion (spec 004: While loop invariant code motion; XLA
``while_loop_invariant_code_motion.cc``).

An op of a ``stablehlo.while`` body whose every input is the same in every iteration
computes the same value in every iteration: it moves before the loop, and the body reads
its result from there (StableHLO regions capture values defined above them, so the loop
needs no new carried value where XLA widens its state tuple)::

    %r:3 = stablehlo.while(%i = %c0, %a = %x, %b = %y)
      cond { ... }
      do { %s = add %a, %b; %v = multiply %i, %s ...; return %i1, %a, %v }

becomes (``%a`` is passed through: it is ``%x`` in every iteration)::

    %s = add %x, %y
    %r:3 = stablehlo.while(%i = %c0, %a = %x, %b = %y) ... do { %v = multiply %i, %s ... }

Loop invariant: a value defined before the loop; a ``stablehlo.constant``; a block
argument of a tensor the body returns unchanged at its own position (its initial value is
read instead); the result of an op hoisted before. An op moves when it reads only
invariant values (those its nested regions read included), has no side effects (nor do
the ops nested in it: XLA's HasSideEffect, see ``while_loop_unroller.has_side_effects``),
and is not an ``after_all``/``create_token``. Only the body's top-level ops are looked at,
in order; loops nested in a body are visited first, so what leaves an inner loop can leave
the outer one in the same run.

XLA's rules of profit and safety, kept:

- ops that only grow live memory or undo nothing are not worth hoisting alone:
  ``broadcast_in_dim``, ``broadcast``, ``iota``, ``reverse``, ``slice``, ``transpose``,
  ``tuple``, a ``Sharding`` custom call, and ``constant``/``reshape`` unless
  ``hoist-constants``/``hoist-reshapes`` ask for them. Hoisting them would lengthen a
  result's live range over the whole loop and keep the body from fusing them; they are
  copied out only when an op reading them moves (the body keeps its own copy for its
  other readers);
- ``hoist-size-inflation-ratio`` (0: no limit) keeps in the body an op whose results are
  that many times larger, in bytes, than its operands;
- ``hoist-other=false`` hoists only constants and reshapes;
- loops of a known trip count of at most 1 are left to ``while-loop-simplifier``;
- a loop whose body holds a ``SPMDFullToShardShape``/``SPMDShardShapeToFull`` or a host
  offloading (``MoveToHost``/``MoveToDevice``) custom call, or whose
  ``mhlo.frontend_attributes`` hold ``_xla_disable_loop_instr_hoisting``, is left alone.

A loop that runs zero times then evaluates what was hoisted, once, for nothing. That is
all it costs: StableHLO ops do not trap (integer division by zero, overflow and
out-of-bounds indices have defined results, as in XLA), so no error can appear that the
loop would not have raised. Two kinds of op could trap or run forever, and are hoisted
only from a loop whose trip count is known (then at least 2): a nested ``while`` (it may
not terminate) and a ``custom_call`` (unknown code).

Copies of not-worth ops that the body no longer reads are erased; run ``cse`` after this
pass (a copy of a constant beside an equal one) and ``while-loop-simplifier`` (a carried
value the body no longer reads).
"""

from __future__ import annotations

import dataclasses
from typing import Iterable

import numpy as np
from iree.compiler import ir

from hlo_mlir.ir_access import string_attr
from pipelines.matchers import defining_op, element_dtype, has_side_effects, ops_where, producer, static_dims
from pipelines.pass_base import Pass
from pipelines.regions import clone_ops
from pipelines.registry import register
from pipelines.simplifiers.while_loop_constant_sinking import passed_through
from pipelines.simplifiers.while_loop_unroller import trip_count, while_ops

__all__ = ["WhileLoopInvariantCodeMotion", "free_values"]

# Not worth hoisting alone (XLA NotWorthHoistingIndividually): they grow live memory or
# feed fusion inside the body; copied out with an op that reads them.
_NOT_WORTH_ALONE = frozenset({
    "stablehlo.broadcast_in_dim", "stablehlo.broadcast", "stablehlo.dynamic_broadcast_in_dim",
    "stablehlo.iota", "stablehlo.dynamic_iota", "stablehlo.reverse", "stablehlo.slice",
    "stablehlo.transpose", "stablehlo.tuple",
})
_TOKENS = frozenset({"stablehlo.after_all", "stablehlo.create_token"})
# Custom calls that pin a loop's body as it is (XLA: SPMD shard shapes, host offloading).
_PINNING_TARGETS = frozenset({"SPMDFullToShardShape", "SPMDShardShapeToFull", "MoveToHost", "MoveToDevice"})
_DISABLE_ATTR = "_xla_disable_loop_instr_hoisting"
_FRONTEND_ATTRS = "mhlo.frontend_attributes"


def free_values(op) -> list[ir.Value]:
    """The values ``op`` reads that are defined outside it: its operands and what the ops
    nested in its regions capture, each once, in order of first use."""
    inside: set[ir.Value] = set()
    found: dict[ir.Value, None] = {}

    def visit(o):  # pre-order: a value is defined before any op nested in ``op`` reads it
        for v in o.operands:
            if v not in inside:
                found.setdefault(v, None)
        inside.update(o.results)
        for region in o.regions:
            for block in region.blocks:
                inside.update(block.arguments)
        return ir.WalkResult.ADVANCE

    op.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    return list(found)


def _custom_call_target(op) -> str | None:
    return string_attr(op, "call_target_name") if op.operation.name == "stablehlo.custom_call" else None


def _nested_names(op) -> set[str]:
    return {o.name for o in ops_where(op, lambda o: True)}


def _bytes(values: Iterable[ir.Value]) -> float:
    """Bytes of the tensors among ``values`` (inf for one of dynamic shape)."""
    total = 0.0
    for v in values:
        dtype, dims = element_dtype(v), static_dims(v)
        if dtype is None:
            continue
        total += float("inf") if dims is None else dtype.itemsize * float(np.prod(dims, dtype=np.float64))
    return total


def _disabled(op) -> bool:
    """Whether the frontend asked not to hoist from loop ``op``."""
    if _FRONTEND_ATTRS not in op.attributes:
        return False
    attrs = op.attributes[_FRONTEND_ATTRS]
    return isinstance(attrs, ir.DictAttr) and _DISABLE_ATTR in attrs


@register
@dataclasses.dataclass
class WhileLoopInvariantCodeMotion(Pass):
    """Hoist side-effect-free ops of a while body whose inputs are loop invariant before the loop."""

    name = "while-loop-invariant-code-motion"
    acts_on = frozenset({"stablehlo.while"})
    hoist_constants: bool = dataclasses.field(
        default=False, metadata={"help": "hoist constants on their own (not only with an op reading them)"})
    hoist_reshapes: bool = dataclasses.field(
        default=False, metadata={"help": "hoist reshapes on their own (not only with an op reading them)"})
    hoist_other: bool = dataclasses.field(
        default=True, metadata={"help": "hoist ops other than constants and reshapes"})
    hoist_size_inflation_ratio: float = dataclasses.field(
        default=0.0, metadata={"help": "keep ops whose results have more than this many times their "
                                       "operands' bytes in the body (0: no limit)"})

    def run(self, module: ir.Module) -> bool:
        changed = False
        for op in while_ops(module):  # inner loops first
            if self._may_hoist_from(op):
                changed |= _Hoister(self, op).run()
        return changed

    def _may_hoist_from(self, op) -> bool:
        """Whether the frontend and the body's custom calls let ops leave loop ``op``."""
        if _disabled(op):
            return False
        return not any(_custom_call_target(c) in _PINNING_TARGETS
                       for o in op.regions[1].blocks[0].operations
                       for c in ops_where(o, lambda x: x.name == "stablehlo.custom_call"))

    def worth_alone(self, op) -> bool:
        """Whether hoisting ``op`` pays off by itself (XLA NotWorthHoistingIndividually)."""
        name = op.operation.name
        if name == "stablehlo.constant":
            return self.hoist_constants
        if name == "stablehlo.reshape":
            return self.hoist_reshapes
        return name not in _NOT_WORTH_ALONE and _custom_call_target(op) != "Sharding"

    def inflates(self, op) -> bool:
        """Whether ``op``'s results exceed its operands by more than the allowed ratio."""
        if not self.hoist_size_inflation_ratio or op.operation.name == "stablehlo.constant":
            return False
        return _bytes(op.results) > _bytes(op.operands) * self.hoist_size_inflation_ratio


class _Hoister:
    """Hoists what can leave one loop; ``run`` returns whether anything did."""

    def __init__(self, owner: WhileLoopInvariantCodeMotion, op):
        self.owner, self.op = owner, op
        self.body = op.regions[1].blocks[0]
        self.ops = list(self.body.operations)[:-1]
        # values defined in the body at its top level: the only ones that can vary
        self.local: set[ir.Value] = set(self.body.arguments) | {r for o in self.ops for r in o.results}
        # body value -> the value before the loop equal to it
        self.outside: dict[ir.Value, ir.Value] = {
            self.body.arguments[i]: op.operands[i] for i in passed_through(op)
            if isinstance(op.operands[i].type, ir.RankedTensorType)}
        self.pending: dict[ir.Value, object] = {}  # results of invariant ops not worth hoisting alone
        self.copied: list = []  # those of them copied before the loop
        self.constant_exprs: set[ir.Value] = set()  # results of body ops computed from constants only

    def run(self) -> bool:
        trips = trip_count(self.op)
        if trips is not None and trips.count <= 1:
            return False
        runs = trips is not None  # the body runs (at least twice)
        hoisted = 0
        for o in self.ops:
            free = free_values(o)
            if not self.owner.hoist_constants and free and all(self._constant_expr(v) for v in free):
                # A constant expression is constant folding's (or IREE's) to fold, and
                # while-loop-constant-sinking moves constants into loops: hoisting it would
                # undo that. The pinned IREE also fails to compile a hoisted constant
                # expression beside a mutable global the loop updates (rng-expander's state).
                self.constant_exprs.update(o.results)
                continue
            if not self._candidate(o, runs) or not all(self._invariant(v) for v in free):
                continue
            if self.owner.inflates(o):
                continue
            if not self.owner.worth_alone(o):
                self.pending.update(dict.fromkeys(o.results, o))
                continue
            self._hoist(o)
            hoisted += 1
        for o in reversed(self.copied):  # the body's own copies nothing reads any more
            if all(next(iter(r.uses), None) is None for r in o.results):
                o.operation.erase()
        if hoisted:
            self.owner.record("hoisted", hoisted)
        if self.copied:
            self.owner.record("copied-with-reader", len(self.copied))
        return bool(hoisted)

    def _candidate(self, o, runs: bool) -> bool:
        owner = self.owner
        if o.operation.name in _TOKENS or has_side_effects([o]):
            return False
        if not owner.hoist_other and o.operation.name not in ("stablehlo.constant", "stablehlo.reshape"):
            return False
        if not runs and _nested_names(o) & {"stablehlo.while", "stablehlo.custom_call"}:
            return False  # may not terminate, or may trap: only from a loop known to run
        return True

    def _constant_expr(self, v: ir.Value) -> bool:
        return producer(v, "stablehlo.constant") is not None or v in self.constant_exprs

    def _invariant(self, v: ir.Value) -> bool:
        if v not in self.local or v in self.outside or v in self.pending:
            return True
        return producer(v, "stablehlo.constant") is not None

    def _materialize(self, v: ir.Value) -> ir.Value:
        """The value before the loop equal to invariant body value ``v``, copying the
        not-worth op or constant that computes it there if needed."""
        if v not in self.local:
            return v
        if v not in self.outside:
            source = defining_op(v)
            self._copy_out(source)
            self.copied.append(source)
            self.pending.pop(v, None)
        return self.outside[v]

    def _copy_out(self, o) -> dict:
        """Clones top-level body op ``o`` before the loop, reading the outside equivalents of
        its free values; records its results' outside values; returns the clone mapping."""
        mapping = {v: self._materialize(v) for v in free_values(o) if v in self.local}
        with ir.InsertionPoint(self.op), self.op.location:
            clone_ops([o], mapping)
        for r in o.results:
            self.outside[r] = mapping[r]
        return mapping

    def _hoist(self, o) -> None:
        mapping = self._copy_out(o)
        for r in o.results:
            r.replace_all_uses_with(mapping[r])
            self.local.discard(r)
        o.operation.erase()
