"""While loop simplification (spec 004: While loop simplifier; XLA ``while_loop_simplifier.cc``).

Three rewrites of ``stablehlo.while``, using the exact trip counts of
:func:`pipelines.simplifiers.while_loop_unroller.trip_count` (an induction variable with
a constant init, a constant step and a ``compare`` against a constant bound, or a
constant condition):

- trip count 0: the loop is replaced by its operands (the condition, which the analysis
  only accepts free of side effects, is all that would run);
- trip count 1: the loop is replaced by one copy of its body, side effects included;
- dead loop-carried values: a value whose ``while`` result is unused, which the condition
  does not read, and which the body reads only to compute itself (or other dead values)
  is dropped from the operands, results, block arguments and return, with the body ops
  that only served it. Body ops with side effects, and what they read, always stay::

    %r:2 = stablehlo.while(%i = %c0, %a = %x)             // %r#1 unused
      cond { ...LT, %i, %n... }
      do { %i1 = add %i, %c1; %a1 = multiply %a, %a; return %i1, %a1 }

  becomes a loop carrying ``%i`` alone.

The constants and ops the rewrites leave unused are dead code: run ``dce`` after it (and
``algsimp``/``constant-folding`` to simplify an inlined body).
"""

from __future__ import annotations

from iree.compiler import ir

from hlo_mlir import _emit
from pipelines.matchers import has_side_effects, has_uses
from pipelines.pass_base import Pass
from pipelines.registry import register
from pipelines.simplifiers.while_loop_unroller import trip_count, unroll_fully, while_ops

__all__ = ["WhileLoopSimplifier", "remove_dead_carried_values"]


@register
class WhileLoopSimplifier(Pass):
    """Remove while loops that run 0 or 1 times and loop-carried values nothing reads."""

    name = "while-loop-simplifier"
    acts_on = frozenset({"stablehlo.while"})

    def run(self, module: ir.Module) -> bool:
        changed = False
        for op in while_ops(module):
            trips = trip_count(op)
            if trips is not None and trips.count <= 1:
                unroll_fully(op, trips)
                self.record(f"trip-count-{trips.count}")
                changed = True
                continue
            removed = remove_dead_carried_values(op)
            if removed:
                self.record("dead-carried-values", removed)
                changed = True
        return changed


def _reads(op) -> list[ir.Value]:
    """Every value ``op`` or an op nested in it reads."""
    out: list[ir.Value] = []

    def visit(o):
        out.extend(o.operands)
        return ir.WalkResult.ADVANCE

    op.operation.walk(visit)
    return out


def _live_carried_values(op) -> tuple[list[bool], list[bool]]:
    """(live loop-carried values, live top-level body ops) of ``stablehlo.while`` ``op``.

    Live: a value whose result is used or that the condition reads; what a live value's
    next value is computed from; what the body's side-effecting ops read.
    """
    cond, body = op.regions[0].blocks[0], op.regions[1].blocks[0]
    ops = list(body.operations)[:-1]
    results = list(list(body.operations)[-1].operands)
    argument = {a: i for i, a in enumerate(body.arguments)}
    defined_by = {r: n for n, o in enumerate(ops) for r in o.results}
    live = [has_uses(r) or has_uses(a) for r, a in zip(op.results, cond.arguments, strict=True)]
    live_ops = [False] * len(ops)
    work = [results[i] for i, alive in enumerate(live) if alive]
    for n, o in enumerate(ops):
        if has_side_effects([o]):
            live_ops[n] = True
            work.extend(_reads(o))
    while work:
        value = work.pop()
        if value in argument:
            i = argument[value]
            if not live[i]:
                live[i] = True
                work.append(results[i])
        elif value in defined_by and not live_ops[defined_by[value]]:
            live_ops[defined_by[value]] = True
            work.extend(_reads(ops[defined_by[value]]))
    return live, live_ops


def remove_dead_carried_values(op) -> int:
    """Rebuilds ``op`` without its dead loop-carried values; returns how many it dropped."""
    live, live_ops = _live_carried_values(op)
    keep = [i for i, alive in enumerate(live) if alive]
    if len(keep) == len(live) or not keep:
        return 0  # nothing to drop, or nothing left (dce removes an unused effect-free loop)
    cond, body = op.regions[0].blocks[0], op.regions[1].blocks[0]
    ops = list(body.operations)
    with ir.InsertionPoint(ops[-1]), ops[-1].location:
        _emit.region_return([ops[-1].operands[i] for i in keep])
    ops[-1].operation.erase()
    for o, alive in reversed(list(zip(ops[:-1], live_ops, strict=True))):
        if not alive:
            o.operation.erase()
    types = [op.operands[i].type for i in keep]
    with ir.InsertionPoint(op), op.location:
        new, blocks = _emit.create_with_region("stablehlo.while", [op.operands[i] for i in keep], types,
                                               None, [types, types])
    for name in list(op.attributes):  # discardable ones, such as the unroller's mark
        new.attributes[name] = op.attributes[name]
    for old_block, new_block in zip((cond, body), blocks, strict=True):
        for j, i in enumerate(keep):
            old_block.arguments[i].replace_all_uses_with(new_block.arguments[j])
        ip = ir.InsertionPoint(new_block)
        for o in list(old_block.operations):
            ip.insert(o.operation.detach_from_parent())
    for j, i in enumerate(keep):
        op.results[i].replace_all_uses_with(new.results[j])
    op.operation.erase()
    return len(live) - len(keep)
