"""All reduce simplifier (spec 004: All reduce simplifier; XLA ``all_reduce_simplifier.cc``).

Two rewrites, XLA's:

1. A collective whose every process group has one member exchanges nothing: an
   ``all_reduce`` over such groups, and an ``all_gather`` or ``reduce_scatter`` whose result
   type is its operand's (one-member groups, or an empty gathered dimension), is its
   operand (rules ``single-process-group`` and ``same-shape``)::

       %r = "stablehlo.all_reduce"(%x) ({add}) {replica_groups = dense<[[0], [1]]>}   ->  %x

   The groups are the spec's (``trivial-collectives`` reads them the same way and is the
   IREE legalization of this rule; this pass is the catalogue's, for any pipeline).

2. An ``all_reduce`` without a channel (cross-replica) whose operand is the same on every
   member of each group (a *replicated* value, found by the replication analysis below)
   is computed locally (rules ``replicated-sum`` and ``replicated-idempotent``)::

       %c = stablehlo.constant dense<2.5> : tensor<4xf32>          // the same everywhere
       %r = "stablehlo.all_reduce"(%c) ({add}) {replica_groups = dense<[[0, 1, 2]]>}
     ->
       %r = stablehlo.multiply %c, broadcast(3.0)

   ``maximum``, ``minimum``, ``and``, ``or`` (and ``add`` on PRED, which is ``or``) of n
   copies of ``x`` is ``x``.

Exactness: the sum of n copies of an integer is ``x * n`` in modular arithmetic, for
every n. For floats XLA multiplies for every n; here only for groups of at most 4
members: ``x + x`` is exactly ``2x``, and for n = 3 and 4 every order of additions the
all-reduce may use gives the correctly rounded ``n * x`` (checked exhaustively for f16
and bf16, and on 2M random f32; from 5 members on, some orders round differently), so
``x * n`` is one of the answers the all-reduce itself could give. Complex sums are not
rewritten (``(inf + 0i) * n`` gives a NaN imaginary part that the sum does not).

Replication analysis (XLA's ``HloReplicationAnalysis`` for replicas): for every value,
the classes of replica ids known to hold equal values. Constants, iota,
``partition_id`` and arguments marked ``mhlo.is_same_data_across_replicas`` are the
same on every replica; ``replica_id`` differs; an op of replicated operands (its
regions free of collectives, ids, ``rng`` and custom calls, captured values included)
is replicated on the classes its operands share; ``all_reduce`` and ``all_gather`` give
equal results within each process group (on every replica when the operand is
replicated); any other value (block arguments, other collectives, calls) is assumed to
differ. The analysis needs the replica count: ``mhlo.num_replicas``.

Conditions: (1) groups known to have one member (an unknown count keeps the op);
(2) ``all_reduce`` without a channel handle, groups all of one size, a reducer that is
one of the ops above applied to its two arguments, every operand replicated within every
group.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from iree.compiler import ir

from dialect_ops import op_facts
from dialect_ops.elementwise import binary
from hlo_mlir import _emit, ir_access
from hlo_mlir.errors import InvalidArgumentError
from pipelines.matchers import element_dtype, known_dtype, xla_arrays
from pipelines.pass_base import Pass
from pipelines.process_groups import (
    CROSS_REPLICA,
    grid_of,
    group_sizes,
    process_groups,
    strategy_of,
)
from pipelines.registry import register
from pipelines.values import full

__all__ = ["AllReduceSimplifier", "ReplicationAnalysis", "collective_reducer", "same_data_arguments"]

_GATHERS = ("stablehlo.all_gather", "stablehlo.reduce_scatter")
_IDEMPOTENT = ("stablehlo.maximum", "stablehlo.minimum", "stablehlo.and", "stablehlo.or")
_MAX_FLOAT_GROUP = 4  # groups up to this size: every order of a float sum of n copies gives round(n * x)
# Ops whose results may differ between replicas whatever their operands are.
_UNREPLICATED = frozenset({
    "stablehlo.replica_id", "stablehlo.rng", "stablehlo.custom_call", "stablehlo.infeed", "stablehlo.recv",
    "stablehlo.all_reduce", "stablehlo.all_gather", "stablehlo.reduce_scatter", "stablehlo.all_to_all",
    "stablehlo.collective_permute", "stablehlo.collective_broadcast", "func.call"})
_SAME_DATA = "mhlo.is_same_data_across_replicas"

Labels = tuple[int, ...]  # per replica id: the class of replicas known to hold the same value


def collective_reducer(op) -> str | None:
    """The commutative element-wise op (``"stablehlo.add"``) that the reducer region of
    collective ``op`` applies to its two arguments and returns, or None for any other reducer."""
    block = op.regions[0].blocks[0]
    ops = list(block.operations)
    if len(ops) != 2 or list(ops[1].operands) != list(ops[0].results):
        return None
    operands = list(ops[0].operands)
    if len(operands) != 2 or set(operands) != set(block.arguments) or len(block.arguments) != 2:
        return None
    facts = op_facts.facts_of(ops[0].operation.name)
    return facts.op if facts is not None and facts.commutative else None


def same_data_arguments(func_op) -> list[int]:
    """The indices of ``func_op``'s arguments marked ``mhlo.is_same_data_across_replicas``."""
    if "arg_attrs" not in func_op.attributes:
        return []
    marked = []
    for i, attr in enumerate(ir.ArrayAttr(func_op.attributes["arg_attrs"])):
        d = ir.DictAttr(attr)
        if _SAME_DATA in d and ir.BoolAttr(d[_SAME_DATA]).value:
            marked.append(i)
    return marked


