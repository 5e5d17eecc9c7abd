"""trivial-collectives: collectives over one-replica groups are their operand.

When every replica group has one member, each replica only exchanges with itself: an
all-reduce reduces one value, an all-gather or reduce-scatter has one shard, an
all-to-all has one split. The pinned IREE fails to compile ``all_to_all`` with
``split_count = 1`` ("failed to legalize operation 'stablehlo.reshape'"), so these are
removed before IREE::

    %r = "stablehlo.all_to_all"(%x) {split_count = 1, replica_groups = dense<[[0], [1]]>, ...}
    %s = "stablehlo.all_reduce"(%x) ({add}) {replica_groups = dense<[[0], [1]]>}

become ``%x`` (the result types equal the operand types).

Conditions: ``all_to_all`` with ``split_count = 1``; ``all_reduce``, ``all_gather`` and
``reduce_scatter`` whose ``replica_groups`` are non-empty and all of size 1 (an empty
attribute means all replicas). ``collective_permute`` is never trivial (a replica that is
no target receives zeros).
"""

from __future__ import annotations

from typing import Sequence

from iree.compiler import ir

from dialect_ops.collectives import replica_groups_of
from pipelines.pass_base import ExpanderPass
from pipelines.registry import register

__all__ = ["TrivialCollectives"]

_GROUPED = ("stablehlo.all_reduce", "stablehlo.all_gather", "stablehlo.reduce_scatter")


@register
class TrivialCollectives(ExpanderPass):
    """Replaces collectives over one-replica groups with their operands."""

    name = "trivial-collectives"
    legalizes_for_iree = True

    def matches(self, op) -> bool:
        name = op.operation.name
        if name == "stablehlo.all_to_all":
            return ir.IntegerAttr(op.attributes["split_count"]).value == 1
        if name in _GROUPED:
            groups = replica_groups_of(op)
            return bool(groups) and all(len(g) == 1 for g in groups)
        return False

    def expand(self, op) -> Sequence[ir.Value]:
        return list(op.operands)
