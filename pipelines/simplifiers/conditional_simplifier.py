"""Conditional simplification (spec 004: Conditional simplifier; XLA ``conditional_simplifier.cc``).

Rewrites of ``stablehlo.if`` and ``stablehlo.case`` (XLA's kConditional; StableHLO's
branches are regions that capture what they read, so XLA's rewrite of unused branch
operands has nothing to do here):

- a constant predicate or index, or a ``case`` of one branch: the conditional becomes the
  ops of the branch that runs, inlined before it. A ``pred`` true runs the first region; an
  index outside ``[0, N)`` runs the last branch (StableHLO ``case``, XLA Conditional)::

    %c = stablehlo.constant dense<7> : tensor<i32>
    %r = "stablehlo.case"(%c) ({ return %a }, { %b = exp %x; return %b })   // -> %r = exp %x

- duplicate results: two results that every branch returns as the same value become one
  (the later one's uses read the earlier one);
- captured results: a result that every branch returns as the same value defined outside
  the conditional is that value;
- unused results: dropped from the op and from every branch's ``return`` (the ops that
  computed them stay for ``dce``); a conditional left with no result is erased when no
  branch has side effects.

Refused, as XLA refuses: inlining a conditional whose branches have side effects (a
``custom_call`` with ``has_side_effect``, infeed/outfeed/send/recv, collectives, ``rng``,
calls). Its unused and duplicate results are still dropped; the effects stay.

XLA's simplifier also turns two-way conditionals of cheap element-wise branches into a
``select``; here that is :mod:`pipelines.simplifiers.conditional_to_select`. Run ``dce``
after this pass (an inlined branch's dead ops, and the constants the predicates were) and
``algsimp``/``constant-folding`` to simplify the inlined code.
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from hlo_mlir import _emit
from pipelines.matchers import has_side_effects, has_uses, ops_where, splat_of
from pipelines.pass_base import Pass
from pipelines.registry import register

__all__ = ["ConditionalSimplifier", "CONDITIONALS", "conditional_ops", "taken_branch", "inline_branch",
           "branch_results"]

CONDITIONALS = ("stablehlo.if", "stablehlo.case")
# Sweeps until nothing changes: a branch's return trimmed in one sweep can leave a
# conditional nested in that branch with an unused result for the next.
_MAX_SWEEPS = 8


@register
class ConditionalSimplifier(Pass):
    """Inline conditionals with a constant predicate; drop unused, duplicate and captured results."""

    name = "conditional-simplifier"
    acts_on = frozenset({"stablehlo.if", "stablehlo.case"})

    def run(self, module: ir.Module) -> bool:
        changed = False
        for _ in range(_MAX_SWEEPS):
            if not self._sweep(module):
                break
            changed = True
        return changed

    def _sweep(self, module: ir.Module) -> bool:
        changed = False
        for op in _users_first(module):
            with module.context, op.location:
                branch = None if _has_effects(op) else taken_branch(op)
                if branch is not None:
                    rule = "constant-predicate" if len(op.regions) > 1 else "single-branch"
                    _replace(op, inline_branch(op, branch))
                    self.record(rule)
                    changed = True
                    continue
                changed |= self._simplify_results(op)
        return changed

    def _simplify_results(self, op) -> bool:
        """Forwards captured results, merges duplicates, then drops unused results (or the
        whole op, when nothing is used and no branch has side effects) of conditional ``op``;
        returns whether anything changed."""
        returned = branch_results(op)
        merged = forwarded = 0
        first: dict[tuple, int] = {}
        for i, result in enumerate(op.results):
            values = tuple(returned[i])
            if not has_uses(result):
                continue
            if all(v == values[0] for v in values) and not _defined_in(values[0], op):
                result.replace_all_uses_with(values[0])  # capture-forward: every branch returns it
                forwarded += 1
            elif values in first:
                result.replace_all_uses_with(op.results[first[values]])
                merged += 1
            else:
                first[values] = i
        if forwarded:
            self.record("captured-result", forwarded)
        if merged:
            self.record("duplicate-result", merged)
        keep = [i for i, r in enumerate(op.results) if has_uses(r)]
        if keep or _has_effects(op):
            if len(keep) == len(op.results):
                return bool(forwarded or merged)
            self.record("unused-result", len(op.results) - len(keep))
            _keep_results(op, keep)
            return True
        op.operation.erase()
        self.record("unused-conditional")
        return True


def conditional_ops(root) -> list:
    """Every ``stablehlo.if``/``stablehlo.case`` under ``root`` (a module or an op, itself
    included), inner ones before the ones holding them."""
    return [op.opview for op in ops_where(root, lambda op: op.name in CONDITIONALS)]


def _users_first(root) -> list:
    """The conditionals under ``root``, nested ones before the op holding them (inlining or
    erasing that op moves or erases them) and later ones in a block before earlier ones (a
    later one drops its unused results before the results it read are looked at)."""
    found: list = []
    for region in root.operation.regions:
        for block in region.blocks:
            for op in reversed(list(block.operations)):
                found += _users_first(op)
                if op.operation.name in CONDITIONALS:
                    found.append(op.operation.opview)
    return found


def taken_branch(op) -> int | None:
    """The region that conditional ``op`` runs when that is known before running it: the one
    branch of a one-branch ``case``, or the one a constant predicate/index selects (an
    index outside ``[0, N)`` selects the last); None otherwise."""
    count = len(op.regions)
    if count == 1:
        return 0
    splat = splat_of(op.operands[0])
    if splat is None:
        return None
    if op.name == "stablehlo.if":
        return 0 if bool(splat) else 1
    index = int(splat)
    return index if 0 <= index < count else count - 1


def branch_results(op) -> list[list[ir.Value]]:
    """``[result][branch]``: the value each branch's ``return`` gives for each result."""
    returns = [list(region.blocks[0].operations)[-1].operands for region in op.regions]
    return [[list(r)[i] for r in returns] for i in range(len(op.results))]