def _canonical(labels) -> Labels:
    """``labels`` renumbered in order of first appearance (equal partitions compare equal)."""
    names: dict = {}
    return tuple(names.setdefault(x, len(names)) for x in labels)


def _meet(n: int, parts: list[Labels]) -> Labels:
    """The classes every one of ``parts`` agrees on (replicated on all: one class)."""
    return _canonical(zip(*parts, strict=True)) if parts else (0,) * n


class ReplicationAnalysis:
    """Which replicas hold equal values, for every value of a module (module docstring)."""

    def __init__(self, module: ir.Module, num_replicas: int, num_partitions: int | None):
        self.n, self.p = num_replicas, num_partitions
        self.labels: dict[ir.Value, Labels] = {}
        entry = ir_access.entry_function(module)
        if entry is not None:
            self._arguments(entry)
        module.operation.walk(self._visit, ir.WalkOrder.POST_ORDER)

    def of(self, value: ir.Value) -> Labels:
        """The classes of ``value`` (every replica its own class when nothing is known)."""
        return self.labels.get(value, tuple(range(self.n)))

    def replicated_within(self, value: ir.Value, groups: list[list[int]]) -> bool:
        """Whether ``value`` is the same on every member of each of ``groups`` (replica ids)."""
        labels = self.of(value)
        return all(len({labels[r] for r in g}) == 1 for g in groups)

    def _arguments(self, entry) -> None:
        arguments = entry.regions[0].blocks[0].arguments
        for i in same_data_arguments(entry):
            self.labels[arguments[i]] = (0,) * self.n

    def _visit(self, op):
        name = op.name
        if name in ("func.func", "builtin.module") or not op.results:
            return ir.WalkResult.ADVANCE
        labels = self._result_labels(op)
        if labels is not None:
            for r in op.results:
                self.labels[r] = labels
        return ir.WalkResult.ADVANCE

    def _result_labels(self, op) -> Labels | None:
        name = op.name
        if name in ("stablehlo.all_reduce", "stablehlo.all_gather"):
            groups = self._replica_classes(op)
            if groups is None or sorted(r for g in groups for r in g) != list(range(self.n)):
                return None
            if all(self.of(v) == (0,) * self.n for v in op.operands) and len({len(g) for g in groups}) == 1:
                return (0,) * self.n
            return _canonical(next(k for k, g in enumerate(groups) if r in g) for r in range(self.n))
        if name in _UNREPLICATED:
            return None
        inputs = list(op.operands)
        if op.regions:
            captured = self._captured(op)
            if captured is None:
                return None
            inputs += captured
        return _meet(self.n, [self.of(v) for v in inputs])

    def _replica_classes(self, op) -> list[list[int]] | None:
        """The op's process groups as classes of replica ids, or None when not known."""
        n, p = self.n, self.p
        if strategy_of(op) == CROSS_REPLICA:
            return ir_access.replica_groups(op) or [list(range(n))]
        if p is None:
            return None
        # Replicas r and r' of one partition are together when their processes share a group.
        try:
            group_of = {k: i for i, g in enumerate(process_groups(op, n, p)) for k in g}
        except InvalidArgumentError:
            return None  # not a partition of the process ids
        per_partition = [tuple(group_of[r * p + q] for r in range(n)) for q in range(p)]
        labels = _canonical(zip(*per_partition, strict=True))
        return [[r for r in range(n) if labels[r] == c] for c in sorted(set(labels))]

    @staticmethod
    def _captured(op) -> list[ir.Value] | None:
        """Values defined outside ``op`` that its regions read, or None when a nested op
        may differ between replicas whatever it reads."""
        inside: set = set()
        reads: list[ir.Value] = []
        unreplicated = False

        def visit(o):
            nonlocal unreplicated
            if o.name in _UNREPLICATED:
                unreplicated = True
                return ir.WalkResult.INTERRUPT
            for region in o.regions:
                for block in region.blocks:
                    inside.update(block.arguments)
            inside.update(o.results)
            reads.extend(o.operands)
            return ir.WalkResult.ADVANCE

        for region in op.regions:
            for block in region.blocks:
                inside.update(block.arguments)
                for inner in block.operations:
                    inner.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
        if unreplicated:
            return None
        return [v for v in reads if v not in inside]


