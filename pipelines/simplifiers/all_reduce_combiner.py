"""All reduce combiner (spec 004: All reduce combiner; XLA ``all_reduce_combiner.cc``).

Independent ``all_reduce`` ops of one block that reduce with the same op over the same
process groups become one variadic ``all_reduce``, placed right after the last op that
defines one of their operands (a collective has a fixed cost per call, so one call of
many operands is cheaper)::

    %a = "stablehlo.all_reduce"(%x) ({add}) {replica_groups = G} : (tensor<4xf32>) -> tensor<4xf32>
    %b = "stablehlo.all_reduce"(%y) ({add}) {replica_groups = G} : (tensor<2x3xf32>) -> tensor<2x3xf32>

becomes::

    %r:2 = "stablehlo.all_reduce"(%x, %y) ({add}) {replica_groups = G}

Each operand is reduced on its own, as before, so the numbers are the same bit for bit.

Conditions (XLA's combine key): every operand of the element type of the reducer's
arguments; a reducer that is one element-wise op of its two arguments (the same op for
all); the same ``replica_groups``, ``use_global_device_ids``, channel or none (the
handle's value is not compared: the combined op keeps the first one's) and every other
attribute equal; in one block; every operand of the set is defined (its op, or the op
holding it, in the block) before the first op that reads a result of the set, so none
depends on another and every read stays after the combined op; at most
``threshold-count`` operands and ``threshold-bytes`` bytes per combined op (XLA's GPU
defaults). Ops are gathered greedily in block order: a set closes when the next
candidate of its key does not fit; the scan restarts after each combination (a
combined op may combine again).

The pinned IREE crashes on a variadic ``all_reduce``: ``all-reduce-split`` (in
``iree-legalize``, which ``hlo_mlir.compile`` runs) splits it again before IREE. This
pass is for pipelines whose output is read or run elsewhere (XLA runs the combined form).
"""

from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir

from hlo_mlir import _emit
from hlo_mlir.ir_access import attribute_dict, channel_handle
from pipelines.matchers import known_dims, known_dtype, static_dims, xla_arrays
from pipelines.pass_base import Pass
from pipelines.regions import copy_of
from pipelines.registry import register
from pipelines.simplifiers.all_reduce_simplifier import collective_reducer

__all__ = ["AllReduceCombiner"]


@register
@dataclasses.dataclass
class AllReduceCombiner(Pass):
    """Combine independent all_reduce ops of one reducer and one set of groups into a variadic all_reduce."""

    name = "all-reduce-combiner"
    threshold_bytes: int = dataclasses.field(
        default=30 * 1024 * 1024, metadata={"help": "most bytes of operands in one combined all_reduce"})
    threshold_count: int = dataclasses.field(
        default=256, metadata={"help": "most operands in one combined all_reduce"})

    def run(self, module: ir.Module) -> bool:
        blocks: dict = {}

        def visit(o):
            if o.name == "stablehlo.all_reduce" and _key(o.opview) is not None:
                blocks.setdefault(o.block, None)
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
        changed = False
        with module.context:
            for block in blocks:
                while (found := self._next_set(block)) is not None:
                    members, anchor = found
                    _combine(members, anchor)
                    self.record("combined", len(members))
                    changed = True
        return changed

    def _next_set(self, block: ir.Block) -> tuple[list, ir.Operation] | None:
        """The first set of two or more all_reduce ops of ``block`` to combine, in block
        order, and the op to put the combined one before; None when there is none."""
        ops = [o.operation for o in block.operations]
        position = {o: i for i, o in enumerate(ops)}
        open_sets: dict = {}  # key -> _Set
        for op in ops:
            key = _key(op.opview) if op.name == "stablehlo.all_reduce" else None
            if key is None:
                continue
            member = _Set([op], _bytes(op), len(op.operands), _last_definition(op, block, position),
                          _first_read(op, block, position))
            current = open_sets.get(key)
            if current is not None and self._fits(current, member):
                current.add(member)
                continue
            if current is not None and len(current.members) > 1:
                return current.members, ops[current.last_definition + 1]
            open_sets[key] = member
        for current in open_sets.values():
            if len(current.members) > 1:
                return current.members, ops[current.last_definition + 1]
        return None

    def _fits(self, current: "_Set", member: "_Set") -> bool:
        (op,) = member.members
        if any(isinstance(v.owner, (ir.Operation, ir.OpView)) and v.owner.operation in current.members
               for v in op.operands):
            return False  # reads a member directly (through other ops: the positions below)
        last_definition = max(current.last_definition, member.last_definition)
        return (last_definition < min(current.first_read, member.first_read)
                and current.size + member.size <= self.threshold_bytes
                and current.count + member.count <= self.threshold_count)