def inline_branch(op, index: int) -> list[ir.Value]:
    """Moves the ops of region ``index`` of conditional ``op`` before ``op``; returns the values
    its ``return`` gave (``op`` stays, its other regions untouched, its ``index`` region left
    with only the ``return``)."""
    *ops, terminator = _region_ops(op, index)
    for o in ops:
        o.operation.move_before(op.operation)
    return list(terminator.operands)


def _region_ops(op, index: int) -> list:
    return list(op.regions[index].blocks[0].operations)


def _replace(op, values: Sequence[ir.Value]) -> None:
    for old, new in zip(op.results, values, strict=True):
        old.replace_all_uses_with(new)
    op.operation.erase()


def _has_effects(op) -> bool:
    return any(has_side_effects(region.blocks[0].operations) for region in op.regions)


def _defined_in(value: ir.Value, op) -> bool:
    """Whether ``value`` is defined inside a region of ``op``."""
    owner = value.owner
    parent = owner.owner if isinstance(owner, ir.Block) else owner
    target = op.operation
    while parent is not None:
        if parent.operation == target:
            return True
        parent = parent.operation.parent
    return False


def _keep_results(op, keep: list[int]) -> None:
    """Rebuilds conditional ``op`` with only its results ``keep`` (each branch's ``return``
    trimmed to match), moving its branches' ops into the new op."""
    with ir.InsertionPoint(op):
        new, blocks = _emit.create_with_region(op.name, list(op.operands), [op.results[i].type for i in keep],
                                               None, [[] for _ in op.regions])
    for name in list(op.attributes):
        new.attributes[name] = op.attributes[name]
    for index, block in enumerate(blocks):
        *ops, terminator = _region_ops(op, index)
        ip = ir.InsertionPoint(block)
        for o in ops:
            ip.insert(o.operation.detach_from_parent())
        with ip, terminator.location:
            _emit.region_return([terminator.operands[i] for i in keep])
    for j, i in enumerate(keep):
        op.results[i].replace_all_uses_with(new.results[j])
    op.operation.erase()