@register
class AllReduceSimplifier(Pass):
    """Replace collectives over one-process groups and all-reduces of replicated values with local values."""

    name = "all-reduce-simplifier"

    def run(self, module: ir.Module) -> bool:
        grid = grid_of(module)
        changed = False
        with module.context:
            for op in _ops(module, ("stablehlo.all_reduce", *_GATHERS)):
                rule = _single_process_rule(op, grid)
                if rule is not None:
                    self._replace(op, list(op.operands), rule)
                    changed = True
            n = grid[0]
            if n is None:
                return changed
            analysis = ReplicationAnalysis(module, n, grid[1])
            plans = [(op, rule) for op in _ops(module, ("stablehlo.all_reduce",))
                     if (rule := _replicated_rule(op, analysis)) is not None]
            for op, rule in plans:
                with ir.InsertionPoint(op), op.location:
                    values = _local_values(op, rule, analysis)
                self._replace(op, values, rule)
                changed = True
        return changed

    def _replace(self, op, values: Sequence[ir.Value], rule: str) -> None:
        for old, new in zip(op.results, values, strict=True):
            old.replace_all_uses_with(new)
        op.operation.erase()
        self.record(rule)


def _ops(module: ir.Module, names: tuple[str, ...]) -> list:
    found = []

    def visit(o):
        if o.name in names:
            found.append(o.opview)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, ir.WalkOrder.POST_ORDER)
    return found


def _single_process_rule(op, grid) -> str | None:
    if op.name in _GATHERS and [v.type for v in op.operands] == [v.type for v in op.results]:
        return "same-shape"
    if op.name == "stablehlo.all_reduce" and group_sizes(op, *grid) == {1}:
        return "single-process-group"
    return None


def _replicated_rule(op, analysis: ReplicationAnalysis) -> str | None:
    """``replicated-sum``, ``replicated-idempotent`` or None (module docstring, conditions)."""
    if strategy_of(op) != CROSS_REPLICA or not xla_arrays([*op.operands, *op.results]):
        return None
    groups = ir_access.replica_groups(op) or [list(range(analysis.n))]
    sizes = {len(g) for g in groups}
    if len(sizes) != 1 or sorted(r for g in groups for r in g) != list(range(analysis.n)):
        return None
    if not all(analysis.replicated_within(v, groups) for v in op.operands):
        return None
    reducer, size = collective_reducer(op), sizes.pop()
    kinds = {op_facts.type_class(known_dtype(v)) for v in op.operands}
    if reducer in _IDEMPOTENT or (reducer == "stablehlo.add" and kinds == {op_facts.PRED}):
        return "replicated-idempotent"
    if reducer != "stablehlo.add" or op_facts.PRED in kinds or op_facts.COMPLEX in kinds:
        return None
    if op_facts.FLOAT in kinds and size > _MAX_FLOAT_GROUP:
        return None
    return "replicated-sum"


def _local_values(op, rule: str, analysis: ReplicationAnalysis) -> list[ir.Value]:
    if rule == "replicated-idempotent":
        return list(op.operands)
    size = len((ir_access.replica_groups(op) or [list(range(analysis.n))])[0])
    out = []
    for v in op.operands:
        factor = full(np.asarray(size).astype(element_dtype(v)), _emit.shape_of(v))
        out.append(binary("Mul", v, factor))
    return out