@dataclasses.dataclass
class _Set:
    """All-reduce ops to combine: their bytes and operands, the position of the last op
    defining one of their operands and of the first op reading one of their results."""

    members: list
    size: int
    count: int
    last_definition: int
    first_read: float

    def add(self, other: "_Set") -> None:
        self.members += other.members
        self.size += other.size
        self.count += other.count
        self.last_definition = max(self.last_definition, other.last_definition)
        self.first_read = min(self.first_read, other.first_read)


def _key(op) -> tuple | None:
    """What must be equal for two all_reduce ops to combine, or None if ``op`` never does."""
    reducer = collective_reducer(op)
    values = [*op.operands, *op.results]
    if reducer is None or not xla_arrays(values) or any(static_dims(v) is None for v in values):
        return None
    scalar = op.regions[0].blocks[0].arguments[0].type
    if any(ir.RankedTensorType(v.type).element_type != ir.RankedTensorType(scalar).element_type
           for v in op.operands):
        return None
    handle = channel_handle(op)
    others = frozenset((k, v) for k, v in attribute_dict(op).items() if k != "channel_handle")
    return reducer, scalar, handle is not None and handle.handle > 0, others


def _bytes(op) -> int:
    """The bytes of ``op``'s operands (static XLA arrays: ``_key(op)`` is not None)."""
    return sum(math.prod(known_dims(v)) * known_dtype(v).itemsize for v in op.operands)


def _ancestor_in(op: ir.Operation, block: ir.Block) -> ir.Operation | None:
    """``op`` or the op holding it that lies in ``block`` (None when none does)."""
    while op is not None and op.block != block:
        parent = op.parent
        op = parent.operation if parent is not None else None
    return op


def _first_read(op, block: ir.Block, position: dict) -> float:
    """The position in ``block`` of the first op that reads a result of ``op`` (an op
    reading it inside a region counts at the position of its ancestor in ``block``)."""
    return min((position[_ancestor_in(use.owner.operation, block)] for r in op.results for use in r.uses),
               default=math.inf)


def _last_definition(op, block: ir.Block, position: dict) -> int:
    """The position in ``block`` of the last op defining an operand of ``op`` (-1 when all
    are defined before the block's ops: arguments, values of enclosing blocks)."""
    last = -1
    for v in op.operands:
        owner = v.owner
        if isinstance(owner, (ir.Operation, ir.OpView)):
            ancestor = _ancestor_in(owner.operation, block)
            if ancestor is not None:
                last = max(last, position[ancestor])
    return last


def _combine(members: list, anchor: ir.Operation) -> None:
    """Replaces ``members`` with one all_reduce of all their operands, before ``anchor``."""
    first = members[0]
    reducer = first.regions[0].blocks[0]
    operands = [v for m in members for v in m.operands]
    results = [r for m in members for r in m.results]
    with ir.InsertionPoint(anchor), first.location:
        combined, (block,) = _emit.create_with_region(
            "stablehlo.all_reduce", operands, [r.type for r in results], attribute_dict(first),
            [[a.type for a in reducer.arguments]])
        copy_of(reducer)(block)
    for old, new in zip(results, combined.results, strict=True):
        old.replace_all_uses_with(new)
    for m in members:
        m.operation.erase()
